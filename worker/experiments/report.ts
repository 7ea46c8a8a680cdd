// An experiment's report from its cell records: per variant, the counts the cells give directly (plausible@1,
// #plausible, statuses, cost, calls), then the papers' metrics (worker/experiments/metrics/) and the statistics
// (worker/experiments/statistics/), which come in through the ReportAnalyses seam (analysis-seam.ts; analyses.ts builds both); a
// section left out says so instead of showing numbers.
import type { CellRecord, CellStatus, ExperimentRecord, ExperimentSpec } from '../contracts/experiment.ts';
import type { AnalysisInput, ExperimentMetrics, ReportAnalyses } from './analysis-seam.ts';
import { addCost } from './cell-verdict.ts';
import { cellTable, csvTable, metricsMarkdown, plausibilityTable, statisticsMarkdown, summaryTable, table5, type Table } from './report-tables.ts';
import type { StatisticsTable } from './report-statistics.ts';
import { modelName } from './plan.ts';

export const CELL_STATUSES: readonly CellStatus[] = ['plausible', 'not-plausible', 'budget', 'infrastructure-error', 'not-run'];

export interface VariantRow {
  variant: string;
  preset: string;
  presetVariants: string[];
  cells: number;
  /** share of plausible cells among the first samples that ran (infrastructure errors and not-run cells left out); null: none ran */
  plausibleAt1: number | null;
  /** first samples that count for plausibleAt1 */
  firstSamples: number;
  /** cells with a plausible patch (every sample) */
  plausible: number;
  /** bugs with at least one plausible sample */
  bugsFixed: number;
  statuses: Record<CellStatus, number>;
  /** every run's cost, failed attempts included (null: a model without a price) */
  costUsd: number | null;
  calls: number;
}

/** What the metrics and statistics modules get: the experiment, its cells, and its runs by id (read on demand). */
export type { AnalysisInput, ReportAnalyses };

export type AnalysisSection = { computed: true; result: unknown } | { computed: false; note: string };

export interface ExperimentReport {
  experiment: { id: string; name?: string; status: ExperimentRecord['status']; stopReason?: string; createdAt: string; model: string; bugs: number; variants: number; samples: number; cells: number };
  variants: VariantRow[];
  metrics: AnalysisSection;
  statistics: AnalysisSection;
  /** every cell record, in order (the per-cell CSV reads them) */
  cells: CellRecord[];
}

export function variantRows(spec: ExperimentSpec, cells: readonly CellRecord[]): VariantRow[] {
  return spec.variants.map((v) => {
    const mine = cells.filter((c) => c.variant === v.name);
    const statuses = Object.fromEntries(CELL_STATUSES.map((s) => [s, mine.filter((c) => c.status === s).length])) as Record<CellStatus, number>;
    const first = mine.filter((c) => c.sample === 0 && c.status !== 'not-run' && c.status !== 'infrastructure-error' && c.status !== 'running');
    let cost: number | null = 0;
    for (const c of mine) cost = addCost(cost, c.costUsd);
    return {
      variant: v.name,
      preset: v.preset,
      presetVariants: v.variants,
      cells: mine.length,
      plausibleAt1: first.length ? first.filter((c) => c.status === 'plausible').length / first.length : null,
      firstSamples: first.length,
      plausible: statuses.plausible,
      bugsFixed: new Set(mine.filter((c) => c.status === 'plausible').map((c) => c.bugId)).size,
      statuses,
      costUsd: cost,
      calls: mine.reduce((n, c) => n + c.calls, 0),
    };
  });
}

const NOT_PLUGGED = (what: string) => `not computed: worker/experiments/${what}/ is not plugged into the report yet (ReportAnalyses.${what}, worker/experiments/report.ts)`;

export async function buildReport(experiment: ExperimentRecord, spec: ExperimentSpec, cells: CellRecord[], trajectory: AnalysisInput['trajectory'], analyses: ReportAnalyses = {}): Promise<ExperimentReport> {
  const input: AnalysisInput = { experiment, spec, cells, trajectory };
  const section = async (what: 'metrics' | 'statistics'): Promise<AnalysisSection> => {
    const analyse = analyses[what];
    return analyse ? { computed: true, result: await analyse(input) } : { computed: false, note: NOT_PLUGGED(what) };
  };
  return {
    experiment: {
      id: experiment.id,
      ...(spec.name ? { name: spec.name } : {}),
      status: experiment.status,
      ...(experiment.stopReason ? { stopReason: experiment.stopReason } : {}),
      createdAt: experiment.createdAt,
      model: modelName(spec),
      bugs: experiment.bugs.length,
      variants: spec.variants.length,
      samples: spec.samples,
      cells: experiment.cells,
    },
    variants: variantRows(spec, cells),
    metrics: await section('metrics'),
    statistics: await section('statistics'),
    cells: [...cells].sort((a, b) => a.index - b.index),
  };
}

const COLUMNS = ['variant', 'preset', 'cells', 'plausible@1', 'first_samples', 'plausible', 'bugs_fixed', ...CELL_STATUSES, 'cost_usd', 'calls'] as const;

function rowValues(r: VariantRow): (string | number)[] {
  return [r.variant, [r.preset, ...r.presetVariants].join('+'), r.cells, r.plausibleAt1 === null ? '' : r.plausibleAt1, r.firstSamples, r.plausible, r.bugsFixed, ...CELL_STATUSES.map((s) => r.statuses[s]), r.costUsd === null ? '' : r.costUsd, r.calls];
}

