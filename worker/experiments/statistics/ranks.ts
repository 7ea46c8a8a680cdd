import stdlibRanks from '@stdlib/stats-ranks';

/** Average ranks (1-based; tied values share the mean of their ranks), as scipy's rankdata. */
export const averageRanks = (values: readonly number[]): number[] => stdlibRanks(values as number[], { method: 'average' });

/** Σ (t³ − t) over the groups of t tied values: the tie correction of rank statistics' variances. */
export function tieTerm(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let sum = 0;
  for (const t of counts.values()) sum += t * t * t - t;
  return sum;
}
