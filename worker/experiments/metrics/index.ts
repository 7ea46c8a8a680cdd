// The papers' metrics over an experiment's trajectories (docs/metrics.md). Input: runs grouped by (variant, bug,
// sample) and bug metadata; output: plain JSON tables. Exact and AST match need a JavaSyntax (loadJavaSyntax) and the
// buggy text of the files the patches touch (filesToRead).
export { computeMetrics, DEFAULT_KS } from './metrics-report.ts';
export type { CategoryKey, CellRow, Distribution, DistanceSummary, ExcludedRun, MetricsOptions, MetricsReport, OutcomeSplit, Split, SummaryRow } from './metrics-report.ts';
export { CATEGORIES, checkInput } from './input.ts';
export type { BugMeta, ErroredSample, MetricsInput, RunInput } from './input.ts';
export { passAtK, meanPassAtK } from './pass-at-k.ts';
export { comparePatches, filesToRead, patchedFiles } from './correctness.ts';
export type { PatchComparison } from './correctness.ts';
export { loadJavaSyntax } from './java-syntax.ts';
export type { JavaSyntax } from './java-syntax.ts';
export { stepCommand, splitBash } from './commands.ts';
export type { CommandKind, FileRead, ReadPart, StepCommand } from './commands.ts';
export { trajectorySmells, SMELLS, CONSECUTIVE_THRESHOLD } from './smells.ts';
export type { Smell, SmellCounts } from './smells.ts';
export { fileDistance, localizationDistance } from './file-distance.ts';
export type { LocalizationDistance } from './file-distance.ts';
export { trajectoryRow, isPlausible, exclusionReason } from './trajectory-metrics.ts';
export type { TrajectoryRow } from './trajectory-metrics.ts';
