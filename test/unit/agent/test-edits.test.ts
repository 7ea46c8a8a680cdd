// The tests that define the bug are not the model's to change (issue 27), through the real loop: every validation of
// the run carries the strategy's testEdits, and the final re-check validates exactly the reported patch — the
// program files of the overlay, never the agent's edits to tests — under testEdits 'none'.
import { describe, expect, it } from 'vitest';
import { finalOutcome } from '../../../worker/agent/final-recheck.ts';
import { runAgent } from '../../../worker/agent/loop.ts';
import { programPatch, splitDiffByFile } from '../../../worker/agent/outcome.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { RunSpending } from '../../../worker/agent/run-budgets.ts';
import { runCosts, DEFAULT_PRICES } from '../../../worker/contracts/prices.ts';
import type { TestSelection, ValidationResult } from '../../../worker/contracts/runner-api.ts';
import type { ValidatorOptions } from '../../../worker/contracts/tools.ts';
import type { Overlay, Workspace } from '../../../worker/contracts/workspace.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { passerineTools } from '../../../worker/tools/passerine/index.ts';
import { demoBug, demoWorkspace, FakeValidator, FIXED_LINE, SRC, SRC_TEXT, TEST, TEST_TEXT } from './fixtures.ts';

const REPRO = 'src/test/java/org/demo/ClampReproTest.java';

/** The fake runner of fixtures.ts, recording what each validation was sent. */
class RecordingValidator extends FakeValidator {
  sent: { overlay: Overlay; opts: ValidatorOptions | undefined }[] = [];
  override async validate(ws: Workspace, tests: TestSelection, opts?: ValidatorOptions): Promise<ValidationResult> {
    this.sent.push({ overlay: ws.overlay(), opts });
    return super.validate(ws, tests);
  }
}

describe('the final re-check', () => {
  it("validates the reported program patch alone, without the agent's test edits, under testEdits none", async () => {
    const ws = demoWorkspace();
    const fixed = SRC_TEXT.replace('            return hi - 1;', FIXED_LINE);
    await ws.write(SRC, fixed);
    // what a run may hold from before the tools refused such edits: the failing test weakened, a test added
    await ws.write(TEST, TEST_TEXT.replace('@Test\n    public void clampsToUpperBound', '@org.junit.Ignore @Test\n    public void clampsToUpperBound'));
    await ws.write(REPRO, 'package org.demo;\npublic class ClampReproTest {}\n');
    const validator = new RecordingValidator();
    const outcome = await finalOutcome({
      end: { kind: 'finished', reason: 'the agent finished' },
      workspace: ws,
      bug: demoBug,
      plausibleOverlay: undefined,
      recheck: true,
      signal: undefined,
      guard: () => ({ validator, takeOutages: () => [], takeUnresolved: () => undefined }),
      noteOutage: () => undefined,
      groundTruthPatch: undefined,
      redact: (t) => t,
      steps: [],
      spent: new RunSpending(runCosts(DEFAULT_PRICES)),
      validations: 0,
      wallMs: () => 0,
    });
    expect(validator.sent).toHaveLength(1);
    expect(validator.sent[0]!.overlay).toEqual({ [SRC]: fixed });
    expect(validator.sent[0]!.opts?.testEdits).toBe('none');
    // the same files the reported patch names
    expect(splitDiffByFile(outcome!.finalPatch).map((s) => s.path)).toEqual(Object.keys(validator.sent[0]!.overlay));
    expect(outcome!.finalPatch).toBe(await programPatch(ws, demoBug));
    expect(outcome!.status).toBe('plausible');
    // the agent's workspace keeps what it had (the re-check ran on a copy)
    expect(Object.keys(ws.overlay()).sort()).toEqual([REPRO, SRC, TEST].sort());
  });
});

describe('a run', () => {
  const fix = `THOUGHT: fix the bound\nACTION: edit ${SRC} 13 13\n${FIXED_LINE}`;
  const repro = `THOUGHT: reproduce it\nACTION: edit ${REPRO} 1 0\npackage org.demo;\npublic class ClampReproTest {}`;
  const ignore = `THOUGHT: make it pass\nACTION: edit ${TEST} 7 7\n    @org.junit.Ignore @Test`;

  async function run(preset: string, replies: string[]) {
    const validator = new RecordingValidator();
    const traj = await runAgent({
      strategy: resolveStrategy(preset, { overrides: { sampling: { trajectories: 1 } } }),
      bug: demoBug,
      workspace: demoWorkspace(),
      validator,
      llm: createScriptedProvider(replies),
      tools: passerineTools,
    });
    return { traj, validator };
  }

  it('of Passerine (testEdits add) may add a reproduction test; the re-check leaves it out', async () => {
    const { traj, validator } = await run('passerine', [ignore, repro, fix, 'THOUGHT: check\nACTION: test', 'THOUGHT: done\nACTION: finish success']);
    // the bug's own test stays read-only, and the model is told why
    expect(traj.steps[0]!.tool?.ok).toBe(false);
    expect(traj.steps[0]!.tool?.shown).toMatch(/refused: this edits src\/test\/java\/org\/demo\/ClampTest\.java, one of the bug's tests\. The tests define the bug, so the bug's tests are read-only: you may add test files of your own/);
    expect(traj.steps[1]!.tool?.ok).toBe(true);
    const [test, recheck] = validator.sent;
    expect(validator.sent).toHaveLength(2);
    expect(Object.keys(test!.overlay).sort()).toEqual([SRC, REPRO]);
    expect(test!.opts?.testEdits).toBe('add');
    expect(Object.keys(recheck!.overlay)).toEqual([SRC]);
    expect(recheck!.opts?.testEdits).toBe('none');
    expect(splitDiffByFile(traj.outcome!.finalPatch).map((s) => s.path)).toEqual([SRC]);
    expect(traj.outcome?.status).toBe('plausible');
  });

  it("of a strategy with testEdits none sends none with every validation, and adds no test", async () => {
    const validator = new RecordingValidator();
    const traj = await runAgent({
      strategy: resolveStrategy('passerine', { overrides: { testEdits: 'none' } }),
      bug: demoBug,
      workspace: demoWorkspace(),
      validator,
      llm: createScriptedProvider([repro, fix, 'THOUGHT: check\nACTION: test', 'THOUGHT: done\nACTION: finish success']),
      tools: passerineTools,
    });
    expect(traj.config.strategy.testEdits).toBe('none');
    expect(traj.steps[0]!.tool?.ok).toBe(false);
    expect(validator.sent.map((s) => s.opts?.testEdits)).toEqual(['none', 'none']);
    expect(validator.sent.every((s) => !(REPRO in s.overlay))).toBe(true);
  });

  it("refuses testEdits 'any' in a strategy: a model's patch is never trusted", () => {
    expect(() => resolveStrategy('passerine', { overrides: { testEdits: 'any' } })).toThrow(/testEdits/);
  });
});
