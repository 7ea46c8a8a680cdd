// A stop says why, in words: "Stopped by you at step 3" is the stopped run's outcome reason, in the view and in the
// record, and every call the stop cuts short (a person's turn, a model call, a runner validation, the final re-check)
// ends with that sentence — never the platform's bare abort message ("signal is aborted without reason" in Chromium,
// "This operation was aborted" in Node), which a run's internal signal used to pass on because it was aborted
// without a reason.
import { describe, expect, it } from 'vitest';
import { runAgent, type RunAgentOptions } from '../../../worker/agent/loop.ts';
import { RunAbortedError, RunControl, stopSentence } from '../../../worker/agent/run-control.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { createHumanProvider } from '../../../worker/llm/human-provider.ts';
import { abortReasonText } from '../../../worker/llm/abort-reason.ts';
import { RunManager } from '../../../worker/runs/run-manager.ts';
import type { Engine } from '../../../worker/bugs/engine.ts';
import type { BugSpec } from '../../../worker/contracts/bug.ts';
import type { Validator } from '../../../worker/contracts/tools.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import type { RunEvent } from '../../../worker/contracts/runs.ts';
import { MemoryRecordStore } from '../../../worker/platform/memory-records.ts';
import { loadTrajectory } from '../../../worker/records/persistence.ts';
import { demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF } from './fixtures.ts';

/** the platform's own abort messages, which must reach no record */
const BARE_ABORT = /aborted without reason|This operation was aborted/;

/** A runner validation as the runner client does it: in flight until its signal aborts, then rejected with the signal's reason. */
const hangingValidator = (): Validator => ({
  validate: (_ws, _tests, o) =>
    new Promise((_, reject) => {
      const signal = o?.signal;
      const cancel = () => reject(signal?.reason instanceof Error ? signal.reason : new Error('The request to the runner was cancelled.'));
      if (signal?.aborted) return cancel();
      signal?.addEventListener('abort', cancel, { once: true });
    }),
});

function opts(over: Partial<RunAgentOptions>): RunAgentOptions {
  return {
    strategy: resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 3 } } }),
    bug: demoBug,
    workspace: demoWorkspace(),
    validator: hangingValidator(),
    llm: createScriptedProvider([fence(GOOD_DIFF)]),
    tools: [applyPatchTool],
    ...over,
  };
}

/** Aborts `signal`'s controller once the loop's first validation is in flight (apply_patch validates its patch). */
function stopDuringValidation(abort: (controller: AbortController) => void): RunAgentOptions {
  const controller = new AbortController();
  return opts({
    signal: controller.signal,
    validator: {
      validate: (ws, tests, o) => {
        setTimeout(() => abort(controller), 5);
        return hangingValidator().validate(ws, tests, o);
      },
    },
  });
}

describe('the stop sentence', () => {
  it('names the step in flight, else the last step done, numbered from 1', () => {
    expect(stopSentence({ stepInFlight: 2, stepsDone: 2 })).toBe('Stopped by you at step 3');
    expect(stopSentence({ stepsDone: 4 })).toBe('Stopped by you after step 4');
    expect(stopSentence({ stepsDone: 0 })).toBe('Stopped by you before the first step');
  });

  it("is read from a signal's reason; the platform's bare abort is replaced by the caller's sentence", () => {
    const stopped = new AbortController();
    stopped.abort(new RunAbortedError('Stopped by you at step 2'));
    expect(abortReasonText(stopped.signal, 'fallback')).toBe('Stopped by you at step 2');
    const bare = new AbortController();
    bare.abort();
    expect(abortReasonText(bare.signal, 'the model call was aborted')).toBe('the model call was aborted');
  });

  it("a person's turn cut short by a stop ends with the stop's sentence", async () => {
    const controller = new AbortController();
    const human = createHumanProvider(() => new Promise<string>(() => undefined));
    const call = human.complete({ messages: [{ role: 'user', content: 'fix it' }], signal: controller.signal });
    controller.abort(new RunAbortedError('Stopped by you at step 1'));
    await expect(call).rejects.toMatchObject({ code: 'aborted', message: 'Stopped by you at step 1' });
  });
});

