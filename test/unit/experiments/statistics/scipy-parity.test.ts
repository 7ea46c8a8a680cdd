// Every statistic equals SciPy's (and statsmodels' where SciPy has none) to 1e-9, on seeded paired data with ties and
// zeros, at sizes on both sides of the exact Wilcoxon limit (50 pairs). The reference runs in python3 with Debian's
// python3-scipy and python3-statsmodels (installed by scripts/setup.sh); Cochran's Q falls back to its formula in
// numpy when statsmodels is absent.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cochranQ, friedman, holm, bonferroni, mcnemar, wilcoxon, StatisticsInputError } from '../../../../worker/experiments/statistics/index.ts';
import { binaryTables, measureTables, pairedTables, seededRandom } from './paired-data.ts';

const TOLERANCE = 1e-9;

const REFERENCE = `
import json, sys, warnings
import numpy as np
import scipy
from scipy import stats
warnings.simplefilter("ignore")
try:
    from statsmodels.stats.contingency_tables import cochrans_q, mcnemar as sm_mcnemar
    from statsmodels.stats.multitest import multipletests
    have_sm = True
except ImportError:
    have_sm = False

def finite(v):
    v = float(v)
    return v if np.isfinite(v) else None

def wilcoxon_with(x, y, method):
    # scipy < 1.13 calls the normal approximation "approx", later versions "asymptotic"
    names = ["asymptotic", "approx"] if method == "approx" else [method]
    for name in names:
        try:
            return stats.wilcoxon(x, y, method=name)
        except ValueError as e:
            last = e
    raise last

job = json.load(sys.stdin)
out = {"scipy": scipy.__version__, "statsmodels": have_sm, "wilcoxon": [], "friedman": [], "cochran": [], "mcnemar": [], "adjust": []}
for t in job["wilcoxon"]:
    a = np.array(t, dtype=float); x, y = a[:, 0], a[:, 1]
    d = x - y
    auto = stats.wilcoxon(x, y)
    nz = d[d != 0]; r = stats.rankdata(np.abs(nz)); rp = r[nz > 0].sum(); rm = r[nz < 0].sum()
    out["wilcoxon"].append({
        "statistic": finite(auto.statistic), "p_auto": finite(auto.pvalue),
        "p_approx": finite(wilcoxon_with(x, y, "approx").pvalue),
        "p_exact": finite(wilcoxon_with(x, y, "exact").pvalue) if not np.any(d == 0) else None,
        "rank_biserial": finite((rp - rm) / (rp + rm)),
        "cliffs_delta": finite(np.sign(np.subtract.outer(x, y)).mean()),
    })
for t in job["friedman"]:
    a = np.array(t, dtype=float); n, k = a.shape
    res = stats.friedmanchisquare(*a.T)
    out["friedman"].append({"statistic": finite(res.statistic), "pvalue": finite(res.pvalue), "kendall_w": finite(res.statistic / (n * (k - 1)))})
for t in job["cochran"]:
    a = np.array(t, dtype=float); n, k = a.shape
    if have_sm:
        res = cochrans_q(a)
        q, p = res.statistic, res.pvalue
    else:
        rows, cols = a.sum(1), a.sum(0); total = a.sum()
        q = (k - 1) * (k * np.sum(cols ** 2) - total ** 2) / (k * total - np.sum(rows ** 2))
        p = stats.chi2.sf(q, k - 1)
    out["cochran"].append({"statistic": finite(q), "pvalue": finite(p)})
for t in job["mcnemar"]:
    a = np.array(t, dtype=int)
    b = int(np.sum((a[:, 0] == 1) & (a[:, 1] == 0))); c = int(np.sum((a[:, 0] == 0) & (a[:, 1] == 1)))
    ref = {"b": b, "c": c, "binomtest": finite(stats.binomtest(b, b + c, 0.5).pvalue) if b + c > 0 else None}
    if have_sm:
        table = [[int(np.sum((a[:, 0] == 1) & (a[:, 1] == 1))), b], [c, int(np.sum((a[:, 0] == 0) & (a[:, 1] == 0)))]]
        res = sm_mcnemar(table, exact=True)
        ref["sm_statistic"] = finite(res.statistic); ref["sm_pvalue"] = finite(res.pvalue)
    out["mcnemar"].append(ref)
for ps in job["adjust"]:
    out["adjust"].append({m: [finite(v) for v in multipletests(ps, method=m)[1]] for m in ("bonferroni", "holm")} if have_sm else None)
json.dump(out, sys.stdout)
`;

/** Debian's python3 (python3-scipy), else the PATH's if it has SciPy. */
function pythonWithScipy(): string | undefined {
  for (const exe of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(exe, ['-c', 'import scipy, numpy'], { stdio: 'ignore' });
      return exe;
    } catch {
      // try the next one
    }
  }
  return undefined;
}

const wilcoxonTables = pairedTables(16, [6, 12, 25, 50, 51, 120]);
const friedmanTables = measureTables(17, [4, 12, 40, 150], [3, 4, 6]);
const cochranTables = binaryTables(18, [6, 25, 100, 400], [2, 3, 5]);
const mcnemarTables = binaryTables(19, [5, 10, 30, 80, 300], [2, 2, 2]);
const rnd = seededRandom(20);
const pvalueLists = [3, 4, 6, 10].map((m) => Array.from({ length: m }, () => (rnd() < 0.3 ? rnd() * 0.02 : rnd())));

interface Reference {
  scipy: string;
  statsmodels: boolean;
  wilcoxon: { statistic: number; p_auto: number; p_approx: number; p_exact: number | null; rank_biserial: number; cliffs_delta: number }[];
  friedman: { statistic: number | null; pvalue: number | null; kendall_w: number | null }[];
  cochran: { statistic: number | null; pvalue: number | null }[];
  mcnemar: { b: number; c: number; binomtest: number | null; sm_statistic?: number; sm_pvalue?: number }[];
  adjust: ({ bonferroni: number[]; holm: number[] } | null)[];
}

