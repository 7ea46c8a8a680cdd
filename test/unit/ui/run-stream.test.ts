// The run view's controllers without a browser (src/components/run-view/): RunStreamController folds the engine's run
// events into what the panel shows, ContinueController lists a bug's interrupted runs and continues one. The engine
// is a stand-in that answers as the worker does.
import { describe, expect, it, vi } from 'vitest';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { RunEvent, RunRequest } from '../../../worker/contracts/runs.ts';
import { RunStreamController } from '../../../src/components/run-view/run-stream-controller.ts';
import { ContinueController } from '../../../src/components/run-view/continue-controller.ts';

type Engine = ConstructorParameters<typeof RunStreamController>[1];

class Host implements ReactiveControllerHost {
  bugId: string | undefined;
  controllers: ReactiveController[] = [];
  updates = 0;
  addController(c: ReactiveController) {
    this.controllers.push(c);
  }
  removeController() {}
  requestUpdate() {
    this.updates++;
  }
  get updateComplete() {
    return Promise.resolve(true);
  }
  /** what lit does after a render */
  updated() {
    for (const c of this.controllers) c.hostUpdated?.();
  }
}

const step = (index: number) => ({ index, costUsd: 0 }) as never;
const outcome = (status: string) => ({ status, reason: status, totals: {} }) as never;
const request = { bugId: 'textkit-1', preset: 'oneshot' } as RunRequest;
const engineOf = (methods: Record<string, unknown>) => (() => methods) as unknown as Engine;
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('RunStreamController', () => {
  it("folds a run's events: steps, streamed text, a person's turn, the outcome", async () => {
    const host = new Host();
    let emit: (e: RunEvent) => void = () => {};
    const startRun = vi.fn(async (_req: RunRequest, onEvent: (e: RunEvent) => void) => {
      emit = onEvent;
    });
    const s = new RunStreamController(host, engineOf({ startRun }));
    s.error = 'an old error';
    await s.start(() => request);
    expect(startRun).toHaveBeenCalledWith(request, expect.any(Function));
    expect([s.running, s.error, s.steps]).toEqual([true, undefined, []]);

    emit({ type: 'run-started', runId: 'r1', bugId: 'textkit-1', preset: 'oneshot', trajectory: 0, trajectories: 1, stepsBefore: 0 });
    emit({ type: 'model-delta', runId: 'r1', step: 0, text: 'THOUGHT: ' });
    emit({ type: 'model-delta', runId: 'r1', step: 0, text: 'look' });
    expect([s.runId, s.streaming, s.trajectory]).toEqual(['r1', 'THOUGHT: look', { index: 0, count: 1 }]);
    emit({ type: 'step', runId: 'r1', step: step(0) });
    expect([s.steps.length, s.streaming]).toEqual([1, '']);
    emit({ type: 'human-turn', runId: 'r1', step: 1, messages: [{ role: 'user', content: 'hi' }], state: 'start' });
    expect(s.turn).toEqual({ step: 1, messages: [{ role: 'user', content: 'hi' }], state: 'start' });
    emit({ type: 'runner-waiting', runId: 'r1', attempt: 1, maxRetries: 3, retryInMs: 1000, error: 'ECONNREFUSED' });
    expect(s.runnerWait?.attempt).toBe(1);
    emit({ type: 'run-finished', runId: 'r1', outcome: outcome('stopped'), last: true });
    expect([s.running, s.turn, s.runnerWait, s.outcome?.status, s.finished.length]).toEqual([false, undefined, undefined, 'stopped', 1]);
    expect(host.updates).toBeGreaterThanOrEqual(8);
  });

  it('a later trajectory of the request starts from no steps; a failed run shows its error', async () => {
    const host = new Host();
    let emit: (e: RunEvent) => void = () => {};
    const s = new RunStreamController(host, engineOf({ startRun: async (_r: RunRequest, on: (e: RunEvent) => void) => void (emit = on) }));
    await s.start(() => request);
    emit({ type: 'run-started', runId: 'a', bugId: 'b', preset: 'passerine', trajectory: 0, trajectories: 2, stepsBefore: 0 });
    emit({ type: 'step', runId: 'a', step: step(0) });
    emit({ type: 'run-finished', runId: 'a', outcome: outcome('plausible'), last: false });
    expect(s.running).toBe(true);
    emit({ type: 'run-started', runId: 'b', bugId: 'b', preset: 'passerine', trajectory: 1, trajectories: 2, stepsBefore: 0 });
    expect([s.steps, s.trajectory]).toEqual([[], { index: 1, count: 2 }]);
    emit({ type: 'run-failed', runId: 'b', error: 'the model is gone' });
    expect([s.running, s.error, s.finished.length]).toEqual([false, 'the model is gone', 1]);
  });

  it('a request that cannot be made or sent is an error, and nothing runs', async () => {
    const s = new RunStreamController(new Host(), engineOf({ startRun: async () => Promise.reject(new Error('no worker')) }));
    await s.start(() => request);
    expect([s.running, s.error]).toEqual([false, 'no worker']);
    await s.start(() => {
      throw new Error('no settings');
    });
    expect([s.running, s.error]).toEqual([false, 'no settings']);
  });

  it('continues a saved run: its steps first, the settings for its configuration, the same id', async () => {
    const config = { preset: 'hafixagent', variants: ['fn_all'], overrides: { budgets: { maxSteps: 4 } } };
    const continueRun = vi.fn(async () => {});
    const s = new RunStreamController(new Host(), engineOf({ getRun: async () => ({ config, steps: [step(0), step(1)] }), continueRun }));
    const settingsFor = vi.fn(() => ({ model: { kind: 'human' }, runner: { url: 'http://127.0.0.1:1' } }) as never);
    const done = s.continueSaved('r7', settingsFor);
    expect(s.running).toBe(true);
    expect(await done).toBe(true);
    expect(settingsFor).toHaveBeenCalledWith(config);
    expect(continueRun).toHaveBeenCalledWith('r7', { model: { kind: 'human' }, runner: { url: 'http://127.0.0.1:1' } }, expect.any(Function));
    expect([s.steps.length, s.running]).toEqual([2, false]);

    const gone = new RunStreamController(new Host(), engineOf({ getRun: async () => undefined }));
    expect(await gone.continueSaved('r8', settingsFor)).toBe(false);
    expect(gone.error).toBe('The saved run r8 is gone.');
  });

  it('pause, step, resume, stop and a reply go to the running run', async () => {
    const calls: string[] = [];
    const rec = (name: string) => async (...args: unknown[]) => void calls.push(`${name} ${args.join(' ')}`);
    const s = new RunStreamController(new Host(), engineOf({ pauseRun: rec('pause'), stepRun: rec('step'), resumeRun: rec('resume'), stopRun: rec('stop'), submitHumanReply: rec('reply') }));
    await s.control('pause');
    expect(calls).toEqual([]);
    s.runId = 'r1';
    await s.control('pause');
    expect(s.paused).toBe(true);
    await s.control('step');
    expect(s.paused).toBe(true);
    await s.control('resume');
    expect(s.paused).toBe(false);
    s.turn = { step: 0, messages: [] };
    await s.reply('THOUGHT: done');
    expect(s.turn).toBeUndefined();
    await s.stop();
    expect(calls).toEqual(['pause r1', 'step r1', 'resume r1', 'reply r1 THOUGHT: done', 'stop r1']);
  });
});

