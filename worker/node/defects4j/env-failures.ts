// Environment failures, as Defects4J derived its failing_tests: tests that fail on the developer fix in the environment
// at hand (here the runner's JDK 17, where Defects4J used Java 8) are not the bug's, so `defects4j check
// --record-env-failures` leaves them out — recorded apart from Defects4J's own exclusions, each with its failure.
import type { BugSpec, EnvironmentExclusion } from '../../contracts/bug.ts';
import type { ValidationResult } from '../../contracts/runner-api.ts';

/** The tests failing on the fix, but for trigger tests (a trigger test failing on the fix is the bug's problem, never excluded). */
export function environmentExclusions(fixed: ValidationResult, triggerTests: string[]): EnvironmentExclusion[] {
  const failing = new Set(fixed.failingTests);
  return fixed.tests
    .filter((t) => failing.has(t.id) && !triggerTests.includes(t.id))
    .map((t) => ({
      test: t.id,
      reason: `fails on the developer fix in the runner's environment (${t.status}${t.failure ? `: ${t.failure.exception}${t.failure.message ? `: ${t.failure.message.split('\n', 1)[0]!.slice(0, 200)}` : ''}` : ''})`,
    }))
    .sort((a, b) => (a.test < b.test ? -1 : a.test > b.test ? 1 : 0));
}

/** The spec with `exclusions` added to layout.environmentExcludedTests (earlier ones kept; one entry per test). */
export function withEnvironmentExclusions(spec: BugSpec, exclusions: EnvironmentExclusion[]): BugSpec {
  const byTest = new Map((spec.layout.environmentExcludedTests ?? []).map((e) => [e.test, e]));
  for (const e of exclusions) if (!byTest.has(e.test)) byTest.set(e.test, e);
  return { ...spec, layout: { ...spec.layout, environmentExcludedTests: [...byTest.values()] } };
}
