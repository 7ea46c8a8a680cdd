// A run replays from its own record: the trajectory becomes a cassette (prompts with their hashes, replies in order),
// the replay reproduces the run step for step, and a changed prompt stops it at the step that changed.
import { describe, expect, it } from 'vitest';
import { runAgent, type RunAgentOptions } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { cassetteFromTrajectory, comparableStep } from '../../../worker/records/cassette-from-trajectory.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { createReplayProvider } from '../../../worker/llm/replay-provider.ts';
import { parseCassette } from '../../../worker/contracts/cassette.ts';
import { BROKEN_DIFF, demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF, WRONG_DIFF } from './fixtures.ts';

const options = (llm: RunAgentOptions['llm'], overrides: Record<string, unknown> = {}): RunAgentOptions => ({
  strategy: resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 6 }, middleware: { maxConsecutiveFormatErrors: 5 }, ...overrides } }),
  bug: demoBug,
  workspace: demoWorkspace(),
  validator: new FakeValidator(),
  llm,
  tools: [applyPatchTool],
});

describe('cassetteFromTrajectory', () => {
  it('replays a recorded run step for step, and names the step whose prompt changed', async () => {
    const recorded = await runAgent(options(createScriptedProvider([fence(BROKEN_DIFF), 'no diff here', fence(WRONG_DIFF), fence(GOOD_DIFF)])));
    // as a file: JSON round trip and the cassette schema
    const cassette = parseCassette(JSON.parse(JSON.stringify(cassetteFromTrajectory(recorded))), 'the cassette');
    expect(cassette.calls).toHaveLength(4);
    expect(cassette.provenance).toMatchObject({ source: 'hand-authored', bugId: demoBug.id, preset: 'oneshot' });
    expect(cassette.calls.map((c) => c.promptHash)).toEqual(recorded.steps.map((s) => s.prompt.promptHash));

    const replayed = await runAgent(options(createReplayProvider(cassette)));
    expect(replayed.steps.map(comparableStep)).toEqual(recorded.steps.map(comparableStep));
    expect(replayed.outcome?.finalPatch).toBe(recorded.outcome?.finalPatch);

    // a different format-error template changes the third prompt (the one after the reply without a diff)
    const changed = await runAgent(options(createReplayProvider(cassette), { prompt: { formatError: 'Send a diff, please. ({{ error }})' } }));
    expect(changed.steps).toHaveLength(3);
    expect(changed.steps[2]!.error?.code).toBe('cassette-divergence');
    expect(changed.outcome?.reason).toMatch(/call 3/);
  });
});