describe('RunStreamController stop', () => {
  const started = async (stopRun: (id: string) => Promise<void>) => {
    const host = new Host();
    let emit: (e: RunEvent) => void = () => {};
    const s = new RunStreamController(host, engineOf({ startRun: async (_r: RunRequest, onEvent: (e: RunEvent) => void) => void (emit = onEvent), stopRun }));
    await s.start(() => request);
    emit({ type: 'run-started', runId: 'r1', bugId: 'textkit-1', preset: 'oneshot', trajectory: 0, trajectories: 1, stepsBefore: 0 });
    return s;
  };

  it('says nothing when Stop meets a run that just ended (its own end tells how it ended)', async () => {
    // what Comlink hands the page for the engine's RunNotGoingOnError: a plain Error carrying the name
    const s = await started(async () => {
      throw Object.assign(new Error('Run r1 is not going on (it may have just ended): there is nothing to stop.'), { name: 'RunNotGoingOnError' });
    });
    await s.stop();
    expect(s.error).toBeUndefined();
  });

  it('shows any other failure to stop', async () => {
    const s = await started(async () => {
      throw new Error('the engine worker is gone');
    });
    await s.stop();
    expect(s.error).toContain('the engine worker is gone');
  });
});

describe('ContinueController', () => {
  const runs = [
    { runId: 'a', bugId: 'textkit-1', interrupted: true },
    { runId: 'b', bugId: 'textkit-1', interrupted: false },
    { runId: 'c', bugId: 'numkit-3', interrupted: true },
  ];

  it("lists the bug's interrupted runs whenever the bug changes, and continues one", async () => {
    const host = new Host();
    const listRuns = vi.fn(async () => runs);
    const engine = engineOf({ listRuns, getRun: async () => ({ config: { preset: 'oneshot', variants: [] }, steps: [] }), continueRun: async () => {} });
    const stream = new RunStreamController(host, engine);
    const c = new ContinueController(host, stream, engine);
    host.updated();
    expect(listRuns).not.toHaveBeenCalled();
    host.bugId = 'textkit-1';
    host.updated();
    host.updated();
    await flush();
    expect(listRuns).toHaveBeenCalledTimes(1);
    expect([c.runs.map((r) => r.runId), c.checkedFor]).toEqual([['a'], 'textkit-1']);

    await c.continue(c.runs[0]!, () => ({ model: {}, runner: {} }) as never);
    expect(c.runs).toEqual([]);
    expect(listRuns).toHaveBeenCalledTimes(1);
  });

  it('looks the runs up again when a run could not be continued', async () => {
    const host = new Host();
    const listRuns = vi.fn(async () => runs);
    const engine = engineOf({ listRuns, getRun: async () => Promise.reject(new Error('records are locked')) });
    const stream = new RunStreamController(host, engine);
    const c = new ContinueController(host, stream, engine);
    host.bugId = 'numkit-3';
    host.updated();
    await flush();
    await c.continue(c.runs[0]!, () => ({}) as never);
    await flush();
    expect(stream.error).toBe('records are locked');
    expect(listRuns).toHaveBeenCalledTimes(2);
    expect(c.runs.map((r) => r.runId)).toEqual(['c']);
  });
});
