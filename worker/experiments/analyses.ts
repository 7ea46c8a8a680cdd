// The report's two analyses (the ReportAnalyses seam: analysis-seam.ts): the papers' metrics over the experiment's counted
// runs (worker/experiments/metrics/), and the statistics table laid out as HAFixAgent's Table 5
// (worker/experiments/statistics/). Which cells count, and how the paired tables are formed, is documented in
// docs/formats/experiment.md ("Report").
import { mean, quantileSorted } from 'simple-statistics';
import type { BugCategory, BugSpec } from '../contracts/bug.ts';
import type { CellRecord } from '../contracts/experiment.ts';
import type { LabelSet, LabelValue } from '../contracts/patch-labels.ts';
import { agreement, resolvedLabels } from './label-agreement.ts';
import { computeMetrics, filesToRead, SMELLS, type BugMeta, type ErroredSample, type JavaSyntax, type MetricsReport, type RunInput } from './metrics/index.ts';
import type { AnalysisInput, Exclusions, ExperimentMetrics, LabelSummary, ReportAnalyses } from './analysis-seam.ts';
import { COUNTED_STATUSES, statisticsTable, type StatisticsTable } from './report-statistics.ts';

export const isCounted = (c: CellRecord): boolean => (COUNTED_STATUSES as readonly string[]).includes(c.status) && !!c.runId;

export type { Exclusions, ExperimentMetrics };

/** The bug's metadata the metrics need (category, ground truth, buggy text of the files the patches touch). */
export type BugMetaLoader = (bugId: string, finalPatches: readonly string[]) => Promise<BugMeta>;

/** Where a bug's spec and buggy tree come from: the engine's `workspaceFor` (browser and Node alike). */
export interface BugWorkspaces {
  workspaceFor(bugId: string): Promise<{ bug: BugSpec; workspace: { read(path: string): Promise<string> } }>;
}

/** Reads BugMeta from the bug's repository at its buggy commit. A file a patch adds has no buggy text and is skipped. */
export function bugMetaFromWorkspaces(source: BugWorkspaces): BugMetaLoader {
  return async (bugId, finalPatches) => {
    const { bug, workspace } = await source.workspaceFor(bugId);
    const truth = bug.groundTruth.patch;
    const buggyFiles: Record<string, string> = {};
    for (const path of filesToRead([...(truth ? [truth] : []), ...finalPatches], bug.layout.testDirs)) {
      try {
        buggyFiles[path] = await workspace.read(path);
      } catch {
        // not in the buggy tree: comparing a patch that edits it reports the gap (metrics' `null` match)
      }
    }
    return { id: bug.id, category: bug.category, ...(truth ? { groundTruthPatch: truth } : {}), buggyFiles, testDirs: bug.layout.testDirs };
  };
}

export interface AnalysisOptions {
  bugMeta: BugMetaLoader;
  /** tree-sitter Java for exact and AST match; without it AST match and valid@k stay null */
  syntax?: JavaSyntax;
  /** significance level of the statistics' plain readings (default 0.05) */
  alpha?: number;
  /** the stored patch labels (worker/records/patch-label-store.ts): plausible patches labelled correct count as correct */
  labels?: () => Promise<LabelSet>;
}

/** The seam's two functions; the statistics reuse the metrics' per-bug table, computed once per input. */
export function reportAnalyses(options: AnalysisOptions): ReportAnalyses {
  const computed = new WeakMap<AnalysisInput, Promise<{ metrics: ExperimentMetrics; categories: Map<string, BugCategory> }>>();
  const metricsOf = (input: AnalysisInput) => {
    let pending = computed.get(input);
    if (!pending) computed.set(input, (pending = experimentMetrics(input, options)));
    return pending;
  };
  return {
    metrics: async (input) => (await metricsOf(input)).metrics,
    statistics: async (input): Promise<StatisticsTable> => {
      const { metrics, categories } = await metricsOf(input);
      return statisticsTable({ variants: input.spec.variants.map((v) => v.name), cells: input.cells, categories, perBug: metrics.cells, excluded: metrics.excludedCells, alpha: options.alpha ?? 0.05, correctness: metrics.trajectories });
    },
  };
}

