// Budgets that really stop a run, pause / step / resume / stop, and resuming a saved trajectory after a "reload".
import { describe, expect, it } from 'vitest';
import { runAgent, type AgentEvent, type RunAgentOptions } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { RunControl } from '../../../worker/agent/run-control.ts';
import { comparableStep } from '../../../worker/records/cassette-from-trajectory.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { LlmError, type LlmProvider } from '../../../worker/contracts/llm.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import { BROKEN_DIFF, demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF, hangAfter, SRC, WRONG_DIFF } from './fixtures.ts';
import { allToolDefinitions } from '../../../worker/tools/registry.ts';
import type { AnyTool } from '../../../worker/tools/agent-tool.ts';

const wrong = fence(WRONG_DIFF);

function opts(over: Partial<RunAgentOptions> & { budgets?: Record<string, unknown>; stop?: Record<string, unknown> }): RunAgentOptions {
  const { budgets, stop, ...rest } = over;
  return {
    strategy: resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 10, ...budgets }, ...(stop ? { stop } : {}) } }),
    bug: demoBug,
    workspace: demoWorkspace(),
    validator: new FakeValidator(),
    llm: createScriptedProvider(Array(10).fill(wrong)),
    tools: [applyPatchTool],
    ...rest,
  };
}

describe('budgets', () => {
  it('steps', async () => {
    const t = await runAgent(opts({ budgets: { maxSteps: 2 } }));
    expect(t.steps).toHaveLength(2);
    expect(t.outcome?.reason).toMatch(/step budget reached \(2 steps\)/);
  });

  it('tokens', async () => {
    const llm = createScriptedProvider(Array(10).fill({ content: wrong, usage: { inputTokens: 600, outputTokens: 100 } }));
    const t = await runAgent(opts({ llm, budgets: { maxTokens: 1000 } }));
    expect(t.steps).toHaveLength(2);
    expect(t.outcome?.reason).toMatch(/token budget reached \(1400 ≥ 1000\)/);
    expect(t.outcome?.totals).toMatchObject({ inputTokens: 1200, outputTokens: 200 });
  });

  it('cost, from the editable price table', async () => {
    const llm = createScriptedProvider(Array(10).fill({ content: wrong, usage: { inputTokens: 1_000_000, outputTokens: 0 } }), { model: 'gpt-4o' });
    const t = await runAgent(opts({ llm, budgets: { maxCostUsd: 4 } }));
    expect(t.steps.map((s) => s.costUsd)).toEqual([2.5, 2.5]);
    expect(t.outcome?.reason).toMatch(/cost budget reached \(\$5\.0000 ≥ \$4\)/);
    const cheap = await runAgent(opts({ llm: createScriptedProvider(Array(3).fill({ content: wrong, usage: { inputTokens: 1_000_000, outputTokens: 0 } }), { model: 'gpt-4o' }), prices: { 'gpt-4o': { inputPerMTok: 1, outputPerMTok: 1 } }, budgets: { maxCostUsd: 4, maxSteps: 3 } }));
    expect(cheap.steps).toHaveLength(3);
    expect(cheap.outcome?.totals.costUsd).toBe(3);
  });

  it('an unknown price stops the run when configured to, and is recorded as null otherwise', async () => {
    const mystery = () => createScriptedProvider(Array(3).fill(wrong), { model: 'mystery-model' });
    const stop = await runAgent(opts({ llm: mystery(), budgets: { unknownPrice: 'stop' } }));
    expect(stop.steps).toHaveLength(1);
    expect(stop.steps[0]!.costUsd).toBeNull();
    expect(stop.outcome?.reason).toMatch(/no price known for model mystery-model/);
    const ignore = await runAgent(opts({ llm: mystery(), budgets: { unknownPrice: 'ignore', maxSteps: 3 } }));
    expect(ignore.steps).toHaveLength(3);
    // the run's total is unknown, not the $0 of the steps that had a price
    expect(ignore.outcome?.totals.costUsd).toBeNull();
  });

  it('a stop during the final re-check cancels it, and the run ends stopped', async () => {
    const fake = new FakeValidator();
    let calls = 0;
    const stop = new AbortController();
    const validator = {
      validate: (ws: Parameters<FakeValidator['validate']>[0], tests: Parameters<FakeValidator['validate']>[1], o?: { signal?: AbortSignal }) => {
        if (++calls === 1) return fake.validate(ws, tests);
        // the re-check: the user presses Stop while it runs
        setTimeout(() => stop.abort(), 10);
        return new Promise<never>((_, reject) => o?.signal?.addEventListener('abort', () => reject(new Error('the validation was cancelled'))));
      },
    };
    const t = await runAgent(opts({ llm: createScriptedProvider([fence(GOOD_DIFF)]), validator, signal: stop.signal }));
    expect(calls).toBe(2);
    expect(t.outcome?.status).toBe('stopped');
    // the stop is named, not the validator's cancellation error (the runner client's is the platform's abort message)
    expect(t.outcome?.reason).toMatch(/; the final re-check was cancelled by the stop$/);
  });

  it("the second model's calls count on the step whose tool made them, in the totals and against the cost budget", async () => {
    const definition = allToolDefinitions().find((d) => d.name === 'generate_method_body')!;
    const askTwice: AnyTool = {
      definition,
      async run(_args, ctx) {
        for (let i = 0; i < 2; i++) await ctx.auxiliaryLlm!.complete({ messages: [{ role: 'user', content: 'write it' }], purpose: 'generate_method_body' });
        return { ok: true, output: 'generated', shown: 'generated' };
      },
    };
    // two different commands (RepairAgent refuses an exact repeat)
    const command = (method: string) => JSON.stringify({ thoughts: 'generate it', command: { name: 'generate_method_body', args: { filepath: SRC, method_name: method } } });
    const run = (maxCostUsd: number | null) =>
      runAgent({
        strategy: resolveStrategy('repairagent', { overrides: { startup: [], budgets: { maxSteps: 2, maxCostUsd } } }),
        bug: demoBug,
        workspace: demoWorkspace(),
        validator: new FakeValidator(),
        tools: [askTwice],
        recheck: false,
        // the agent: $2.5 / M input tokens; the second model: $0.15 / M
        llm: createScriptedProvider(['clamp', 'clampAgain'].map((m) => ({ content: command(m), usage: { inputTokens: 100_000, outputTokens: 0 } })), { model: 'gpt-4o' }),
        auxiliaryLlm: createScriptedProvider(Array(4).fill({ content: 'return lo;', usage: { inputTokens: 1_000_000, outputTokens: 0 } }), { model: 'gpt-4o-mini' }),
      });
    const t = await run(null);
    expect(t.steps[0]!.auxiliary).toEqual({ calls: 2, inputTokens: 2_000_000, outputTokens: 0, costUsd: 0.3 });
    expect(t.steps[0]!.costUsd).toBeCloseTo(0.25);
    expect(t.outcome?.totals).toMatchObject({ inputTokens: 2 * (100_000 + 2_000_000) });
    expect(t.outcome?.totals.costUsd).toBeCloseTo(2 * 0.55);
    // $0.55 after the first step: over a $0.5 budget only because of the second model
    const capped = await run(0.5);
    expect(capped.steps).toHaveLength(1);
    expect(capped.outcome?.reason).toMatch(/cost budget reached \(\$0\.5500 ≥ \$0\.5\)/);
  });

  it('wall time aborts the model call in flight', async () => {
    const hanging: LlmProvider = {
      id: 'hanging-fake',
      complete: (req) => new Promise((_, reject) => req.signal?.addEventListener('abort', () => reject(new LlmError('the model call was aborted', 'aborted')))),
    };
    const t = await runAgent(opts({ llm: hanging, budgets: { maxWallMs: 50 } }));
    expect(t.steps).toHaveLength(1);
    expect(t.steps[0]!.status).toBe('stopped');
    expect(t.outcome?.reason).toMatch(/wall-time budget reached/);
    expect(t.outcome?.status).toBe('implausible');
  });

  it('wall time and a stop end a runner validation in flight, not only a model call', async () => {
    const hangingFirst = () => {
      const fake = new FakeValidator();
      let calls = 0;
      return {
        validate: (ws: Parameters<FakeValidator['validate']>[0], tests: Parameters<FakeValidator['validate']>[1], o?: { signal?: AbortSignal }) =>
          ++calls === 1
            ? new Promise<never>((_, reject) => o?.signal?.addEventListener('abort', () => reject(new Error('the validation was cancelled'))))
            : fake.validate(ws, tests),
      };
    };
    const timed = await runAgent(opts({ llm: createScriptedProvider([fence(GOOD_DIFF)]), validator: hangingFirst(), budgets: { maxWallMs: 50 } }));
    expect(timed.steps[0]!.status).toBe('tool-error');
    expect(timed.steps[0]!.tool?.output).toMatch(/cancelled/);
    expect(timed.outcome?.reason).toMatch(/wall-time budget reached/);
    const stop = new AbortController();
    const stopped = runAgent(opts({ llm: createScriptedProvider([fence(GOOD_DIFF)]), validator: hangingFirst(), signal: stop.signal }));
    setTimeout(() => stop.abort(), 20);
    const t = await stopped;
    expect(t.steps[0]!.status).toBe('tool-error');
    // (the patch was applied before the validation was cancelled: the end-of-run re-check finds it plausible)
    expect(t.outcome?.reason).toMatch(/stopped by the user/);
  });

  it('runner validations', async () => {
    const validator = new FakeValidator();
    const t = await runAgent(opts({ validator, budgets: { maxValidations: 2 } }));
    expect(t.steps).toHaveLength(2);
    expect(t.outcome?.reason).toMatch(/validation budget reached \(2 runner validations\)/);
  });
});

