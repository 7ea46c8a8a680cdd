// Cochran's Q: do k ≥ 2 variants have the same success rate on the same bugs (0/1 outcomes)? Q is compared with
// χ²(k − 1), as statsmodels' cochrans_q does (the SAS manual's formula).
import { chiSquareSurvival } from './chi-square.ts';
import { checkTable, StatisticsInputError } from './table.ts';

export interface CochranQResult {
  test: 'cochran';
  /** the χ² approximation of Q's null distribution */
  method: 'approx';
  statistic: number;
  pvalue: number;
  df: number;
  /** bugs (rows) and variants (columns) */
  n: number;
  k: number;
  /** successes per variant */
  successes: number[];
}

export function cochranQ(data: unknown): CochranQResult {
  const rows = checkTable(data, { test: "Cochran's Q", columns: { atLeast: 2 }, binary: true });
  const k = rows[0]!.length;
  const rowSums = rows.map((r) => r.reduce((s, v) => s + v, 0));
  const colSums = Array.from({ length: k }, (_, j) => rows.reduce((s, r) => s + r[j]!, 0));
  const total = rowSums.reduce((s, v) => s + v, 0);
  const denominator = k * total - rowSums.reduce((s, v) => s + v * v, 0);
  // only rows where the variants disagree carry information; with none, Q is 0/0
  if (denominator === 0) throw new StatisticsInputError("Cochran's Q: in every row all variants agree (all 0 or all 1), so Q is undefined; it needs at least one row where the variants differ.");
  const statistic = ((k - 1) * (k * colSums.reduce((s, v) => s + v * v, 0) - total * total)) / denominator;
  return { test: 'cochran', method: 'approx', statistic, pvalue: chiSquareSurvival(statistic, k - 1), df: k - 1, n: rows.length, k, successes: colSums };
}
