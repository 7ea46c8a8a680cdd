// Bundles in process: collected from a record store, written, read back and verified (hash, version, references),
// and opened into another store all or nothing. The CLI round trip with the real runner is in
// test/integration/cli/share.test.ts.
import { describe, expect, it } from 'vitest';
import { gunzipSync, gzipSync } from 'fflate';
import { runAgent } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { listTrajectoryHeaders, loadTrajectory, storeRecorder } from '../../../worker/records/persistence.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { MemoryRecordStore } from '../../../worker/platform/memory-records.ts';
import { ExperimentStore } from '../../../worker/experiments/experiment-store.ts';
import { EXPERIMENT_SCHEMA_VERSION, type CellRecord, type ExperimentRecord } from '../../../worker/contracts/experiment.ts';
import { bundleHash, collectBundle, readBundle, writeBundle } from '../../../worker/share/experiment-bundle.ts';
import { importBundle } from '../../../worker/share/bundle-import.ts';
import { replayBundle, type StartReplay } from '../../../worker/share/bundle-replay.ts';
import { createReplayProvider } from '../../../worker/llm/replay-provider.ts';
import { parseCassette } from '../../../worker/contracts/cassette.ts';
import { canonicalJson } from '../../../worker/llm/prompt-hash.ts';
import { demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF, WRONG_DIFF } from '../agent/fixtures.ts';

const ID = 'exp-unit-1';

async function recordedExperiment(status: ExperimentRecord['status'] = 'finished') {
  const records = new MemoryRecordStore();
  const runIds: string[] = [];
  for (const replies of [[fence(WRONG_DIFF), fence(GOOD_DIFF)], [fence(GOOD_DIFF)]]) {
    const t = await runAgent({
      strategy: resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 3 } } }),
      preset: 'oneshot',
      overrides: { budgets: { maxSteps: 3 } },
      bug: demoBug,
      workspace: demoWorkspace(),
      validator: new FakeValidator(),
      llm: createScriptedProvider(replies),
      tools: [applyPatchTool],
      record: storeRecorder(records),
    });
    runIds.push(t.runId);
  }
  const store = new ExperimentStore(records);
  const now = new Date(0).toISOString();
  const spec = { schemaVersion: 1, bugs: [demoBug.id], variants: [{ name: 'a', preset: 'oneshot', variants: [], overrides: {} }], samples: 2, model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'm' } };
  await records.put('experiments', ID, { schemaVersion: EXPERIMENT_SCHEMA_VERSION, kind: 'repairlab-experiment', id: ID, createdAt: now, updatedAt: now, status, spec, bugs: [{ id: demoBug.id, category: 'SL' }], runnerOfBug: { [demoBug.id]: 0 }, cells: 2, wallMsBefore: 0 });
  for (const [i, runId] of runIds.entries()) {
    const cell: CellRecord = { experimentId: ID, index: i, bugId: demoBug.id, variant: 'a', sample: i, runner: 0, status: 'plausible', runId, startedAt: now, finishedAt: now, attempts: [], reason: '', costUsd: null, calls: 2 - i, steps: 2 - i };
    await store.putCell(cell);
  }
  return { records, runIds };
}

/** A bundle file with `edit` applied to its parsed JSON, re-hashed so only the edit is wrong. */
async function edited(bytes: Uint8Array, edit: (file: Record<string, unknown> & { content: Record<string, unknown[]> }) => void): Promise<Uint8Array> {
  const file = JSON.parse(new TextDecoder().decode(gunzipSync(bytes)));
  edit(file);
  file.sha256 = await bundleHash(file.content);
  return gzipSync(new TextEncoder().encode(JSON.stringify(file)));
}

