import { describe, expect, it } from 'vitest';
import { plausibleAtK, runTrajectories } from '../../../worker/agent/trajectories.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF, WRONG_DIFF } from './fixtures.ts';

describe('independent trajectories', () => {
  it('runs N trajectories on clean workspaces, numbered', async () => {
    const ws = demoWorkspace();
    await ws.write('src/main/java/org/demo/Clamp.java', 'dirty');
    const trajs = await runTrajectories({
      strategy: resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 1 }, sampling: { trajectories: 3 } } }),
      bug: demoBug,
      workspace: ws,
      validator: new FakeValidator(),
      llm: createScriptedProvider([fence(WRONG_DIFF), fence(GOOD_DIFF), fence(WRONG_DIFF)]),
      tools: [applyPatchTool],
    });
    expect(trajs.map((t) => t.config.trajectoryIndex)).toEqual([0, 1, 2]);
    expect(trajs.map((t) => t.outcome?.status)).toEqual(['implausible', 'plausible', 'implausible']);
    expect(new Set(trajs.map((t) => t.runId)).size).toBe(3);
  });

  it('computes plausible@k', () => {
    expect(plausibleAtK(20, 0, 1)).toBe(0);
    expect(plausibleAtK(20, 20, 5)).toBe(1);
    expect(plausibleAtK(2, 1, 1)).toBeCloseTo(0.5);
    expect(plausibleAtK(4, 1, 2)).toBeCloseTo(0.5);
    expect(plausibleAtK(20, 1, 10)).toBeCloseTo(0.5);
    expect(() => plausibleAtK(3, 1, 5)).toThrow(/needs at least 5/);
  });
});
