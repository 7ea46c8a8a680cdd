// The report's analyses seam on a hand-built experiment of real (scripted) trajectories: only counted cells' runs reach
// the per-run metrics — an infrastructure error's run is left out even though its trajectory is plausible — yet the
// error cell stays in the rates' denominators as a sample that is not plausible; the bug metadata loader is asked for
// the final patches, and the statistics share the metrics' per-bug table.
import { describe, expect, it } from 'vitest';
import { parseExperimentSpec, type CellRecord, type ExperimentRecord } from '../../../worker/contracts/experiment.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import { reportAnalyses, type ExperimentMetrics } from '../../../worker/experiments/analyses.ts';
import type { BugMeta } from '../../../worker/experiments/metrics/index.ts';
import { buildReport } from '../../../worker/experiments/report.ts';
import type { StatisticsTable } from '../../../worker/experiments/report-statistics.ts';
import { GROUND_TRUTH, SCRIPTS, SRC, SRC_TEXT, scriptedRun } from './metrics/runs.ts';

describe('reportAnalyses', () => {
  it('counts only plausible / not-plausible / budget cells, and hands the metrics the bug metadata of their patches', async () => {
    const spec = parseExperimentSpec({
      schemaVersion: 1,
      bugs: ['demo-1'],
      variants: [{ name: 'a', preset: 'passerine' }, { name: 'b', preset: 'passerine' }],
      samples: 2,
      model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'priced-model' },
    });
    const fix = await scriptedRun(SCRIPTS.fix);
    const wrong = await scriptedRun(SCRIPTS.wrong);
    const infraFix = await scriptedRun(SCRIPTS.fix);
    const runs = new Map<string, Trajectory>([fix, wrong, infraFix].map((t) => [t.runId, t]));
    const cell = (index: number, variant: string, sample: number, status: CellRecord['status'], run?: Trajectory): CellRecord => ({
      experimentId: 'exp-1', index, bugId: 'demo-1', variant, sample, runner: 0, status, ...(run ? { runId: run.runId } : {}), startedAt: '', attempts: [], reason: '', costUsd: 0, calls: 0, steps: 0,
    });
    // a: sample 0 fixed, sample 1 an infrastructure error (its run was plausible, but it says nothing of the agent);
    // b: sample 0 wrong, sample 1 not run
    const cells = [cell(0, 'a', 0, 'plausible', fix), cell(1, 'a', 1, 'infrastructure-error', infraFix), cell(2, 'b', 0, 'not-plausible', wrong), cell(3, 'b', 1, 'not-run')];
    const experiment = { id: 'exp-1', status: 'finished', createdAt: '', bugs: [{ id: 'demo-1', category: 'SL' }], cells: 4 } as unknown as ExperimentRecord;
    const asked: string[][] = [];
    const bugMeta = async (bugId: string, patches: readonly string[]): Promise<BugMeta> => {
      asked.push([bugId, ...patches]);
      return { id: bugId, category: 'SL', groundTruthPatch: GROUND_TRUTH, buggyFiles: { [SRC]: SRC_TEXT }, testDirs: ['src/test/java'] };
    };
    const report = await buildReport(experiment, spec, cells, async (id) => runs.get(id), reportAnalyses({ bugMeta }));

    // the loader saw the two counted runs' final patches only
    expect(asked).toEqual([['demo-1', ...[fix, wrong].map((t) => t.outcome!.finalPatch).filter(Boolean)]]);
    const metrics = (report.metrics as { result: ExperimentMetrics }).result;
    expect(metrics.excludedCells).toEqual({ 'infrastructure-error': 1, 'not-run': 1, running: 0, 'missing-run': 0 });
    expect(metrics.trajectories.map((t) => [t.variant, t.sample, t.plausible])).toEqual([['a', 0, true], ['b', 0, false]]);
    // ks: 1 and the 2 samples; a attempted two (one run, one error): the error is in n, not a success
    expect(metrics.ks).toEqual([1, 2]);
    expect(metrics.baseline).toBe('a');
    const a = metrics.summary.find((s) => s.variant === 'a' && s.category === 'all')!;
    expect(a).toMatchObject({ bugs: 1, trajectories: 1, samplesInError: 1, pass: 1, uniquePass: 1, plausibleAt1: 0.5, plausibleAtK: { 2: 1 }, tooFewSamples: { 2: 0 }, exactMatchBugs: 1 });
    expect(metrics.cells.find((c) => c.variant === 'a')).toMatchObject({ n: 2, errored: 1, plausible: 1 });

    // statistics: the (demo-1, sample 0) row only — [1, 0]; sample 1 has no counted cell in either variant
    const stats = (report.statistics as { result: StatisticsTable }).result;
    expect(stats.plausibility[0]).toMatchObject({ category: 'all', test: 'mcnemar', n: 1, successes: [1, 0], pvalue: 1, significant: false });
    expect(stats.excludedCells).toEqual(metrics.excludedCells);
    // one bug, not fixed by b: the matched set is empty; over all bugs the Wilcoxon test has one pair (4 vs 3 steps)
    expect(stats.measures.find((m) => m.metric === 'steps' && m.set === 'fixed-by-all')).toMatchObject({ n: 0 });
    expect(stats.measures.find((m) => m.metric === 'steps' && m.set === 'all-bugs')).toMatchObject({ n: 1, test: 'wilcoxon', medians: [4, 3] });
  });
});
