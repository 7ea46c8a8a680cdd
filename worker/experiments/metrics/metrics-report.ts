// The metrics of the three papers over an experiment's trajectories, as plain JSON tables:
//   trajectories  one row per run;
//   cells         one row per (variant, bug): samples, plausible/valid counts, pass@k, cost/tokens/steps/time means;
//   summary       one row per (variant, category) — `all` and SL/SH/SFMH/MFMH;
//   commandsByStep, toolUse   counts for the command-by-step heatmap and tool-use charts.
// Definitions and sources: docs/metrics.md.
import { mean, median } from 'simple-statistics';
import type { BugCategory } from '../../contracts/bug.ts';
import { comparePatches, type PatchComparison } from './correctness.ts';
import { CATEGORIES, checkInput, type BugMeta, type MetricsInput, type RunInput } from './input.ts';
import type { JavaSyntax } from './java-syntax.ts';
import { meanPassAtK, passAtK } from './pass-at-k.ts';
import { SMELLS, type Smell } from './smells.ts';
import { exclusionReason, trajectoryRow, type TrajectoryRow } from './trajectory-metrics.ts';

export type CategoryKey = 'all' | BugCategory;
export const DEFAULT_KS = [1, 5, 10] as const;

/** Means over a bug's samples: all of them, the plausible ones, the others (null: none). */
export interface Split {
  all: number | null;
  success: number | null;
  failure: number | null;
}

export interface CellRow {
  variant: string;
  bugId: string;
  category: BugCategory;
  /** samples attempted: finished runs, and samples in an infrastructure error (`errored`) */
  n: number;
  /** of the n, samples in an infrastructure error: never plausible or valid; no run, so in no per-run mean */
  errored: number;
  plausible: number;
  /** null when some sample's validity is unknown (no ground truth or no parser, and no manual judgement) */
  valid: number | null;
  exactMatch: number | null;
  astMatch: number | null;
  /** at least one plausible sample */
  pass: boolean;
  plausibleAtK: Record<string, number | null>;
  validAtK: Record<string, number | null>;
  /** samples correct: plausible and an exact / AST match or labelled correct (docs/metrics.md, *Correct*) */
  correct: number;
  correctAtK: Record<string, number | null>;
  /** plausible samples still waiting for a label */
  unlabelled: number;
  costUsd: Split;
  tokens: Split;
  steps: Split;
  wallMs: Split;
}

export interface Distribution {
  n: number;
  mean: number | null;
  median: number | null;
}

export interface OutcomeSplit {
  all: Distribution;
  success: Distribution;
  failure: Distribution;
}

export interface SummaryRow {
  variant: string;
  category: CategoryKey;
  /** bugs with an attempted sample: the denominator of plausible@1, plausible@k, valid@k */
  bugs: number;
  /** runs that ended with the agent's verdict: the per-run figures (cost, steps, tokens, smells, …) are over these */
  trajectories: number;
  /** attempted samples in an infrastructure error, counted as not plausible (and not valid) in the rates */
  samplesInError: number;
  /** #Pass: bugs with at least one plausible sample */
  pass: number;
  /** #Unique Pass: bugs this variant passes and no other variant in the input does */
  uniquePass: number;
  /** bugs this variant passes and the baseline variant does not (HAFixAgent's #Unique Pass); null without a baseline */
  uniquePassVsBaseline: number | null;
  /** mean over bugs of c/n (HAFixAgent's Plausible@1 when n = 1) */
  plausibleAt1: number | null;
  plausibleAtK: Record<string, number | null>;
  validAtK: Record<string, number | null>;
  /** bugs left out of the pass@k means of each k: fewer than k samples */
  tooFewSamples: Record<string, number>;
  /** bugs left out of valid@k: some sample's validity unknown */
  validUnknownBugs: number;
  exactMatchTrajectories: number;
  astMatchTrajectories: number;
  /** bugs with at least one sample whose final patch matches the developers' fix */
  exactMatchBugs: number;
  astMatchBugs: number;
  validBugs: number;
  /** mean over bugs of correct/n: correct@1 (a lower bound while plausible patches are unlabelled) */
  correctAt1: number | null;
  correctAtK: Record<string, number | null>;
  /** #Correct: bugs with at least one correct sample */
  correctBugs: number;
  /** bugs this variant fixes correctly and no other variant in the input does */
  uniqueCorrect: number;
  /** plausible runs with no exact / AST match and no resolved label, and how many distinct (bug, patch) they are */
  unlabelledTrajectories: number;
  unlabelledPatches: number;
  costUsd: OutcomeSplit;
  unpricedTrajectories: number;
  tokens: OutcomeSplit;
  steps: OutcomeSplit;
  wallMs: OutcomeSplit;
  llmCallsPerTrajectory: number | null;
  auxiliaryCallsPerTrajectory: number | null;
  /** total characters over total calls (call-weighted, as Passerine's "per LLM call") */
  inputCharsPerCall: number | null;
  outputCharsPerCall: number | null;
  /** share of trajectories with each smell, split by plausibility (Passerine's Table V) */
  smellIncidence: { plausible: Record<Smell, number | null>; notPlausible: Record<Smell, number | null> };
  /** localization of trajectories without a plausible patch (Passerine's Fig. 9) and of all that edited something */
  fileDistance: { notPlausible: DistanceSummary; all: DistanceSummary };
}

