// The report counts labels: an experiment of real (scripted) trajectories, labels in the CLI's record store (JSON
// files), and the report's Markdown, CSV and HTML carrying correct@k, the unlabelled count, the agreement, the
// disagreements and McNemar on correct. No Java parser is given, so the commented fix (no exact match) waits for
// a label; its two runs in variant b and one in a are one patch.
//            demo-1, samples 0 1 2
//   a        fix, fixWithComment, wrong
//   b        fixWithComment, fixWithComment, wrong
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExperimentSpec, type CellRecord, type ExperimentRecord } from '../../../worker/contracts/experiment.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import { reportAnalyses, type ExperimentMetrics } from '../../../worker/experiments/analyses.ts';
import { buildReport, reportCsv, reportMarkdown, reportText } from '../../../worker/experiments/report.ts';
import { renderExperimentReportHtml } from '../../../worker/experiments/report-html.ts';
import type { StatisticsTable } from '../../../worker/experiments/report-statistics.ts';
import { patchKey } from '../../../worker/diff/normalised-patch.ts';
import { createNodeRecordStore } from '../../../worker/platform/node.ts';
import { PatchLabelStore } from '../../../worker/records/patch-label-store.ts';
import { GROUND_TRUTH, SCRIPTS, SRC, SRC_TEXT, scriptedRun } from './metrics/runs.ts';

const spec = parseExperimentSpec({
  schemaVersion: 1,
  bugs: ['demo-1'],
  variants: [{ name: 'a', preset: 'passerine' }, { name: 'b', preset: 'passerine' }],
  samples: 3,
  model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'priced-model' },
});
const experiment = { id: 'exp-1', status: 'finished', createdAt: '', bugs: [{ id: 'demo-1', category: 'SL' }], cells: 6 } as unknown as ExperimentRecord;
let dir: string;
let store: PatchLabelStore;
let runs: Map<string, Trajectory>;
let cells: CellRecord[];
let commented: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'report-labels-'));
  store = new PatchLabelStore(createNodeRecordStore(dir));
  const plan = { a: ['fix', 'fixWithComment', 'wrong'], b: ['fixWithComment', 'fixWithComment', 'wrong'] } as const;
  runs = new Map();
  cells = [];
  for (const [variant, scripts] of Object.entries(plan)) {
    for (const [sample, script] of scripts.entries()) {
      const t = await scriptedRun(SCRIPTS[script]);
      runs.set(t.runId, t);
      cells.push({ experimentId: 'exp-1', index: cells.length, bugId: 'demo-1', variant, sample, runner: 0, status: t.outcome!.plausible ? 'plausible' : 'not-plausible', runId: t.runId, startedAt: '', attempts: [], reason: '', costUsd: 0, calls: 0, steps: 0 });
    }
  }
  commented = patchKey(runs.get(cells[1]!.runId!)!.outcome!.finalPatch, ['src/test/java']);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const report = () =>
  buildReport(experiment, spec, cells, async (id) => runs.get(id), reportAnalyses({
    bugMeta: async (bugId) => ({ id: bugId, category: 'SL', groundTruthPatch: GROUND_TRUTH, buggyFiles: { [SRC]: SRC_TEXT }, testDirs: ['src/test/java'] }),
    labels: () => store.all(),
  }));

describe('labels in the report', () => {
  it('unlabelled: the commented fix waits, counted as not correct, and the report says so', async () => {
    const r = await report();
    const m = (r.metrics as { result: ExperimentMetrics }).result;
    expect(m.labels).toMatchObject({ plausiblePatches: 2, toReview: 1, unlabelledPatches: 1, unlabelledRuns: 3 });
    expect(reportMarkdown(r)).toContain('2 distinct plausible patches, 1 decided by exact or AST match, 1 to review; 1 still unlabelled (3 runs, counted as not correct)');
    const stats = (r.statistics as { result: StatisticsTable }).result;
    expect(stats.correctness[0]).toMatchObject({ test: 'mcnemar', n: 3, successes: [1, 0] });
  });

  it('two raters disagree, a resolution decides: correct@1, McNemar on correct, the disagreement listed in every format', async () => {
    await store.label({ bugId: 'demo-1', patchKey: commented, rater: 'ana', label: 'correct' });
    await store.label({ bugId: 'demo-1', patchKey: commented, rater: 'ben', label: 'overfitting', note: 'drops the guard' });
    let m = ((await report()).metrics as { result: ExperimentMetrics }).result;
    // unresolved: still waiting
    expect(m.labels!.unlabelledPatches).toBe(1);
    await store.resolve({ bugId: 'demo-1', patchKey: commented, label: 'correct', by: 'ana' });
    const r = await report();
    m = (r.metrics as { result: ExperimentMetrics }).result;
    const all = (v: string) => m.summary.find((s) => s.variant === v && s.category === 'all')!;
    expect(all('a').correctAt1).toBeCloseTo(2 / 3, 12);
    expect(all('b').correctAt1).toBeCloseTo(2 / 3, 12);
    expect(all('b').correctAtK['3']).toBe(1);
    expect(m.labels).toMatchObject({ unlabelledPatches: 0, unlabelledRuns: 0 });
    expect(m.labels!.agreement.disagreements).toEqual([{ bugId: 'demo-1', patchKey: commented, labels: { ana: 'correct', ben: 'overfitting' }, notes: { ben: 'drops the guard' }, resolved: 'correct' }]);
    const stats = (r.statistics as { result: StatisticsTable }).result;
    expect(stats.correctness[0]).toMatchObject({ successes: [2, 2], pvalue: 1 });

    const md = reportMarkdown(r);
    expect(md).toContain('## Correct patches');
    expect(md).toContain('| a | all | 1 | 1 | 1 | 0 | 0.6667 | 1 | 0 | 0 |');
    expect(md).toContain(`| demo-1 | ${commented} | correct | overfitting | correct |`);
    expect(md).toContain('### Correct patches');
    expect(reportText(r)).toMatch(/a +#pass 1 .*#correct 1 +correct@1 0\.667 +correct@3 1\.000 +unlabelled 0/);
    expect(reportCsv(r, 'labels').split('\n').slice(1, 4)).toEqual([
      expect.stringMatching(new RegExp(`^demo-1,${commented},ana,correct,,`)),
      expect.stringMatching(new RegExp(`^demo-1,${commented},ben,overfitting,drops the guard,`)),
      expect.stringMatching(new RegExp(`^demo-1,${commented},resolved by ana,correct,,`)),
    ]);
    expect(reportCsv(r, 'correctness').split('\n')[0]).toBe('variant,category,bugs,#pass,#correct,#unique_correct,correct@1,correct@3,unlabelled_runs,unlabelled_patches');
    expect(reportCsv(r, 'correct-tests')).toContain('all,mcnemar,3,');
    const html = renderExperimentReportHtml(r, [...runs.values()], { generatedAt: 'now' });
    expect(html).toContain('data-testid="table-correctness"');
    expect(html).toContain('data-testid="table-disagreements"');
    expect(html).toContain('data-testid="table-correct-tests"');
    expect(html).toMatch(/data-testid="labels-summary">[^<]*0 still unlabelled/);
  });
});
