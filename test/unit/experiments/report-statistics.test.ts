// The report's statistics table on small hand-built experiments: which cells enter the paired tables, which test is
// chosen, and the p-values worked out by hand.
import { describe, expect, it } from 'vitest';
import type { BugCategory } from '../../../worker/contracts/bug.ts';
import { statisticsTable, type StatisticsInput } from '../../../worker/experiments/report-statistics.ts';

type Status = 'plausible' | 'not-plausible' | 'budget' | 'infrastructure-error' | 'not-run';

/** cells from a table: outcomes[bug][variant] is one sample's status per variant ('P' plausible, 'F' not, 'I' infra, 'N' not run) */
function cellsOf(variants: string[], outcomes: Record<string, string[]>) {
  const code: Record<string, Status> = { P: 'plausible', F: 'not-plausible', B: 'budget', I: 'infrastructure-error', N: 'not-run' };
  return Object.entries(outcomes).flatMap(([bugId, samples]) => samples.flatMap((row, sample) => [...row].map((c, j) => ({ bugId, variant: variants[j]!, sample, status: code[c]! }))));
}

const split = (all: number | null, success: number | null = all) => ({ all, success, failure: null });
function perBug(variants: string[], values: Record<string, (number | null)[]>, plausible: Record<string, number[]> = {}) {
  return Object.entries(values).flatMap(([bugId, vs]) =>
    vs.map((v, j) => ({ variant: variants[j]!, bugId, category: 'SL' as BugCategory, n: 1, plausible: plausible[bugId]?.[j] ?? 1, steps: split(v), costUsd: split(v) })),
  );
}

function input(variants: string[], over: Partial<StatisticsInput>): StatisticsInput {
  return { variants, cells: [], categories: new Map(), perBug: [], excluded: {}, alpha: 0.05, ...over };
}

