// The report's statistics, laid out as HAFixAgent's Table 5: per category, plausibility compared across variants
// (McNemar exact for two, Cochran's Q for more, then pairwise McNemar with Bonferroni and Holm), and steps and cost
// (Friedman + Kendall's W for three or more variants, then pairwise Wilcoxon with Bonferroni; Wilcoxon alone for
// two). Every test comes with a plain reading at α. Plain data in, plain data out: the tests build it by hand.
import type { BugCategory } from '../contracts/bug.ts';
import type { CellRecord } from '../contracts/experiment.ts';
import type { CategoryKey, CellRow } from './metrics/index.ts';
import { CATEGORIES } from './metrics/index.ts';
import { bonferroni, cochranQ, friedman, holm, mcnemar, median, pairwiseMcNemar, StatisticsInputError, wilcoxon } from './statistics/index.ts';

/** Cell statuses whose run is a sample of the agent (an infrastructure error or a cell not run says nothing about it). */
export const COUNTED_STATUSES = ['plausible', 'not-plausible', 'budget'] as const;
const COUNTED = new Set<string>(COUNTED_STATUSES);

export interface StatisticsInput {
  variants: readonly string[];
  /** the experiment's cells (only counted ones — plausible, not plausible, budget — enter the 0/1 tables) */
  cells: readonly Pick<CellRecord, 'bugId' | 'variant' | 'sample' | 'status'>[];
  categories: ReadonlyMap<string, BugCategory>;
  /** the metrics' per-(variant, bug) rows: steps and cost means over all, successful and failed samples */
  perBug: readonly (Pick<CellRow, 'variant' | 'bugId' | 'category' | 'n' | 'plausible' | 'steps' | 'costUsd'> & Partial<Pick<CellRow, 'errored'>>)[];
  excluded: object;
  alpha: number;
  /** the counted runs' correctness (metrics' trajectory rows): McNemar / Cochran's Q on correct, paired as plausibility */
  correctness?: readonly { variant: string; bugId: string; sample: number; correct: boolean }[];
}

export interface Reading {
  statistic: number | null;
  pvalue: number | null;
  significant: boolean | null;
  /** in words: significant or not at α, or why the test was not computed */
  reading: string;
}

export interface PairRow {
  first: string;
  second: string;
  pvalue: number;
  bonferroni: number;
  holm: number;
  /** Bonferroni-adjusted p < α */
  significant: boolean;
  /** McNemar: pairs only the first / only the second variant passed; Wilcoxon: matched-pairs rank-biserial */
  firstOnly?: number;
  secondOnly?: number;
  rankBiserial?: number;
}

export interface PlausibilityRow extends Reading {
  category: CategoryKey;
  test: 'mcnemar' | 'cochran';
  /** paired rows: (bug, sample) with a counted cell in every variant */
  n: number;
  bugs: number;
  /** plausible rows per variant */
  successes: number[];
  pairwise: PairRow[];
}

export type MeasureSet = 'fixed-by-all' | 'all-bugs';

export interface MeasureRow extends Reading {
  category: CategoryKey;
  metric: 'steps' | 'cost';
  /** fixed-by-all: HAFixAgent's matched set, each value the mean over the bug's plausible samples; all-bugs: mean over all samples */
  set: MeasureSet;
  test: 'friedman' | 'wilcoxon';
  /** bugs in the set */
  n: number;
  /** bugs left out for want of a price (cost only) */
  unpriced: number;
  kendallW: number | null;
  /** median per variant of the per-bug values */
  medians: (number | null)[];
  /** post-hoc pairs (after a significant Friedman; '—' in Table 5 otherwise), empty when not run */
  pairwise: PairRow[];
}

export interface StatisticsTable {
  alpha: number;
  variants: string[];
  excludedCells: object;
  pairing: string;
  plausibility: PlausibilityRow[];
  /** the same tests on correct (plausible and exact / AST match or labelled correct; unlabelled counts as not correct) */
  correctness: PlausibilityRow[];
  measures: MeasureRow[];
}

const fmtP = (p: number) => (p < 0.001 ? p.toExponential(2) : p.toFixed(4));