describe('bundles', () => {
  it('round trip: written, read back and verified; the same content always has the same hash, either backend', async () => {
    const { records, runIds } = await recordedExperiment();
    const content = await collectBundle(records, ID);
    expect(content.runs.map((r) => r.trajectory.runId)).toEqual([...runIds].sort());
    expect(content.runs.map((r) => r.cassette.calls.length).sort()).toEqual([1, 2]);
    const native = await writeBundle(content);
    const viaFflate = await writeBundle(content, 'fflate');
    expect(viaFflate.sha256).toBe(native.sha256);
    expect(native.name).toBe(`${ID}.${native.sha256.slice(0, 16)}.rlbundle.json.gz`);
    for (const bytes of [native.bytes, viaFflate.bytes]) {
      const read = await readBundle(bytes, 'b.gz', 'fflate');
      expect(read.sha256).toBe(native.sha256);
      expect(canonicalJson(read.content)).toBe(canonicalJson(JSON.parse(JSON.stringify(content))));
    }
    expect((await writeBundle(await collectBundle(records, ID))).sha256).toBe(native.sha256);
  });

  it('refuses to bundle an experiment that is not over, or whose run is missing', async () => {
    const running = await recordedExperiment('running');
    await expect(collectBundle(running.records, ID)).rejects.toThrow(`experiment ${ID} is not over (it is running): let it finish`);
    const { records, runIds } = await recordedExperiment();
    await records.delete('trajectories', runIds[1]!);
    await expect(collectBundle(records, ID)).rejects.toThrow(`run ${runIds[1]} of one of its cells is not in the record store`);
    await expect(collectBundle(records, 'exp-nope')).rejects.toThrow('there is no experiment exp-nope');
  });

  it('refuses a newer version, a wrong kind, a cell pointing at a run it lacks, and a cassette that is not the run\'s', async () => {
    const { records } = await recordedExperiment();
    const { bytes } = await writeBundle(await collectBundle(records, ID));
    const unhashed = JSON.parse(new TextDecoder().decode(gunzipSync(bytes)));
    unhashed.content.cells[0].reason = 'edited afterwards';
    await expect(readBundle(gzipSync(new TextEncoder().encode(JSON.stringify(unhashed))), 'b.gz')).rejects.toThrow(/b\.gz is not a usable RepairLab bundle: its content does not match its hash/);
    await expect(readBundle(bytes.subarray(0, 100), 'b.gz')).rejects.toThrow(/it is not complete gzip data/);
    await expect(readBundle(await edited(bytes, (f) => (f.schemaVersion = 2)), 'b.gz')).rejects.toThrow(/bundle version 2, newer than this RepairLab reads \(1\)/);
    await expect(readBundle(await edited(bytes, (f) => (f.kind = 'repairlab-cassette')), 'b.gz')).rejects.toThrow(/its kind is "repairlab-cassette", not "repairlab-bundle"/);
    await expect(readBundle(await edited(bytes, (f) => f.content.runs!.pop()), 'b.gz')).rejects.toThrow(/cell \d points at run run-\S+, which it does not hold/);
    await expect(readBundle(await edited(bytes, (f) => ((f.content.runs![0] as { cassette: { calls: unknown[] } }).cassette.calls = [])), 'b.gz')).rejects.toThrow(/its cassette does not hold the replies of its steps/);
    await expect(readBundle(await edited(bytes, (f) => ((f.content.cells![0] as { index: unknown }).index = 'x')), 'b.gz')).rejects.toThrow(/content\.cells\.0\.index/);
  });

  it('opens into another store: listed like local runs; a conflict or a failed write leaves nothing behind', async () => {
    const { records, runIds } = await recordedExperiment();
    const bundle = await readBundle((await writeBundle(await collectBundle(records, ID))).bytes, 'b.gz');
    const fresh = new MemoryRecordStore();
    expect(await importBundle(fresh, bundle)).toMatchObject({ experimentId: ID, cells: 2, runs: 2, alreadyPresent: false });
    expect((await new ExperimentStore(fresh).list()).map((e) => e.id)).toEqual([ID]);
    expect((await listTrajectoryHeaders(fresh)).map((h) => h.runId).sort()).toEqual([...runIds].sort());
    for (const id of runIds) expect(canonicalJson(await loadTrajectory(fresh, id))).toBe(canonicalJson(await loadTrajectory(records, id)));
    expect(await importBundle(fresh, bundle)).toMatchObject({ alreadyPresent: true, runs: 0, runsPresent: 2 });

    // a store holding a different run under one of the ids: refused before any write
    const other = new MemoryRecordStore();
    const first = (await loadTrajectory(records, runIds[0]!))!;
    await storeRecorder(other)({ ...first, createdAt: 'another time' });
    const before = await snapshot(other);
    await expect(importBundle(other, bundle)).rejects.toThrow(`run ${runIds[0]} exists here with different content. Nothing was imported`);
    expect(await snapshot(other)).toEqual(before);

    // a store that fails on its 6th write (the disk filled up): what was written is removed again
    class FailingStore extends MemoryRecordStore {
      writes = 0;
      override async put(collection: string, id: string, value: unknown) {
        if (++this.writes === 6) throw new Error('ENOSPC: no space left on device');
        return super.put(collection, id, value);
      }
    }
    const failing = new FailingStore();
    await expect(importBundle(failing, bundle)).rejects.toThrow(/failed while writing \(ENOSPC: no space left on device\); what was written is removed again/);
    expect(await snapshot(failing)).toEqual({});
  });
});

async function snapshot(store: MemoryRecordStore): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const c of ['experiments', 'experiment-cells', 'trajectories', 'trajectory-steps']) for (const id of await store.list(c)) out[`${c}/${id}`] = await store.get(c, id);
  return out;
}

