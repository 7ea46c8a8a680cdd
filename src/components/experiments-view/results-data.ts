// The results of an experiment as tables and chart series, from the engine's report (worker/experiments/report.ts)
// and its cell records. Every chart is drawn from one of these tables, and the same table is shown and exported as CSV.
import type { CellRecord } from '../../../worker/contracts/experiment.ts';
import type { ExperimentReport } from '../../../worker/engine-api.ts';
import { meanPassAtK } from '../../../worker/experiments/metrics/pass-at-k.ts';

/** as the engine's report tables (worker/experiments/report-tables.ts) give them */
export type Cell = string | number | boolean | null | undefined;
export interface Table {
  columns: string[];
  rows: Cell[][];
}

const STATUSES = ['plausible', 'not-plausible', 'budget', 'infrastructure-error', 'not-run'] as const;

/** The report's per-variant rows, number for number. */
export function variantTable(report: ExperimentReport): Table {
  return {
    columns: ['variant', 'preset', 'cells', 'plausible@1', 'first samples', 'plausible', 'bugs fixed', ...STATUSES.map((s) => `status: ${s}`), 'cost (USD)', 'calls'],
    rows: report.variants.map((r) => [r.variant, [r.preset, ...r.presetVariants].join('+'), r.cells, r.plausibleAt1, r.firstSamples, r.plausible, r.bugsFixed, ...STATUSES.map((s) => r.statuses[s]), r.costUsd, r.calls]),
  };
}

interface SummaryLike {
  variant: string;
  category: string;
  bugs: number;
  trajectories: number;
  pass: number;
  uniquePass: number;
  plausibleAt1: number | null;
  plausibleAtK: Record<string, number | null>;
  validAtK?: Record<string, number | null>;
  exactMatchBugs?: number;
  astMatchBugs?: number;
  costUsd?: { all: { mean: number | null } };
  tokens?: { all: { mean: number | null } };
  steps?: { all: { mean: number | null } };
}

/** The report's metrics per variant and category, when the report carries them (`metrics.result.summary`). */
function summaryOf(report: ExperimentReport): SummaryLike[] | undefined {
  if (!report.metrics.computed) return undefined;
  const summary = (report.metrics.result as { summary?: unknown } | null)?.summary;
  return Array.isArray(summary) ? (summary as SummaryLike[]) : undefined;
}

/**
 * plausible@k for k = 1 … samples, per variant: the report's (metrics summary, category "all") when it carries them,
 * else the unbiased estimator over the cells (the samples that ran of each bug; not-run and infrastructure errors left
 * out, as the report's plausible@1 does).
 */
export function plausibleAtK(report: ExperimentReport, cells: readonly CellRecord[]): { table: Table; source: 'report' | 'cells' } {
  const summary = summaryOf(report)?.filter((s) => s.category === 'all');
  if (summary?.length) {
    const ks = [...new Set(summary.flatMap((s) => Object.keys(s.plausibleAtK)))].sort((a, b) => Number(a) - Number(b));
    return { source: 'report', table: { columns: ['k', ...summary.map((s) => s.variant)], rows: ks.map((k) => [Number(k), ...summary.map((s) => s.plausibleAtK[k] ?? null)]) } };
  }
  const variants = report.variants.map((v) => v.variant);
  const counted = cells.filter((c) => c.status !== 'not-run' && c.status !== 'infrastructure-error' && c.status !== 'running');
  const problems = variants.map((v) => {
    const byBug = new Map<string, { n: number; c: number }>();
    for (const c of counted.filter((x) => x.variant === v)) {
      const p = byBug.get(c.bugId) ?? { n: 0, c: 0 };
      p.n++;
      if (c.status === 'plausible') p.c++;
      byBug.set(c.bugId, p);
    }
    return [...byBug.values()];
  });
  const ks = Array.from({ length: report.experiment.samples }, (_, i) => i + 1);
  return { source: 'cells', table: { columns: ['k', ...variants], rows: ks.map((k) => [k, ...problems.map((p) => meanPassAtK(p, k).value)]) } };
}

/** Indices of the points no other point beats: none is cheaper-or-equal and more-or-equally successful, one strictly. */
export function paretoFrontier(points: readonly { cost: number; success: number }[]): number[] {
  return points
    .map((p, i) => ({ p, i }))
    .filter(({ p, i }) => !points.some((q, j) => j !== i && q.cost <= p.cost && q.success >= p.success && (q.cost < p.cost || q.success > p.success)))
    .sort((a, b) => a.p.cost - b.p.cost)
    .map(({ i }) => i);
}

/**
 * Cost against success per variant: bugs fixed (at least one plausible sample) against the variant's cost — in USD,
 * or in model calls when some cost is unknown (a model without a price).
 */
export function costVsSuccess(report: ExperimentReport): { table: Table; costAxis: 'cost (USD)' | 'model calls'; frontier: string[] } {
  const byCalls = report.variants.some((v) => v.costUsd === null);
  const costAxis = byCalls ? ('model calls' as const) : ('cost (USD)' as const);
  const points = report.variants.map((v) => ({ variant: v.variant, cost: byCalls ? v.calls : v.costUsd!, success: v.bugsFixed }));
  const frontier = paretoFrontier(points).map((i) => points[i]!.variant);
  return {
    costAxis,
    frontier,
    table: { columns: ['variant', costAxis, 'bugs fixed', 'on the Pareto frontier'], rows: points.map((p) => [p.variant, p.cost, p.success, frontier.includes(p.variant) ? 'yes' : 'no']) },
  };
}

/** RFC 4180 CSV (a field with a comma, quote or line break is quoted, its quotes doubled); null is an empty field. */
export function tableCsv(t: Table): string {
  const field = (v: Cell) => {
    if (v === null || v === undefined) return '';
    const text = String(v);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [t.columns, ...t.rows].map((r) => r.map(field).join(',')).join('\n') + '\n';
}

/** How a number reads in a table: shares and costs to 4 decimals, counts as they are, null as a dash. */
export function formatCell(v: Cell): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'number' && !Number.isInteger(v)) return v.toFixed(4);
  return String(v);
}
