// The page's share API (worker/share/share-api.ts) over real record stores: an experiment written as a bundle and opened
// in another store lists its runs by cell; a damaged bundle stores nothing; a replay of chosen runs replays only those,
// equal to the recording, and leaves no replay record behind. The page end to end (real runner, real browser) is
// test/e2e/share.spec.ts.
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { deleteTrajectory, listTrajectoryHeaders, storeRecorder } from '../../../worker/records/persistence.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { createReplayProvider } from '../../../worker/llm/replay-provider.ts';
import { parseCassette } from '../../../worker/contracts/cassette.ts';
import { MemoryRecordStore } from '../../../worker/platform/memory-records.ts';
import { ExperimentStore } from '../../../worker/experiments/experiment-store.ts';
import { EXPERIMENT_SCHEMA_VERSION, type CellRecord } from '../../../worker/contracts/experiment.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import type { RunRequest } from '../../../worker/contracts/runs.ts';
import { ShareApi, type ReplayRuns } from '../../../worker/share/share-api.ts';
import { demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF, WRONG_DIFF } from '../agent/fixtures.ts';

const ID = 'exp-share-api';
const RUNNER = { url: 'http://127.0.0.1:9', token: 't' };

/** The run manager's part the share API uses, over a record store: runs are recorded there, and deleted from it. */
function runsOver(records: MemoryRecordStore): ReplayRuns & { started: RunRequest[] } {
  const started: RunRequest[] = [];
  return {
    started,
    async start(request) {
      started.push(request);
      if (request.model.kind !== 'replay') throw new Error('a bundle replay must use the replay provider');
      const t = await runAgent({
        strategy: resolveStrategy(request.preset, { variants: request.variants, overrides: request.overrides }),
        preset: request.preset,
        overrides: request.overrides,
        bug: demoBug,
        workspace: demoWorkspace(),
        validator: new FakeValidator(),
        llm: createReplayProvider(parseCassette(request.model.cassette), { strict: true }),
        tools: [applyPatchTool],
        record: storeRecorder(records),
      });
      return [t];
    },
    delete: (runId) => deleteTrajectory(records, runId),
  };
}

async function finishedExperiment() {
  const records = new MemoryRecordStore();
  const runs: Trajectory[] = [];
  for (const replies of [[fence(WRONG_DIFF), fence(GOOD_DIFF)], [fence(GOOD_DIFF)]]) {
    runs.push(
      await runAgent({
        strategy: resolveStrategy('oneshot'),
        preset: 'oneshot',
        bug: demoBug,
        workspace: demoWorkspace(),
        validator: new FakeValidator(),
        llm: createScriptedProvider(replies),
        tools: [applyPatchTool],
        record: storeRecorder(records),
      }),
    );
  }
  const now = new Date(0).toISOString();
  const spec = { schemaVersion: 1, bugs: [demoBug.id], variants: [{ name: 'a', preset: 'oneshot', variants: [], overrides: {} }], samples: 2, model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'm' } };
  await records.put('experiments', ID, { schemaVersion: EXPERIMENT_SCHEMA_VERSION, kind: 'repairlab-experiment', id: ID, createdAt: now, updatedAt: now, status: 'finished', spec, bugs: [{ id: demoBug.id, category: 'SL' }], runnerOfBug: { [demoBug.id]: 0 }, cells: 2, wallMsBefore: 0 });
  for (const [i, t] of runs.entries()) {
    const cell: CellRecord = { experimentId: ID, index: i, bugId: demoBug.id, variant: 'a', sample: i, runner: 0, status: 'plausible', runId: t.runId, startedAt: now, finishedAt: now, attempts: [], reason: '', costUsd: null, calls: t.steps.length, steps: t.steps.length };
    await new ExperimentStore(records).putCell(cell);
  }
  return { records, runs };
}

describe('ShareApi', () => {
  it('writes an experiment as a bundle that opens in another store with every counted run listed by cell', async () => {
    const { records, runs } = await finishedExperiment();
    const file = await new ShareApi(records, runsOver(records)).bundle(ID);
    expect(file).toMatchObject({ cells: 2, runs: 2, name: `${ID}.${file.sha256.slice(0, 16)}.rlbundle.json.gz` });

    const elsewhere = new MemoryRecordStore();
    const share = new ShareApi(elsewhere, runsOver(elsewhere));
    expect(await share.hasExperiment(ID)).toBe(false);
    const opened = await share.open(file.bytes, file.name);
    expect(opened).toMatchObject({ experimentId: ID, sha256: file.sha256, cells: 2, runs: 2, alreadyPresent: false });
    expect(opened.cellRuns).toEqual(runs.map((t, i) => ({ runId: t.runId, bugId: demoBug.id, variant: 'a', sample: i, recorded: 'plausible' })));
    expect(await share.hasExperiment(ID)).toBe(true);
    expect((await listTrajectoryHeaders(elsewhere)).map((h) => h.runId).sort()).toEqual(runs.map((t) => t.runId).sort());
  });

  it('stores nothing from a damaged bundle and names the file', async () => {
    const { records } = await finishedExperiment();
    const file = await new ShareApi(records, runsOver(records)).bundle(ID);
    const elsewhere = new MemoryRecordStore();
    await expect(new ShareApi(elsewhere, runsOver(elsewhere)).open(file.bytes.subarray(0, file.bytes.length - 30), 'cut.rlbundle.json.gz')).rejects.toThrow(/^cut\.rlbundle\.json\.gz is not a usable RepairLab bundle/);
    expect(await elsewhere.list('experiments')).toEqual([]);
    expect(await listTrajectoryHeaders(elsewhere)).toEqual([]);
  });

  it('refuses a bundle other than the one a link expects, naming both hashes, and stores nothing', async () => {
    const { records } = await finishedExperiment();
    const file = await new ShareApi(records, runsOver(records)).bundle(ID);
    const elsewhere = new MemoryRecordStore();
    const share = new ShareApi(elsewhere, runsOver(elsewhere));
    const expected = '0'.repeat(64);
    await expect(share.open(file.bytes, 'https://example.org/b.gz', expected)).rejects.toThrow(`the link expects sha256 ${expected}, the file has sha256 ${file.sha256}`);
    expect(await elsewhere.list('experiments')).toEqual([]);
    expect(await listTrajectoryHeaders(elsewhere)).toEqual([]);
    // the expected one opens
    expect(await share.open(file.bytes, 'https://example.org/b.gz', file.sha256)).toMatchObject({ experimentId: ID, runs: 2 });
  });

  it('replays only the chosen runs, equal to the recording, on the given runner, and keeps no replay record', async () => {
    const { records, runs } = await finishedExperiment();
    const manager = runsOver(records);
    const share = new ShareApi(records, manager);
    const before = (await listTrajectoryHeaders(records)).map((h) => h.runId).sort();
    const results = await share.replay(ID, RUNNER, [runs[0]!.runId]);
    expect(results.map((r) => [r.runId, r.result, r.recorded, r.replayed])).toEqual([[runs[0]!.runId, 'equal', 'plausible', 'plausible']]);
    expect(manager.started).toHaveLength(1);
    expect(manager.started[0]!.runner).toEqual(RUNNER);
    expect((await listTrajectoryHeaders(records)).map((h) => h.runId).sort()).toEqual(before);
    // every run when none is named; a run the experiment does not count is refused by name
    expect((await share.replay(ID, RUNNER)).map((r) => r.result)).toEqual(['equal', 'equal']);
    await expect(share.replay(ID, RUNNER, ['run-nope'])).rejects.toThrow(/counts no run run-nope/);
  });
});