describe('a stop during a runner validation', () => {
  it("ends the run with the stop's sentence in the tool result, the outcome and the whole record", async () => {
    const t = await runAgent(stopDuringValidation((c) => c.abort(new RunAbortedError('Stopped by you at step 1'))));
    expect(t.steps[0]!.tool?.output).toBe('The command apply_patch failed: Stopped by you at step 1');
    expect(t.outcome?.status).toBe('stopped');
    expect(t.outcome?.reason).toBe('Stopped by you at step 1; the final re-check was cancelled by the stop');
    expect(JSON.stringify(t)).not.toMatch(BARE_ABORT);
  });

  it('a caller that aborts without a reason gets "stopped by the user", not the platform message', async () => {
    const t = await runAgent(stopDuringValidation((c) => c.abort()));
    expect(t.steps[0]!.tool?.output).toBe('The command apply_patch failed: stopped by the user');
    expect(t.outcome?.reason).toMatch(/^stopped by the user/);
    expect(JSON.stringify(t)).not.toMatch(BARE_ABORT);
  });

  it('the wall-time budget cuts a validation short with its own sentence', async () => {
    // only the step's validation hangs: the final re-check is not under the wall-time budget (it has its own limits)
    let calls = 0;
    const fake = new FakeValidator();
    const validator: Validator = { validate: (ws, tests, o) => (++calls === 1 ? hangingValidator().validate(ws, tests, o) : fake.validate(ws, tests)) };
    const t = await runAgent(opts({ validator, strategy: resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 3, maxWallMs: 30 } } }) }));
    expect(t.steps[0]!.tool?.output).toBe('The command apply_patch failed: wall-time budget reached (0.03 s)');
    expect(JSON.stringify(t)).not.toMatch(BARE_ABORT);
  });

  it('a control stopped with a sentence ends the run with it after the step in flight', async () => {
    const control = new RunControl();
    const t = await runAgent(opts({ control, llm: createScriptedProvider(['no diff here', 'no diff either']), onEvent: (e) => e.type === 'step' && control.stop('Stopped by you at step 1') }));
    expect(t.steps).toHaveLength(1);
    expect(t.outcome).toMatchObject({ status: 'stopped', reason: 'Stopped by you at step 1' });
  });
});

describe('RunManager.stop', () => {
  /** a RunManager over the demo bug in memory (no repository, no runner: the person's replies validate nothing) */
  function manager() {
    const records = new MemoryRecordStore();
    const bug: BugSpec = { ...demoBug, groundTruth: { patch: GOOD_DIFF } } as BugSpec;
    const engine = { platform: { records }, workspaceFor: async () => ({ bug, workspace: demoWorkspace() }), ensureRepository: async () => ({}) } as unknown as Engine;
    return { runs: new RunManager(engine, async () => undefined), records };
  }

  /** Starts a run a person plays, answers `replies` in its first turns, stops it at the next and resolves with it and its events. */
  async function stopAtTurn(replies: string[]): Promise<{ t: Trajectory; events: RunEvent[]; records: MemoryRecordStore }> {
    const { runs, records } = manager();
    const events: RunEvent[] = [];
    const request = {
      bugId: demoBug.id,
      preset: 'oneshot',
      overrides: { budgets: { maxSteps: 6 }, middleware: { maxConsecutiveFormatErrors: 6 } },
      model: { kind: 'human' as const },
      runner: { url: 'http://127.0.0.1:9', token: 'unused' },
    };
    const [t] = await runs.start(request, (e) => {
      events.push(e);
      if (e.type !== 'human-turn') return;
      const reply = replies[e.step];
      if (reply !== undefined) void runs.submitHumanReply(e.runId, reply);
      else void runs.stop(e.runId);
    });
    return { t: t!, events, records };
  }

  it('names the step of the turn the person was at, in the outcome, the step and the saved record', async () => {
    const { t, events, records } = await stopAtTurn(['no diff here', 'no diff either']);
    expect(t.outcome).toMatchObject({ status: 'stopped', reason: 'Stopped by you at step 3' });
    expect(t.steps).toHaveLength(3);
    expect(t.steps[2]).toMatchObject({ status: 'stopped', error: { code: 'aborted', message: 'Stopped by you at step 3' } });
    expect(events.find((e) => e.type === 'run-finished')).toMatchObject({ outcome: { reason: 'Stopped by you at step 3' } });
    const saved = await loadTrajectory(records, t.runId);
    expect(saved?.outcome?.reason).toBe('Stopped by you at step 3');
    expect(JSON.stringify(saved)).not.toMatch(BARE_ABORT);
  });

  it('a stop at the first turn is at step 1', async () => {
    const { t } = await stopAtTurn([]);
    expect(t.outcome?.reason).toBe('Stopped by you at step 1');
  });

  it('a run that is not going on is named, not a crash', async () => {
    await expect(manager().runs.stop('run-none')).rejects.toThrow('Run run-none is not going on');
    await expect(manager().runs.stop('run-none')).rejects.toMatchObject({ name: 'RunNotGoingOnError' });
  });
});