function read(pvalue: number, alpha: number, what: string): { significant: boolean; reading: string } {
  const significant = pvalue < alpha;
  return { significant, reading: `${significant ? 'significant' : 'not significant'} at α = ${alpha} (p = ${fmtP(pvalue)}): ${significant ? `the variants differ in ${what}` : `no evidence the variants differ in ${what}`}` };
}

const notComputed = (why: string): Reading => ({ statistic: null, pvalue: null, significant: null, reading: `not computed: ${why}` });

export function statisticsTable(input: StatisticsInput): StatisticsTable {
  const categories: CategoryKey[] = ['all', ...CATEGORIES.filter((c) => [...input.categories.values()].includes(c))];
  return {
    alpha: input.alpha,
    variants: [...input.variants],
    excludedCells: input.excluded,
    pairing:
      'plausibility: one row per (bug, sample) that has a counted cell in every variant, samples paired by index (the same seed); ' +
      'steps and cost: one row per bug, the mean over its samples (fixed-by-all: over its plausible samples, bugs every variant fixed)',
    plausibility: categories.flatMap((c) => binaryRow(input, c, plausibleOutcomes(input), 'plausibility') ?? []),
    correctness: categories.flatMap((c) => binaryRow(input, c, correctOutcomes(input), 'correct patches') ?? []),
    measures: categories.flatMap((c) => (['steps', 'cost'] as const).flatMap((m) => (['fixed-by-all', 'all-bugs'] as const).map((set) => measureRow(input, c, m, set)))),
  };
}

function inCategory(input: StatisticsInput, category: CategoryKey, bugId: string): boolean {
  return category === 'all' || input.categories.get(bugId) === category;
}

interface Outcome {
  variant: string;
  bugId: string;
  sample: number;
  success: 0 | 1;
}

const plausibleOutcomes = (input: StatisticsInput): Outcome[] =>
  input.cells.filter((c) => COUNTED.has(c.status)).map((c) => ({ variant: c.variant, bugId: c.bugId, sample: c.sample, success: c.status === 'plausible' ? 1 : 0 }));

const correctOutcomes = (input: StatisticsInput): Outcome[] =>
  (input.correctness ?? []).map((r) => ({ variant: r.variant, bugId: r.bugId, sample: r.sample, success: r.correct ? 1 : 0 }));

/** McNemar (two variants) or Cochran's Q (more) on one 0/1 outcome, paired by (bug, sample). */
function binaryRow(input: StatisticsInput, category: CategoryKey, outcomes: readonly Outcome[], what: string): PlausibilityRow | undefined {
  const k = input.variants.length;
  const byKey = new Map<string, number[]>();
  for (const c of outcomes) {
    const j = input.variants.indexOf(c.variant);
    if (j < 0 || !inCategory(input, category, c.bugId)) continue;
    const key = JSON.stringify([c.bugId, c.sample]);
    const row = byKey.get(key) ?? new Array<number>(k).fill(NaN);
    row[j] = c.success;
    byKey.set(key, row);
  }
  const keys = [...byKey.keys()].filter((key) => byKey.get(key)!.every((v) => !Number.isNaN(v))).sort();
  const rows = keys.map((key) => byKey.get(key)!);
  const bugs = new Set(keys.map((key) => (JSON.parse(key) as [string])[0])).size;
  const test = k === 2 ? ('mcnemar' as const) : ('cochran' as const);
  const base = { category, test, n: rows.length, bugs, successes: input.variants.map((_, j) => rows.reduce((s, r) => s + r[j]!, 0)), pairwise: [] as PairRow[] };
  if (k < 2) return { ...base, ...notComputed('one variant: nothing to compare') };
  if (!rows.length) return { ...base, ...notComputed('no (bug, sample) has a counted cell in every variant') };
  let omnibus: Reading;
  try {
    const r = k === 2 ? mcnemar(rows) : cochranQ(rows);
    omnibus = { statistic: r.statistic, pvalue: r.pvalue, ...read(r.pvalue, input.alpha, what) };
  } catch (e) {
    if (!(e instanceof StatisticsInputError)) throw e;
    return { ...base, ...notComputed(e.message) };
  }
  const pairs = pairwiseMcNemar(rows, 'bonferroni');
  const holmP = holm(pairs.map((p) => p.result.pvalue));
  const pairwise = pairs.map((p, i) => ({
    first: input.variants[p.first]!,
    second: input.variants[p.second]!,
    pvalue: p.result.pvalue,
    bonferroni: p.adjustedPvalue,
    holm: holmP[i]!,
    significant: p.adjustedPvalue < input.alpha,
    firstOnly: p.result.discordant.firstOnly,
    secondOnly: p.result.discordant.secondOnly,
  }));
  return { ...base, ...omnibus, pairwise };
}

