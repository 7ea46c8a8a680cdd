// What a bug's suite runs leave out, as the bug page lists it: the benchmark's own broken tests and the tests excluded
// for the environment (each with its reason and where it was measured), so a researcher sees exactly what a verdict
// does not cover.
import type { ProjectLayout } from '../../../worker/contracts/bug.ts';

export interface ExcludedTestRow {
  test: string;
  /** benchmark: the benchmark lists it as broken (Defects4J's failing_tests …); environment: it fails on the fix in the runner's environment */
  kind: 'benchmark' | 'environment';
  /** why (environment exclusions) */
  reason?: string;
  /** where and when it was measured, as one line: "JDK 17.0.15, 2026-11-28, `repairlab defects4j check …`" */
  measured?: string;
}

export function excludedTestRows(layout: Pick<ProjectLayout, 'excludedTests' | 'environmentExcludedTests'>): ExcludedTestRow[] {
  const environment = (layout.environmentExcludedTests ?? []).map((e): ExcludedTestRow => ({
    test: e.test,
    kind: 'environment',
    reason: e.reason,
    ...(e.measured ? { measured: `JDK ${e.measured.jdk}, ${e.measured.date}, \`${e.measured.command}\`${e.measured.defects4j ? `, Defects4J ${e.measured.defects4j.slice(0, 12)}` : ''}` } : {}),
  }));
  const benchmark = (layout.excludedTests ?? []).map((test): ExcludedTestRow => ({ test, kind: 'benchmark' }));
  return [...environment, ...benchmark];
}