export interface DistanceSummary {
  /** trajectories that edited at least one program file */
  trajectories: number;
  meanMinDistance: number | null;
  /** share of them that edited a file the developers fixed (distance 0) */
  editedFixedFile: number | null;
}

export interface ExcludedRun {
  variant: string;
  bugId: string;
  sample: number;
  runId: string;
  reason: string;
}

export interface MetricsReport {
  ks: number[];
  baseline: string | null;
  variants: string[];
  trajectories: TrajectoryRow[];
  excluded: ExcludedRun[];
  cells: CellRow[];
  summary: SummaryRow[];
  commandsByStep: { variant: string; category: CategoryKey; step: number; command: string; count: number }[];
  toolUse: { variant: string; category: CategoryKey; tool: string; count: number; trajectories: number }[];
}

export interface MetricsOptions {
  /** tree-sitter Java for exact and AST match (`loadJavaSyntax`); without it AST match and validity stay null */
  syntax?: JavaSyntax;
}

const avg = (xs: readonly number[]): number | null => (xs.length ? mean(xs) : null);
const share = (part: number, whole: number): number | null => (whole ? part / whole : null);

function distribution(xs: readonly number[]): Distribution {
  return { n: xs.length, mean: avg(xs), median: xs.length ? median(xs) : null };
}

function outcomeSplit(rows: readonly TrajectoryRow[], value: (r: TrajectoryRow) => number | null): OutcomeSplit {
  const of = (rs: readonly TrajectoryRow[]) => rs.map(value).filter((v): v is number => v !== null);
  return { all: distribution(of(rows)), success: distribution(of(rows.filter((r) => r.plausible))), failure: distribution(of(rows.filter((r) => !r.plausible))) };
}

function meanSplit(rows: readonly TrajectoryRow[], value: (r: TrajectoryRow) => number | null): Split {
  const s = outcomeSplit(rows, value);
  return { all: s.all.mean, success: s.success.mean, failure: s.failure.mean };
}

const countOrNull = (rows: readonly TrajectoryRow[], value: (r: TrajectoryRow) => boolean | null): number | null =>
  rows.some((r) => value(r) === null) ? null : rows.filter((r) => value(r) === true).length;

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

function cellRow(variant: string, bug: BugMeta, rows: TrajectoryRow[], errored: number, ks: readonly number[]): CellRow {
  // an errored sample is attempted and not a success: in n, in neither c nor the valid count
  const n = rows.length + errored;
  const c = rows.filter((r) => r.plausible).length;
  const valid = countOrNull(rows, (r) => r.valid);
  const correct = rows.filter((r) => r.correct).length;
  const atK = (successes: number | null) => Object.fromEntries(ks.map((k) => [String(k), successes === null || n < k ? null : passAtK(n, successes, k)]));
  return {
    variant,
    bugId: bug.id,
    category: bug.category,
    n,
    errored,
    plausible: c,
    valid,
    exactMatch: countOrNull(rows, (r) => r.exactMatch),
    astMatch: countOrNull(rows, (r) => r.astMatch),
    pass: c > 0,
    plausibleAtK: atK(c),
    validAtK: atK(valid),
    correct,
    correctAtK: atK(correct),
    unlabelled: rows.filter((r) => r.unlabelled).length,
    costUsd: meanSplit(rows, (r) => r.costUsd),
    tokens: meanSplit(rows, (r) => r.tokens),
    steps: meanSplit(rows, (r) => r.steps),
    wallMs: meanSplit(rows, (r) => r.wallMs),
  };
}

function smellShares(rows: readonly TrajectoryRow[]): Record<Smell, number | null> {
  return Object.fromEntries(SMELLS.map((s) => [s, share(rows.filter((r) => r.smells[s] > 0).length, rows.length)])) as Record<Smell, number | null>;
}

function distanceSummary(rows: readonly TrajectoryRow[]): DistanceSummary {
  const d = rows.map((r) => r.fileDistance).filter((x) => x !== null);
  return { trajectories: d.length, meanMinDistance: avg(d.map((x) => x.min)), editedFixedFile: share(d.filter((x) => x.min === 0).length, d.length) };
}

