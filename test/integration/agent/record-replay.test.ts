// Record with the scripted provider → replay from the cassette (in process, and over HTTP through the
// real openai SDK and the cassette server) → the same trajectory step for step; a changed prompt is
// reported at the exact step. Repository and runner are fakes (test/unit/agent/fixtures.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { comparableStep } from '../../../worker/records/cassette-from-trajectory.ts';
import { recordCassette } from '../../../worker/agent/record-cassette.ts';
import { createReplayProvider } from '../../../worker/llm/replay-provider.ts';
import { createOpenAiProvider } from '../../../worker/llm/openai-provider.ts';
import { startCassetteServer, type CassetteServer } from '../../../worker/llm/cassette-server.node.ts';
import { parseCassette } from '../../../worker/contracts/cassette.ts';
import { Trajectory } from '../../../worker/contracts/trajectory.ts';
import { BROKEN_DIFF, demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF, GROUND_TRUTH } from '../../unit/agent/fixtures.ts';

const replies = ['Let me look at the bound.', fence(BROKEN_DIFF), fence(GOOD_DIFF)];
const strategy = () => resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 5 } } });
const base = () => ({ bug: demoBug, validator: new FakeValidator(), tools: [applyPatchTool], groundTruthPatch: GROUND_TRUTH });

let server: CassetteServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('record → replay', () => {
  it('replays a recorded run to an identical trajectory', async () => {
    const { cassette, trajectory: recorded } = await recordCassette({ ...base(), strategy: strategy(), workspace: demoWorkspace(), replies });
    expect(recorded.outcome?.status).toBe('plausible');
    expect(cassette.calls).toHaveLength(3);
    expect(cassette.provenance.source).toBe('hand-authored');
    const saved = parseCassette(JSON.parse(JSON.stringify(cassette)));
    const replayed = await runAgent({ ...base(), strategy: strategy(), workspace: demoWorkspace(), llm: createReplayProvider(saved) });
    expect(replayed.steps.map(comparableStep)).toEqual(recorded.steps.map(comparableStep));
    expect(replayed.outcome?.finalPatch).toBe(recorded.outcome?.finalPatch);
    expect(replayed.outcome?.status).toBe('plausible');
  });

  it('reports the exact step where a changed prompt diverges', async () => {
    const { cassette } = await recordCassette({ ...base(), strategy: strategy(), workspace: demoWorkspace(), replies });
    // change what the engine says after a format error: call 2's prompt differs, call 1's does not
    const changed = resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 5 }, prompt: { formatError: 'FORMAT PROBLEM: {{ error }}\n' } } });
    const replayed = await runAgent({ ...base(), strategy: changed, workspace: demoWorkspace(), llm: createReplayProvider(cassette) });
    expect(replayed.steps).toHaveLength(2);
    const last = replayed.steps[1]!;
    expect(last.status).toBe('llm-error');
    expect(last.error?.code).toBe('cassette-divergence');
    expect(last.error?.message).toMatch(/model call 2/);
    expect(last.error?.message).toMatch(/message #3 \(user\)/);
    expect(last.error?.message).toContain('FORMAT PROBLEM');
    expect(replayed.outcome?.status).toBe('error');
  });

  it('replays over HTTP through the openai SDK, streaming, and never records the key', async () => {
    const { cassette, trajectory: recorded } = await recordCassette({ ...base(), strategy: strategy(), workspace: demoWorkspace(), replies });
    server = await startCassetteServer({ cassette });
    const key = 'sk-live-DO-NOT-LEAK-0123456789';
    const llm = createOpenAiProvider({ baseURL: server.baseURL, apiKey: key, model: cassette.model, temperature: 0, stream: true });
    const deltas: string[] = [];
    const saved: string[] = [];
    const replayed = await runAgent({
      ...base(),
      strategy: strategy(),
      workspace: demoWorkspace(),
      llm,
      onEvent: (e) => e.type === 'model-delta' && deltas.push(e.text),
      record: async (t) => {
        saved.push(JSON.stringify(t));
      },
    });
    expect(replayed.steps.map(comparableStep)).toEqual(recorded.steps.map(comparableStep));
    expect(deltas.join('')).toBe(replies.join(''));
    const json = JSON.stringify(replayed);
    expect(() => Trajectory.parse(JSON.parse(json))).not.toThrow();
    expect(replayed.config.model).toMatchObject({ kind: 'openai', baseURL: server.baseURL, model: cassette.model, keyProvided: true });
    for (const text of [json, ...saved]) expect(text).not.toContain(key);
  });
});
