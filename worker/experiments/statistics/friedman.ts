// Friedman's test: do k ≥ 3 variants differ on a measure (steps, cost, …) over the same bugs? Values are ranked
// within each bug (ties share their mean rank), and the tie-corrected statistic is compared with χ²(k − 1) —
// scipy.stats.friedmanchisquare. Kendall's W = χ² / (n (k − 1)) is its effect size (0: no agreement between bugs
// on the variants' order, 1: every bug orders them the same way).
import { chiSquareSurvival } from './chi-square.ts';
import { averageRanks, tieTerm } from './ranks.ts';
import { checkTable, StatisticsInputError } from './table.ts';

export interface FriedmanResult {
  test: 'friedman';
  /** the χ² approximation of the statistic's null distribution, as scipy */
  method: 'approx';
  statistic: number;
  pvalue: number;
  df: number;
  n: number;
  k: number;
  /** Kendall's coefficient of concordance (tie-corrected, from the statistic) */
  kendallW: number;
  /** mean rank per variant (1 = smallest value) */
  meanRanks: number[];
}

export function friedman(data: unknown): FriedmanResult {
  const rows = checkTable(data, { test: 'Friedman', columns: { atLeast: 3 } });
  const n = rows.length;
  const k = rows[0]!.length;
  const rankSums = new Array<number>(k).fill(0);
  let ties = 0;
  for (const row of rows) {
    averageRanks(row).forEach((r, j) => (rankSums[j]! += r));
    ties += tieTerm(row);
  }
  const c = 1 - ties / (k * (k * k - 1) * n);
  if (c === 0) throw new StatisticsInputError('Friedman: every row has all its values equal, so the statistic is undefined; it needs at least one row where the variants differ.');
  const ssbn = rankSums.reduce((s, r) => s + r * r, 0);
  const statistic = ((12 / (k * n * (k + 1))) * ssbn - 3 * n * (k + 1)) / c;
  return {
    test: 'friedman',
    method: 'approx',
    statistic,
    pvalue: chiSquareSurvival(statistic, k - 1),
    df: k - 1,
    n,
    k,
    kendallW: statistic / (n * (k - 1)),
    meanRanks: rankSums.map((r) => r / n),
  };
}