function summaryRow(
  variant: string,
  category: CategoryKey,
  cells: readonly CellRow[],
  rows: readonly TrajectoryRow[],
  passedBy: ReadonlyMap<string, ReadonlySet<string>>,
  correctBy: ReadonlyMap<string, ReadonlySet<string>>,
  baseline: string | undefined,
  ks: readonly number[],
): SummaryRow {
  const passed = cells.filter((c) => c.pass).map((c) => c.bugId);
  const others = [...passedBy].filter(([v]) => v !== variant).map(([, bugs]) => bugs);
  const knownValid = cells.filter((c) => c.valid !== null).map((c) => ({ n: c.n, c: c.valid! }));
  const problems = cells.map((c) => ({ n: c.n, c: c.plausible }));
  const correctProblems = cells.map((c) => ({ n: c.n, c: c.correct }));
  const correctBugs = cells.filter((c) => c.correct > 0).map((c) => c.bugId);
  const othersCorrect = [...correctBy].filter(([v]) => v !== variant).map(([, bugs]) => bugs);
  const unlabelled = rows.filter((r) => r.unlabelled);
  const calls = rows.reduce((s, r) => s + r.llmCalls, 0);
  return {
    variant,
    category,
    bugs: cells.length,
    trajectories: rows.length,
    samplesInError: cells.reduce((s, c) => s + c.errored, 0),
    pass: passed.length,
    uniquePass: passed.filter((b) => !others.some((o) => o.has(b))).length,
    uniquePassVsBaseline: baseline === undefined ? null : passed.filter((b) => !passedBy.get(baseline)?.has(b)).length,
    plausibleAt1: meanPassAtK(problems, 1).value,
    plausibleAtK: Object.fromEntries(ks.map((k) => [String(k), meanPassAtK(problems, k).value])),
    validAtK: Object.fromEntries(ks.map((k) => [String(k), meanPassAtK(knownValid, k).value])),
    tooFewSamples: Object.fromEntries(ks.map((k) => [String(k), meanPassAtK(problems, k).tooFewSamples])),
    validUnknownBugs: cells.length - knownValid.length,
    exactMatchTrajectories: rows.filter((r) => r.exactMatch === true).length,
    astMatchTrajectories: rows.filter((r) => r.astMatch === true).length,
    exactMatchBugs: cells.filter((c) => rows.some((r) => r.bugId === c.bugId && r.exactMatch === true)).length,
    astMatchBugs: cells.filter((c) => rows.some((r) => r.bugId === c.bugId && r.astMatch === true)).length,
    validBugs: cells.filter((c) => rows.some((r) => r.bugId === c.bugId && r.valid === true)).length,
    correctAt1: meanPassAtK(correctProblems, 1).value,
    correctAtK: Object.fromEntries(ks.map((k) => [String(k), meanPassAtK(correctProblems, k).value])),
    correctBugs: correctBugs.length,
    uniqueCorrect: correctBugs.filter((b) => !othersCorrect.some((o) => o.has(b))).length,
    unlabelledTrajectories: unlabelled.length,
    unlabelledPatches: new Set(unlabelled.map((r) => JSON.stringify([r.bugId, r.patchKey]))).size,
    costUsd: outcomeSplit(rows, (r) => r.costUsd),
    unpricedTrajectories: rows.filter((r) => r.costUsd === null).length,
    tokens: outcomeSplit(rows, (r) => r.tokens),
    steps: outcomeSplit(rows, (r) => r.steps),
    wallMs: outcomeSplit(rows, (r) => r.wallMs),
    llmCallsPerTrajectory: avg(rows.map((r) => r.llmCalls)),
    auxiliaryCallsPerTrajectory: avg(rows.map((r) => r.auxiliaryCalls)),
    inputCharsPerCall: share(rows.reduce((s, r) => s + r.inputChars, 0), calls),
    outputCharsPerCall: share(rows.reduce((s, r) => s + r.outputChars, 0), calls),
    smellIncidence: { plausible: smellShares(rows.filter((r) => r.plausible)), notPlausible: smellShares(rows.filter((r) => !r.plausible)) },
    fileDistance: { notPlausible: distanceSummary(rows.filter((r) => !r.plausible)), all: distanceSummary(rows) },
  };
}

function correctnessOf(runs: readonly RunInput[], bugs: ReadonlyMap<string, BugMeta>, syntax: JavaSyntax | undefined): Map<RunInput, PatchComparison> {
  // runs of one bug often end with the same patch: compare each distinct patch once
  const memo = new Map<string, PatchComparison>();
  const out = new Map<RunInput, PatchComparison>();
  for (const run of runs) {
    const bug = bugs.get(run.bugId)!;
    const patch = run.trajectory.outcome!.finalPatch;
    const key = JSON.stringify([bug.id, patch]);
    let result = memo.get(key);
    if (!result) memo.set(key, (result = comparePatches(patch, bug.groundTruthPatch, bug.buggyFiles, syntax, bug.testDirs)));
    out.set(run, result);
  }
  return out;
}

