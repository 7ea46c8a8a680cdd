// Cohen's and Fleiss' kappa equal statsmodels' (statsmodels.stats.inter_rater: cohens_kappa on the 2-way table,
// fleiss_kappa on aggregate_raters' counts) on seeded label data, and correct@k — pass@k over correct samples —
// equals the exact binomial ratio 1 − C(n−c, k)/C(n, k) from scipy.special.comb(exact=True). The reference runs in
// Debian's python3 with python3-statsmodels (scripts/setup.sh).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cohenKappa, fleissKappa, StatisticsInputError } from '../../../../worker/experiments/statistics/index.ts';
import { passAtK } from '../../../../worker/experiments/metrics/index.ts';
import { seededRandom } from './paired-data.ts';

const TOLERANCE = 1e-12;
const CATEGORIES = ['correct', 'overfitting', 'unsure'];

const REFERENCE = `
import json, sys
import numpy as np
from scipy.special import comb
from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa, aggregate_raters
job = json.load(sys.stdin)
out = {"cohen": [], "fleiss": [], "passk": []}
for a, b in job["cohen"]:
    cats = sorted(set(a) | set(b))
    t = np.zeros((len(cats), len(cats)))
    for x, y in zip(a, b): t[cats.index(x), cats.index(y)] += 1
    k = cohens_kappa(t, return_results=False)
    out["cohen"].append(None if not np.isfinite(k) else float(k))
for ratings in job["fleiss"]:
    table, _ = aggregate_raters(np.array(ratings))
    k = fleiss_kappa(table, method="fleiss")
    out["fleiss"].append({"kappa": None if not np.isfinite(k) else float(k), "table": table.tolist()})
for n, c, k in job["passk"]:
    out["passk"].append(float(1 - comb(n - c, k, exact=True) / comb(n, k, exact=True)))
json.dump(out, sys.stdout)
`;

function pythonWithStatsmodels(): string | undefined {
  for (const exe of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(exe, ['-c', 'import statsmodels.stats.inter_rater, scipy'], { stdio: 'ignore' });
      return exe;
    } catch {
      // try the next one
    }
  }
  return undefined;
}

const rnd = seededRandom(32);
const pick = () => CATEGORIES[Math.floor(rnd() * (rnd() < 0.5 ? 2 : 3))]!;
/** two raters who agree with probability `agree`, else label independently */
const cohenData = [5, 12, 40, 150].flatMap((n) =>
  [0.3, 0.7, 0.95].map((agree) => {
    const a = Array.from({ length: n }, pick);
    return [a, a.map((x) => (rnd() < agree ? x : pick()))] as [string[], string[]];
  }),
);
/** items × raters, category index per rating (aggregate_raters' input) */
const fleissData = [[8, 3], [30, 4], [100, 5], [60, 2]].map(([n, m]) =>
  Array.from({ length: n! }, () => {
    const truth = Math.floor(rnd() * 3);
    return Array.from({ length: m! }, () => (rnd() < 0.6 ? truth : Math.floor(rnd() * 3)));
  }),
);
const passData: [number, number, number][] = [];
for (const n of [1, 3, 10, 25, 60]) for (let i = 0; i < 4; i++) {
  const c = Math.floor(rnd() * (n + 1));
  passData.push([n, c, 1 + Math.floor(rnd() * n)]);
}

const exe = pythonWithStatsmodels();
const ref = exe
  ? (JSON.parse(execFileSync(exe, ['-c', REFERENCE], { input: JSON.stringify({ cohen: cohenData, fleiss: fleissData, passk: passData }), encoding: 'utf8' })) as {
      cohen: (number | null)[];
      fleiss: { kappa: number | null; table: number[][] }[];
      passk: number[];
    })
  : undefined;

describe.skipIf(!ref)('kappa and correct@k vs statsmodels / scipy', () => {
  it.each(cohenData.map((d, i) => [d[0].length, i] as const))("Cohen's kappa, %i items (#%i)", (_n, i) => {
    const r = cohenKappa(cohenData[i]![0], cohenData[i]![1]);
    const s = ref!.cohen[i]!;
    if (s === null) expect(r.kappa).toBeNull();
    else expect(Math.abs(r.kappa! - s), `${r.kappa} vs statsmodels ${s}`).toBeLessThanOrEqual(TOLERANCE);
  });

  it.each(fleissData.map((d, i) => [d.length, d[0]!.length, i] as const))("Fleiss' kappa, %i items × %i raters", (_n, _m, i) => {
    const s = ref!.fleiss[i]!;
    const r = fleissKappa(s.table);
    // the same counts built here from the ratings
    const counts = fleissData[i]!.map((ratings) => [0, 1, 2].map((k) => ratings.filter((x) => x === k).length));
    expect(counts).toEqual(s.table);
    if (s.kappa === null) expect(r.kappa).toBeNull();
    else expect(Math.abs(r.kappa! - s.kappa), `${r.kappa} vs statsmodels ${s.kappa}`).toBeLessThanOrEqual(TOLERANCE);
  });

  it.each(passData.map((d, i) => [...d, i] as const))('correct@k: n=%i c=%i k=%i', (n, c, k, i) => {
    expect(Math.abs(passAtK(n, c, k) - ref!.passk[i]!)).toBeLessThanOrEqual(1e-12);
  });
});

describe('kappa by hand', () => {
  it('Cohen: 10 items, 9 agreements, p_e from the margins', () => {
    // A: 5 correct, 5 overfitting; B: 4 correct, 6 overfitting; they differ on item 5 only
    const a = ['c', 'c', 'c', 'c', 'c', 'o', 'o', 'o', 'o', 'o'];
    const b = ['c', 'c', 'c', 'c', 'o', 'o', 'o', 'o', 'o', 'o'];
    // p_o = 9/10; p_e = .5·.4 + .5·.6 = .5; κ = (.9 − .5) / (1 − .5) = .8
    const r = cohenKappa(a, b);
    expect(r.observed).toBeCloseTo(0.9, 12);
    expect(r.expected).toBeCloseTo(0.5, 12);
    expect(r.kappa).toBeCloseTo(0.8, 12);
  });

  it('one category only: κ is undefined and says why', () => {
    const r = cohenKappa(['c', 'c'], ['c', 'c']);
    expect(r.kappa).toBeNull();
    expect(r.note).toMatch(/chance agreement is total/);
  });

  it('refuses unequal lists and uneven Fleiss rows, naming the item', () => {
    expect(() => cohenKappa(['c'], [])).toThrow(StatisticsInputError);
    expect(() => fleissKappa([[2, 0], [1, 2]])).toThrow(/item 2 has 3 ratings but item 1 has 2/);
  });
});

it('finds python3 with statsmodels (install python3-statsmodels, as scripts/setup.sh does)', () => {
  expect(exe).toBeDefined();
});