describe('practitioner stop rules', () => {
  it('the same error twice in a row → stuck', async () => {
    const t = await runAgent(opts({ stop: { sameErrorTwice: true } }));
    expect(t.steps).toHaveLength(2);
    expect(t.outcome?.reason).toMatch(/stuck: the same error twice in a row/);
  });

  it('different errors in a row are not stuck', async () => {
    const t = await runAgent(opts({ llm: createScriptedProvider([fence(BROKEN_DIFF), wrong, fence(GOOD_DIFF)]), stop: { sameErrorTwice: true } }));
    expect(t.outcome?.status).toBe('plausible');
  });
});

describe('pause / step / resume / stop', () => {
  it('waits while paused, runs one step on step(), and finishes on resume()', async () => {
    const control = new RunControl();
    control.pause();
    const events: AgentEvent[] = [];
    const saved: Trajectory['status'][] = [];
    let pauses = 0;
    const done = runAgent(
      opts({
        control,
        llm: createScriptedProvider([wrong, wrong, fence(GOOD_DIFF)]),
        record: async (t) => {
          saved.push(t.status);
        },
        onEvent: (e) => {
          events.push(e);
          if (e.type === 'paused') {
            pauses++;
            // first pause: step once; second pause: resume to the end
            queueMicrotask(() => (pauses === 1 ? control.step() : control.resume()));
          }
        },
      }),
    );
    const t = await done;
    expect(events.filter((e) => e.type === 'paused').map((e) => (e as { nextIndex: number }).nextIndex)).toEqual([0, 1]);
    expect(t.steps).toHaveLength(3);
    expect(saved).toContain('paused');
    expect(saved.at(-1)).toBe('finished');
    expect(t.outcome?.status).toBe('plausible');
  });

  it('stop() ends the run after the step in flight with status stopped', async () => {
    const control = new RunControl();
    const t = await runAgent(opts({ control, onEvent: (e) => e.type === 'step' && control.stop() }));
    expect(t.steps).toHaveLength(1);
    expect(t.outcome?.status).toBe('stopped');
    expect(t.outcome?.reason).toBe('stopped by the user');
  });

  it('an aborted signal stops the run', async () => {
    const ac = new AbortController();
    const t = await runAgent(opts({ signal: ac.signal, onEvent: (e) => e.type === 'step' && ac.abort() }));
    expect(t.steps).toHaveLength(1);
    expect(t.outcome?.status).toBe('stopped');
  });
});

