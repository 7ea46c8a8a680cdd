// Candidates equal after normalisation (comments, layout) share one verdict (runner/src/verdict-cache.ts): asked one
// after the other, at the same time, or in one batch. The shared verdict reads as the candidate's own — its
// diagnostics and failure frames name its own lines, as a fresh validation of it does.
import { describe, expect, it } from 'vitest';
import type { TestSelection, ValidationResult } from '../../../worker/contracts/runner-api.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { BUGGY_CALC, CALC, FIXED_CALC, JUNIT4_PROJECT, LAYOUT } from './projects.ts';

const TESTS: TestSelection = { mode: 'failing-first', tests: ['demo.CalcTest::add'] };
/** limits that differ from the default only to get a fresh, uncached validation of the same candidate */
const FRESH = { limits: { perTestTimeoutMs: 9_999 } };
const HEADER = '// a candidate written by another sample\n/* with a comment\n   over three lines */\n';

const candidate = async (source: string) => {
  const ws = new FakeWorkspace(JUNIT4_PROJECT);
  await ws.write(CALC, source);
  return ws;
};
const frames = (r: ValidationResult) => r.tests.flatMap((t) => t.failure?.frames ?? []).filter((f) => f.includes('Calc.java'));

describe('deduplicated validations', () => {
  const ctx = useTestRunner();

  it('answers a candidate that differs only in comments and layout from the verdict of the first, with its own line numbers', async () => {
    // fails in Calc.add itself, so the failure's frames name lines of the overlay's file
    const failing = BUGGY_CALC.replace('return a - b;', 'if (a > 0) throw new IllegalStateException("no");\n    return a - b;');
    const first = await ctx.client.validate(await candidate(failing), LAYOUT, TESTS);
    expect(first.cached).toBe(false);
    expect(first.plausible).toBe(false);
    const relaid = HEADER + failing.replaceAll('{', '\n{');
    const shared = await ctx.client.validate(await candidate(relaid), LAYOUT, TESTS);
    expect(shared.cached).toBe(true);
    const fresh = await ctx.client.validate(await candidate(relaid), LAYOUT, TESTS, FRESH);
    expect(fresh.cached).toBe(false);
    expect(shared.plausible).toBe(fresh.plausible);
    expect(shared.failingTests).toEqual(fresh.failingTests);
    expect(frames(fresh).length).toBeGreaterThan(0);
    expect(frames(shared)).toEqual(frames(fresh));
    expect(frames(shared)).not.toEqual(frames(first));
  });

  it('validates afresh a candidate that splits a line the verdict names (which of its lines a frame names is unknown)', async () => {
    const failing = BUGGY_CALC.replace('return a - b;', 'if (a > 1) throw new IllegalStateException("no");\n    return a - b;');
    await ctx.client.validate(await candidate(failing), LAYOUT, TESTS);
    const split = failing.replace('if (a > 1) throw', 'if (a > 1)\n      throw');
    const again = await ctx.client.validate(await candidate(split), LAYOUT, TESTS);
    const fresh = await ctx.client.validate(await candidate(split), LAYOUT, TESTS, FRESH);
    expect(again.cached).toBe(false);
    expect(frames(again)).toEqual(frames(fresh));
  });

  it("maps a compile error's line to the candidate's own", async () => {
    const broken = BUGGY_CALC.replace('return a * b;', 'return a * undefinedName;');
    await ctx.client.validate(await candidate(broken), LAYOUT, TESTS);
    const relaid = HEADER + broken;
    const shared = await ctx.client.validate(await candidate(relaid), LAYOUT, TESTS);
    const fresh = await ctx.client.validate(await candidate(relaid), LAYOUT, TESTS, FRESH);
    expect(shared.cached).toBe(true);
    const lines = (r: ValidationResult) => r.diagnostics.filter((d) => d.kind === 'error').map((d) => `${d.file}:${d.line}`);
    expect(lines(fresh)).toEqual(['src/main/java/demo/Calc.java:12']);
    expect(lines(shared)).toEqual(lines(fresh));
  });

  it('does not merge candidates that differ inside a literal', async () => {
    const a = FIXED_CALC.replace('public class Calc {', 'public class Calc {\n  static final String NOTE = "a b";');
    const b = FIXED_CALC.replace('public class Calc {', 'public class Calc {\n  static final String NOTE = "a  b";');
    await ctx.client.validate(await candidate(a), LAYOUT, TESTS);
    expect((await ctx.client.validate(await candidate(b), LAYOUT, TESTS)).cached).toBe(false);
  });

  it('validates equal candidates of one batch, or asked at the same time, once', async () => {
    const fix = FIXED_CALC.replace('a + b', 'b + a');
    const batch = await ctx.client.validateBatch([await candidate(fix), await candidate(HEADER + fix), await candidate(fix)], LAYOUT, TESTS);
    expect(batch.map((r) => r.plausible)).toEqual([true, true, true]);
    expect(batch.map((r) => r.cached)).toEqual([false, true, true]);

    const other = FIXED_CALC.replace('a + b', '(a + b)');
    const together = await Promise.all([ctx.client.validate(await candidate(other), LAYOUT, TESTS), ctx.client.validate(await candidate(`${other}\n// same\n`), LAYOUT, TESTS)]);
    expect(together.map((r) => r.plausible)).toEqual([true, true]);
    expect(together.filter((r) => r.cached)).toHaveLength(1);
  });
});
