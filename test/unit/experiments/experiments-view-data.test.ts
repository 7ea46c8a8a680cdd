// The Experiments tab's data: the builder's form → ExperimentSpec (model from Settings, never the key), and the
// results' tables and chart series from a report (src/components/experiments-view/).
import { describe, expect, it } from 'vitest';
import { parseExperimentSpec, type CellRecord } from '../../../worker/contracts/experiment.ts';
import type { BugSummary } from '../../../worker/contracts/bug-view.ts';
import type { ExperimentReport } from '../../../worker/experiments/report.ts';
import type { Settings } from '../../../src/state/settings.ts';
import { defaultForm, selectedBugs, specFromForm } from '../../../src/components/experiments-view/spec-form.ts';
import { costVsSuccess, formatCell, paretoFrontier, plausibleAtK, tableCsv, variantTable } from '../../../src/components/experiments-view/results-data.ts';

const settings: Settings = { runner: { url: 'http://127.0.0.1:8765', token: 't' }, model: { baseURL: 'http://127.0.0.1:8787/v1', model: 'gpt-4o-mini', temperature: 0.2 }, modelKind: 'endpoint', prices: { 'gpt-4o-mini': { inputPerMTok: 1, outputPerMTok: 2 } } };
const bug = (id: string, library: string, category: BugSummary['category'], blameable: boolean): BugSummary => ({ id, library, title: id, category, blameable, defectKinds: [], failingTests: [], imported: false });
const catalog = [bug('a-1', 'a', 'SL', true), bug('a-2', 'a', 'SH', false), bug('b-1', 'b', 'SL', true), bug('a-3', 'a', 'SL', true)];

describe('the experiment builder form', () => {
  it('gives a valid spec: the filter, the variant rows, budgets and concurrency; the model and prices from Settings', () => {
    const form = defaultForm();
    form.bugs = { ...form.bugs, library: 'a', category: 'SL', blameable: 'true', limit: '1' };
    form.variants = [
      { name: 'plain', preset: 'oneshot', variants: [], overrides: '' },
      { name: 'short', preset: 'oneshot', variants: [], overrides: '{"budgets":{"maxSteps":1}}' },
    ];
    Object.assign(form, { samples: '3', perRunCostUsd: '0.5', experimentCalls: '100', modelCalls: '2' });
    const spec = parseExperimentSpec(specFromForm(form, settings));
    expect(spec.bugs).toEqual({ filter: { libraries: ['a'], categories: ['SL'], blameable: true }, limit: 1 });
    expect(spec.variants.map((v) => [v.name, v.overrides])).toEqual([['plain', {}], ['short', { budgets: { maxSteps: 1 } }]]);
    expect(spec.samples).toBe(3);
    expect(spec.model).toEqual({ provider: 'custom', baseURL: 'http://127.0.0.1:8787/v1', model: 'gpt-4o-mini', sampling: { temperature: 0.2 } });
    expect(spec.prices).toEqual(settings.prices);
    expect(spec.budgets).toMatchObject({ perRun: { costUsd: 0.5 }, experiment: { calls: 100 } });
    expect(spec.concurrency).toEqual({ modelCalls: 2, validations: 2 });
    expect(JSON.stringify(spec)).not.toMatch(/apiKey|sk-/);
    expect(selectedBugs(form.bugs, catalog).map((b) => b.id)).toEqual(['a-1']);
  });

  it('takes bugs by id, in the given order', () => {
    const form = defaultForm();
    form.bugs = { ...form.bugs, mode: 'ids', ids: 'b-1, a-2  a-1' };
    expect(specFromForm(form, settings).bugs).toEqual(['b-1', 'a-2', 'a-1']);
    expect(selectedBugs(form.bugs, catalog).map((b) => b.id)).toEqual(['b-1', 'a-2', 'a-1']);
  });

  it('refuses what cannot be a spec, naming the field', () => {
    const bad = defaultForm();
    bad.variants = [{ name: 'x', preset: 'oneshot', variants: [], overrides: '{budgets:' }];
    expect(() => specFromForm(bad, settings)).toThrow(/Variant 1 \(x\): overrides are not valid JSON/);
    expect(() => specFromForm({ ...defaultForm(), samples: '1.5' }, settings)).toThrow(/Samples: give a whole number/);
    expect(() => specFromForm({ ...defaultForm(), bugs: { ...defaultForm().bugs, mode: 'ids', ids: ' ' } }, settings)).toThrow(/list at least one bug id/);
    expect(() => specFromForm(defaultForm(), { ...settings, modelKind: 'human' })).toThrow(/OpenAI-compatible endpoint: choose one under Settings → Model/);
  });
});