const exe = pythonWithScipy();
const ref: Reference | undefined = exe
  ? JSON.parse(
      execFileSync(exe, ['-c', REFERENCE], {
        input: JSON.stringify({ wilcoxon: wilcoxonTables.map((t) => t.data), friedman: friedmanTables.map((t) => t.data), cochran: cochranTables.map((t) => t.data), mcnemar: mcnemarTables.map((t) => t.data), adjust: pvalueLists }),
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      }),
    )
  : undefined;

const close = (actual: number, expected: number | null | undefined, what: string) => {
  expect(expected, `${what}: the reference gave no number`).not.toBeNull();
  expect(Math.abs(actual - expected!), `${what}: ${actual} vs SciPy ${expected}`).toBeLessThanOrEqual(TOLERANCE);
};

describe.skipIf(!ref)(`statistics vs SciPy ${ref?.scipy ?? ''} (${exe})`, () => {
  describe('Wilcoxon signed-rank (zero_method=wilcox, correction=False, method=auto)', () => {
    it.each(wilcoxonTables.map((t, i) => [t.name, i] as const))('%s', (_name, i) => {
      const table = wilcoxonTables[i]!.data;
      const r = wilcoxon(table);
      const s = ref!.wilcoxon[i]!;
      close(r.statistic, s.statistic, 'statistic');
      // the exact distribution holds only without zeros and ties; scipy versions agree on 'auto' exactly there and above 50 pairs
      const exactHolds = r.zeros === 0 && !r.ties && table.length <= 50;
      expect(r.method).toBe(exactHolds ? 'exact' : 'approx');
      close(r.pvalue, exactHolds ? s.p_exact : s.p_approx, `p-value (${r.method})`);
      if (exactHolds || table.length > 50) close(r.pvalue, s.p_auto, "p-value vs scipy's method='auto'");
      close(r.effectSize.rankBiserial, s.rank_biserial, 'matched-pairs rank-biserial');
      close(r.effectSize.cliffsDelta, s.cliffs_delta, "Cliff's delta");
    });

    it('the generated data covers every path: exact, ties, zeros, both, and more than 50 pairs', () => {
      const results = wilcoxonTables.map((t) => wilcoxon(t.data));
      expect(results.filter((r) => r.method === 'exact').length).toBeGreaterThanOrEqual(3);
      expect(results.some((r) => r.n <= 50 && r.ties && r.zeros === 0)).toBe(true);
      expect(results.some((r) => r.n <= 50 && !r.ties && r.zeros > 0)).toBe(true);
      expect(results.some((r) => r.n <= 50 && r.ties && r.zeros > 0)).toBe(true);
      expect(results.some((r) => r.n > 50 && !r.ties && r.zeros === 0 && r.method === 'approx')).toBe(true);
    });
  });

  describe('Friedman (scipy.stats.friedmanchisquare) and Kendall\'s W', () => {
    it.each(friedmanTables.map((t, i) => [t.name, i] as const))('%s', (_name, i) => {
      const r = friedman(friedmanTables[i]!.data);
      const s = ref!.friedman[i]!;
      close(r.statistic, s.statistic, 'statistic');
      close(r.pvalue, s.pvalue, 'p-value');
      close(r.kendallW, s.kendall_w, "Kendall's W");
    });
  });

  describe(`Cochran's Q (${ref?.statsmodels ? 'statsmodels cochrans_q' : 'its formula in numpy: statsmodels is absent'})`, () => {
    it.each(cochranTables.map((t, i) => [t.name, i] as const))('%s', (_name, i) => {
      const s = ref!.cochran[i]!;
      if (s.statistic === null) {
        // every row agreeing: the reference divides by zero; here the input is refused
        expect(() => cochranQ(cochranTables[i]!.data)).toThrow(StatisticsInputError);
        return;
      }
      const r = cochranQ(cochranTables[i]!.data);
      close(r.statistic, s.statistic, 'Q');
      close(r.pvalue, s.pvalue, 'p-value');
    });
  });

  describe('McNemar exact (scipy.stats.binomtest on the discordant pairs; statsmodels mcnemar(exact=True))', () => {
    it.each(mcnemarTables.map((t, i) => [t.name, i] as const))('%s', (_name, i) => {
      const r = mcnemar(mcnemarTables[i]!.data);
      const s = ref!.mcnemar[i]!;
      expect(r.discordant).toEqual({ firstOnly: s.b, secondOnly: s.c });
      if (s.binomtest === null) expect(r.pvalue).toBe(1);
      else close(r.pvalue, s.binomtest, 'p-value vs binomtest');
      if (ref!.statsmodels) {
        close(r.statistic, s.sm_statistic, 'statistic vs statsmodels');
        close(r.pvalue, s.sm_pvalue, 'p-value vs statsmodels');
      }
    });
  });

  describe.skipIf(!ref?.statsmodels)('Bonferroni and Holm (statsmodels multipletests)', () => {
    it.each(pvalueLists.map((ps, i) => [ps.length, i] as const))('%i p-values', (_m, i) => {
      const s = ref!.adjust[i]!;
      bonferroni(pvalueLists[i]!).forEach((p, j) => close(p, s.bonferroni[j], `Bonferroni #${j}`));
      holm(pvalueLists[i]!).forEach((p, j) => close(p, s.holm[j], `Holm #${j}`));
    });
  });
});

it('finds python3 with SciPy (install python3-scipy, as scripts/setup.sh does)', () => {
  expect(exe, 'python3 with scipy was not found: the parity tests above were skipped').toBeDefined();
});
