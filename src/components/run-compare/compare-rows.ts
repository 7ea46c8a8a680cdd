// Runs side by side, aligned by step index: per step, each run's action, tool result, verdict and prompt, and which of
// them differ from the first run's (the reference). Plain data, tested in Node; the element only renders it.
import { createTwoFilesPatch } from 'diff';
import type { Trajectory, TrajStep } from '../../../worker/contracts/trajectory.ts';
import { stepAction, verdictKind, VERDICT_LABEL } from '../trajectory-viewer/step-summary.ts';

export type CompareField = 'prompt' | 'action' | 'tool' | 'verdict';

export interface CompareCell {
  step: TrajStep | undefined;
  action: string;
  verdict: string;
  tool: string;
  /** the fields that differ from the reference run's step (all, when only one of them has the step) */
  differs: CompareField[];
}

export interface CompareRow {
  index: number;
  cells: CompareCell[];
}

/** The prompt as one text, message by message. */
export function promptText(s: TrajStep | undefined): string {
  return s ? s.prompt.messages.map((m) => `[${m.role}]\n${m.content}`).join('\n\n') : '';
}

function cellOf(step: TrajStep | undefined): Omit<CompareCell, 'differs'> {
  if (!step) return { step, action: '(no step)', verdict: '', tool: '' };
  return { step, action: stepAction(step), verdict: VERDICT_LABEL[verdictKind(step)], tool: step.tool?.shown ?? step.feedback ?? '' };
}

export function compareRows(runs: readonly Trajectory[]): CompareRow[] {
  const length = Math.max(0, ...runs.map((r) => r.steps.length));
  return Array.from({ length }, (_, index) => {
    const base = cellOf(runs[0]?.steps[index]);
    const basePrompt = promptText(base.step);
    return {
      index,
      cells: runs.map((r, k) => {
        const c = cellOf(r.steps[index]);
        if (k === 0) return { ...c, differs: [] };
        const differs: CompareField[] = [];
        if (promptText(c.step) !== basePrompt) differs.push('prompt');
        if (c.action !== base.action) differs.push('action');
        if (c.tool !== base.tool) differs.push('tool');
        if (c.verdict !== base.verdict) differs.push('verdict');
        return { ...c, differs };
      }),
    };
  });
}

/** A unified diff of two steps' prompts (computed when a row's prompt diff is opened: prompts grow with the run). */
export function promptDiff(reference: TrajStep | undefined, other: TrajStep | undefined, labels: [string, string]): string {
  return createTwoFilesPatch(labels[0], labels[1], promptText(reference), promptText(other), '', '', { context: 2 });
}
