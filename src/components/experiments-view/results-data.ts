// The results of an experiment as tables and chart series, from the engine's report (worker/experiments/report.ts)
// and its cell records. Every chart is drawn from one of these tables, and the same table is shown and exported as CSV.
import type { CellRecord } from '../../../worker/contracts/experiment.ts';
import type { ExperimentReport } from '../../../worker/experiments/report.ts';
import { meanPassAtK } from '../../../worker/experiments/metrics/pass-at-k.ts';
import type { BarGroup } from '../charts/bar-chart.ts';
import type { BoxRow } from '../charts/distribution-chart.ts';
import type { HeatBlock } from '../charts/heatmap.ts';
import type { FixedSet } from '../charts/set-charts.ts';
import type { Series } from '../charts/xy-charts.ts';

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

// ---- The engine's chart tables (worker/experiments/analyses.ts `chartTables`) as the SVG charts' inputs: only a
// change of shape, no numbers computed here.

/** Columns k, variant…: one series per variant over k. */
export function curveSeries(table: Table): Series[] {
  const [, ...variants] = table.columns;
  return variants.map((name, i) => ({ name, points: table.rows.map((r) => ({ x: Number(r[0]), y: typeof r[i + 1] === 'number' ? (r[i + 1] as number) : null })) }));
}

/** Columns variant, n, min, q1, median, q3, max, mean; variants without values are left out of the drawing. */
export function boxRows(table: Table, values: Record<string, number[]>): BoxRow[] {
  return table.rows
    .filter((r) => Number(r[1]) > 0)
    .map((r) => {
      const [name, , min, q1, median, q3, max] = r as [string, number, number, number, number, number, number];
      return { name, min, q1, median, q3, max, values: values[name] ?? [] };
    });
}

/** Columns label, variant…: one bar group per row. */
export function barGroups(table: Table): BarGroup[] {
  return table.rows.map((r) => ({ label: String(r[0]), values: r.slice(1).map(Number) }));
}

/** The smells table (variant, runs, <smell> runs…, <smell> occurrences…): per smell, the runs with it per variant. */
export function smellGroups(table: Table): { series: string[]; groups: BarGroup[] } {
  const smells = table.columns.filter((c) => c.endsWith(' runs'));
  return {
    series: table.rows.map((r) => String(r[0])),
    groups: smells.map((c) => ({ label: c.replace(/ runs$/, ''), values: table.rows.map((r) => Number(r[table.columns.indexOf(c)])) })),
  };
}

/** Columns variant, command, step 1…: one block per variant. */
export function heatBlocks(table: Table): { blocks: HeatBlock[]; steps: number } {
  const blocks: HeatBlock[] = [];
  for (const r of table.rows) {
    const variant = String(r[0]);
    let block = blocks.find((b) => b.variant === variant);
    if (!block) blocks.push((block = { variant, rows: [] }));
    block.rows.push({ command: String(r[1]), counts: r.slice(2).map(Number) });
  }
  return { blocks, steps: table.columns.length - 2 };
}

/** Columns variants, <variant> yes/no…, bugs, bug ids. */
export function fixedSets(table: Table, variants: readonly string[]): FixedSet[] {
  return table.rows.map((r) => ({ members: variants.filter((_, i) => r[i + 1] === 'yes'), bugs: Number(r[variants.length + 1]) }));
}
