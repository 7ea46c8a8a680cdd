// McNemar's exact test on paired 0/1 outcomes (two variants on the same bugs): under H0 the discordant pairs split
// 50/50, so the p-value is the two-sided exact binomial test on them — statsmodels' mcnemar(exact=True),
// scipy's binomtest(b, b + c, 0.5). With p = ½ the binomial is symmetric, so the two-sided p-value is twice the
// smaller tail, 2·P(X ≤ min(b, c)), capped at 1 (statsmodels' formula). The binomial CDF is @stdlib's; its
// binomial-test package gives the same p-value but loads ~150 more modules (confidence intervals) into the CLI.
import binomialCdf from '@stdlib/stats-base-dists-binomial-cdf';
import { checkTable } from './table.ts';

export interface McNemarResult {
  test: 'mcnemar';
  method: 'exact';
  /** min(b, c), statsmodels' statistic for the exact test */
  statistic: number;
  pvalue: number;
  /** pairs (bugs) */
  n: number;
  /** b: first variant plausible, second not; c: the reverse */
  discordant: { firstOnly: number; secondOnly: number };
}

export function mcnemar(data: unknown): McNemarResult {
  const rows = checkTable(data, { test: 'McNemar', columns: { exactly: 2 }, binary: true });
  const b = rows.filter(([x, y]) => x === 1 && y === 0).length;
  const c = rows.filter(([x, y]) => x === 0 && y === 1).length;
  const statistic = Math.min(b, c);
  // no discordant pair: no evidence either way (scipy's binomtest refuses n = 0; statsmodels gives 1)
  const pvalue = b + c === 0 ? 1 : Math.min(1, 2 * binomialCdf(statistic, b + c, 0.5));
  return { test: 'mcnemar', method: 'exact', statistic, pvalue, n: rows.length, discordant: { firstOnly: b, secondOnly: c } };
}
