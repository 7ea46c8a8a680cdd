// Wilcoxon's signed-rank test on two paired variants, with scipy.stats.wilcoxon's defaults: zero_method='wilcox'
// (zero differences dropped), correction=False, two-sided, and method='auto' — the exact null distribution when there
// are at most 50 pairs and no zero and no tied |difference|, else the normal approximation with the tie-corrected
// variance. The result says which (`method`).
//
// scipy versions differ only where the exact distribution does not hold: with ties (no zeros) and n ≤ 50, scipy
// 1.10 (Debian 12) still uses its exact table on the truncated statistic, and scipy ≥ 1.13 a permutation test when
// n ≤ 13; here the normal approximation is used (docs/ARCHITECTURE.md, "Statistics").
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import signrankCdf from '@stdlib/stats-base-dists-signrank-cdf';
import { cliffsDelta, rankBiserial, signedRankSums } from './effect-sizes.ts';
import { tieTerm } from './ranks.ts';
import { checkTable, column, StatisticsInputError } from './table.ts';

/** scipy's method='auto' uses the exact distribution up to this many pairs */
export const EXACT_MAX_PAIRS = 50;

export interface WilcoxonResult {
  test: 'wilcoxon';
  method: 'exact' | 'approx';
  /** why this method: e.g. "n = 60 > 50", "3 zero differences", "tied differences" */
  methodReason: string;
  /** min(R+, R−), scipy's two-sided statistic */
  statistic: number;
  pvalue: number;
  /** the normal approximation's z (null with the exact method) */
  z: number | null;
  /** pairs, and those with a nonzero difference (the ones ranked) */
  n: number;
  nonzero: number;
  zeros: number;
  ties: boolean;
  rPlus: number;
  rMinus: number;
  effectSize: { rankBiserial: number; cliffsDelta: number };
}

export function wilcoxon(data: unknown): WilcoxonResult {
  const rows = checkTable(data, { test: 'Wilcoxon', columns: { exactly: 2 } });
  const x = column(rows, 0);
  const y = column(rows, 1);
  const { rPlus, rMinus, differences } = signedRankSums(x, y);
  const count = differences.length;
  const zeros = rows.length - count;
  if (count === 0) throw new StatisticsInputError(`Wilcoxon: all ${rows.length} pairs are equal (every difference is zero), so there is nothing to rank; the test needs at least one pair that differs.`);
  const tieSum = tieTerm(differences.map(Math.abs));
  const statistic = Math.min(rPlus, rMinus);
  const reasons = [
    ...(rows.length > EXACT_MAX_PAIRS ? [`n = ${rows.length} > ${EXACT_MAX_PAIRS}`] : []),
    ...(zeros > 0 ? [`${zeros} zero difference${zeros === 1 ? '' : 's'}`] : []),
    ...(tieSum > 0 ? ['tied differences'] : []),
  ];
  const base = { test: 'wilcoxon' as const, statistic, n: rows.length, nonzero: count, zeros, ties: tieSum > 0, rPlus, rMinus };
  const effectSize = { rankBiserial: rankBiserial(x, y), cliffsDelta: cliffsDelta(x, y) };
  if (reasons.length === 0) {
    // two-sided: twice the smaller tail; the distribution is symmetric, so the smaller tail is P(W ≤ min(R+, R−))
    const pvalue = Math.min(1, 2 * signrankCdf(statistic, count));
    return { ...base, method: 'exact', methodReason: `n = ${rows.length} ≤ ${EXACT_MAX_PAIRS}, no zero or tied differences`, pvalue, z: null, effectSize };
  }
  const mean = (count * (count + 1)) / 4;
  const sd = Math.sqrt((count * (count + 1) * (2 * count + 1) - tieSum / 2) / 24);
  const z = (statistic - mean) / sd;
  return { ...base, method: 'approx', methodReason: reasons.join(', '), pvalue: 2 * normalCdf(-Math.abs(z), 0, 1), z, effectSize };
}
