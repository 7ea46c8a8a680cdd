// Hand-worked examples: the adjustments, the effect sizes and one small case of each test, with the arithmetic
// in the comments so a reader can check each number without SciPy.
import { describe, expect, it } from 'vitest';
import { bonferroni, cliffsDelta, cochranQ, friedman, holm, mcnemar, pairwiseMcNemar, pairwiseWilcoxon, rankBiserial, wilcoxon } from '../../../../worker/experiments/statistics/index.ts';

describe('Bonferroni and Holm', () => {
  const p = [0.01, 0.04, 0.03, 0.005];

  it('Bonferroni multiplies by the number of tests, capped at 1', () => {
    // 4 tests: 0.04, 0.16, 0.12, 0.02
    expect(bonferroni(p).map((v) => +v.toFixed(12))).toEqual([0.04, 0.16, 0.12, 0.02]);
    expect(bonferroni([0.3, 0.5])).toEqual([0.6, 1]);
  });

  it('Holm steps down: sorted p(i)·(m − i + 1), made non-decreasing, in the input order', () => {
    // sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → max so far 0.06
    expect(holm(p).map((v) => +v.toFixed(12))).toEqual([0.03, 0.06, 0.06, 0.02]);
    // 0.3·2 = 0.6, then 0.5·1 = 0.5 → 0.6
    expect(holm([0.3, 0.5])).toEqual([0.6, 0.6]);
    expect(holm([0.9, 0.8])).toEqual([1, 1]);
  });

  it('leaves its input alone (the library adjusts in place) and refuses what is not a probability', () => {
    const input = [0.01, 0.02];
    bonferroni(input);
    expect(input).toEqual([0.01, 0.02]);
    expect(holm([])).toEqual([]);
    expect(() => holm([0.2, 1.5])).toThrow(/p-value 1\.5 at index 1 is not a probability/);
    expect(() => bonferroni([Number.NaN])).toThrow(/index 0/);
  });
});

describe('effect sizes', () => {
  it('matched-pairs rank-biserial: (R+ − R−) / (R+ + R−), zero differences dropped', () => {
    // x − y = 2, 0, 4, −1, 3 → drop 0; ranks of |d| 1, 2, 3, 4: R+ = 2 + 4 + 3 = 9, R− = 1 → 8/10
    expect(rankBiserial([5, 3, 8, 6, 4], [3, 3, 4, 7, 1])).toBeCloseTo(0.8, 15);
    // ties share ranks: d = 1, 1, −2 → ranks 1.5, 1.5, 3: (3 − 3) / 6 = 0
    expect(rankBiserial([2, 2, 1], [1, 1, 3])).toBe(0);
    expect(rankBiserial([1, 2, 3], [0, 0, 0])).toBe(1);
    expect(rankBiserial([1, 2], [1, 2])).toBe(0);
  });

  it("Cliff's delta: P(x > y) − P(x < y) over all pairs", () => {
    // x = 1: <, <, = → −2; x = 2: =, =, > → +1; x = 3: >, >, > → +3; total 2 of 9 pairs
    expect(cliffsDelta([1, 2, 3], [2, 2, 1])).toBeCloseTo(2 / 9, 15);
    expect(cliffsDelta([5, 6], [1, 2, 3])).toBe(1);
    expect(cliffsDelta([1, 2, 3], [5, 6])).toBe(-1);
  });
});

