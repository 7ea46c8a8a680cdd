// The report's two analyses (the ReportAnalyses seam of report.ts): the papers' metrics over the experiment's counted
// runs (worker/experiments/metrics/), and the statistics table laid out as HAFixAgent's Table 5
// (worker/experiments/statistics/). Which cells count, and how the paired tables are formed, is documented in
// docs/formats/experiment.md ("Report").
import type { BugCategory, BugSpec } from '../contracts/bug.ts';
import type { CellRecord } from '../contracts/experiment.ts';
import { computeMetrics, filesToRead, type BugMeta, type JavaSyntax, type MetricsReport, type RunInput } from './metrics/index.ts';
import type { AnalysisInput, ReportAnalyses } from './report.ts';
import { COUNTED_STATUSES, statisticsTable, type StatisticsTable } from './report-statistics.ts';

export const isCounted = (c: CellRecord): boolean => (COUNTED_STATUSES as readonly string[]).includes(c.status) && !!c.runId;

/** Cells left out of every metric and test, by status. */
export interface Exclusions {
  'infrastructure-error': number;
  'not-run': number;
  running: number;
  /** counted status but its run record is missing */
  'missing-run': number;
}

export interface ExperimentMetrics extends MetricsReport {
  excludedCells: Exclusions;
}

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
      return statisticsTable({ variants: input.spec.variants.map((v) => v.name), cells: input.cells, categories, perBug: metrics.cells, excluded: metrics.excludedCells, alpha: options.alpha ?? 0.05 });
    },
  };
}

async function experimentMetrics(input: AnalysisInput, options: AnalysisOptions): Promise<{ metrics: ExperimentMetrics; categories: Map<string, BugCategory> }> {
  const excludedCells: Exclusions = { 'infrastructure-error': 0, 'not-run': 0, running: 0, 'missing-run': 0 };
  const runs: RunInput[] = [];
  for (const c of [...input.cells].sort((a, b) => a.index - b.index)) {
    if (!isCounted(c)) {
      if (c.status === 'infrastructure-error' || c.status === 'not-run' || c.status === 'running') excludedCells[c.status]++;
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
  const report = computeMetrics({ runs, bugs, ks, baseline: input.spec.variants[0]!.name }, options.syntax ? { syntax: options.syntax } : {});
  return { metrics: { ...report, excludedCells }, categories: new Map(bugs.map((b) => [b.id, b.category])) };
}