const metricsOf = (r: ExperimentReport) => (r.metrics.computed ? (r.metrics.result as ExperimentMetrics) : undefined);
const statisticsOf = (r: ExperimentReport) => (r.statistics.computed ? (r.statistics.result as StatisticsTable) : undefined);

/** The tables `--csv --table <name>` prints: one row per variant (default), per cell, per (variant, category), or the statistics. */
export const CSV_TABLES = ['variants', 'cells', 'summary', 'plausibility', 'table5'] as const;
export type CsvTable = (typeof CSV_TABLES)[number];

export function reportCsv(report: ExperimentReport, table: CsvTable = 'variants'): string {
  const need = <T,>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`--table ${table}: the ${what} were not computed for this report.`);
    return v;
  };
  const tables: Record<CsvTable, () => Table> = {
    variants: () => ({ columns: [...COLUMNS], rows: report.variants.map((r) => rowValues(r).map((v) => (v === '' ? null : v))) }),
    cells: () => cellTable(report.cells, metricsOf(report)),
    summary: () => summaryTable(need(metricsOf(report), 'metrics')),
    plausibility: () => plausibilityTable(need(statisticsOf(report), 'statistics')),
    table5: () => table5(need(statisticsOf(report), 'statistics')),
  };
  return csvTable(tables[table]());
}

export function reportMarkdown(report: ExperimentReport): string {
  const e = report.experiment;
  const fmt = (v: string | number) => (typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(4) : String(v));
  const lines = [
    `# Experiment ${e.name ? `${e.name} (${e.id})` : e.id}`,
    '',
    `${e.status}${e.stopReason ? ` — ${e.stopReason}` : ''} · model ${e.model} · ${e.bugs} bugs × ${e.variants} variants × ${e.samples} samples = ${e.cells} cells`,
    '',
    `| ${COLUMNS.join(' | ')} |`,
    `|${COLUMNS.map(() => '---').join('|')}|`,
    ...report.variants.map((r) => `| ${rowValues(r).map((v) => (v === '' ? '—' : fmt(v))).join(' | ')} |`),
    '',
    report.metrics.computed ? metricsMarkdown(metricsOf(report)!) : `Metrics: ${report.metrics.note}`,
    '',
    report.statistics.computed ? statisticsMarkdown(statisticsOf(report)!) : `Statistics: ${report.statistics.note}`,
  ];
  return lines.join('\n') + '\n';
}

export function reportText(report: ExperimentReport): string {
  const e = report.experiment;
  const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
  const rows = report.variants.map(
    (r) =>
      `${r.variant.padEnd(20)} plausible@1 ${pct(r.plausibleAt1).padStart(6)}  #plausible ${String(r.plausible).padStart(3)}/${r.cells}  ` +
      `${CELL_STATUSES.filter((s) => s !== 'plausible' && r.statuses[s]).map((s) => `${s} ${r.statuses[s]}`).join(', ') || '—'}  ` +
      `cost ${r.costUsd === null ? 'unknown' : `$${r.costUsd.toFixed(4)}`}  calls ${r.calls}`,
  );
  return [`experiment ${e.id}${e.name ? ` (${e.name})` : ''}: ${e.status}${e.stopReason ? ` — ${e.stopReason}` : ''}; ${e.cells} cells, model ${e.model}`, ...rows, ...metricsLines(report), ...statisticsLines(report)].join('\n');
}

function metricsLines(report: ExperimentReport): string[] {
  const m = metricsOf(report);
  if (!m) return [`metrics: ${report.metrics.computed ? '' : report.metrics.note}`];
  const at = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(3));
  const k = m.ks[m.ks.length - 1]!;
  return m.summary
    .filter((s) => s.category === 'all')
    .map((s) => `${s.variant.padEnd(20)} #pass ${s.pass}  #unique ${s.uniquePass}  plausible@${k} ${at(s.plausibleAtK[k])}  valid@${k} ${at(s.validAtK[k])}  exact ${s.exactMatchBugs}  AST ${s.astMatchBugs}`)
    .concat(['(per category, smells, tool use: --md or --json)']);
}

function statisticsLines(report: ExperimentReport): string[] {
  const s = statisticsOf(report);
  if (!s) return [`statistics: ${report.statistics.computed ? '' : report.statistics.note}`];
  const all = s.plausibility.find((r) => r.category === 'all');
  return [`plausibility (${all?.test ?? '—'}, all bugs): ${all?.reading ?? 'not computed'}`, '(pairwise tests, Table 5 on steps and cost: --md or --json)'];
}

/** SWE-bench-style predictions, one per cell that ran: model_name_or_path names the model, variant and sample. */
export async function predictions(experiment: ExperimentRecord, spec: ExperimentSpec, cells: CellRecord[], trajectory: AnalysisInput['trajectory']): Promise<{ instance_id: string; model_name_or_path: string; model_patch: string }[]> {
  const out = [];
  for (const c of [...cells].sort((a, b) => a.index - b.index)) {
    if (!c.runId || c.status === 'not-run' || c.status === 'running') continue;
    const t = await trajectory(c.runId);
    out.push({ instance_id: c.bugId, model_name_or_path: `${modelName(spec)}/${experiment.id}/${c.variant}/sample-${c.sample}`, model_patch: t?.outcome?.finalPatch ?? '' });
  }
  return out;
}