describe('small cases of each test', () => {
  it('McNemar: b = 3, c = 1 → p = 2·P(X ≤ 1 | 4, ½) = 2·5/16', () => {
    const r = mcnemar([[1, 0], [1, 0], [1, 0], [0, 1], [1, 1], [0, 0]]);
    expect(r).toMatchObject({ statistic: 1, n: 6, discordant: { firstOnly: 3, secondOnly: 1 }, method: 'exact' });
    expect(r.pvalue).toBeCloseTo(0.625, 14);
    // no discordant pair: p = 1
    expect(mcnemar([[1, 1], [0, 0]]).pvalue).toBe(1);
  });

  it("Cochran's Q: columns 3, 1, 3 of 7 successes; rows 2, 3, 1, 1 → Q = 2·(3·19 − 49)/(21 − 15) = 8/3", () => {
    const r = cochranQ([[1, 0, 1], [1, 1, 1], [0, 0, 1], [1, 0, 0]]);
    expect(r.statistic).toBeCloseTo(8 / 3, 14);
    expect(r.df).toBe(2);
    // χ²(2) survival = exp(−Q/2)
    expect(r.pvalue).toBeCloseTo(Math.exp(-4 / 3), 14);
  });

  it("Friedman: every bug orders the variants the same way → χ² = n(k − 1) and Kendall's W = 1", () => {
    const r = friedman([[1, 5, 9], [2, 3, 4], [0.1, 0.2, 0.3], [7, 8, 100]]);
    expect(r.statistic).toBeCloseTo(8, 12);
    expect(r.kendallW).toBeCloseTo(1, 12);
    expect(r.meanRanks).toEqual([1, 2, 3]);
    expect(r.pvalue).toBeCloseTo(Math.exp(-4), 14);
  });

  it('Wilcoxon exact: five positive differences → T = 0, p = 2/32', () => {
    const r = wilcoxon([[2, 1], [4, 2], [6, 3], [8, 4], [10, 5]]);
    expect(r).toMatchObject({ method: 'exact', statistic: 0, rPlus: 15, rMinus: 0, z: null });
    expect(r.pvalue).toBeCloseTo(0.0625, 15);
    expect(r.effectSize.rankBiserial).toBe(1);
  });

  it('Wilcoxon exact at the centre of the distribution gives p = 1, not more', () => {
    // d = 1, 2, −3: R+ = 3 = R−; twice P(W ≤ 3 | n = 3) would be 2·5/8
    expect(wilcoxon([[1, 0], [2, 0], [0, 3]]).pvalue).toBe(1);
  });

  it('Wilcoxon says why it used the normal approximation', () => {
    // d = 1, 1, 0, −2: one zero, tied |d| → ranks 1.5, 1.5, 3 (n = 3 ranked), T = 3, mean 3 → z = 0, p = 1
    const r = wilcoxon([[2, 1], [3, 2], [5, 5], [1, 3]]);
    expect(r).toMatchObject({ method: 'approx', methodReason: '1 zero difference, tied differences', zeros: 1, nonzero: 3, ties: true, statistic: 3, z: 0 });
    expect(r.pvalue).toBe(1);
  });
});

describe('pairwise post-hoc comparisons', () => {
  it('McNemar on every pair of three variants, Bonferroni over the three p-values', () => {
    // pairs (0,1): b = 3, c = 0 → p = 2/8; (0,2): b = 0, c = 0 → p = 1; (1,2): b = 0, c = 3 → p = 2/8
    const table = [[1, 0, 1], [1, 0, 1], [1, 0, 1], [0, 0, 0], [1, 1, 1]];
    const r = pairwiseMcNemar(table, 'bonferroni');
    expect(r.map((c) => [c.first, c.second])).toEqual([[0, 1], [0, 2], [1, 2]]);
    expect(r.map((c) => c.result.pvalue)).toEqual([0.25, 1, 0.25]);
    expect(r.map((c) => c.adjustedPvalue)).toEqual([0.75, 1, 0.75]);
  });

  it('Wilcoxon on every pair, Holm over the p-values; each pair is the two-column test', () => {
    const table = [[10, 7, 12], [14, 9, 15], [8, 8, 11], [20, 12, 19], [11, 5, 16], [13, 10, 18]];
    const r = pairwiseWilcoxon(table, 'holm');
    expect(r).toHaveLength(3);
    const single = [[0, 1], [0, 2], [1, 2]].map(([a, b]) => wilcoxon(table.map((row) => [row[a!]!, row[b!]!])).pvalue);
    expect(r.map((c) => c.result.pvalue)).toEqual(single);
    expect(r.map((c) => c.adjustedPvalue)).toEqual(holm(single));
  });

  it('names the table problem with the pairwise test', () => {
    expect(() => pairwiseMcNemar([[1]], 'holm')).toThrow(/pairwise McNemar: data\[0\] \(row 1\) has 1 column; .*at least 2 columns/);
  });
});
