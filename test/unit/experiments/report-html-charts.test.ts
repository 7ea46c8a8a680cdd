// The HTML report carries every chart the Experiments tab draws — the same list (report-charts.ts), the same
// drawings — with plausible@k on a true k axis, each rate's denominator, the cells in error, and who answered each run
// (a demo recording and who wrote it, else the model). Over a hand-built experiment of real (scripted) trajectories.
import { describe, expect, it } from 'vitest';
import { parseExperimentSpec, type CellRecord, type ExperimentRecord } from '../../../worker/contracts/experiment.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import { chartTables, reportAnalyses, type ExperimentMetrics } from '../../../worker/experiments/analyses.ts';
import { buildReport, type ExperimentReport } from '../../../worker/experiments/report.ts';
import { reportCharts } from '../../../worker/experiments/report-charts.ts';
import { renderExperimentReportHtml } from '../../../worker/experiments/report-html.ts';
import { cellsCsvTable } from '../../../worker/experiments/exports.ts';
import { computeMetrics } from '../../../worker/experiments/metrics/index.ts';
import { demoBugAs, GROUND_TRUTH, SCRIPTS, SRC, SRC_TEXT, scriptedRun } from './metrics/runs.ts';

/** The charts the Experiments tab shows (experiment-results.ts draws `reportCharts`). */
const APP_CHARTS = ['plausible-at-k', 'cost-vs-success', 'valid-at-k', 'fixed-sets', 'cost-distribution', 'step-distribution', 'tool-calls', 'smell-counts', 'commands-by-step'];

const figure = (html: string, name: string) => new RegExp(`<figure data-testid="chart-${name}"[\\s\\S]*?</figure>`).exec(html)?.[0];

async function experiment(): Promise<{ report: ExperimentReport; runs: Trajectory[] }> {
  const spec = parseExperimentSpec({
    schemaVersion: 1,
    bugs: ['demo-1', 'demo-2'],
    variants: [{ name: 'a', preset: 'passerine' }, { name: 'b', preset: 'passerine' }],
    samples: 1,
    model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'priced-model' },
  });
  const fix = await scriptedRun(SCRIPTS.fix);
  const wrong = await scriptedRun(SCRIPTS.wrong);
  const searchy = await scriptedRun(SCRIPTS.searchy, { bug: demoBugAs('demo-2', 'SL') });
  // the fix was replayed from a hand-written demo recording (the field a replayed run carries)
  (fix.config.model as Record<string, unknown>).recording = { name: 'demo-1.passerine.fix', source: 'hand-authored' };
  const runs = [fix, wrong, searchy];
  const byId = new Map(runs.map((t) => [t.runId, t]));
  const cell = (index: number, bugId: string, variant: string, status: CellRecord['status'], run?: Trajectory, reason = ''): CellRecord => ({
    experimentId: 'exp-html', index, bugId, variant, sample: 0, runner: 0, status, ...(run ? { runId: run.runId } : {}), startedAt: '', attempts: [], reason, costUsd: 0, calls: 1, steps: 1,
  });
  // a fixes demo-1 and could not be served on demo-2 (an infrastructure error); b fixes nothing
  const cells = [
    cell(0, 'demo-1', 'a', 'plausible', fix),
    cell(1, 'demo-1', 'b', 'not-plausible', wrong),
    cell(2, 'demo-2', 'a', 'infrastructure-error', undefined, 'cassette_divergence: a prompt the recording never saw'),
    cell(3, 'demo-2', 'b', 'not-plausible', searchy),
  ];
  const record = { id: 'exp-html', status: 'finished', createdAt: '', bugs: [{ id: 'demo-1', category: 'SL' }, { id: 'demo-2', category: 'SL' }], cells: 4 } as unknown as ExperimentRecord;
  const analyses = reportAnalyses({ bugMeta: async (id) => ({ id, category: 'SL', groundTruthPatch: GROUND_TRUTH, buggyFiles: { [SRC]: SRC_TEXT }, testDirs: ['src/test/java'] }) });
  const report = await buildReport(record, spec, cells, async (id) => byId.get(id), analyses);
  return { report, runs };
}

