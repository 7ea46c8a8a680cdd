// Append-only persistence: a run is a header in 'trajectories' plus one record per step in 'trajectory-steps'.
// Reloading reassembles exactly what the loop held, each step is written once, records of the earlier
// whole-trajectory format still load, and an unfinished run reloaded from either format resumes.
import { describe, expect, it, vi } from 'vitest';
import { runAgent } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { comparableStep } from '../../../worker/records/cassette-from-trajectory.ts';
import {
  listTrajectoryHeaders,
  loadTrajectory,
  stepRecordId,
  storeRecorder,
  TRAJECTORY_COLLECTION,
  TRAJECTORY_STEPS_COLLECTION,
  unfinishedRuns,
} from '../../../worker/records/persistence.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { RunManager } from '../../../worker/runs/run-manager.ts';
import type { RunEvent } from '../../../worker/contracts/runs.ts';
import type { Engine } from '../../../worker/bugs/engine.ts';
import type { RecordStore } from '../../../worker/contracts/platform.ts';
import { MemoryRecordStore } from '../../../worker/platform/memory-records.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import { BROKEN_DIFF, demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF, hangAfter, WRONG_DIFF } from './fixtures.ts';

/** The in-memory store, counting every put per collection and id. */
class CountingRecordStore extends MemoryRecordStore {
  puts: { collection: string; id: string }[] = [];
  override async put(c: string, id: string, v: unknown) {
    this.puts.push({ collection: c, id });
    await super.put(c, id, v);
  }
  putsTo(collection: string) {
    return this.puts.filter((p) => p.collection === collection).map((p) => p.id);
  }
}

const wrong = fence(WRONG_DIFF);
const REPLIES = [fence(BROKEN_DIFF), 'no diff here', wrong, fence(GOOD_DIFF)];

function opts(over: Partial<Parameters<typeof runAgent>[0]> = {}): Parameters<typeof runAgent>[0] {
  return {
    strategy: resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 6 }, middleware: { maxConsecutiveFormatErrors: 5 } } }),
    bug: demoBug,
    workspace: demoWorkspace(),
    validator: new FakeValidator(),
    llm: createScriptedProvider(REPLIES),
    tools: [applyPatchTool],
    ...over,
  };
}