function measureRow(input: StatisticsInput, category: CategoryKey, metric: 'steps' | 'cost', set: MeasureSet): MeasureRow {
  const k = input.variants.length;
  const test = k === 2 ? ('wilcoxon' as const) : ('friedman' as const);
  const bugIds = [...new Set(input.perBug.map((r) => r.bugId))].filter((b) => inCategory(input, category, b));
  const rows: number[][] = [];
  let unpriced = 0;
  for (const bugId of bugIds) {
    const mine = input.variants.map((v) => input.perBug.find((r) => r.variant === v && r.bugId === bugId));
    // a variant with no run of the bug (none, or only samples in an infrastructure error) has no steps or cost to compare
    if (mine.some((r) => !r || r.n - (r.errored ?? 0) === 0 || (set === 'fixed-by-all' && r.plausible === 0))) continue;
    const values = mine.map((r) => (metric === 'steps' ? r!.steps : r!.costUsd)[set === 'fixed-by-all' ? 'success' : 'all']);
    if (values.some((v) => v === null)) {
      unpriced++;
      continue;
    }
    rows.push(values as number[]);
  }
  const what = metric === 'cost' ? 'cost' : 'steps';
  const base = { category, metric, set, test, n: rows.length, unpriced, kendallW: null, medians: input.variants.map((_, j) => median(rows.map((r) => r[j]!))), pairwise: [] as PairRow[] };
  if (k < 2) return { ...base, ...notComputed('one variant: nothing to compare') };
  if (!rows.length) return { ...base, ...notComputed(set === 'fixed-by-all' ? 'no bug was fixed by every variant' : 'no bug has a counted run in every variant') };
  try {
    if (k === 2) {
      const r = wilcoxon(rows);
      return { ...base, statistic: r.statistic, pvalue: r.pvalue, ...read(r.pvalue, input.alpha, what), pairwise: [] };
    }
    const r = friedman(rows);
    const omnibus = { ...base, statistic: r.statistic, pvalue: r.pvalue, kendallW: r.kendallW, ...read(r.pvalue, input.alpha, what) };
    if (!omnibus.significant) return omnibus;
    return { ...omnibus, pairwise: wilcoxonPairs(input, rows) };
  } catch (e) {
    if (!(e instanceof StatisticsInputError)) throw e;
    return { ...base, ...notComputed(e.message) };
  }
}

/** Post-hoc Wilcoxon on every pair; a pair whose values never differ has p = 1 (nothing to rank, no evidence). */
function wilcoxonPairs(input: StatisticsInput, rows: number[][]): PairRow[] {
  const k = input.variants.length;
  const pairs: { first: number; second: number; pvalue: number; rankBiserial: number }[] = [];
  for (let first = 0; first < k; first++) {
    for (let second = first + 1; second < k; second++) {
      const pair = rows.map((r) => [r[first]!, r[second]!]);
      if (pair.every(([x, y]) => x === y)) pairs.push({ first, second, pvalue: 1, rankBiserial: 0 });
      else {
        const r = wilcoxon(pair);
        pairs.push({ first, second, pvalue: r.pvalue, rankBiserial: r.effectSize.rankBiserial });
      }
    }
  }
  const bonferroniP = bonferroni(pairs.map((p) => p.pvalue));
  const holmP = holm(pairs.map((p) => p.pvalue));
  return pairs.map((p, i) => ({
    first: input.variants[p.first]!,
    second: input.variants[p.second]!,
    pvalue: p.pvalue,
    bonferroni: bonferroniP[i]!,
    holm: holmP[i]!,
    significant: bonferroniP[i]! < input.alpha,
    rankBiserial: p.rankBiserial,
  }));
}
