// What a class needs to see of the step just taken, before the next turn: which command ran, whether its validation
// passed (in a headline big enough to read from the back of the room), and the result the model is shown next.
// A plain function of the step, so the element only renders it and the unit tests read it in Node.
import type { TrajStep } from '../../../../worker/contracts/trajectory.ts';
import { verdictKind, type VerdictKind } from '../../trajectory-viewer/step-summary.ts';

/** how the step's validation ended, or what the step was without one */
export type ResultKind = VerdictKind | 'tool-failed' | 'no-tool';

export interface ResultSummary {
  /** 1-based, as the step cards number steps */
  stepNumber: number;
  /** the command that ran (none: the reply had no runnable command) */
  tool: string | undefined;
  kind: ResultKind;
  /** one line: passed, failed (which tests), does not compile, reverted, or what the step was */
  headline: string;
  /** what the model is shown next: the tool's result, else the feedback, else the step's error */
  text: string;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function resultSummary(step: TrajStep): ResultSummary {
  const tool = step.tool?.name ?? step.parsed?.command?.name;
  const text = step.tool?.shown ?? step.feedback ?? step.error?.message ?? '';
  const base = { stepNumber: step.index + 1, tool, text };
  const v = step.verdict;
  // write_fix keeps a patch only when it is plausible: say that a failing one was taken back
  const reverted = step.tool?.name === 'write_fix' && step.tool.data?.kept === false ? ' — the fix was reverted' : '';
  const kind = verdictKind(step);
  if (v && kind === 'pass') return { ...base, kind, headline: 'Validation passed: all tests pass' };
  if (v && kind === 'no-compile') return { ...base, kind, headline: `Validation failed: the patch does not compile${reverted}` };
  if (v && kind === 'fail') {
    const shown = v.failingTests.slice(0, 3).join(', ');
    const more = v.failingTests.length > 3 ? ` and ${v.failingTests.length - 3} more` : '';
    return { ...base, kind, headline: `Validation failed: ${plural(v.failingTests.length, 'failing test')} (${shown}${more})${reverted}` };
  }
  if (v && kind === 'partial') return { ...base, kind, headline: `The ${plural(v.tests.length, 'test')} run pass (not the whole suite yet)` };
  if (step.tool && !step.tool.ok) return { ...base, kind: 'tool-failed', headline: `${step.tool.name} failed` };
  if (step.tool) return { ...base, kind: 'none', headline: `${step.tool.name} ran (no tests were run)` };
  if (step.error) return { ...base, kind: 'no-tool', headline: `The step ended: ${step.error.message}` };
  return { ...base, kind: 'no-tool', headline: step.status === 'ok' ? 'No command ran' : `No command ran (${step.status})` };
}