async function experimentMetrics(input: AnalysisInput, options: AnalysisOptions): Promise<{ metrics: ExperimentMetrics; categories: Map<string, BugCategory> }> {
  const excludedCells: Exclusions = { 'infrastructure-error': 0, 'not-run': 0, running: 0, 'missing-run': 0 };
  const runs: RunInput[] = [];
  const errored: ErroredSample[] = [];
  for (const c of [...input.cells].sort((a, b) => a.index - b.index)) {
    if (c.status === 'infrastructure-error') {
      // attempted and not a success: in the rates' denominators as not plausible, out of the per-run figures and the
      // paired tests (they compare the agent's verdicts, and this cell has none)
      excludedCells['infrastructure-error']++;
      errored.push({ variant: c.variant, bugId: c.bugId, sample: c.sample });
      continue;
    }
    if (!isCounted(c)) {
      if (c.status === 'not-run' || c.status === 'running') excludedCells[c.status]++;
      continue;
    }
    const trajectory = await input.trajectory(c.runId!);
    if (!trajectory) {
      excludedCells['missing-run']++;
      continue;
    }
    runs.push({ variant: c.variant, bugId: c.bugId, sample: c.sample, trajectory });
  }
  const bugs: BugMeta[] = [];
  for (const { id: bugId } of input.experiment.bugs) {
    const patches = runs.filter((r) => r.bugId === bugId).map((r) => r.trajectory.outcome?.finalPatch ?? '').filter(Boolean);
    bugs.push(await options.bugMeta(bugId, patches));
  }
  const samples = input.spec.samples;
  // plausible@k and valid@k for k = 1 and every k up to the samples per cell among 5 and 10 (and the samples themselves)
  const ks = [...new Set([1, ...[5, 10].filter((k) => k <= samples), samples])].sort((a, b) => a - b);
  const variants = input.spec.variants.map((v) => v.name);
  const named = new Set([...runs.map((r) => r.variant), ...errored.map((e) => e.variant)]);
  // the baseline is the spec's first variant, when it has anything to compare
  const baseline = named.has(variants[0]!) ? { baseline: variants[0]! } : {};
  const labelSet = (await options.labels?.()) ?? { raterLabels: [], resolved: [] };
  const labels: Record<string, Record<string, LabelValue>> = {};
  for (const [key, label] of resolvedLabels(labelSet)) {
    const [bugId, patchKey] = key.split('\u0000') as [string, string];
    (labels[bugId] ??= {})[patchKey] = label;
  }
  const report = computeMetrics({ runs, errored, variants, bugs, ks, labels, ...baseline }, options.syntax ? { syntax: options.syntax } : {});
  return { metrics: { ...report, excludedCells, labels: labelSummary(report, labelSet) }, categories: new Map(bugs.map((b) => [b.id, b.category])) };
}

/** The labels as the report carries them: agreement over this experiment's patches, and what still waits for review. */
function labelSummary(report: MetricsReport, set: LabelSet): LabelSummary {
  const mine = new Set(report.trajectories.filter((t) => t.patchKey).map((t) => JSON.stringify([t.bugId, t.patchKey])));
  const ofMine = <T extends { bugId: string; patchKey: string }>(xs: readonly T[]) => xs.filter((x) => mine.has(JSON.stringify([x.bugId, x.patchKey])));
  const scoped: LabelSet = { raterLabels: ofMine(set.raterLabels), resolved: ofMine(set.resolved) };
  const waiting = report.trajectories.filter((t) => t.unlabelled);
  const byLabel = report.trajectories.filter((t) => t.plausible && t.correctBy !== 'exact-match' && t.correctBy !== 'ast-match');
  return {
    ...scoped,
    agreement: agreement(scoped),
    plausiblePatches: new Set(report.trajectories.filter((t) => t.plausible).map((t) => JSON.stringify([t.bugId, t.patchKey]))).size,
    toReview: new Set(byLabel.map((t) => JSON.stringify([t.bugId, t.patchKey]))).size,
    unlabelledPatches: new Set(waiting.map((t) => JSON.stringify([t.bugId, t.patchKey]))).size,
    unlabelledRuns: waiting.length,
  };
}

// ---- Chart tables: the report's metrics laid out for the Experiments tab's charts (docs/metrics.md, "Charts"). Each
// table is what its chart draws and what its CSV holds, so the page only presents them.

/** One chart's numbers: header and rows, as the report's other tables. */
export interface ChartTable {
  columns: string[];
  rows: (string | number | null)[][];
}

export interface ChartTables {
  variants: string[];
  /** UpSet / Venn: one row per set of variants that fix exactly the same bugs (fix = at least one plausible sample) */
  fixedSets: ChartTable;
  /** valid@k of every k the report computed (category all) */
  validAtK: ChartTable;
  /** per variant: n, min, q1, median, q3, max, mean of the runs' cost (USD; unpriced runs left out) and steps */
  costDistribution: ChartTable;
  stepDistribution: ChartTable;
  /** each run's value, per variant (the strip drawn over the box) */
  costValues: Record<string, number[]>;
  stepValues: Record<string, number[]>;
  /** tool (bash: program) × variant: calls (RepairAgent Fig. 10) */
  toolUse: ChartTable;
  /** (variant, command) × step index (1 = the first step): how many runs issued the command at that step (Passerine Fig. 8) */
  commandsByStep: ChartTable;
  /** per variant and smell: runs with the smell, and occurrences over all runs (Passerine Table V as counts) */
  smells: ChartTable;
}

/** Quartiles by linear interpolation (simple-statistics quantileSorted: R type 7, numpy's default). */
function distributionRow(variant: string, values: number[]): (string | number | null)[] {
  if (!values.length) return [variant, 0, null, null, null, null, null, null];
  const sorted = [...values].sort((a, b) => a - b);
  const q = (p: number) => quantileSorted(sorted, p);
  return [variant, sorted.length, sorted[0]!, q(0.25), q(0.5), q(0.75), sorted[sorted.length - 1]!, mean(sorted)];
}

