// The unbiased pass@k estimator (plausible@k, valid@k), checked against values worked out by hand and against the
// binomial ratio computed exactly with BigInt.
import { describe, expect, it } from 'vitest';
import { meanPassAtK, passAtK } from '../../../../worker/experiments/metrics/pass-at-k.ts';

function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}

/** 1 − C(n−c, k)/C(n, k) with exact integers, then one division at 1e-15 precision */
function exactPassAtK(n: number, c: number, k: number): number {
  const scale = 10n ** 15n;
  return 1 - Number((binomial(n - c, k) * scale) / binomial(n, k)) / 1e15;
}

describe('pass@k', () => {
  it('matches hand-worked values', () => {
    // n=5, c=2, k=2: 1 − C(3,2)/C(5,2) = 1 − 3/10 = 0.7
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12);
    // k=1 is c/n: 2/3
    expect(passAtK(3, 2, 1)).toBeCloseTo(2 / 3, 12);
    // n=20, c=1, k=10: 1 − C(19,10)/C(20,10) = 1 − 10/20 = 0.5
    expect(passAtK(20, 1, 10)).toBeCloseTo(0.5, 12);
    // fewer failures (1) than draws (2): every draw holds a success
    expect(passAtK(3, 2, 2)).toBe(1);
    expect(passAtK(20, 0, 5)).toBe(0);
  });

  it('equals the exact binomial ratio, and stays finite where the binomials overflow a double', () => {
    for (const [n, c, k] of [[20, 3, 5], [20, 7, 10], [50, 1, 25], [100, 10, 20]] as const) {
      expect(passAtK(n, c, k)).toBeCloseTo(exactPassAtK(n, c, k), 12);
    }
    // C(1200, 600) ≈ 4e359 is Infinity as a double (the naive ratio is NaN); the product form gives 1 − 1/C(1200,600) ≈ 1
    const v = passAtK(1200, 600, 600);
    expect(Number.isFinite(v)).toBe(true);
    expect(v).toBe(1);
    expect(passAtK(1200, 1, 600)).toBeCloseTo(0.5, 12);
  });

  it('refuses impossible input, naming the fix', () => {
    expect(() => passAtK(3, 4, 1)).toThrow(/c \(4 successful samples\) cannot exceed n \(3 samples\)/);
    expect(() => passAtK(3, 1, 5)).toThrow(/pass@5 needs at least 5 samples per bug \(have 3\)/);
    expect(() => passAtK(3, 1, 0)).toThrow(/k must be at least 1/);
    expect(() => passAtK(2.5, 1, 1)).toThrow(/n must be a non-negative integer/);
  });

  it('averages over bugs with enough samples and says how many were left out', () => {
    // bugs: (n=3,c=2) → pass@2 = 1; (n=3,c=0) → 0; (n=1,c=1) has too few samples for k=2
    expect(meanPassAtK([{ n: 3, c: 2 }, { n: 3, c: 0 }, { n: 1, c: 1 }], 2)).toEqual({ value: 0.5, counted: 2, tooFewSamples: 1 });
    expect(meanPassAtK([{ n: 1, c: 1 }], 2)).toEqual({ value: null, counted: 0, tooFewSamples: 1 });
  });
});