describe('resume after reload', () => {
  it('continues a saved trajectory to the same result as an uninterrupted run', async () => {
    const replies = [fence(BROKEN_DIFF), 'no diff here', wrong, fence(GOOD_DIFF)];
    const whole = await runAgent(opts({ llm: createScriptedProvider(replies) }));
    // the page "reloads" while the model works on step 3, after step 2 was saved: resume from that record with a fresh workspace
    const saved = await new Promise<Trajectory>((resolve) => {
      void runAgent(
        opts({
          llm: hangAfter(createScriptedProvider(replies), 2),
          record: async (t) => {
            if (t.status === 'running' && t.steps.length === 2) resolve(JSON.parse(JSON.stringify(t)) as Trajectory);
          },
        }),
      );
    });
    expect(saved.resume?.state).toBe('fix');
    const resumed = await runAgent(opts({ llm: createScriptedProvider(replies.slice(2)), resumeFrom: saved, workspace: demoWorkspace() }));
    expect(resumed.runId).toBe(saved.runId);
    expect(resumed.steps.map(comparableStep)).toEqual(whole.steps.map(comparableStep));
    expect(resumed.outcome?.status).toBe('plausible');
    expect(resumed.outcome?.finalPatch).toBe(whole.outcome?.finalPatch);
  });

  it('a run that had decided to end when it was interrupted is only finished when continued, with no further model call', async () => {
    let saved: Trajectory | undefined;
    // the final re-check never completes: the page reloads during it (the final record never happens)
    await expect(
      runAgent(
        opts({
          llm: createScriptedProvider([fence(GOOD_DIFF)]),
          record: async (t) => {
            if (t.status === 'finished') throw new Error('the page went away');
            saved = JSON.parse(JSON.stringify(t)) as Trajectory;
          },
        }),
      ),
    ).rejects.toThrow(/went away/);
    expect(saved?.status).toBe('running');
    const calls: number[] = [];
    const noMoreReplies: LlmProvider = {
      id: 'no-more-replies',
      complete: async () => {
        calls.push(1);
        throw new LlmError('no more replies', 'other');
      },
    };
    const continued = await runAgent(opts({ llm: noMoreReplies, resumeFrom: saved!, workspace: demoWorkspace() }));
    expect(calls).toHaveLength(0);
    expect(continued.steps).toHaveLength(1);
    expect(continued.outcome).toMatchObject({ status: 'plausible', reason: expect.stringMatching(/plausible patch was found/) });
  });

  it('counts the tokens of the steps made before the reload against the budget', async () => {
    const reply = { content: wrong, usage: { inputTokens: 300, outputTokens: 100 } };
    const saved = await new Promise<Trajectory>((resolve) => {
      void runAgent(
        opts({
          llm: hangAfter(createScriptedProvider(Array(10).fill(reply)), 2),
          budgets: { maxTokens: 1000 },
          record: async (t) => {
            if (t.status === 'running' && t.steps.length === 2) resolve(JSON.parse(JSON.stringify(t)) as Trajectory);
          },
        }),
      );
    });
    // 800 tokens spent before the reload: the first step after it reaches the budget (1200 ≥ 1000)
    const resumed = await runAgent(opts({ llm: createScriptedProvider(Array(10).fill(reply)), budgets: { maxTokens: 1000 }, resumeFrom: saved, workspace: demoWorkspace() }));
    expect(resumed.steps).toHaveLength(3);
    expect(resumed.outcome?.reason).toMatch(/token budget reached \(1200 ≥ 1000\)/);
    expect(resumed.outcome?.totals).toMatchObject({ inputTokens: 900, outputTokens: 300 });
  });
});