export function computeMetrics(input: MetricsInput, options: MetricsOptions = {}): MetricsReport {
  checkInput(input);
  const ks = [...new Set(input.ks ?? DEFAULT_KS)].sort((a, b) => a - b);
  const bugs = new Map(input.bugs.map((b) => [b.id, b]));
  const errored = input.errored ?? [];
  const named = new Set([...input.runs.map((r) => r.variant), ...errored.map((e) => e.variant)]);
  const variants = [...new Set([...(input.variants ?? []), ...named])].filter((v) => named.has(v));
  if (input.baseline !== undefined && !variants.includes(input.baseline)) {
    throw new Error(`metrics input: baseline '${input.baseline}' has no runs: use one of ${variants.join(', ') || '(no variants)'}`);
  }

  const excluded: ExcludedRun[] = [];
  const counted: RunInput[] = [];
  for (const run of input.runs) {
    const reason = exclusionReason(run.trajectory);
    if (reason) excluded.push({ variant: run.variant, bugId: run.bugId, sample: run.sample, runId: run.trajectory.runId, reason });
    else counted.push(run);
  }
  const correctness = correctnessOf(counted, bugs, options.syntax);
  const trajectories = counted
    .map((run) => trajectoryRow(run, bugs.get(run.bugId)!, correctness.get(run)!, input.validity?.[run.trajectory.runId], input.labels?.[run.bugId]))
    .sort((a, b) => variants.indexOf(a.variant) - variants.indexOf(b.variant) || bugOrder(input.bugs, a.bugId, b.bugId) || a.sample - b.sample);

  const byCell = groupBy(trajectories, (r) => JSON.stringify([r.variant, r.bugId]));
  const erroredByCell = groupBy(errored, (e) => JSON.stringify([e.variant, e.bugId]));
  const cells: CellRow[] = [];
  for (const variant of variants) for (const bug of input.bugs) {
    const key = JSON.stringify([variant, bug.id]);
    const rows = byCell.get(key) ?? [];
    const errors = erroredByCell.get(key)?.length ?? 0;
    if (rows.length || errors) cells.push(cellRow(variant, bug, rows, errors, ks));
  }
  const passedBy = new Map(variants.map((v) => [v, new Set(cells.filter((c) => c.variant === v && c.pass).map((c) => c.bugId))]));
  const correctBy = new Map(variants.map((v) => [v, new Set(cells.filter((c) => c.variant === v && c.correct > 0).map((c) => c.bugId))]));

  const summary: SummaryRow[] = [];
  const commandsByStep: MetricsReport['commandsByStep'] = [];
  const toolUse: MetricsReport['toolUse'] = [];
  for (const variant of variants) {
    for (const category of ['all', ...CATEGORIES] as CategoryKey[]) {
      const inCategory = (c: { category: BugCategory }) => category === 'all' || c.category === category;
      const cs = cells.filter((c) => c.variant === variant && inCategory(c));
      if (!cs.length) continue;
      const rows = trajectories.filter((r) => r.variant === variant && inCategory(r));
      summary.push(summaryRow(variant, category, cs, rows, passedBy, correctBy, input.baseline, ks));
      commandsByStep.push(...countCommandsByStep(rows).map((c) => ({ variant, category, ...c })));
      toolUse.push(...countToolUse(rows).map((t) => ({ variant, category, ...t })));
    }
  }
  return { ks, baseline: input.baseline ?? null, variants, trajectories, excluded, cells, summary, commandsByStep, toolUse };
}

function bugOrder(bugs: readonly BugMeta[], a: string, b: string): number {
  return bugs.findIndex((x) => x.id === a) - bugs.findIndex((x) => x.id === b);
}

function countCommandsByStep(rows: readonly TrajectoryRow[]): { step: number; command: string; count: number }[] {
  const counts = new Map<string, { step: number; command: string; count: number }>();
  for (const r of rows) {
    r.commands.forEach((command, step) => {
      const key = JSON.stringify([step, command]);
      const entry = counts.get(key) ?? { step, command, count: 0 };
      entry.count++;
      counts.set(key, entry);
    });
  }
  return [...counts.values()].sort((a, b) => a.step - b.step || a.command.localeCompare(b.command));
}

function countToolUse(rows: readonly TrajectoryRow[]): { tool: string; count: number; trajectories: number }[] {
  const counts = new Map<string, { tool: string; count: number; trajectories: number }>();
  for (const r of rows) {
    for (const [tool, n] of Object.entries(r.toolCounts)) {
      const entry = counts.get(tool) ?? { tool, count: 0, trajectories: 0 };
      entry.count += n;
      entry.trajectories++;
      counts.set(tool, entry);
    }
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.tool.localeCompare(b.tool));
}
