// `experiment estimate`'s numbers: runs, validations, runner-hours from measured validation times, wall clock on the
// runners' capacity, and model cost from the price table (worker/experiments/experiment-estimate.ts, runner-time.ts).
import { describe, expect, it } from 'vitest';
import { parseExperimentSpec, type ExperimentSpecInput } from '../../../worker/contracts/experiment.ts';
import { estimateExperiment } from '../../../worker/experiments/experiment-estimate.ts';
import { DEFAULT_VALIDATION_MS, estimateRunnerTime, measureValidationTimes } from '../../../worker/experiments/runner-time.ts';
import { estimateText } from '../../../worker/cli/experiment-commands.ts';

const spec = (over: Partial<ExperimentSpecInput> = {}) =>
  parseExperimentSpec({
    schemaVersion: 1,
    bugs: ['textkit-1', 'textkit-2'],
    variants: [
      { name: 'one', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } },
      { name: 'three', preset: 'oneshot', overrides: { budgets: { maxSteps: 3 } } },
    ],
    samples: 2,
    model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'priced' },
    prices: { priced: { inputPerMTok: 1, outputPerMTok: 4 } },
    budgets: { perRun: { costUsd: 0.01 } },
    ...over,
  });

const verdict = (ms: number, cached = false) => ({ timingsMs: { total: ms, compile: 0, tests: ms }, cached }) as never;
const run = (library: string, steps: number[], extra: { startup?: number[]; recheck?: number; cached?: number[] } = {}) =>
  ({
    bug: { id: `${library}-1`, library, buggyCommit: 'c', failingTests: [] },
    startup: (extra.startup ?? []).map((ms) => ({ verdict: verdict(ms) })),
    steps: [...steps.map((ms) => ({ verdict: verdict(ms) })), ...(extra.cached ?? []).map((ms) => ({ verdict: verdict(ms, true) })), {}],
    outcome: extra.recheck === undefined ? undefined : { recheck: verdict(extra.recheck) },
  }) as never;

describe('experiment estimate', () => {
  it('runs are cells × one trajectory; doubling the bugs doubles runs, validations and the cost bound', () => {
    const two = estimateExperiment(spec(), ['textkit-1', 'textkit-2']);
    const four = estimateExperiment(spec(), ['textkit-1', 'textkit-2', 'textkit-3', 'textkit-4']);
    expect(two.runs).toBe(2 * 2 * 2);
    expect(four.runs).toBe(2 * two.runs);
    // oneshot has no startup command: per run its steps + the final re-check → (1 + 1) and (3 + 1), 4 runs each
    expect(two.variants.map((v) => v.maxValidationsPerRun)).toEqual([2, 4]);
    expect(two.validations.max).toBe(4 * 2 + 4 * 4);
    expect(four.validations.max).toBe(2 * two.validations.max);
    expect(four.costUsd.max).toBeCloseTo(2 * two.costUsd.max!, 12);
  });

  it("a strategy's validation budget lowers the bound, and the startup commands add to it", () => {
    const capped = estimateExperiment(spec({ variants: [{ name: 'v', preset: 'oneshot', overrides: { budgets: { maxSteps: 10, maxValidations: 3 } } }] }), 2);
    expect(capped.variants[0]!.maxValidationsPerRun).toBe(3 + 1);
    const withStartup = estimateExperiment(spec({ variants: [{ name: 'v', preset: 'repairagent', overrides: { budgets: { maxSteps: 10 } } }] }), 2);
    expect(withStartup.variants[0]!.maxValidationsPerRun).toBe(1 + 10 + 1); // run_tests at startup
  });

  it('the cost comes from the price table: a dearer price raises a token-bounded cost in proportion', () => {
    const tokens = (outputPerMTok: number) =>
      estimateExperiment(spec({ prices: { priced: { inputPerMTok: 1, outputPerMTok } }, budgets: {}, variants: [{ name: 'v', preset: 'oneshot', overrides: { budgets: { maxTokens: 1000 } } }] }), 2).costUsd.max!;
    expect(tokens(4)).toBeCloseTo(2 * 2 * 1000 * 4e-6, 12);
    expect(tokens(8)).toBeCloseTo(2 * tokens(4), 12);
  });

  it('measured times: uncached verdicts of startup, steps and re-check, by project', () => {
    const t = measureValidationTimes([run('Lang', [1000, 3000], { startup: [2000], recheck: 6000, cached: [5] }), run('Math', [10_000])], 'two runs');
    expect(t.perProject).toEqual({ Lang: { n: 4, meanMs: 3000, medianMs: 2500 }, Math: { n: 1, meanMs: 10_000, medianMs: 10_000 } });
  });

  it('runner-hours: each project its measured mean; an unmeasured one the mean of the measured; the pool capacity sets the wall clock', () => {
    const s = spec({ concurrency: { modelCalls: 8, validations: 2 } });
    const e = estimateExperiment(s, 4);
    const times = measureValidationTimes([run('Lang', [3600]), run('Math', [7200])], 'two runs');
    const bugs = [{ id: 'Lang-1', library: 'Lang' }, { id: 'Lang-2', library: 'Lang' }, { id: 'Math-1', library: 'Math' }, { id: 'Cli-1', library: 'Cli' }];
    const r = estimateRunnerTime(s, e, bugs, times, { total: 4, source: 'pool p: 2 runners' });
    const perBug = 2 * 2 + 2 * 4; // samples × bound, each variant
    expect(r.validations).toBe(4 * perBug);
    expect(r.projects.map((p) => [p.project, p.basis, p.msPerValidation])).toEqual([['Cli', 'mean of measured projects', 5400], ['Lang', 'measured', 3600], ['Math', 'measured', 7200]]);
    expect(r.runnerHours).toBeCloseTo((perBug * (5400 + 2 * 3600 + 7200)) / 3_600_000, 12);
    expect(r.parallelism).toBe(4);
    expect(r.wallClockHours).toBeCloseTo(r.runnerHours / 4, 12);
    // twice the capacity halves the wall clock, up to the runs in flight (modelCalls 8)
    expect(estimateRunnerTime(s, e, bugs, times, { total: 8, source: 'x' }).wallClockHours).toBeCloseTo(r.wallClockHours / 2, 12);
    expect(estimateRunnerTime(s, e, bugs, times, { total: 80, source: 'x' }).parallelism).toBe(8);
    expect(r.method.join(' ')).toMatch(/2 measurements from two runs/);
  });

  it('nothing measured: the default is used and labelled, in the text too', () => {
    const s = spec();
    const e = estimateExperiment(s, ['textkit-1', 'textkit-2']);
    const r = estimateRunnerTime(s, e, [{ id: 'textkit-1', library: 'textkit' }, { id: 'textkit-2', library: 'textkit' }], measureValidationTimes([], 'no runs'), { total: 2, source: 'one runner' });
    expect(r.projects[0]).toMatchObject({ basis: 'default (nothing measured)', msPerValidation: DEFAULT_VALIDATION_MS });
    const text = estimateText('spec.json', e, r);
    expect(text).toMatch(/runs {10}8 \(one per cell, one trajectory each: 2 bugs × 2 variants × 2 samples\)/);
    expect(text).toMatch(/NOTHING MEASURED/);
    expect(text).toMatch(/ASSUMED to take 30 s/);
    expect(text).toMatch(/model cost {4}at most \$0\.08 at \$1 in \/ \$4 out/);
    expect(() => estimateRunnerTime(s, e, [], measureValidationTimes([], 'x'), { total: 0, source: '--runners 0' })).toThrow(/--runners 0.*capacity 0/);
  });
});
