// Every chart of an experiment's results, once: its table (what it draws, shown beside it and exported as CSV), its
// drawing (worker/experiments/charts/, plain SVG data) and the note that says what it counts. The Experiments tab shows
// these (rl-chart) and the HTML report writes the same list, so the report carries every chart the app draws, with the
// same numbers. The numbers are the report's (`buildReport`) and the engine's chart tables (`chartTables`); here they
// are only laid out.
import type { CellRecord } from '../contracts/experiment.ts';
import type { ChartTables } from './analyses.ts';
import type { ExperimentReport } from './report.ts';
import type { Table } from './report-tables.ts';
import { isAttempted } from './report-denominators.ts';
import { meanPassAtK } from './metrics/pass-at-k.ts';
import { groupedBars, type BarGroup } from './charts/bar-chart.ts';
import { boxChart, type BoxRow } from './charts/distribution-chart.ts';
import { heatmap, type HeatBlock } from './charts/heatmap.ts';
import { upset, venn, type FixedSet } from './charts/set-charts.ts';
import { lineChart, scatterChart, type Series } from './charts/xy-charts.ts';
import type { ChartSvg } from './charts/svg-tree.ts';

export interface ReportChart {
  /** names the test ids (`chart-<name>`, `table-<name>`) and the exported files */
  name: string;
  heading: string;
  /** what the chart counts, and over what */
  note: string;
  table: Table;
  draw: () => ChartSvg;
  /** how it is drawn when there is a choice (fixed-sets: venn or upset) */
  kind?: string;
}

interface SummaryLike {
  variant: string;
  category: string;
  bugs: number;
  plausibleAtK: Record<string, number | null>;
  samplesInError?: number;
}

/** The report's metrics per variant and category, when the report carries them (`metrics.result.summary`). */
function summaryOf(report: ExperimentReport): SummaryLike[] | undefined {
  if (!report.metrics.computed) return undefined;
  const summary = (report.metrics.result as { summary?: unknown } | null)?.summary;
  return Array.isArray(summary) ? (summary as SummaryLike[]) : undefined;
}

/**
 * plausible@k per variant: the report's (metrics summary, category "all") when it carries them, else the unbiased
 * estimator over the cells attempted of each bug (an infrastructure error counts as a sample that is not plausible, as
 * in plausible@1; not-run and running cells are left out) for k = 1 … samples.
 */