const DISTRIBUTION_COLUMNS = ['variant', 'n', 'min', 'q1', 'median', 'q3', 'max', 'mean'];

export function chartTables(metrics: MetricsReport): ChartTables {
  const variants = metrics.variants;
  const runsOf = (v: string) => metrics.trajectories.filter((t) => t.variant === v);

  // bug → the variants that fix it; a bug of the experiment that no variant fixes is the empty set
  const fixers = new Map<string, string[]>();
  for (const c of metrics.cells) {
    const set = fixers.get(c.bugId) ?? [];
    if (c.pass) set.push(c.variant);
    fixers.set(c.bugId, set);
  }
  const groups = new Map<string, { set: string[]; bugs: string[] }>();
  for (const [bug, set] of fixers) {
    const ordered = variants.filter((v) => set.includes(v));
    const key = JSON.stringify(ordered);
    const g = groups.get(key) ?? { set: ordered, bugs: [] };
    g.bugs.push(bug);
    groups.set(key, g);
  }
  const fixedSets: ChartTable = {
    columns: ['variants', ...variants, 'bugs', 'bug ids'],
    rows: [...groups.values()]
      .sort((a, b) => b.bugs.length - a.bugs.length || b.set.length - a.set.length || a.set.join(' ').localeCompare(b.set.join(' ')))
      .map((g) => [g.set.length ? g.set.join(' & ') : '(none)', ...variants.map((v) => (g.set.includes(v) ? 'yes' : 'no')), g.bugs.length, g.bugs.join(' ')]),
  };

  const all = metrics.summary.filter((s) => s.category === 'all');
  const validAtK: ChartTable = { columns: ['k', ...all.map((s) => s.variant)], rows: metrics.ks.map((k) => [k, ...all.map((s) => s.validAtK[k] ?? null)]) };

  const costValues = Object.fromEntries(variants.map((v) => [v, runsOf(v).flatMap((t) => (t.costUsd === null ? [] : [t.costUsd]))]));
  const stepValues = Object.fromEntries(variants.map((v) => [v, runsOf(v).map((t) => t.steps)]));

  const toolRows = metrics.toolUse.filter((t) => t.category === 'all');
  const tools = [...new Set(toolRows.map((t) => t.tool))];
  const callsOf = (tool: string, v: string) => toolRows.find((t) => t.tool === tool && t.variant === v)?.count ?? 0;
  const total = (tool: string) => variants.reduce((n, v) => n + callsOf(tool, v), 0);
  const toolUse: ChartTable = {
    columns: ['tool', ...variants],
    rows: tools.sort((a, b) => total(b) - total(a) || a.localeCompare(b)).map((tool) => [tool, ...variants.map((v) => callsOf(tool, v))]),
  };

  const byStep = metrics.commandsByStep.filter((c) => c.category === 'all');
  const steps = byStep.reduce((n, c) => Math.max(n, c.step + 1), 0);
  const heat = new Map<string, number[]>();
  for (const c of byStep) {
    const key = JSON.stringify([c.variant, c.command]);
    const row = heat.get(key) ?? Array.from({ length: steps }, () => 0);
    row[c.step]! += c.count;
    heat.set(key, row);
  }
  const commandsByStep: ChartTable = {
    columns: ['variant', 'command', ...Array.from({ length: steps }, (_, i) => `step ${i + 1}`)],
    rows: [...heat.entries()]
      .map(([key, counts]) => [...(JSON.parse(key) as [string, string]), counts] as const)
      .sort((a, b) => variants.indexOf(a[0]) - variants.indexOf(b[0]) || b[2].reduce((x, y) => x + y, 0) - a[2].reduce((x, y) => x + y, 0) || a[1].localeCompare(b[1]))
      .map(([variant, command, counts]) => [variant, command, ...counts]),
  };

  const smells: ChartTable = {
    columns: ['variant', 'runs', ...SMELLS.map((s) => `${s} runs`), ...SMELLS.map((s) => `${s} occurrences`)],
    rows: variants.map((v) => {
      const runs = runsOf(v);
      return [v, runs.length, ...SMELLS.map((s) => runs.filter((t) => t.smells[s] > 0).length), ...SMELLS.map((s) => runs.reduce((n, t) => n + t.smells[s], 0))];
    }),
  };

  return {
    variants,
    fixedSets,
    validAtK,
    costDistribution: { columns: DISTRIBUTION_COLUMNS, rows: variants.map((v) => distributionRow(v, costValues[v]!)) },
    stepDistribution: { columns: DISTRIBUTION_COLUMNS, rows: variants.map((v) => distributionRow(v, stepValues[v]!)) },
    costValues,
    stepValues,
    toolUse,
    commandsByStep,
    smells,
  };
}
