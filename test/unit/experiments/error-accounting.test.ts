// Infrastructure errors are counted and shown, never silently left out. The tester's case: the one-shot variant fixed
// textkit-1 and the endpoint (a demo recording of textkit-1) could not serve textkit-3 — plausible@1 read 1 because the
// error cell left the denominator. Here every rate is over the cells attempted, an error counts as not plausible, and
// each format (the report's rows, --md, the text report, the CSVs, the metrics) says its denominator and the errors.
import { describe, expect, it } from 'vitest';
import { parseExperimentSpec, type CellRecord, type ExperimentRecord } from '../../../worker/contracts/experiment.ts';
import { buildReport, reportMarkdown, reportText } from '../../../worker/experiments/report.ts';
import { variantDenominators, variantRows, variantTable } from '../../../worker/experiments/report-denominators.ts';
import { bugsCsvTable } from '../../../worker/experiments/exports.ts';
import { csvTable } from '../../../worker/experiments/report-tables.ts';
import { computeMetrics } from '../../../worker/experiments/metrics/index.ts';
import { statisticsTable } from '../../../worker/experiments/report-statistics.ts';

const spec = (variants: string[], samples = 1) =>
  parseExperimentSpec({
    schemaVersion: 1,
    bugs: ['textkit-1', 'textkit-3'],
    variants: variants.map((name) => ({ name, preset: 'oneshot' })),
    samples,
    model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'm' },
  });

let index = 0;
const cell = (bugId: string, variant: string, sample: number, status: CellRecord['status'], reason = ''): CellRecord => ({
  experimentId: 'exp-1', index: index++, bugId, variant, sample, runner: 0, status, ...(status === 'not-run' ? {} : { runId: `run-${index}` }), startedAt: '', attempts: [], reason, costUsd: 0, calls: 1, steps: 1,
});

const DIVERGED = 'the model endpoint failed: cassette_divergence: this prompt is none of the recorded ones';

describe('the per-variant counts', () => {
  it('count a cell in error as attempted and not plausible: plausible@1 = 1 of 2 bugs, not 1 of 1', () => {
    index = 0;
    const cells = [cell('textkit-1', 'oneshot', 0, 'plausible'), cell('textkit-3', 'oneshot', 0, 'infrastructure-error', DIVERGED)];
    const [row] = variantRows(spec(['oneshot']), cells, 2);
    expect(row).toMatchObject({ cells: 2, attempted: 2, unfinished: 0, plausibleAt1: 0.5, firstSamples: 2, firstPlausible: 1, firstSampleErrors: 1, plausible: 1, bugsFixed: 1, bugsAttempted: 2 });
    expect(variantDenominators(row!)).toEqual([
      'plausible@1 = 0.50 (1 of 2 bugs; 1 cell in error counted as not plausible)',
      'bugs fixed = 1 of 2 bugs attempted',
      'plausible cells = 1 of 2 attempted (1 in error)',
    ]);
  });

  it('leave cells not run (or not started) out of the denominators and mark the variant incomplete', () => {
    index = 0;
    const cells = [cell('textkit-1', 'a', 0, 'plausible'), cell('textkit-1', 'a', 1, 'not-run'), cell('textkit-3', 'a', 0, 'infrastructure-error', DIVERGED)];
    const [row] = variantRows(spec(['a'], 2), cells, 2);
    // 4 planned; textkit-3 sample 2 never started
    expect(row).toMatchObject({ cells: 4, attempted: 2, unfinished: 2, plausibleAt1: 0.5, firstSamples: 2 });
    expect(variantDenominators(row!).at(-1)).toBe('incomplete: 2 of 4 cells have not ended (1 not run, 1 not started)');
    const table = variantTable([row!]);
    expect(table.rows[0]![table.columns.indexOf('complete')]).toBe('no');
  });
});

