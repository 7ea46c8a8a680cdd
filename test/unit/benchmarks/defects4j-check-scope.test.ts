// What `defects4j check` runs the buggy version on: with Defects4J's relevant test classes, their tests (nested
// classes by their outer class) and the trigger tests; otherwise, or when the fix run did not run the whole suite,
// the whole suite.
import { describe, expect, it } from 'vitest';
import { unpatchedSelection, withTriggerOutcomes } from '../../../worker/node/defects4j/defects4j-check.ts';
import type { BugSpec } from '../../../worker/contracts/bug.ts';
import type { ValidationResult } from '../../../worker/contracts/runner-api.ts';

const bug = { failingTests: ['p.Trigger::t'] } as BugSpec;

function fixRun(ids: string[], over: Partial<ValidationResult> = {}): ValidationResult {
  return {
    plausible: true, compiled: true, diagnostics: [], failingTests: [], report: '', stopped: 'none', path: 'warm', cached: false,
    timingsMs: { total: 1, compile: 1, tests: 1 },
    tests: ids.map((id) => ({ id, status: 'pass' as const, durationMs: 1 })),
    ...over,
  };
}

describe('unpatchedSelection', () => {
  const ran = ['p.A::a1', 'p.A::a2', 'p.A$Inner::i', 'p.AB::x', 'p.B::b', 'p.Trigger::t'];

  it('runs the tests of the relevant classes the fix run ran, nested classes by their outer class, and the trigger tests', () => {
    const selection = unpatchedSelection(bug, fixRun(ran), new Set(['p.A']));
    expect(selection.mode).toBe('listed');
    expect(selection.mode === 'listed' && [...selection.tests].sort()).toEqual(['p.A$Inner::i', 'p.A::a1', 'p.A::a2', 'p.Trigger::t']);
  });

  it("leaves out the tests the fix run skipped: listed, a skip would count as a failure (Cli-36's @Ignore'd BasicParserTest tests)", () => {
    const fixed = fixRun(ran);
    fixed.tests[1]!.status = 'skipped';
    const selection = unpatchedSelection(bug, fixed, new Set(['p.A']));
    expect(selection.mode === 'listed' && [...selection.tests].sort()).toEqual(['p.A$Inner::i', 'p.A::a1', 'p.Trigger::t']);
  });

  it('runs the whole suite without a list, or when the fix run did not run the whole suite', () => {
    expect(unpatchedSelection(bug, fixRun(ran), undefined)).toEqual({ mode: 'all' });
    expect(unpatchedSelection(bug, fixRun(ran, { stopped: 'wall-clock' }), new Set(['p.A']))).toEqual({ mode: 'all' });
    expect(unpatchedSelection(bug, fixRun([], { compiled: false, stopped: 'compile-error' }), new Set(['p.A']))).toEqual({ mode: 'all' });
  });
});

describe('withTriggerOutcomes', () => {
  it("takes the trigger tests' outcomes from their own run and the others' from the rest", () => {
    const triggers = fixRun(['p.Trigger::t'], { failingTests: ['p.Trigger::t'], plausible: false });
    triggers.tests[0]!.status = 'fail';
    // after other tests, the trigger test passed (shared state): its own run decides
    const rest = fixRun(['p.A::a1', 'p.Trigger::t', 'p.B::b'], { failingTests: ['p.B::b'], plausible: false });
    rest.tests[2]!.status = 'fail';
    const merged = withTriggerOutcomes(rest, triggers, ['p.Trigger::t']);
    expect(merged.failingTests.sort()).toEqual(['p.B::b', 'p.Trigger::t']);
    expect(merged.tests.map((t) => `${t.id}:${t.status}`).sort()).toEqual(['p.A::a1:pass', 'p.B::b:fail', 'p.Trigger::t:fail']);
    expect(merged.plausible).toBe(false);
    const broken = fixRun([], { compiled: false, stopped: 'compile-error' });
    expect(withTriggerOutcomes(broken, triggers, ['p.Trigger::t'])).toBe(broken);
  });
});