const cell = (bugId: string, variant: string, sample: number, status: CellRecord['status']): CellRecord => ({
  experimentId: 'e', index: 0, bugId, variant, sample, runner: 0, status, startedAt: '', attempts: [], reason: '', costUsd: 0, calls: 1, steps: 1,
});

function report(variants: { variant: string; costUsd: number | null; calls: number; bugsFixed: number }[]): ExperimentReport {
  return {
    experiment: { id: 'e', status: 'finished', createdAt: '', model: 'm', bugs: 2, variants: variants.length, samples: 3, cells: 6 * variants.length },
    variants: variants.map((v) => ({
      ...v, preset: 'oneshot', presetVariants: ['stop-rules'], cells: 6, attempted: 6, unfinished: 0, running: 0, plausibleAt1: 0.5, firstSamples: 2, firstPlausible: 1, firstSampleErrors: 1, plausible: 3, bugsAttempted: 2,
      statuses: { plausible: 3, 'not-plausible': 2, budget: 0, 'infrastructure-error': 1, 'not-run': 0 },
    })),
    metrics: { computed: false, note: 'not computed' },
    statistics: { computed: false, note: 'not computed' },
    cells: [],
  };
}

describe('the results data', () => {
  it("the variant table is the report's rows, number for number, each count beside its denominator", () => {
    const t = variantTable(report([{ variant: 'v', costUsd: 0.25, calls: 7, bugsFixed: 1 }]));
    expect(t.rows).toEqual([['v', 'oneshot+stop-rules', 6, 6, 0, 0.5, 2, 1, 3, 1, 2, 3, 2, 0, 1, 0, 'yes', 0.25, 7]]);
    expect(t.columns).toHaveLength(t.rows[0]!.length);
    expect(t.columns.slice(5, 11)).toEqual(['plausible@1', 'first_samples', 'first_samples_in_error', 'plausible', 'bugs_fixed', 'bugs_attempted']);
  });

  it('plausible@k over the cells: the unbiased estimator per bug over the cells attempted (an error is not plausible), not-run left out', () => {
    const cells = [
      cell('b1', 'v', 0, 'plausible'), cell('b1', 'v', 1, 'not-plausible'), cell('b1', 'v', 2, 'not-plausible'),
      cell('b2', 'v', 0, 'not-plausible'), cell('b2', 'v', 1, 'infrastructure-error'), cell('b2', 'v', 2, 'not-run'),
    ];
    const { table, source } = plausibleAtK(report([{ variant: 'v', costUsd: 0, calls: 0, bugsFixed: 1 }]), cells);
    expect(source).toBe('cells');
    // b1: n 3, c 1 → 1/3, 2/3, 1; b2: n 2 (one not plausible, one in error), c 0 → 0 at k = 1 and 2, too few samples at 3
    expect(table.rows.map((r) => r[0])).toEqual([1, 2, 3]);
    expect(table.rows[0]![1]).toBeCloseTo((1 / 3 + 0) / 2, 12);
    expect(table.rows[1]![1]).toBeCloseTo((2 / 3 + 0) / 2, 12);
    expect(table.rows[2]![1]).toBe(1);
  });

  it('the Pareto frontier keeps the variants no other is both cheaper (or as cheap) and better than', () => {
    expect(paretoFrontier([{ cost: 1, success: 1 }, { cost: 2, success: 3 }, { cost: 3, success: 2 }, { cost: 0.5, success: 1 }, { cost: 2, success: 3 }])).toEqual([3, 1, 4]);
    const cvs = costVsSuccess(report([{ variant: 'cheap', costUsd: 0.1, calls: 5, bugsFixed: 1 }, { variant: 'dear', costUsd: 1, calls: 50, bugsFixed: 1 }, { variant: 'best', costUsd: 2, calls: 60, bugsFixed: 2 }]));
    expect(cvs).toMatchObject({ costAxis: 'cost (USD)', frontier: ['cheap', 'best'] });
    // a cost unknown (no price): model calls stand for the cost
    expect(costVsSuccess(report([{ variant: 'a', costUsd: null, calls: 5, bugsFixed: 1 }])).costAxis).toBe('model calls');
  });

  it('CSV quotes what needs quoting and leaves null empty', () => {
    expect(tableCsv({ columns: ['a', 'b'], rows: [['x,y', null], ['say "hi"', 0.5]] })).toBe('a,b\n"x,y",\n"say ""hi""",0.5\n');
  });

  it('reads a cell as the reports do: a tiny p-value in exponent form, not 0.0000', () => {
    expect([formatCell(0.00002), formatCell(0.5), formatCell(3), formatCell(null), formatCell('x')]).toEqual(['2.00e-5', '0.5000', '3', '—', 'x']);
  });
});