describe('statisticsTable: plausibility', () => {
  it('two variants: McNemar exact on (bug, sample) rows, leaving out rows where a variant has no counted cell', () => {
    const v = ['a', 'b'];
    // b1..b5 one sample each; b6's cell of a is an infrastructure error and b7's of b was not run: both rows drop out
    const cells = cellsOf(v, { b1: ['PP'], b2: ['PF'], b3: ['PB'], b4: ['FF'], b5: ['FF'], b6: ['IP'], b7: ['PN'] });
    const categories = new Map(Object.keys({ b1: 0, b2: 0, b3: 0, b4: 0, b5: 0, b6: 0, b7: 0 }).map((b) => [b, 'SL' as BugCategory]));
    const [all] = statisticsTable(input(v, { cells, categories })).plausibility;
    // discordant: a only on b2, b3 (b = 2), b only never (c = 0): p = 2·P(X ≤ 0 | 2, ½) = 2·¼
    expect(all).toMatchObject({ category: 'all', test: 'mcnemar', n: 5, bugs: 5, successes: [3, 1], statistic: 0, pvalue: 0.5, significant: false });
    expect(all!.reading).toBe('not significant at α = 0.05 (p = 0.5000): no evidence the variants differ in plausibility');
    expect(all!.pairwise).toEqual([{ first: 'a', second: 'b', pvalue: 0.5, bonferroni: 0.5, holm: 0.5, significant: false, firstOnly: 2, secondOnly: 0 }]);
  });

  it("three variants: Cochran's Q, then McNemar per pair with Bonferroni and Holm; a category per bug category", () => {
    const v = ['x', 'y', 'z'];
    // 8 bugs × 1 sample. rows: 6 × [0,1,1], 2 × [1,1,1] → C = (2, 8, 8), N = 18, ΣR² = 6·4 + 2·9 = 42
    // Q = 2·(3·(4 + 64 + 64) − 324)/(3·18 − 42) = 2·72/12 = 12, p = e^(−6)
    const outcomes = Object.fromEntries([...Array(8).keys()].map((i) => [`b${i}`, [i < 6 ? 'FPP' : 'PPP']]));
    const categories = new Map(Object.keys(outcomes).map((b, i) => [b, (i < 4 ? 'SL' : 'SH') as BugCategory]));
    const table = statisticsTable(input(v, { cells: cellsOf(v, outcomes), categories }));
    expect(table.plausibility.map((r) => r.category)).toEqual(['all', 'SL', 'SH']);
    const all = table.plausibility[0]!;
    expect(all).toMatchObject({ test: 'cochran', n: 8, successes: [2, 8, 8], significant: true });
    expect(all.statistic).toBeCloseTo(12, 12);
    expect(all.pvalue).toBeCloseTo(Math.exp(-6), 15);
    // x vs y: b = 0, c = 6 → 2/64; x vs z the same; y vs z: no discordant pair → 1
    expect(all.pairwise.map((p) => [p.first, p.second, p.pvalue, p.bonferroni, p.holm, p.significant])).toEqual([
      ['x', 'y', 2 / 64, 6 / 64, 6 / 64, false],
      ['x', 'z', 2 / 64, 6 / 64, 6 / 64, false],
      ['y', 'z', 1, 1, 1, false],
    ]);
    // SL: b0..b3 all [0,1,1]: C = (0, 4, 4), N = 8, ΣR² = 16 → Q = 2·(3·32 − 64)/(24 − 16) = 8
    expect(table.plausibility[1]!.statistic).toBeCloseTo(8, 12);
  });

  it('says why a test is not computed: every row agreeing, or no complete row', () => {
    const v = ['x', 'y', 'z'];
    const agree = statisticsTable(input(v, { cells: cellsOf(v, { b1: ['PPP'], b2: ['FFF'] }), categories: new Map([['b1', 'SL'], ['b2', 'SL']]) })).plausibility[0]!;
    expect(agree).toMatchObject({ statistic: null, pvalue: null, significant: null, pairwise: [] });
    expect(agree.reading).toMatch(/^not computed: Cochran's Q: in every row all variants agree/);
    const none = statisticsTable(input(v, { cells: cellsOf(v, { b1: ['PPI'] }), categories: new Map([['b1', 'SL']]) })).plausibility[0]!;
    expect(none.reading).toBe('not computed: no (bug, sample) has a counted cell in every variant');
  });
});

describe("statisticsTable: steps and cost (Table 5)", () => {
  it('two variants: Wilcoxon signed-rank (exact) per category', () => {
    const v = ['a', 'b'];
    // differences −1 … −5, no ties or zeros: T = 0, exact p = 2·P(W ≤ 0 | n = 5) = 2/32
    const rows = perBug(v, { b1: [1, 2], b2: [2, 4], b3: [3, 6], b4: [4, 8], b5: [5, 10] });
    const steps = statisticsTable(input(v, { perBug: rows, categories: new Map(rows.map((r) => [r.bugId, 'SL'])) })).measures.find((m) => m.metric === 'steps' && m.set === 'all-bugs' && m.category === 'all')!;
    expect(steps).toMatchObject({ test: 'wilcoxon', n: 5, statistic: 0, pvalue: 2 / 32, significant: false, medians: [3, 6], pairwise: [] });
  });

  it('three variants: Friedman + Kendall W; post-hoc Wilcoxon only after a significant Friedman', () => {
    const v = ['x', 'y', 'z'];
    // 6 bugs, every one ordering x < y < z: rank sums 6, 12, 18; χ² = 12/(6·3·4)·504 − 3·6·4 = 12, p = e^(−6); W = 12/12 = 1
    const ordered = perBug(v, Object.fromEntries([...Array(6).keys()].map((i) => [`b${i}`, [i, i + 10 + i, i + 30 + 2 * i]])));
    const categories = new Map(ordered.map((r) => [r.bugId, 'SL' as BugCategory]));
    const row = statisticsTable(input(v, { perBug: ordered, categories })).measures.find((m) => m.metric === 'cost' && m.set === 'all-bugs' && m.category === 'all')!;
    expect(row).toMatchObject({ test: 'friedman', n: 6, significant: true });
    expect(row.statistic).toBeCloseTo(12, 12);
    expect(row.pvalue).toBeCloseTo(Math.exp(-6), 15);
    expect(row.kendallW).toBeCloseTo(1, 12);
    // x vs y: differences −10 … −15, all negative, distinct: exact p = 2/64; Bonferroni ×3 → 0.09375 (not significant)
    expect(row.pairwise.map((p) => [p.first, p.second, p.rankBiserial, p.significant])).toEqual([
      ['x', 'y', -1, false],
      ['x', 'z', -1, false],
      ['y', 'z', -1, false],
    ]);
    for (const p of row.pairwise) {
      expect(p.pvalue).toBeCloseTo(2 / 64, 12);
      expect(p.bonferroni).toBeCloseTo(6 / 64, 12);
    }
    // a Friedman that is not significant gets no post-hoc tests ('—' in Table 5): two bugs ordering the variants oppositely
    const mixed = perBug(v, { b1: [1, 2, 3], b2: [3, 2, 1] });
    const flat = statisticsTable(input(v, { perBug: mixed, categories: new Map([['b1', 'SL'], ['b2', 'SL']]) })).measures.find((m) => m.metric === 'steps' && m.set === 'all-bugs')!;
    expect(flat).toMatchObject({ statistic: 0, pvalue: 1, significant: false, pairwise: [] });
  });

  it('fixed-by-all keeps the bugs every variant fixed, with their success means; unpriced bugs are counted apart', () => {
    const v = ['x', 'y'];
    const rows = perBug(v, { b1: [1, 2], b2: [2, 5], b3: [4, 4], b4: [null, 3] }, { b2: [1, 0] });
    const categories = new Map(['b1', 'b2', 'b3', 'b4'].map((b) => [b, 'SL' as BugCategory]));
    const table = statisticsTable(input(v, { perBug: rows, categories }));
    const cost = table.measures.find((m) => m.metric === 'cost' && m.set === 'fixed-by-all' && m.category === 'all')!;
    // b2 is not fixed by y; b4 has no price for x: left are b1 (diff −1) and b3 (diff 0, dropped). One nonzero pair
    // and a zero → normal approximation: T = 0, mean ½, sd √(1·2·3/24) = ½, z = −1, p = 2Φ(−1) = 0.3173105078629141
    expect(cost).toMatchObject({ n: 2, unpriced: 1, test: 'wilcoxon', statistic: 0, medians: [2.5, 3] });
    expect(cost.pvalue).toBeCloseTo(0.3173105078629141, 12);
  });
});