describe('replayBundle', () => {
  /** the run again in process, from the request replayBundle makes (the CLI uses RunManager and a real runner) */
  const start: StartReplay = async (request) => {
    if (request.model.kind !== 'replay') throw new Error('replayBundle must replay');
    return runAgent({
      strategy: resolveStrategy(request.preset, { variants: request.variants, overrides: request.overrides }),
      preset: request.preset,
      overrides: request.overrides,
      bug: demoBug,
      workspace: demoWorkspace(),
      validator: new FakeValidator(),
      llm: createReplayProvider(parseCassette(request.model.cassette), { strict: request.model.strict ?? true }),
      tools: [applyPatchTool],
    });
  };

  it('says equal for runs that replay to the same steps and outcome, and names the step of one that does not', async () => {
    const { records } = await recordedExperiment();
    const bundle = await readBundle((await writeBundle(await collectBundle(records, ID))).bytes, 'b.gz');
    const heard: string[] = [];
    const results = await replayBundle(bundle, start, (r) => heard.push(r.result));
    expect(results.map((r) => [r.variant, r.sample, r.result, r.recorded, r.replayed])).toEqual([
      ['a', 0, 'equal', 'plausible', 'plausible'],
      ['a', 1, 'equal', 'plausible', 'plausible'],
    ]);
    expect(heard).toEqual(['equal', 'equal']);
    // the recorded strategy says another system prompt than the replies were recorded with: the first prompt differs
    const twisted = structuredClone(bundle);
    twisted.content.runs[0]!.trajectory.config.overrides = { budgets: { maxSteps: 3 }, prompt: { system: 'Another system prompt.' } };
    const [first] = (await replayBundle(twisted, start)).filter((r) => r.runId === twisted.content.runs[0]!.trajectory.runId);
    expect(first).toMatchObject({ result: 'different' });
    expect(first!.detail).toMatch(/^step 1 differs \(.*prompt/);
    // a run that cannot start (here: a preset this build lacks) is reported as failed, and the others still replay
    const unknownPreset = structuredClone(bundle);
    unknownPreset.content.runs[0]!.trajectory.config.preset = 'gone-preset';
    const failed = await replayBundle(unknownPreset, start);
    expect(failed.map((r) => r.result).sort()).toEqual(['equal', 'failed']);
    expect(failed.find((r) => r.result === 'failed')!.detail).toMatch(/^the replay could not run: unknown preset "gone-preset"/);
  });
});

describe('bundles carry patch labels', () => {
  it("the labels of the runs' patches travel (an unrelated patch's do not) and are added on open, local labels kept", async () => {
    const { records, runIds } = await recordedExperiment();
    const { PatchLabelStore } = await import('../../../worker/records/patch-label-store.ts');
    const { patchKey } = await import('../../../worker/diff/normalised-patch.ts');
    const t = (await loadTrajectory(records, runIds[1]!))!;
    const key = patchKey(t.outcome!.finalPatch);
    const here = new PatchLabelStore(records);
    await here.label({ bugId: demoBug.id, patchKey: key, rater: 'ana', label: 'correct' });
    await here.label({ bugId: demoBug.id, patchKey: 'ffffffffffffffff', rater: 'ana', label: 'overfitting' });
    const content = await collectBundle(records, ID);
    expect(content.labels!.raterLabels.map((l) => [l.patchKey, l.rater, l.label])).toEqual([[key, 'ana', 'correct']]);
    const bundle = await readBundle((await writeBundle(content)).bytes, 'b.gz');

    const elsewhere = new MemoryRecordStore();
    const theirs = new PatchLabelStore(elsewhere);
    await theirs.label({ bugId: demoBug.id, patchKey: key, rater: 'ana', label: 'unsure' });
    await theirs.label({ bugId: demoBug.id, patchKey: key, rater: 'ben', label: 'overfitting' });
    // the local ana label is kept; nothing new from the bundle for this patch and rater
    expect((await importBundle(elsewhere, bundle)).labels).toBe(0);
    expect((await theirs.raterLabels()).map((l) => [l.rater, l.label])).toEqual([['ana', 'unsure'], ['ben', 'overfitting']]);
    const fresh = new MemoryRecordStore();
    expect((await importBundle(fresh, bundle)).labels).toBe(1);
    expect((await new PatchLabelStore(fresh).raterLabels()).map((l) => [l.rater, l.label])).toEqual([['ana', 'correct']]);
  });

  it('an experiment without labels bundles exactly as before (no labels key, so its hash is unchanged)', async () => {
    const { records } = await recordedExperiment();
    expect('labels' in (await collectBundle(records, ID))).toBe(false);
  });
});
