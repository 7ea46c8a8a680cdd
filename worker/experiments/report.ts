// An experiment's report from its cell records: per variant, the counts the cells give directly (plausible@1,
// #plausible, statuses, cost, calls — each over the cells attempted, errors counted as not plausible:
// report-denominators.ts), then the papers' metrics (worker/experiments/metrics/) and the statistics
// (worker/experiments/statistics/), which come in through the ReportAnalyses seam (analysis-seam.ts; analyses.ts builds both); a
// section left out says so instead of showing numbers.
import type { CellRecord, ExperimentRecord, ExperimentSpec } from '../contracts/experiment.ts';
import type { AnalysisInput, ExperimentMetrics, ReportAnalyses } from './analysis-seam.ts';
import { cellTable, correctnessTable, csvTable, disagreementTable, labelsTable, markdownTable, metricsMarkdown, plausibilityTable, statisticsMarkdown, summaryTable, table5, type Table } from './report-tables.ts';
import { CELL_STATUSES, DENOMINATOR_RULE, errorCells, variantDenominators, variantRows, variantTable, type VariantRow } from './report-denominators.ts';
import type { StatisticsTable } from './report-statistics.ts';
import { modelName } from './plan.ts';

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
    variants: variantRows(spec, cells, experiment.bugs.length),
    metrics: await section('metrics'),
    statistics: await section('statistics'),
    cells: [...cells].sort((a, b) => a.index - b.index),
  };
}

const metricsOf = (r: ExperimentReport) => (r.metrics.computed ? (r.metrics.result as ExperimentMetrics) : undefined);
const statisticsOf = (r: ExperimentReport) => (r.statistics.computed ? (r.statistics.result as StatisticsTable) : undefined);

/** The tables `--csv --table <name>` prints: one row per variant (default), per cell, per (variant, category), or the statistics. */
export const CSV_TABLES = ['variants', 'cells', 'summary', 'correctness', 'labels', 'disagreements', 'plausibility', 'correct-tests', 'table5'] as const;
export type CsvTable = (typeof CSV_TABLES)[number];

export function reportCsv(report: ExperimentReport, table: CsvTable = 'variants'): string {
  const need = <T,>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`--table ${table}: the ${what} were not computed for this report.`);
    return v;
  };
  const tables: Record<CsvTable, () => Table> = {
    variants: () => variantTable(report.variants),
    cells: () => cellTable(report.cells, metricsOf(report)),
    summary: () => summaryTable(need(metricsOf(report), 'metrics')),
    correctness: () => correctnessTable(need(metricsOf(report), 'metrics')),
    labels: () => labelsTable(need(metricsOf(report), 'metrics')),
    disagreements: () => disagreementTable(need(metricsOf(report), 'metrics')),
    plausibility: () => plausibilityTable(need(statisticsOf(report), 'statistics')),
    'correct-tests': () => plausibilityTable(need(statisticsOf(report), 'statistics'), 'correctness'),
    table5: () => table5(need(statisticsOf(report), 'statistics')),
  };
  return csvTable(tables[table]());
}

/** The cells in an infrastructure error as a table: which variant, bug and sample, and the error. */
export function errorCellTable(cells: readonly CellRecord[]): Table {
  return {
    columns: ['index', 'variant', 'bug', 'sample', 'attempts', 'error'],
    rows: errorCells(cells).map((c) => [c.index, c.variant, c.bugId, c.sample + 1, c.attempts.length + 1, c.reason || null]),
  };
}

const retryHint = (id: string) => `Run them again: \`repairlab experiment retry ${id}\` (or Retry in the Experiments tab).`;

export function reportMarkdown(report: ExperimentReport): string {
  const e = report.experiment;
  const errors = errorCells(report.cells);
  const lines = [
    `# Experiment ${e.name ? `${e.name} (${e.id})` : e.id}`,
    '',
    `${e.status}${e.stopReason ? ` — ${e.stopReason}` : ''} · model ${e.model} · ${e.bugs} bugs × ${e.variants} variants × ${e.samples} samples = ${e.cells} cells`,
    '',
    markdownTable(variantTable(report.variants)),
    '',
    DENOMINATOR_RULE,
    '',
    ...report.variants.map((r) => `- **${r.variant}**: ${variantDenominators(r).join(' · ')}`),
    '',
    ...(errors.length ? [`## Cells in error (${errors.length})`, '', markdownTable(errorCellTable(report.cells)), '', retryHint(e.id), ''] : []),
    report.metrics.computed ? metricsMarkdown(metricsOf(report)!) : `Metrics: ${report.metrics.note}`,
    '',
    report.statistics.computed ? statisticsMarkdown(statisticsOf(report)!) : `Statistics: ${report.statistics.note}`,
  ];
  return lines.join('\n') + '\n';
}

export function reportText(report: ExperimentReport): string {
  const e = report.experiment;
  const errors = errorCells(report.cells);
  const rows = report.variants.map(
    (r: VariantRow) =>
      `${r.variant.padEnd(20)} ${variantDenominators(r).join(' · ')}  ` +
      `${CELL_STATUSES.filter((s) => s !== 'plausible' && r.statuses[s]).map((s) => `${s} ${r.statuses[s]}`).join(', ') || '—'}  ` +
      `cost ${r.costUsd === null ? 'unknown' : `$${r.costUsd.toFixed(4)}`}  calls ${r.calls}`,
  );
  const errorLines = errors.length
    ? [`${errors.length} cell${errors.length === 1 ? '' : 's'} in error (counted as not plausible):`, ...errors.map((c) => `  ${c.variant} · ${c.bugId} · sample ${c.sample + 1}: ${c.reason}`), `  ${retryHint(e.id)}`]
    : [];
  return [`experiment ${e.id}${e.name ? ` (${e.name})` : ''}: ${e.status}${e.stopReason ? ` — ${e.stopReason}` : ''}; ${e.cells} cells, model ${e.model}`, ...rows, ...errorLines, ...metricsLines(report), ...statisticsLines(report)].join('\n');
}

function metricsLines(report: ExperimentReport): string[] {
  const m = metricsOf(report);
  if (!m) return [`metrics: ${report.metrics.computed ? '' : report.metrics.note}`];
  const at = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(3));
  const k = m.ks[m.ks.length - 1]!;
  return m.summary
    .filter((s) => s.category === 'all')
    .map(
      (s) =>
        `${s.variant.padEnd(20)} #pass ${s.pass} of ${s.bugs} bug${s.bugs === 1 ? '' : 's'}  #unique ${s.uniquePass}  plausible@${k} ${at(s.plausibleAtK[k])}  valid@${k} ${at(s.validAtK[k])}  exact ${s.exactMatchBugs}  AST ${s.astMatchBugs}` +
        `  #correct ${s.correctBugs}  correct@1 ${at(s.correctAt1)}  correct@${k} ${at(s.correctAtK[k])}  unlabelled ${s.unlabelledPatches}` +
        `${s.samplesInError ? `  (${s.samplesInError} sample${s.samplesInError === 1 ? '' : 's'} in error counted as not plausible)` : ''}`,
    )
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
