// A recording's provenance in the run record: a run answered by a demo endpoint (an OpenAI-compatible server replaying a
// recording) or by a loaded cassette records `config.model.recording = { name, source }` — the recording's name and
// who wrote its replies, from the cassette's provenance — the Runs list's row carries it, and it survives a bundle:
// written, opened in another store, and replayed (the replay names the same recording). Through the real RunManager
// and engine (a temporary home); the one-shot replies here never apply a patch, so no runner is called. No key reaches
// any record.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RunManager } from '../../../worker/runs/run-manager.ts';
import { startCassetteServer } from '../../../worker/llm/cassette-server.node.ts';
import { MemoryRecordStore } from '../../../worker/platform/memory-records.ts';
import { ExperimentStore } from '../../../worker/experiments/experiment-store.ts';
import { EXPERIMENT_SCHEMA_VERSION, type CellRecord } from '../../../worker/contracts/experiment.ts';
import { collectBundle, readBundle, writeBundle } from '../../../worker/share/experiment-bundle.ts';
import { importBundle } from '../../../worker/share/bundle-import.ts';
import { replayBundle } from '../../../worker/share/bundle-replay.ts';
import { loadTrajectory } from '../../../worker/records/persistence.ts';
import { CASSETTE_SCHEMA_VERSION, type Cassette } from '../../../worker/contracts/cassette.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import type { RunRequest } from '../../../worker/contracts/runs.ts';

const home = mkdtempSync(join(tmpdir(), 'repairlab-recording-provenance-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const engine = new Engine(createNodePlatform({ root: home }));
const runs = new RunManager(engine, async () => undefined);
const RUNNER = { url: 'http://127.0.0.1:9', token: 'unused' };
const KEY = 'sk-canary-recording-provenance-0123456789';
// one step, and a reply without a diff: the run ends on its budget without a validation
const ONE_STEP: Pick<RunRequest, 'bugId' | 'preset' | 'overrides' | 'runner'> = { bugId: 'textkit-1', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } }, runner: RUNNER };

async function runOnce(model: RunRequest['model']): Promise<Trajectory> {
  const [t] = await runs.start({ ...ONE_STEP, model }, () => {});
  return t!;
}

describe('config.model.recording', () => {
  it('a demo endpoint\'s run names its recording and who wrote the replies; a loaded cassette\'s run, the file and the cassette\'s source', async () => {
    const server = await startCassetteServer({ replies: ['The bound looks off by one, but I will not write a diff yet.'], model: 'repairlab-demo-scripted' });
    let demo: Trajectory;
    try {
      demo = await runOnce({ kind: 'openai', baseURL: server.baseURL, model: 'repairlab-demo-scripted', apiKey: KEY, recording: { name: 'textkit-1.oneshot.fix', source: 'hand-authored' } });
    } finally {
      await server.close();
    }
    expect(demo.config.model).toMatchObject({ kind: 'openai', model: 'repairlab-demo-scripted', keyProvided: true, recording: { name: 'textkit-1.oneshot.fix', source: 'hand-authored' } });
    expect(JSON.stringify(await runs.get(demo.runId))).not.toContain(KEY);

    const cassette: Cassette = {
      schemaVersion: CASSETTE_SCHEMA_VERSION,
      kind: 'repairlab-cassette',
      model: 'some-model',
      settings: {},
      provenance: { source: 'mixed', note: 'a test cassette', recordedAt: '2026-01-01T00:00:00.000Z' },
      calls: [{ promptHash: '0'.repeat(64), response: { content: 'No diff from me.', usage: { inputTokens: 1, outputTokens: 1 } } }],
    };
    // not strict: this cassette was not recorded from the engine's prompt
    const loaded = await runOnce({ kind: 'replay', cassette, strict: false, name: 'lectures/mine.cassette.json' });
    expect(loaded.config.model.recording).toEqual({ name: 'mine', source: 'mixed' });

    const rows = await runs.list();
    expect(rows.find((r) => r.runId === demo.runId)?.recording).toEqual({ name: 'textkit-1.oneshot.fix', source: 'hand-authored' });
    expect(rows.find((r) => r.runId === loaded.runId)?.recording).toEqual({ name: 'mine', source: 'mixed' });

    await expect(runOnce({ kind: 'openai', baseURL: 'http://127.0.0.1:9/v1', model: 'm', recording: { name: 'x', source: 'typed-by-a-cat' } as never })).rejects.toThrow(
      'model.recording: expected { name: "<the recording\'s name>", source: "hand-authored" | "model" | "mixed" }, got {"name":"x","source":"typed-by-a-cat"}.',
    );

    // -- the demo run in an experiment's bundle: written, opened elsewhere, replayed
    const ID = 'exp-recording-provenance';
    const now = new Date(0).toISOString();
    const records = engine.platform.records;
    const spec = { schemaVersion: 1, bugs: ['textkit-1'], variants: [{ name: 'a', preset: 'oneshot', variants: [], overrides: ONE_STEP.overrides }], samples: 1, model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'm' } };
    await records.put('experiments', ID, { schemaVersion: EXPERIMENT_SCHEMA_VERSION, kind: 'repairlab-experiment', id: ID, createdAt: now, updatedAt: now, status: 'finished', spec, bugs: [{ id: 'textkit-1', category: 'SL' }], runnerOfBug: { 'textkit-1': 0 }, cells: 1, wallMsBefore: 0 });
    const cell: CellRecord = { experimentId: ID, index: 0, bugId: 'textkit-1', variant: 'a', sample: 0, runner: 0, status: 'not-plausible', runId: demo.runId, startedAt: now, finishedAt: now, attempts: [], reason: '', costUsd: null, calls: 1, steps: 1 };
    await new ExperimentStore(records).putCell(cell);

    const content = await collectBundle(records, ID);
    // the bundled cassette says who wrote the replies from the recording, not from the provider (an openai endpoint)
    expect(content.runs[0]!.cassette.provenance.source).toBe('hand-authored');
    const bundle = await readBundle((await writeBundle(content)).bytes, 'provenance.rlbundle.json.gz');
    const elsewhere = new MemoryRecordStore();
    await importBundle(elsewhere, bundle);
    expect((await loadTrajectory(elsewhere, demo.runId))?.config.model.recording).toEqual({ name: 'textkit-1.oneshot.fix', source: 'hand-authored' });

    const replayed: Trajectory[] = [];
    const results = await replayBundle(bundle, async (request) => {
      const t = await runOnce(request.model);
      replayed.push(t);
      return t;
    });
    expect(results.map((r) => r.result)).toEqual(['equal']);
    expect(replayed[0]!.config.model.recording).toEqual({ name: 'textkit-1.oneshot.fix', source: 'hand-authored' });
  });
});
