// Agreement between raters beyond chance. Cohen's kappa for two raters over the items both labelled:
// κ = (p_o − p_e) / (1 − p_e), p_o the share of items they agree on, p_e = Σ_k p1_k · p2_k from each rater's own
// label shares (statsmodels' cohens_kappa on the 2-way table). Fleiss' kappa for m ≥ 2 raters per item, from the
// item × category count table: P̄ = mean over items of (Σ_k n_ik² − m) / (m(m − 1)), P̄_e = Σ_k p_k², κ = (P̄ − P̄_e) / (1 − P̄_e)
// (statsmodels' fleiss_kappa, method 'fleiss'). When chance agreement is total (every label one category), κ is
// undefined: null, with the reason.
import { StatisticsInputError } from './table.ts';

export interface KappaResult {
  /** null when undefined (p_e = 1) */
  kappa: number | null;
  observed: number;
  expected: number;
  /** items in the computation */
  items: number;
  note?: string;
}

const undefinedKappa = 'undefined: every label falls in one category, so chance agreement is total (p_e = 1)';

/** Cohen's kappa from the two raters' labels of the same items, in the same order. */
export function cohenKappa(first: readonly string[], second: readonly string[]): KappaResult {
  if (first.length !== second.length) throw new StatisticsInputError(`Cohen's kappa: the raters labelled ${first.length} and ${second.length} items; give both raters' labels of the same items, in the same order.`);
  const n = first.length;
  if (!n) throw new StatisticsInputError("Cohen's kappa: no item was labelled by both raters.");
  const categories = [...new Set([...first, ...second])];
  const observed = first.filter((x, i) => x === second[i]).length / n;
  const share = (labels: readonly string[], k: string) => labels.filter((x) => x === k).length / n;
  const expected = categories.reduce((s, k) => s + share(first, k) * share(second, k), 0);
  if (expected === 1) return { kappa: null, observed, expected, items: n, note: undefinedKappa };
  return { kappa: (observed - expected) / (1 - expected), observed, expected, items: n };
}

/** Fleiss' kappa from an item × category table of counts; every item needs the same number (≥ 2) of ratings. */
export function fleissKappa(counts: readonly (readonly number[])[]): KappaResult {
  if (!counts.length) throw new StatisticsInputError("Fleiss' kappa: no item to compare; give one row per item, one count per category.");
  const m = counts[0]!.reduce((s, v) => s + v, 0);
  counts.forEach((row, i) => {
    if (row.length !== counts[0]!.length) throw new StatisticsInputError(`Fleiss' kappa: row ${i + 1} has ${row.length} categories but row 1 has ${counts[0]!.length}.`);
    if (row.some((v) => !Number.isInteger(v) || v < 0)) throw new StatisticsInputError(`Fleiss' kappa: row ${i + 1} holds a count that is not a non-negative integer.`);
    const total = row.reduce((s, v) => s + v, 0);
    if (total !== m) throw new StatisticsInputError(`Fleiss' kappa: item ${i + 1} has ${total} ratings but item 1 has ${m}; every item needs the same number of raters.`);
  });
  if (m < 2) throw new StatisticsInputError(`Fleiss' kappa: each item has ${m} rating; agreement needs at least 2 raters per item.`);
  const N = counts.length;
  const k = counts[0]!.length;
  const p = Array.from({ length: k }, (_, j) => counts.reduce((s, row) => s + row[j]!, 0) / (N * m));
  const observed = counts.reduce((s, row) => s + (row.reduce((t, v) => t + v * v, 0) - m) / (m * (m - 1)), 0) / N;
  const expected = p.reduce((s, v) => s + v * v, 0);
  if (expected === 1) return { kappa: null, observed, expected, items: N, note: undefinedKappa };
  return { kappa: (observed - expected) / (1 - expected), observed, expected, items: N };
}
