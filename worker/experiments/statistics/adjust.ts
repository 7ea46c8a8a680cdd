// Multiple-comparison adjustment of p-values (e.g. the pairwise post-hoc tests after Friedman or Cochran's Q).
import padjust from '@stdlib/stats-padjust';
import { StatisticsInputError } from './table.ts';

export type Adjustment = 'bonferroni' | 'holm';

/**
 * Adjusted p-values in the input's order: Bonferroni (p·m, capped at 1) or Holm's step-down (sorted p(i)·(m − i + 1),
 * made monotone, capped at 1). Compare each with α directly.
 */
export function adjustPValues(pvalues: readonly number[], method: Adjustment): number[] {
  pvalues.forEach((p, i) => {
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new StatisticsInputError(`adjust (${method}): p-value ${JSON.stringify(p)} at index ${i} is not a probability in [0, 1].`);
  });
  if (pvalues.length === 0) return [];
  // padjust's Bonferroni writes into its argument: give it a copy
  return padjust([...pvalues], method);
}

export const bonferroni = (pvalues: readonly number[]): number[] => adjustPValues(pvalues, 'bonferroni');
export const holm = (pvalues: readonly number[]): number[] => adjustPValues(pvalues, 'holm');
