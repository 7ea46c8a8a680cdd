// Effect sizes for two paired variants. No maintained npm package computes either (checked: @stdlib has none;
// simple-statistics has neither), and both are a few lines.
import { averageRanks } from './ranks.ts';

/**
 * Matched-pairs rank-biserial correlation (Kerby's simple difference): (R+ − R−) / (R+ + R−), with R± the sums of
 * the ranks of |x − y| over pairs where x > y (R+) or x < y (R−). Zero differences are dropped, as in the
 * Wilcoxon test's default. 1: x is larger in every pair; −1: y is; 0 when no pair differs.
 */
export function rankBiserial(x: readonly number[], y: readonly number[]): number {
  const { rPlus, rMinus } = signedRankSums(x, y);
  return rPlus + rMinus === 0 ? 0 : (rPlus - rMinus) / (rPlus + rMinus);
}

/** The Wilcoxon rank sums of the nonzero differences x − y (average ranks of |x − y|). */
export function signedRankSums(x: readonly number[], y: readonly number[]): { rPlus: number; rMinus: number; differences: number[] } {
  const differences = x.map((v, i) => v - y[i]!).filter((d) => d !== 0);
  const ranks = averageRanks(differences.map(Math.abs));
  let rPlus = 0;
  let rMinus = 0;
  differences.forEach((d, i) => (d > 0 ? (rPlus += ranks[i]!) : (rMinus += ranks[i]!)));
  return { rPlus, rMinus, differences };
}

/**
 * Cliff's delta: P(x > y) − P(x < y) over all n·m pairs of a value of x and a value of y (the two columns as
 * samples, ignoring the pairing). 1: every x exceeds every y; 0: the two overlap evenly.
 */
export function cliffsDelta(x: readonly number[], y: readonly number[]): number {
  if (x.length === 0 || y.length === 0) return 0;
  let dominance = 0;
  for (const a of x) for (const b of y) dominance += Math.sign(a - b);
  return dominance / (x.length * y.length);
}