/** JSON round trip: what any store gives back (no undefined fields) */
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('append-only trajectory records', () => {
  it('reloads every snapshot, step by step, equal to the trajectory the loop held at that moment', async () => {
    const store = new CountingRecordStore();
    const save = storeRecorder(store);
    const checked: number[] = [];
    const t = await runAgent(
      opts({
        record: async (traj) => {
          const expected = plain(traj);
          await save(traj);
          expect(plain(await loadTrajectory(store, traj.runId))).toEqual(expected);
          checked.push(traj.steps.length);
        },
      }),
    );
    expect(t.outcome?.status).toBe('plausible');
    expect(t.steps).toHaveLength(4);
    expect(checked).toEqual([1, 2, 3, 4, 4]);
    expect(plain(await loadTrajectory(store, t.runId))).toEqual(plain(t));
    // the header holds no steps, only their count
    const header = await store.get<Record<string, unknown>>(TRAJECTORY_COLLECTION, t.runId);
    expect(header).not.toHaveProperty('steps');
    expect(header?.stepCount).toBe(4);
    expect(await store.list(TRAJECTORY_STEPS_COLLECTION)).toEqual([0, 1, 2, 3].map((i) => stepRecordId(t.runId, i)));
  });

  it('writes each step once (the last once more, with its final engine time) and one header per record', async () => {
    const store = new CountingRecordStore();
    const t = await runAgent(opts({ record: storeRecorder(store) }));
    const n = t.steps.length;
    expect(n).toBe(4);
    const ids = [0, 1, 2, 3].map((i) => stepRecordId(t.runId, i));
    expect(store.putsTo(TRAJECTORY_STEPS_COLLECTION)).toEqual([...ids, ids[3]]);
    // one header after each step and the final one
    expect(store.putsTo(TRAJECTORY_COLLECTION)).toEqual(Array(n + 1).fill(t.runId));
    expect(stepRecordId(t.runId, 3)).toMatch(/^[\w.@+-]+$/);
    expect(stepRecordId('run-x', 12)).toBe('run-x.00012');
  });

  it('a store that writes several records together gets each step and its header in one write', async () => {
    const writes: string[][] = [];
    const memory = new MemoryRecordStore();
    const together: RecordStore = {
      put: (c, id, v) => memory.put(c, id, v),
      get: (c, id) => memory.get(c, id),
      list: (c) => memory.list(c),
      delete: (c, id) => memory.delete(c, id),
      putAll: async (entries) => {
        writes.push(entries.map((e) => `${e.collection}/${e.id}`));
        for (const e of entries) await memory.put(e.collection, e.id, e.value);
      },
    };
    const t = await runAgent(opts({ record: storeRecorder(together) }));
    const step = (i: number) => `${TRAJECTORY_STEPS_COLLECTION}/${stepRecordId(t.runId, i)}`;
    const header = `${TRAJECTORY_COLLECTION}/${t.runId}`;
    // one write per record: the new step (the last one again, with its final engine time) and the header
    expect(writes).toEqual([[step(0), header], [step(1), header], [step(2), header], [step(3), header], [step(3), header]]);
    expect(plain(await loadTrajectory(memory, t.runId))).toEqual(plain(t));
  });

  it('records each step while the next model call is in flight, and the last one before the run ends', async () => {
    const order: string[] = [];
    const scripted = createScriptedProvider(REPLIES);
    const t = await runAgent(
      opts({
        llm: {
          ...scripted,
          complete: (req) => {
            order.push(`model call ${order.filter((o) => o.startsWith('model')).length + 1}`);
            // answers on a later task, as a model over the network does
            return new Promise((resolve, reject) => setTimeout(() => scripted.complete(req).then(resolve, reject), 5));
          },
        },
        record: async (traj) => {
          order.push(`record ${traj.steps.length} (${traj.status})`);
        },
      }),
    );
    expect(t.steps).toHaveLength(4);
    expect(order).toEqual([
      'model call 1',
      'model call 2',
      'record 1 (running)',
      'model call 3',
      'record 2 (running)',
      'model call 4',
      'record 3 (running)',
      'record 4 (running)',
      'record 4 (finished)',
    ]);
    // the time the record and the hash took while the model worked is shown apart from the loop's own time
    for (const s of t.steps) expect(s.latencyMs.background).toBeGreaterThanOrEqual(0);
    expect(t.steps.every((s) => /^[0-9a-f]{64}$/.test(s.prompt.promptHash))).toBe(true);
  });

  it('a slow record of the previous step overlaps the tool call too; the step is pushed after it', async () => {
    const order: string[] = [];
    const scripted = createScriptedProvider([fence(WRONG_DIFF), fence(GOOD_DIFF)]);
    const fake = new FakeValidator();
    const t = await runAgent(
      opts({
        llm: { ...scripted, complete: (req) => new Promise((resolve, reject) => setTimeout(() => scripted.complete(req).then(resolve, reject), 2)) },
        validator: {
          validate: async (ws, tests) => {
            order.push(`validate ${fake.calls.length + 1}`);
            return fake.validate(ws, tests);
          },
        },
        record: async (traj) => {
          if (traj.status !== 'running' || traj.steps.length !== 1) return;
          order.push('record 1 starts');
          await new Promise((resolve) => setTimeout(resolve, 40)); // a slow store
          order.push('record 1 done');
        },
        onEvent: (e) => e.type === 'step' && order.push(`step ${e.step.index + 1} pushed`),
      }),
    );
    expect(t.outcome?.status).toBe('plausible');
    expect(order.slice(0, 6)).toEqual(['validate 1', 'step 1 pushed', 'record 1 starts', 'validate 2', 'record 1 done', 'step 2 pushed']);
  });

  it('records the last step while the run is wrapped up (the re-check), and the final record after both', async () => {
    const order: string[] = [];
    const fake = new FakeValidator();
    const t = await runAgent(
      opts({
        validator: {
          validate: async (ws, tests) => {
            order.push(`validate ${fake.calls.length + 1}`);
            return fake.validate(ws, tests);
          },
        },
        record: async (traj) => {
          order.push(`record ${traj.steps.length} (${traj.status}) starts`);
          // the last step's record takes a while (a slow store): the re-check does not wait for it
          if (traj.status === 'running' && traj.steps.length === 4) await new Promise((resolve) => setTimeout(resolve, 20));
          order.push(`record ${traj.steps.length} (${traj.status}) done`);
        },
      }),
    );
    expect(t.outcome?.recheck?.plausible).toBe(true);
    // three patches validated in the loop, the fourth validation is the re-check
    expect(order.slice(-5)).toEqual(['record 4 (running) starts', 'validate 4', 'record 4 (running) done', 'record 4 (finished) starts', 'record 4 (finished) done']);
  });

  it('a failing record of the last step ends the run with its error, and no final record is written', async () => {
    const statuses: string[] = [];
    await expect(
      runAgent(
        opts({
          record: async (traj) => {
            statuses.push(traj.status);
            if (traj.status === 'running' && traj.steps.length === 4) throw new Error('QuotaExceededError: the trajectory store is full');
          },
        }),
      ),
    ).rejects.toThrow(/trajectory store is full/);
    expect(statuses).toEqual(['running', 'running', 'running', 'running']);
  });

  it('a record that fails while the model and the tool work ends the run with that error before the step is pushed, leaving no timer', async () => {
    let records = 0;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await expect(
        runAgent(
          opts({
            strategy: resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 6, maxWallMs: 60_000 }, middleware: { maxConsecutiveFormatErrors: 5 } } }),
            record: async () => {
              if (++records === 2) throw new Error('QuotaExceededError: the trajectory store is full');
            },
          }),
        ),
      ).rejects.toThrow(/trajectory store is full/);
      expect(records).toBe(2);
      // the wall-time budget's timer is gone (a CLI process would otherwise wait for it)
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the loop never changes a step in place after pushing it', async () => {
    const pushed = new Map<number, string>();
    const t = await runAgent(
      opts({
        record: async (traj) => {
          for (const s of traj.steps.slice(0, -1)) expect(JSON.stringify(s)).toBe(pushed.get(s.index));
          for (const s of traj.steps) pushed.set(s.index, JSON.stringify(s));
        },
      }),
    );
    expect(t.steps).toHaveLength(4);
  });

  it('loads a record of the earlier format (the whole trajectory under its run id)', async () => {
    const store = new CountingRecordStore();
    const t = await runAgent(opts());
    await store.put(TRAJECTORY_COLLECTION, t.runId, t);
    expect(plain(await loadTrajectory(store, t.runId))).toEqual(plain(t));
    const [header] = await listTrajectoryHeaders(store);
    expect(header).toMatchObject({ runId: t.runId, stepCount: 4, status: 'finished' });
    expect(header).not.toHaveProperty('steps');
    expect(await loadTrajectory(store, 'run-none')).toBeUndefined();
  });

  it('a missing step record is an error, not a shorter run', async () => {
    const store = new CountingRecordStore();
    const t = await runAgent(opts({ record: storeRecorder(store) }));
    await store.delete(TRAJECTORY_STEPS_COLLECTION, stepRecordId(t.runId, 2));
    await expect(loadTrajectory(store, t.runId)).rejects.toThrow(/step 2 of 4 is missing/);
  });

  it('refuses a run id that cannot be a record id', async () => {
    const store = new CountingRecordStore();
    await expect(runAgent(opts({ runId: 'a/b', record: storeRecorder(store) }))).rejects.toThrow(/cannot be stored/);
  });

  for (const format of ['append-only', 'earlier whole-trajectory'] as const) {
    it(`resumes an unfinished run reloaded from the store (${format} format)`, async () => {
      const whole = await runAgent(opts());
      const store = new CountingRecordStore();
      const save = storeRecorder(store);
      // the page reloads while the model works on step 3, after step 2 was saved
      await new Promise<void>((saved) => {
        void runAgent(
          opts({
            llm: hangAfter(createScriptedProvider(REPLIES), 2),
            record: async (traj) => {
              if (format === 'append-only') await save(traj);
              else await store.put(TRAJECTORY_COLLECTION, traj.runId, traj);
              if (traj.steps.length === 2) saved();
            },
          }),
        );
      });
      const [saved] = await unfinishedRuns(store);
      expect(saved?.steps).toHaveLength(2);
      expect(saved?.resume?.state).toBe('fix');
      const resumed = await runAgent(opts({ llm: createScriptedProvider(REPLIES.slice(2)), resumeFrom: saved, record: storeRecorder(store) }));
      expect(resumed.runId).toBe(saved!.runId);
      expect(resumed.steps.map(comparableStep)).toEqual(whole.steps.map(comparableStep));
      expect(resumed.outcome?.status).toBe('plausible');
      expect(plain(await loadTrajectory(store, resumed.runId))).toEqual(plain(resumed));
      expect(await unfinishedRuns(store)).toEqual([]);
      // stored in the append-only format from then on
      expect(await store.get(TRAJECTORY_COLLECTION, resumed.runId)).toMatchObject({ stepCount: 4 });
    });
  }

  it('drops step records beyond the count when a run id is recorded again with fewer steps', async () => {
    const store = new CountingRecordStore();
    const t = await runAgent(opts({ record: storeRecorder(store) }));
    const shorter: Trajectory = { ...plain(t), steps: plain(t.steps).slice(0, 2) };
    await storeRecorder(store)(shorter);
    expect(await store.list(TRAJECTORY_STEPS_COLLECTION)).toEqual([0, 1].map((i) => stepRecordId(t.runId, i)));
    expect(plain(await loadTrajectory(store, t.runId))).toEqual(plain(shorter));
  });

  it('the run manager lists headers without reading steps and loads whole runs of either format', async () => {
    const store = new CountingRecordStore();
    const fresh = await runAgent(opts({ record: storeRecorder(store) }));
    const old = await runAgent(opts({ llm: createScriptedProvider([fence(GOOD_DIFF)]) }));
    await store.put(TRAJECTORY_COLLECTION, old.runId, old);
    const reads: string[] = [];
    const spying: RecordStore = {
      put: (c, id, v) => store.put(c, id, v),
      get: (c, id) => {
        reads.push(c);
        return store.get(c, id);
      },
      list: (c) => store.list(c),
      delete: (c, id) => store.delete(c, id),
    };
    const runs = new RunManager({ platform: { records: spying } } as unknown as Engine, async () => undefined);
    const list = await runs.list();
    expect(list.map((r) => [r.runId, r.steps, r.status]).sort()).toEqual(
      [
        [fresh.runId, 4, 'plausible'],
        [old.runId, 1, 'plausible'],
      ].sort(),
    );
    expect(reads.every((c) => c === TRAJECTORY_COLLECTION)).toBe(true);
    expect(plain(await runs.get(fresh.runId))).toEqual(plain(fresh));
    expect(plain(await runs.get(old.runId))).toEqual(plain(old));
  });

  it('the run manager continues an interrupted run under its id: the next replies, once at a time, as the last trajectory of its request', async () => {
    const store = new MemoryRecordStore();
    const save = storeRecorder(store);
    const replies = ['no diff here', 'still no diff', 'nor here'];
    // a run of a three-trajectory strategy, interrupted while the model works on step 2
    const strategy = resolveStrategy('oneshot', { overrides: { sampling: { trajectories: 3 }, budgets: { maxSteps: 3 }, middleware: { maxConsecutiveFormatErrors: 5 } } });
    const runId = await new Promise<string>((saved) => {
      void runAgent(
        opts({
          strategy,
          llm: hangAfter(createScriptedProvider(replies), 1),
          record: async (t) => {
            await save(t);
            if (t.steps.length === 1) saved(t.runId);
          },
        }),
      );
    });
    const engine = {
      platform: { records: store },
      workspaceFor: async () => ({ bug: { ...demoBug, groundTruth: { patch: GOOD_DIFF } }, workspace: demoWorkspace() }),
      ensureRepository: async () => ({}),
    };
    const runs = new RunManager(engine as unknown as Engine, async () => undefined);
    const events: RunEvent[] = [];
    const settings = { model: { kind: 'scripted' as const, replies }, runner: { url: 'http://127.0.0.1:9', token: 't' } };
    const going = runs.continueRun(runId, settings, (e) => events.push(e));
    // a second Continue while the first one starts is refused
    await expect(runs.continueRun(runId, settings, () => undefined)).rejects.toThrow(/is going on already/);
    const t = await going;
    expect(t.runId).toBe(runId);
    // the scripted model went on from its second reply
    expect(t.steps.map((s) => s.response?.content)).toEqual(replies);
    expect(events.find((e) => e.type === 'run-started')).toMatchObject({ stepsBefore: 1, trajectory: 0, trajectories: 3 });
    expect(events.find((e) => e.type === 'run-finished')).toMatchObject({ last: true });
    expect((await runs.list()).find((r) => r.runId === runId)).toMatchObject({ interrupted: false, steps: 3 });
  });

  it('the run manager marks a run a crash stopped as interrupted, and continues only such runs', async () => {
    const store = new CountingRecordStore();
    const save = storeRecorder(store);
    // a crash after step 2 was saved: the later records never happen
    await expect(
      runAgent(
        opts({
          record: async (traj) => {
            if (traj.steps.length > 2) throw new Error('the page went away');
            await save(traj);
          },
        }),
      ),
    ).rejects.toThrow(/went away/);
    const finished = await runAgent(opts({ record: storeRecorder(store) }));
    const runs = new RunManager({ platform: { records: store } } as unknown as Engine, async () => undefined);
    const list = await runs.list();
    const crashed = list.find((r) => r.runId !== finished.runId)!;
    expect(crashed).toMatchObject({ status: 'running', steps: 2, interrupted: true });
    expect(list.find((r) => r.runId === finished.runId)).toMatchObject({ status: 'plausible', interrupted: false });
    const settings = { model: { kind: 'scripted' as const, replies: [] }, runner: { url: 'http://127.0.0.1:9', token: 't' } };
    await expect(runs.continueRun(finished.runId, settings, () => undefined)).rejects.toThrow(/has finished: there is nothing to continue/);
    await expect(runs.continueRun('run-none', settings, () => undefined)).rejects.toThrow(/There is no saved run run-none/);
  });
});
