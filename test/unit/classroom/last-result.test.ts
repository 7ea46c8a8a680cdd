// The presenter layout's "last result": which command ran, whether its validation passed, and what the model is shown
// next — read from real steps the agent loop records (scripted model, fake validator), and from a write_fix whose
// failing patch was reverted.
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import type { Trajectory, TrajStep } from '../../../worker/contracts/trajectory.ts';
import { BROKEN_DIFF, demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF, WRONG_DIFF } from '../agent/fixtures.ts';
import { resultSummary } from '../../../src/components/classroom/last-result/result-summary.ts';

async function run(replies: string[]): Promise<Trajectory> {
  return runAgent({
    strategy: resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 4 }, middleware: { maxConsecutiveFormatErrors: 4 } } }),
    bug: demoBug,
    workspace: demoWorkspace(),
    validator: new FakeValidator(),
    llm: createScriptedProvider(replies),
    tools: [applyPatchTool],
  });
}

describe('the last result', () => {
  it('says whether the validation passed, failed (naming the tests) or did not compile, beside the result the model reads', async () => {
    const t = await run([fence(BROKEN_DIFF), fence(WRONG_DIFF), 'no diff here', fence(GOOD_DIFF)]);
    const [broken, wrong, none, good] = t.steps.map(resultSummary);
    expect(broken).toMatchObject({ stepNumber: 1, tool: 'apply_patch', kind: 'no-compile', headline: 'Validation failed: the patch does not compile' });
    expect(wrong).toMatchObject({ stepNumber: 2, kind: 'fail', headline: 'Validation failed: 1 failing test (org.demo.ClampTest::clampsToUpperBound)' });
    expect(wrong!.text).toBe(t.steps[1]!.tool!.shown);
    expect(none).toMatchObject({ stepNumber: 3, tool: undefined, kind: 'no-tool' });
    expect(none!.text).toBe(t.steps[2]!.feedback);
    expect(good).toMatchObject({ stepNumber: 4, kind: 'pass', headline: 'Validation passed: all tests pass' });
  });

  it("says a write_fix whose patch failed was reverted, and names a tool that failed without a validation", async () => {
    const t = await run([fence(WRONG_DIFF)]);
    const wrong = t.steps[0]!;
    const reverted: TrajStep = { ...wrong, tool: { ...wrong.tool!, name: 'write_fix', data: { kept: false } } };
    expect(resultSummary(reverted).headline).toBe('Validation failed: 1 failing test (org.demo.ClampTest::clampsToUpperBound) — the fix was reverted');
    const failed: TrajStep = { ...wrong, verdict: undefined, tool: { ...wrong.tool!, name: 'read_range', ok: false, shown: 'read_range: no such file' } };
    expect(resultSummary(failed)).toMatchObject({ kind: 'tool-failed', headline: 'read_range failed', text: 'read_range: no such file' });
    const ran: TrajStep = { ...failed, tool: { ...failed.tool!, ok: true } };
    expect(resultSummary(ran).headline).toBe('read_range ran (no tests were run)');
  });
});