describe('the HTML report', () => {
  it('carries every chart the Experiments tab draws, each as inline SVG with its table', async () => {
    const { report, runs } = await experiment();
    const metrics = (report.metrics as { result: ExperimentMetrics }).result;
    // the app's list is these nine
    expect(reportCharts(report, chartTables(metrics)).map((c) => c.name)).toEqual(APP_CHARTS);
    const html = renderExperimentReportHtml(report, runs, { generatedAt: 'now' });
    for (const name of APP_CHARTS) {
      const fig = figure(html, name);
      expect(fig, `chart ${name}`).toBeDefined();
      expect(fig).toMatch(/<svg width="\d+" height="\d+" viewBox="0 0 \d+ \d+" role="img"/);
      // marks beyond the background: bars, boxes, dots, lines
      expect((fig!.match(/<(rect|circle|polyline) /g) ?? []).length, `marks of ${name}`).toBeGreaterThanOrEqual(3);
      expect(fig).toContain(`data-testid="table-${name}"`);
    }
    // and the report's own two bars, with their denominators
    expect(figure(html, 'plausible-at-1')).toContain('0.5000 (of 2 bugs)');
    expect(figure(html, 'bugs-fixed')).toContain('1 of 2 attempted');
    // still one file: no script, no external reference, no URL at all
    expect(html).not.toMatch(/<script|\ssrc=|url\(|https?:\/\//);
  });

  it('draws plausible@k with k at its true distance: k = 1, 5, 10, 40 are proportional, not evenly spaced', () => {
    // a report whose metrics carry k = 1, 5, 10, 40 (computed over 40 samples of one bug, not typed in)
    const metrics = computeMetrics({ runs: [], errored: Array.from({ length: 40 }, (_, i) => ({ variant: 'v', bugId: 'b', sample: i })), bugs: [{ id: 'b', category: 'SL' }], ks: [1, 5, 10, 40] });
    const report = {
      experiment: { id: 'e', status: 'finished', createdAt: '', model: 'm', bugs: 1, variants: 1, samples: 40, cells: 40 },
      variants: [],
      metrics: { computed: true, result: { ...metrics, excludedCells: { 'infrastructure-error': 40, 'not-run': 0, running: 0, 'missing-run': 0 } } },
      statistics: { computed: false, note: 'not computed' },
      cells: [],
    } as unknown as ExperimentReport;
    const html = renderExperimentReportHtml(report, [], { generatedAt: 'now' });
    const fig = figure(html, 'plausible-at-k')!;
    const cx = Object.fromEntries([...fig.matchAll(/<circle cx="([\d.]+)"[^>]*data-x="(\d+)"/g)].map(([, x, k]) => [Number(k), Number(x)]));
    expect(Object.keys(cx).map(Number).sort((a, b) => a - b)).toEqual([1, 5, 10, 40]);
    const at = (k: number) => (cx[k]! - cx[1]!) / (cx[40]! - cx[1]!);
    expect(at(5)).toBeCloseTo(4 / 39, 3);
    expect(at(10)).toBeCloseTo(9 / 39, 3);
  });

  it('names each denominator, lists the cells in error, and marks an incomplete variant', async () => {
    const { report, runs } = await experiment();
    const html = renderExperimentReportHtml(report, runs, { generatedAt: 'now' });
    expect(html).toContain('<li data-variant="a" data-incomplete="no"><b>a</b>: plausible@1 = 0.50 (1 of 2 bugs; 1 cell in error counted as not plausible)');
    const errors = /<table data-testid="error-cells">[\s\S]*?<\/table>/.exec(html)![0];
    expect(errors).toContain('<td data-col="variant">a</td>');
    expect(errors).toContain('<td data-col="bug">demo-2</td>');
    expect(errors).toContain('cassette_divergence: a prompt the recording never saw');
    expect(html).toContain('repairlab experiment retry exp-html');

    const partial = { ...report, variants: report.variants.map((v) => (v.variant === 'b' ? { ...v, unfinished: 1, statuses: { ...v.statuses, 'not-run': 1 } } : v)) };
    const marked = renderExperimentReportHtml(partial, runs, { generatedAt: 'now' });
    expect(marked).toMatch(/<tr class="incomplete"><td data-col="variant">b<\/td>/);
    expect(marked).toContain('<li data-variant="b" data-incomplete="yes"><b>b</b> <span class="incomplete">(incomplete)</span>');
  });

  it('says who answered each run: the demo recording and who wrote it, else the model — in the HTML and the cells CSV', async () => {
    const { report, runs } = await experiment();
    const html = renderExperimentReportHtml(report, runs, { generatedAt: 'now' });
    expect(html).toContain('model recording demo-1.passerine.fix (replies written by hand, not by a model)');
    expect(html).toMatch(/data-testid="experiment-model">model recording demo-1\.passerine\.fix \(replies written by hand, not by a model\); priced-model</);
    const byId = new Map(runs.map((t) => [t.runId, t]));
    const csv = await cellsCsvTable(report, async (id) => byId.get(id));
    const col = (name: string) => csv.columns.indexOf(name);
    expect(csv.rows.map((r) => [r[col('bug')], r[col('variant')], r[col('model')], r[col('recording_source')]])).toEqual([
      ['demo-1', 'a', 'demo-1.passerine.fix', 'hand-authored'],
      ['demo-1', 'b', 'priced-model', null],
      ['demo-2', 'a', 'priced-model', null],
      ['demo-2', 'b', 'priced-model', null],
    ]);
  });
});
