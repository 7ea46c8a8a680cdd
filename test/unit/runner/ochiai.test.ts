import { describe, expect, it } from 'vitest';
import { ochiai, ochiaiScore } from '../../../worker/runner-client/ochiai.ts';

describe('Ochiai', () => {
  it('computes ef / sqrt((ef+nf)(ef+ep)) and 0 for an empty denominator', () => {
    expect(ochiaiScore(1, 0, 0)).toBe(1);
    expect(ochiaiScore(1, 3, 1)).toBeCloseTo(1 / Math.sqrt(2 * 4));
    expect(ochiaiScore(0, 5, 2)).toBe(0);
    expect(ochiaiScore(0, 0, 0)).toBe(0);
  });

  it('ranks the line covered only by failing tests first', () => {
    const ranking = ochiai([
      { test: 'p.T::fails', passed: false, lines: { 'A.java': [3, 5] } },
      { test: 'p.T::passes1', passed: true, lines: { 'A.java': [3, 9] } },
      { test: 'p.T::passes2', passed: true, lines: { 'A.java': [3] } },
    ]);
    expect(ranking[0]).toMatchObject({ file: 'A.java', line: 5, score: 1, ef: 1, ep: 0, nf: 0 });
    expect(ranking.find((r) => r.line === 3)!.score).toBeCloseTo(1 / Math.sqrt(3));
    expect(ranking.at(-1)).toMatchObject({ line: 9, score: 0 });
  });
});
