// The Runs list, the trajectory viewer and compare, on real trajectories the agent loop records (scripted model,
// fake validator): the run summary names preset, variants, overrides and model; delete removes a run's header and
// every step record; sort/filter by column; the navigator's verdicts, first failing validation, search, and the
// compare view's step-aligned differences.
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { deleteTrajectory, storeRecorder, TRAJECTORY_STEPS_COLLECTION } from '../../../worker/records/persistence.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { RunManager } from '../../../worker/runs/run-manager.ts';
import type { Engine } from '../../../worker/bugs/engine.ts';
import { MemoryRecordStore } from '../../../worker/platform/memory-records.ts';
import type { Trajectory, TrajStep } from '../../../worker/contracts/trajectory.ts';
import { BROKEN_DIFF, demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF, WRONG_DIFF } from '../agent/fixtures.ts';
import { configSummary, filterRuns, sortRuns } from '../../../src/components/runs-view/run-rows.ts';
import { firstFailingValidation, matchingSteps, nextMatch, stepAction, verdictKind } from '../../../src/components/trajectory-viewer/step-summary.ts';
import { compareRows, promptDiff } from '../../../src/components/run-compare/compare-rows.ts';

const LONG = [fence(BROKEN_DIFF), 'no diff here', fence(WRONG_DIFF), fence(GOOD_DIFF)];

async function run(store: MemoryRecordStore, replies: string[], overrides: Record<string, unknown> = {}): Promise<Trajectory> {
  return runAgent({
    strategy: resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 6 }, middleware: { maxConsecutiveFormatErrors: 5 }, ...overrides } }),
    bug: demoBug,
    workspace: demoWorkspace(),
    validator: new FakeValidator(),
    llm: createScriptedProvider(replies),
    tools: [applyPatchTool],
    record: storeRecorder(store),
    config: { preset: 'oneshot', variants: [], overrides },
  } as Parameters<typeof runAgent>[0]);
}

describe('runs list', () => {
  it('lists each run with its configuration and model; delete removes the header and every step record', async () => {
    const store = new MemoryRecordStore();
    const long = await run(store, LONG, { budgets: { maxSteps: 6 } });
    const short = await run(store, [fence(GOOD_DIFF)]);
    const runs = new RunManager({ platform: { records: store } } as unknown as Engine, async () => undefined);
    const listed = await runs.list();
    expect(listed.map((r) => r.runId).sort()).toEqual([long.runId, short.runId].sort());
    const row = listed.find((r) => r.runId === long.runId)!;
    expect(row).toMatchObject({ preset: long.config.preset, variants: long.config.variants, overrides: long.config.overrides, steps: 4 });
    expect(typeof row.model).toBe('string');

    await runs.delete(long.runId);
    expect((await runs.list()).map((r) => r.runId)).toEqual([short.runId]);
    expect((await store.list(TRAJECTORY_STEPS_COLLECTION)).filter((id) => id.startsWith(long.runId))).toEqual([]);
    expect(await runs.get(short.runId)).toBeDefined();
    await expect(runs.delete(long.runId)).rejects.toThrow(`no saved run ${long.runId}`);
    expect(await deleteTrajectory(store, 'run-none')).toBe(false);
  });

  it('summarises variants and overrides, sorts by a column either way and filters by text, status and preset', () => {
    const base = { bugId: 'b', preset: 'hafixagent', model: 'm', createdAt: '2026-01-01T00:00:00Z', steps: 1, status: 'plausible', reason: 'done', interrupted: false, costUsd: null, variants: [], overrides: {} };
    const a = { ...base, runId: 'a', variants: ['fn_all'], overrides: { budgets: { maxSteps: 5 } }, steps: 9, costUsd: 0.5 };
    const b = { ...base, runId: 'b', preset: 'oneshot', status: 'implausible', steps: 2, createdAt: '2026-01-02T00:00:00Z' };
    const c = { ...base, runId: 'c', model: 'gpt-x', steps: 5 };
    expect(configSummary(a)).toBe('fn_all · budgets.maxSteps=5');
    expect(configSummary(b)).toBe('—');
    expect(sortRuns([a, b, c], { column: 'steps', descending: false }).map((r) => r.runId)).toEqual(['b', 'c', 'a']);
    expect(sortRuns([a, b, c], { column: 'steps', descending: true }).map((r) => r.runId)).toEqual(['a', 'c', 'b']);
    expect(sortRuns([a, b, c], { column: 'cost', descending: true }).map((r) => r.runId)[0]).toBe('a');
    expect(filterRuns([a, b, c], { text: 'FN_ALL', status: '', preset: '' }).map((r) => r.runId)).toEqual(['a']);
    expect(filterRuns([a, b, c], { text: 'gpt', status: '', preset: '' }).map((r) => r.runId)).toEqual(['c']);
    expect(filterRuns([a, b, c], { text: '', status: 'implausible', preset: '' }).map((r) => r.runId)).toEqual(['b']);
    expect(filterRuns([a, b, c], { text: '', status: '', preset: 'hafixagent' }).map((r) => r.runId)).toEqual(['a', 'c']);
  });
});

describe('trajectory viewer and compare', () => {
  it('names each step’s action and verdict, finds the first failing validation and searches the run', async () => {
    const t = await run(new MemoryRecordStore(), LONG);
    expect(t.steps.map(verdictKind)).toEqual(['no-compile', 'none', 'fail', 'pass']);
    expect(stepAction(t.steps[0]!)).toMatch(/apply/i);
    expect(firstFailingValidation(t.steps)).toBe(0);
    expect(firstFailingValidation(t.steps.slice(1))).toBe(1);
    expect(matchingSteps(t.steps, 'NO DIFF HERE')).toEqual([1]);
    expect(matchingSteps(t.steps, '  ')).toEqual([]);
    expect(nextMatch([1, 3], 3, 1)).toBe(1);
    expect(nextMatch([1, 3], 1, -1)).toBe(3);
    expect(nextMatch([], 0, 1)).toBe(-1);
  });

  it('a test step where only some tests ran and none failed is partial, not a failure', async () => {
    const t = await run(new MemoryRecordStore(), [fence(GOOD_DIFF)]);
    const passed = t.steps[0]!;
    const partial: TrajStep = { ...passed, verdict: { ...passed.verdict!, plausible: false, failingTests: [] } };
    expect(verdictKind(partial)).toBe('partial');
    expect(firstFailingValidation([partial])).toBe(-1);
  });

  it('aligns two runs by step and marks where they differ (action, verdict, tool result, prompt)', async () => {
    const store = new MemoryRecordStore();
    const one = await run(store, LONG);
    const two = await run(store, [fence(BROKEN_DIFF), fence(GOOD_DIFF)]);
    const rows = compareRows([one, two]);
    expect(rows).toHaveLength(4);
    // step 1 is the same reply in both
    expect(rows[0]!.cells[1]!.differs).toEqual([]);
    // step 2: run 2 applied the good fix where run 1 sent no diff
    expect(rows[1]!.cells[1]!.differs).toEqual(expect.arrayContaining(['action', 'verdict']));
    expect(rows[3]!.cells[1]!.action).toBe('(no step)');
    const diff = promptDiff(one.steps[1], two.steps[1], ['run 1', 'run 2']);
    expect(diff).toContain('--- run 1');
  });
});
