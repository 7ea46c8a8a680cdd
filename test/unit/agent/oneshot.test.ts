// The one-shot strategy through the real loop, with the scripted provider and fakes for the repo and runner.
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { Trajectory } from '../../../worker/contracts/trajectory.ts';
import { BROKEN_DIFF, demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF, GROUND_TRUTH, SRC, WRONG_DIFF } from './fixtures.ts';

async function run(replies: string[], over: Record<string, unknown> = {}) {
  const ws = demoWorkspace();
  const validator = new FakeValidator();
  const recorded: Trajectory[] = [];
  const traj = await runAgent({
    strategy: resolveStrategy('oneshot', { overrides: over }),
    bug: demoBug,
    workspace: ws,
    validator,
    llm: createScriptedProvider(replies),
    tools: [applyPatchTool],
    groundTruthPatch: GROUND_TRUTH,
    record: async (t) => {
      recorded.push(structuredClone(t));
    },
  });
  return { traj, ws, validator, recorded };
}

describe('oneshot strategy', () => {
  it('builds the prompt from the report, the failing test source and the numbered fault lines', async () => {
    const { traj } = await run([fence(GOOD_DIFF)]);
    const user = traj.steps[0]!.prompt.messages[1]!.content;
    expect(user).toContain('clamp returns hi - 1 at the upper bound');
    expect(user).toContain('public void clampsToUpperBound() {');
    expect(user).toContain('assertEquals(10, Clamp.clamp(12, 0, 10));');
    expect(user).not.toContain('keepsInside');
    expect(user).toMatch(/>13:\s+return hi - 1;/);
    expect(user).toMatch(/ 8:\s+public static int clamp/);
  });

  it('applies a fenced diff, validates failing-first and ends plausible with an exact match', async () => {
    const { traj, validator, recorded } = await run([fence(GOOD_DIFF)]);
    expect(traj.steps).toHaveLength(1);
    const s = traj.steps[0]!;
    expect(s.status).toBe('ok');
    expect(s.parsed?.command?.name).toBe('apply_patch');
    expect(s.verdict?.plausible).toBe(true);
    expect(s.overlayChange?.files).toEqual([SRC]);
    expect(validator.calls[0]).toEqual({ mode: 'failing-first', tests: demoBug.failingTests });
    expect(traj.outcome?.status).toBe('plausible');
    expect(traj.outcome?.plausible).toBe(true);
    expect(traj.outcome?.exactMatch).toBe(true);
    expect(traj.outcome?.finalPatch).toContain('+            return hi;');
    expect(validator.calls).toHaveLength(2); // the step + the re-check after the run
    expect(() => Trajectory.parse(JSON.parse(JSON.stringify(traj)))).not.toThrow();
    expect(recorded.length).toBeGreaterThanOrEqual(2);
    expect(recorded[0]!.steps).toHaveLength(1);
    expect(recorded[0]!.status).toBe('running');
  });

  it('accepts a bare diff and a sloppy fence, recording the rectification', async () => {
    const bare = await run([`The bound is off by one.\n${GOOD_DIFF}`]);
    expect(bare.traj.outcome?.status).toBe('plausible');
    expect(bare.traj.steps[0]!.rectifications.map((r) => r.message).join()).toMatch(/bare/);
    const sloppy = await run([`\`\`\`diff   \r\n${GOOD_DIFF.replace(/\n/g, '\r\n')}  \`\`\`\n`]);
    expect(sloppy.traj.outcome?.status).toBe('plausible');
    expect(sloppy.traj.steps[0]!.rectifications.some((r) => r.kind === 'whitespace')).toBe(true);
  });

  it('recounts wrong hunk headers', async () => {
    const { traj } = await run([fence(GOOD_DIFF.replace('@@ -12,3 +12,3 @@', '@@ -12,7 +12,9 @@'))]);
    expect(traj.outcome?.status).toBe('plausible');
    expect(traj.steps[0]!.rectifications.some((r) => /hunk header/.test(r.message))).toBe(true);
  });

  it('feeds a reply without a diff back as a format error and accepts the next one', async () => {
    const { traj } = await run(['I think the bug is in clamp.', fence(GOOD_DIFF)]);
    expect(traj.steps.map((s) => s.status)).toEqual(['format-error', 'ok']);
    expect(traj.steps[0]!.feedback).toMatch(/no unified diff found/);
    expect(traj.steps[1]!.prompt.messages.at(-1)?.content).toMatch(/no unified diff found/);
    expect(traj.outcome?.status).toBe('plausible');
  });

  it('names the hunk that does not apply and lets the model retry', async () => {
    const stale = GOOD_DIFF.replace('-            return hi - 1;', '-            return hi + 1;');
    const { traj } = await run([fence(stale), fence(GOOD_DIFF)]);
    const first = traj.steps[0]!;
    expect(first.status).toBe('tool-error');
    expect(first.feedback).toMatch(/hunk 1 of 1 for src\/main\/java\/org\/demo\/Clamp.java .* does not apply/);
    expect(first.overlayChange).toBeUndefined();
    expect(traj.outcome?.status).toBe('plausible');
  });

  it('records a compile error and a wrong patch, and ends implausible after the attempts run out', async () => {
    const { traj } = await run([fence(BROKEN_DIFF), fence(WRONG_DIFF), fence(WRONG_DIFF)]);
    expect(traj.steps).toHaveLength(3);
    expect(traj.steps[0]!.verdict?.compiled).toBe(false);
    expect(traj.steps[0]!.feedback).toMatch(/Compilation failed with 1 error/);
    expect(traj.steps[1]!.feedback).toMatch(/expected:<10> but was:<9>/);
    expect(traj.outcome?.status).toBe('implausible');
    expect(traj.outcome?.reason).toMatch(/step budget reached \(3 steps\)/);
    expect(traj.outcome?.plausible).toBe(false);
    expect(traj.outcome?.exactMatch).toBe(false);
    expect(traj.outcome?.finalPatch).toContain('return lo + 0;');
  });

  it('refuses an exact repeat of an earlier command without running it, when the strategy refuses repeats', async () => {
    const { traj, validator } = await run([fence(WRONG_DIFF), fence(WRONG_DIFF), fence(GOOD_DIFF)], { middleware: { refuseRepeats: true } });
    expect(traj.steps.map((s) => s.status)).toEqual(['ok', 'refused', 'ok']);
    expect(traj.steps[1]!.rectifications).toContainEqual(expect.objectContaining({ kind: 'repeat-refused', from: 'apply_patch' }));
    expect(traj.steps[1]!.feedback).toMatch(/You already ran exactly this command/);
    expect(traj.steps[1]!.tool).toBeUndefined();
    // the refused step ran no validation: the first and the third did (and the re-check)
    expect(validator.calls).toHaveLength(3);
    expect(traj.outcome?.status).toBe('plausible');
    // off (the oneshot default), the same reply runs again
    const again = await run([fence(WRONG_DIFF), fence(WRONG_DIFF), fence(GOOD_DIFF)]);
    expect(again.traj.steps.map((s) => s.status)).toEqual(['ok', 'ok', 'ok']);
  });

  it('stops with an error after K consecutive malformed replies, keeping the record', async () => {
    const { traj, recorded } = await run(['nope', 'still nope', 'no diff again', fence(GOOD_DIFF)], { budgets: { maxSteps: 10 } });
    expect(traj.steps).toHaveLength(3);
    expect(traj.outcome?.status).toBe('error');
    expect(traj.outcome?.reason).toMatch(/3 consecutive replies could not be used/);
    expect(traj.outcome?.finalPatch).toBe('');
    expect(recorded.at(-1)?.status).toBe('finished');
  });

  it('records a model error as a step and ends with status error', async () => {
    const { traj } = await run([]);
    expect(traj.steps).toHaveLength(1);
    expect(traj.steps[0]!.status).toBe('llm-error');
    expect(traj.steps[0]!.error?.code).toBe('cassette-exhausted');
    expect(traj.outcome?.status).toBe('error');
  });
});
