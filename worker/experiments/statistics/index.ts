// Paired statistics over an experiment's results: one row per bug, one column per variant. Each test lives in its
// own module; docs/ARCHITECTURE.md ("Statistics") says which library computes what.
export { StatisticsInputError, checkTable, column, type Table } from './table.ts';
export { mcnemar, type McNemarResult } from './mcnemar.ts';
export { cochranQ, type CochranQResult } from './cochran-q.ts';
export { friedman, type FriedmanResult } from './friedman.ts';
export { wilcoxon, EXACT_MAX_PAIRS, type WilcoxonResult } from './wilcoxon.ts';
export { rankBiserial, cliffsDelta, signedRankSums } from './effect-sizes.ts';
export { adjustPValues, bonferroni, holm, type Adjustment } from './adjust.ts';
export { chiSquareSurvival } from './chi-square.ts';
export { pairwiseMcNemar, pairwiseWilcoxon, type PairwiseComparison } from './pairwise.ts';
export { cohenKappa, fleissKappa, type KappaResult } from './kappa.ts';
export { median } from './median.ts';
