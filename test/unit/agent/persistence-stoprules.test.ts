// Persistence through a RecordStore (MemoryRecordStore, in memory), the regression stop
// rule, and context computed by a provider function.
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { storeRecorder, unfinishedRuns, loadTrajectory } from '../../../worker/records/persistence.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { MemoryRecordStore } from '../../../worker/platform/memory-records.ts';
import type { TestSelection, ValidationResult } from '../../../worker/contracts/runner-api.ts';
import type { Workspace } from '../../../worker/contracts/workspace.ts';
import { demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF, hangAfter, SRC } from './fixtures.ts';

describe('persistence', () => {
  it('saves every step to the store and lists an interrupted run for resuming', async () => {
    const store = new MemoryRecordStore();
    const save = storeRecorder(store);
    // a crash while the model works on step 2: the record of step 1 is the last one written
    const runId = await new Promise<string>((saved) => {
      void runAgent({
        strategy: resolveStrategy('oneshot'),
        bug: demoBug,
        workspace: demoWorkspace(),
        validator: new FakeValidator(),
        llm: hangAfter(createScriptedProvider(['no diff', fence(GOOD_DIFF)]), 1),
        tools: [applyPatchTool],
        record: async (traj) => {
          await save(traj);
          if (traj.steps.length === 1) saved(traj.runId);
        },
      });
    });
    const [unfinished] = await unfinishedRuns(store);
    expect(unfinished?.runId).toBe(runId);
    expect(unfinished?.steps).toHaveLength(1);
    const resumed = await runAgent({
      strategy: resolveStrategy('oneshot'),
      bug: demoBug,
      workspace: demoWorkspace(),
      validator: new FakeValidator(),
      llm: createScriptedProvider([fence(GOOD_DIFF)]),
      tools: [applyPatchTool],
      resumeFrom: unfinished,
      record: storeRecorder(store),
    });
    expect(resumed.outcome?.status).toBe('plausible');
    expect((await loadTrajectory(store, runId))?.status).toBe('finished');
    expect(await unfinishedRuns(store)).toEqual([]);
  });
});

/** A change containing "regress" breaks another test (keepsInside) — a regression. */
class RegressingValidator extends FakeValidator {
  override async validate(ws: Workspace, tests: TestSelection): Promise<ValidationResult> {
    const v = await super.validate(ws, tests);
    if (!(await ws.read(SRC)).includes('regress')) return v;
    return { ...v, plausible: false, failingTests: ['org.demo.ClampTest::keepsInside'], tests: [{ id: 'org.demo.ClampTest::keepsInside', status: 'fail', durationMs: 1 }] };
  }
}

describe('practitioner stop rules: regression → revert and retry', () => {
  const REGRESSING = GOOD_DIFF.replace('+            return hi;', '+            return hi; // regress');

  it('reverts a change that breaks passing tests and tells the model', async () => {
    const ws = demoWorkspace();
    const t = await runAgent({
      strategy: resolveStrategy('oneshot', { variants: ['stop-rules'], overrides: { budgets: { maxSteps: 1 } } }),
      bug: demoBug,
      workspace: ws,
      validator: new RegressingValidator(),
      llm: createScriptedProvider([fence(REGRESSING)]),
      tools: [applyPatchTool],
    });
    const s = t.steps[0]!;
    expect(s.rectifications.some((r) => /regression: reverted the change \(newly failing: org.demo.ClampTest::keepsInside\)/.test(r.message))).toBe(true);
    expect(s.feedback).toMatch(/made tests fail that passed before \(org.demo.ClampTest::keepsInside\); it was reverted/);
    expect(ws.overlay()).toEqual({});
    expect(t.outcome?.finalPatch).toBe('');
  });

  it('without the rule the regressing change stays', async () => {
    const ws = demoWorkspace();
    await runAgent({
      strategy: resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 1 } } }),
      bug: demoBug,
      workspace: ws,
      validator: new RegressingValidator(),
      llm: createScriptedProvider([fence(REGRESSING)]),
      tools: [applyPatchTool],
    });
    expect(Object.keys(ws.overlay())).toEqual([SRC]);
  });
});

describe('context provider', () => {
  it('computes template variables once from the strategy settings', async () => {
    const seen: string[] = [];
    const t = await runAgent({
      strategy: resolveStrategy('hafixagent', { variants: ['fn_all'], overrides: { budgets: { maxSteps: 1 } } }),
      bug: demoBug,
      workspace: demoWorkspace(),
      validator: new FakeValidator(),
      llm: createScriptedProvider(['no block']),
      tools: [],
      contextProvider: async (spec) => {
        seen.push(String(spec.toolSettings.historyContext));
        return { history_context: 'functions: clamp, Clamp' };
      },
    });
    expect(seen).toEqual(['fn_all']);
    expect(t.steps[0]!.prompt.messages[1]!.content).toContain('## Historical context (fn_all)\nfunctions: clamp, Clamp');
  });
});
