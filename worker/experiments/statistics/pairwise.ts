// Post-hoc comparisons of every pair of variants, as HAFixAgent's Table 5 lays them out: after Cochran's Q (0/1) or
// Friedman (measures) over k variants, McNemar or Wilcoxon on each pair, with the p-values adjusted for the
// k(k − 1)/2 comparisons.
import { adjustPValues, type Adjustment } from './adjust.ts';
import { mcnemar, type McNemarResult } from './mcnemar.ts';
import { checkTable } from './table.ts';
import { wilcoxon, type WilcoxonResult } from './wilcoxon.ts';

export interface PairwiseComparison<R> {
  /** column indices of the two variants (first < second) */
  first: number;
  second: number;
  result: R;
  /** the pair's p-value adjusted over all pairs */
  adjustedPvalue: number;
}

/** McNemar on every pair of 0/1 columns. */
export function pairwiseMcNemar(data: unknown, adjustment: Adjustment): PairwiseComparison<McNemarResult>[] {
  return pairwise(checkTable(data, { test: 'pairwise McNemar', columns: { atLeast: 2 }, binary: true }), mcnemar, adjustment);
}

/** Wilcoxon signed-rank on every pair of columns. */
export function pairwiseWilcoxon(data: unknown, adjustment: Adjustment): PairwiseComparison<WilcoxonResult>[] {
  return pairwise(checkTable(data, { test: 'pairwise Wilcoxon', columns: { atLeast: 2 } }), wilcoxon, adjustment);
}

function pairwise<R extends { pvalue: number }>(rows: number[][], test: (pair: number[][]) => R, adjustment: Adjustment): PairwiseComparison<R>[] {
  const k = rows[0]!.length;
  const pairs: { first: number; second: number; result: R }[] = [];
  for (let first = 0; first < k; first++)
    for (let second = first + 1; second < k; second++) pairs.push({ first, second, result: test(rows.map((r) => [r[first]!, r[second]!])) });
  const adjusted = adjustPValues(pairs.map((p) => p.result.pvalue), adjustment);
  return pairs.map((p, i) => ({ ...p, adjustedPvalue: adjusted[i]! }));
}
