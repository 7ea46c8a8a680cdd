// Compare beyond the steps: the runs' outcomes and metrics as rows (what sets them apart marked), the size of each
// final patch, the bugs whose developers' fix a reveal fetches, and the first step at which two runs' prompts part
// (where the prompt diff opens) — on real trajectories the agent loop records (scripted model, fake validator).
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import { BROKEN_DIFF, demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF, GROUND_TRUTH, WRONG_DIFF } from '../agent/fixtures.ts';
import { bugsOf, firstPromptDifference, outcomeRows, patchSize, promptDiff } from '../../../src/components/run-compare/compare-rows.ts';

async function run(replies: string[], maxSteps = 4): Promise<Trajectory> {
  return runAgent({
    strategy: resolveStrategy('oneshot', { overrides: { budgets: { maxSteps }, middleware: { maxConsecutiveFormatErrors: 4 } } }),
    bug: demoBug,
    workspace: demoWorkspace(),
    validator: new FakeValidator(),
    llm: createScriptedProvider(replies),
    tools: [applyPatchTool],
    groundTruthPatch: GROUND_TRUTH,
  });
}

describe('compare: outcomes, patches and prompts', () => {
  it('puts N runs’ outcomes and metrics side by side and marks the rows where they differ', async () => {
    const fixed = await run([fence(GOOD_DIFF)]);
    const late = await run([fence(BROKEN_DIFF), fence(GOOD_DIFF)]);
    const failed = await run([fence(WRONG_DIFF)], 1);
    const rows = outcomeRows([fixed, late, failed]);
    const row = (id: string) => rows.find((r) => r.id === id)!;
    expect(rows.map((r) => r.label)).toEqual(['Outcome', 'Why it ended', 'Steps', 'Tokens (in / out)', 'Cost', 'Runner validations', 'Format errors', 'Wall time', "Same as the developers' fix", 'Final patch']);
    expect(row('status').values).toEqual(['plausible', 'plausible', 'implausible']);
    expect(row('status').differs).toBe(true);
    expect(row('steps').values).toEqual(['1', '2', '1']);
    expect(row('exactMatch').values).toEqual(['yes', 'yes', 'no']);
    expect(row('patch').values).toEqual(['+1 −1 in 1 file', '+1 −1 in 1 file', '+1 −1 in 1 file']);
    expect(row('patch').differs).toBe(false);
    expect(row('formatErrors')).toMatchObject({ values: ['0', '0', '0'], differs: false });
    expect(row('cost').values[0]).toMatch(/^\$\d+\.\d{4}$/);
  });

  it('a run that has not ended shows so instead of numbers', async () => {
    const ended = await run([fence(GOOD_DIFF)]);
    const going: Trajectory = { ...ended, runId: 'r-going', status: 'running', outcome: undefined };
    const rows = outcomeRows([ended, going]);
    expect(rows.find((r) => r.id === 'status')!.values).toEqual(['plausible', 'running']);
    expect(rows.find((r) => r.id === 'reason')!.values[1]).toBe('(not ended)');
  });

  it('sizes a patch and names each bug once for the reveal', async () => {
    expect(patchSize('')).toBe('no change');
    expect(patchSize(`${GOOD_DIFF}${WRONG_DIFF.replace(/Clamp\.java/g, 'Other.java')}`)).toBe('+2 −2 in 2 files');
    const t = await run([fence(GOOD_DIFF)]);
    const other: Trajectory = { ...t, bug: { ...t.bug, id: 'demo-2' } };
    expect(bugsOf([t, t, other])).toEqual(['demo-1', 'demo-2']);
  });

  it('finds the first step whose prompts differ between two runs, and diffs that step’s messages', async () => {
    const a = await run([fence(BROKEN_DIFF), 'no diff here', fence(GOOD_DIFF)]);
    const b = await run([fence(BROKEN_DIFF), fence(WRONG_DIFF), fence(GOOD_DIFF)]);
    // oneshot keeps the whole conversation: steps 1 and 2 are asked alike, step 3's prompt holds the differing replies
    const at = firstPromptDifference(a, b);
    expect(at).toBe(2);
    expect(firstPromptDifference(a, a)).toBe(-1);
    const diff = promptDiff(a.steps[at], b.steps[at], ['run 1 step 3', 'run 2 step 3']);
    expect(diff).toContain('--- run 1 step 3');
    expect(diff).toContain('-no diff here');
    expect(diff).toContain('+            return lo + 0;');
    // a step only one run has counts as a difference
    const shorter: Trajectory = { ...a, steps: a.steps.slice(0, 1) };
    expect(firstPromptDifference(shorter, { ...a, steps: a.steps.slice(0, 2) })).toBe(1);
  });
});