export function plausibleAtK(report: ExperimentReport, cells: readonly CellRecord[] = report.cells): { table: Table; source: 'report' | 'cells' } {
  const summary = summaryOf(report)?.filter((s) => s.category === 'all');
  if (summary?.length) {
    const ks = [...new Set(summary.flatMap((s) => Object.keys(s.plausibleAtK)))].sort((a, b) => Number(a) - Number(b));
    return { source: 'report', table: { columns: ['k', ...summary.map((s) => s.variant)], rows: ks.map((k) => [Number(k), ...summary.map((s) => s.plausibleAtK[k] ?? null)]) } };
  }
  const variants = report.variants.map((v) => v.variant);
  const attempted = cells.filter(isAttempted);
  const problems = variants.map((v) => {
    const byBug = new Map<string, { n: number; c: number }>();
    for (const c of attempted.filter((x) => x.variant === v)) {
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
  const points = report.variants.map((v) => ({ variant: v.variant, cost: byCalls ? v.calls : v.costUsd!, success: v.bugsFixed, of: v.bugsAttempted }));
  const frontier = paretoFrontier(points).map((i) => points[i]!.variant);
  return {
    costAxis,
    frontier,
    table: { columns: ['variant', costAxis, 'bugs fixed', 'bugs attempted', 'on the Pareto frontier'], rows: points.map((p) => [p.variant, p.cost, p.success, p.of, frontier.includes(p.variant) ? 'yes' : 'no']) },
  };
}

// ---- tables → the drawings' inputs: only a change of shape, no numbers computed here.

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

/** The denominators of plausible@k, in words: the bugs of each variant and the samples in error among them. */
function atKDenominators(report: ExperimentReport, source: 'report' | 'cells'): string {
  if (source === 'report') {
    const all = (summaryOf(report) ?? []).filter((s) => s.category === 'all');
    const errors = all.reduce((n, s) => n + (s.samplesInError ?? 0), 0);
    return `Mean over each variant's bugs attempted (${all.map((s) => `${s.variant}: ${s.bugs}`).join(', ')})${errors ? `; ${errors} sample${errors === 1 ? '' : 's'} in an infrastructure error count as not plausible` : ''}.`;
  }
  const errors = report.variants.reduce((n, v) => n + v.statuses['infrastructure-error'], 0);
  return `The unbiased pass@k estimator over each variant's cells attempted (the report carries no plausible@k)${errors ? `; ${errors} cell${errors === 1 ? '' : 's'} in an infrastructure error count as not plausible` : ''}; not-run cells are left out.`;
}

/**
 * The charts of the results, in the order the page shows them: plausible@k and cost vs success from the report, then
 * — when the report carries its metrics — the seven drawn from the engine's chart tables.
 */
export function reportCharts(report: ExperimentReport, charts: ChartTables | undefined, cells: readonly CellRecord[] = report.cells): ReportChart[] {
  const atK = plausibleAtK(report, cells);
  const scatter = costVsSuccess(report);
  const out: ReportChart[] = [
    {
      name: 'plausible-at-k',
      heading: 'plausible@k',
      note: `${atKDenominators(report, atK.source)} k on a linear axis: each point sits at its k.`,
      table: atK.table,
      draw: () => lineChart(curveSeries(atK.table), 'k (samples drawn)', 'plausible@k'),
    },
    {
      name: 'cost-vs-success',
      heading: 'Cost vs success',
      note: `Bugs with at least one plausible sample (of the bugs attempted) against the variant's ${scatter.costAxis === 'model calls' ? 'model calls (a cost is unknown: the model has no price)' : 'total cost'}; the dashed line joins the variants no other is both cheaper and better than (the Pareto frontier).`,
      table: scatter.table,
      draw: () => scatterChart(scatter.table.rows.map((row) => ({ name: String(row[0]), x: Number(row[1]), y: Number(row[2]) })), scatter.frontier, scatter.costAxis, 'bugs fixed'),
    },
  ];
  if (!charts) return out;
  const c = charts;
  const sets = fixedSets(c.fixedSets, c.variants);
  const smells = smellGroups(c.smells);
  const heat = heatBlocks(c.commandsByStep);
  const vennFits = c.variants.length <= 3;
  out.push(
    {
      name: 'valid-at-k',
      heading: 'valid@k',
      note: "Valid: plausible and the same syntax tree as the developers' fix (docs/metrics.md); a sample in an infrastructure error is not valid; a bug with a sample of unknown validity is left out.",
      table: c.validAtK,
      draw: () => lineChart(curveSeries(c.validAtK), 'k (samples drawn)', 'valid@k'),
    },
    {
      name: 'fixed-sets',
      kind: vennFits ? 'venn' : 'upset',
      heading: vennFits ? 'Bugs fixed, by variant (Venn)' : 'Bugs fixed, by set of variants (UpSet)',
      note: 'A bug is fixed by a variant with at least one plausible sample (a cell in error never fixes it); each row of the table is one exact set of variants.',
      table: c.fixedSets,
      draw: () => (vennFits ? venn(c.variants, sets) : upset(c.variants, sets)),
    },
    {
      name: 'cost-distribution',
      heading: 'Cost per run (USD)',
      note: 'Box: quartiles and median; whiskers: min and max; dots: the runs that ended with a verdict (unpriced runs and cells in error left out).',
      table: c.costDistribution,
      draw: () => boxChart(boxRows(c.costDistribution, c.costValues), 'cost per run (USD)'),
    },
    {
      name: 'step-distribution',
      heading: 'Steps per run',
      note: 'Box: quartiles and median; whiskers: min and max; dots: the runs that ended with a verdict.',
      table: c.stepDistribution,
      draw: () => boxChart(boxRows(c.stepDistribution, c.stepValues), 'steps per run'),
    },
    {
      name: 'tool-calls',
      heading: 'Tool use per variant',
      note: "Calls per tool (for bash, per program), as RepairAgent's Fig. 10.",
      table: c.toolUse,
      draw: () => groupedBars(c.variants, barGroups(c.toolUse), 'calls'),
    },
    {
      name: 'smell-counts',
      heading: 'Trajectory smells',
      note: "Runs with each of Passerine's smells; the table also counts every occurrence.",
      table: c.smells,
      draw: () => groupedBars(smells.series, smells.groups, 'runs with the smell'),
    },
    {
      name: 'commands-by-step',
      heading: 'Command by step',
      note: "How many runs issued each command at each step, as Passerine's Fig. 8 (darker: more).",
      table: c.commandsByStep,
      draw: () => heatmap(heat.blocks, heat.steps),
    },
  );
  return out;
}
