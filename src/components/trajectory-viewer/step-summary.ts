// What the trajectory viewer's navigator and search need from a step, as plain functions (tested in Node).
import type { TrajStep } from '../../../worker/contracts/trajectory.ts';

/** The step's action in a few words: the tool and its first argument, or what went wrong. */
export function stepAction(s: TrajStep): string {
  const c = s.parsed?.command;
  if (c) {
    const first = Object.values(c.args)[0];
    const arg = typeof first === 'string' ? first.split('\n')[0]!.slice(0, 60) : first === undefined ? '' : JSON.stringify(first).slice(0, 60);
    return arg ? `${c.name} ${arg}` : c.name;
  }
  if (s.error) return `error: ${s.error.code}`;
  return s.status;
}

export type VerdictKind = 'none' | 'pass' | 'fail' | 'no-compile' | 'partial';

/**
 * How the step's validation ended. 'partial': the tests that ran all pass but the suite did not run whole
 * (HAFixAgent's `test` runs only the failing tests), so nothing failed and nothing is plausible yet.
 */
export function verdictKind(s: TrajStep): VerdictKind {
  const v = s.verdict;
  if (!v) return 'none';
  if (!v.compiled) return 'no-compile';
  if (v.plausible) return 'pass';
  return v.failingTests.length ? 'fail' : 'partial';
}

export const VERDICT_LABEL: Record<VerdictKind, string> = {
  none: '',
  pass: 'all tests pass',
  fail: 'tests fail',
  'no-compile': 'does not compile',
  partial: 'tests run pass',
};

/** Every text the step shows, for search within a run. */
export function stepSearchText(s: TrajStep): string {
  const c = s.parsed?.command;
  return [
    s.response?.content, s.parsed?.thought, c ? `${c.name} ${JSON.stringify(c.args)}` : '', s.tool?.shown, s.feedback,
    s.error?.message, s.overlayChange?.diff, s.verdict?.failingTests.join(' '),
  ].filter(Boolean).join('\n');
}

/** Indexes of the steps whose text contains the query (case-insensitive); none for an empty query. */
export function matchingSteps(steps: readonly TrajStep[], query: string): number[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  return steps.flatMap((s, i) => (stepSearchText(s).toLowerCase().includes(q) ? [i] : []));
}

/** The first step whose validation failed (tests fail or it does not compile), or -1. */
export function firstFailingValidation(steps: readonly TrajStep[]): number {
  return steps.findIndex((s) => ['fail', 'no-compile'].includes(verdictKind(s)));
}

/** The next (dir 1) or previous (dir -1) index in `matches` from `current`, wrapping around; -1 when none. */
export function nextMatch(matches: readonly number[], current: number, dir: 1 | -1): number {
  if (!matches.length) return -1;
  if (dir === 1) return matches.find((m) => m > current) ?? matches[0]!;
  return [...matches].reverse().find((m) => m < current) ?? matches[matches.length - 1]!;
}