describe('the report in every format', () => {
  it('names each denominator and lists the cells in error with their variant, bug, sample and error', async () => {
    index = 0;
    const s = spec(['oneshot', 'other']);
    const cells = [
      cell('textkit-1', 'oneshot', 0, 'plausible'),
      cell('textkit-1', 'other', 0, 'plausible'),
      cell('textkit-3', 'oneshot', 0, 'infrastructure-error', DIVERGED),
      cell('textkit-3', 'other', 0, 'not-plausible'),
    ];
    const experiment = { id: 'exp-1', status: 'finished', createdAt: '', bugs: [{ id: 'textkit-1', category: 'SL' }, { id: 'textkit-3', category: 'SL' }], cells: 4 } as unknown as ExperimentRecord;
    const report = await buildReport(experiment, s, cells, async () => undefined);
    expect(report.variants.map((v) => [v.variant, v.plausibleAt1, v.firstSamples])).toEqual([['oneshot', 0.5, 2], ['other', 0.5, 2]]);

    const md = reportMarkdown(report);
    expect(md).toContain('**oneshot**: plausible@1 = 0.50 (1 of 2 bugs; 1 cell in error counted as not plausible)');
    expect(md).toContain('**other**: plausible@1 = 0.50 (1 of 2 bugs)');
    expect(md).toContain('## Cells in error (1)');
    expect(md).toContain(`| 2 | oneshot | textkit-3 | 1 | 1 | ${DIVERGED} |`);
    expect(md).toContain('repairlab experiment retry exp-1');
    // the variants table carries the denominators beside the counts
    expect(md).toMatch(/\| variant \| preset \| cells \| attempted \| unfinished \| plausible@1 \| first_samples \| first_samples_in_error \|/);

    const text = reportText(report);
    expect(text).toContain('plausible@1 = 0.50 (1 of 2 bugs; 1 cell in error counted as not plausible)');
    expect(text).toContain(`oneshot · textkit-3 · sample 1: ${DIVERGED}`);

    // per bug: plausible, attempted (errors in), in error
    expect(csvTable(bugsCsvTable(report))).toBe('bug,oneshot plausible,oneshot attempted,oneshot in error,other plausible,other attempted,other in error\ntextkit-1,1,1,0,1,1,0\ntextkit-3,0,1,1,0,1,0\n');
  });
});

describe('the metrics and tests', () => {
  it('keep a bug whose only sample is in error as attempted and not fixed (n counts it, c does not)', () => {
    const metrics = computeMetrics({ runs: [], errored: [{ variant: 'v', bugId: 'b', sample: 0 }], bugs: [{ id: 'b', category: 'SL' }], ks: [1] });
    expect(metrics.cells).toEqual([expect.objectContaining({ variant: 'v', bugId: 'b', n: 1, errored: 1, plausible: 0, pass: false, plausibleAtK: { 1: 0 } })]);
    expect(metrics.summary.find((s) => s.category === 'all')).toMatchObject({ bugs: 1, trajectories: 0, samplesInError: 1, pass: 0, plausibleAt1: 0, validAtK: { 1: 0 } });
    expect(() => computeMetrics({ runs: [], errored: [{ variant: 'v', bugId: 'b', sample: 0 }, { variant: 'v', bugId: 'b', sample: 0 }], bugs: [{ id: 'b', category: 'SL' }] })).toThrow(/give each cell sample once/);
  });

  it('compare steps and cost only where every variant has a run: an error-only cell is not "unpriced"', () => {
    const perBug = [
      { variant: 'a', bugId: 'b', category: 'SL' as const, n: 1, errored: 1, plausible: 0, steps: { all: null, success: null, failure: null }, costUsd: { all: null, success: null, failure: null } },
      { variant: 'b', bugId: 'b', category: 'SL' as const, n: 1, errored: 0, plausible: 0, steps: { all: 3, success: null, failure: 3 }, costUsd: { all: 0.1, success: null, failure: 0.1 } },
    ];
    const t = statisticsTable({ variants: ['a', 'b'], cells: [], categories: new Map([['b', 'SL']]), perBug, excluded: {}, alpha: 0.05 });
    expect(t.measures.find((m) => m.metric === 'cost' && m.set === 'all-bugs')).toMatchObject({ n: 0, unpriced: 0 });
  });
});
