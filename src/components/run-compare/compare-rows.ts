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

/** One line of the outcome table: a label, each run's value, and whether the runs disagree on it. */
export interface OutcomeRow {
  id: 'status' | 'reason' | 'steps' | 'tokens' | 'cost' | 'validations' | 'formatErrors' | 'wallTime' | 'exactMatch' | 'patch';
  label: string;
  values: string[];
  differs: boolean;
}

const NOT_ENDED = '(not ended)';

/** `+a −r in n files` of a unified diff: the size of a final patch at a glance. */
export function patchSize(patch: string): string {
  if (!patch.trim()) return 'no change';
  const lines = patch.split('\n');
  const files = new Set(lines.filter((l) => l.startsWith('+++ ') || l.startsWith('--- ')).map((l) => l.slice(4).replace(/^[ab]\//, '')).filter((f) => f !== '/dev/null'));
  const added = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
  const removed = lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
  return `+${added} −${removed} in ${files.size} file${files.size === 1 ? '' : 's'}`;
}

/**
 * The runs' outcomes and metrics side by side, a row per measure (a run that has not ended shows "(not ended)").
 * `differs`: not every run has the same value, so the table can point at what sets the runs apart.
 */
export function outcomeRows(runs: readonly Trajectory[]): OutcomeRow[] {
  const of = (f: (o: NonNullable<Trajectory['outcome']>, t: Trajectory) => string) => runs.map((t) => (t.outcome ? f(t.outcome, t) : NOT_ENDED));
  const rows: Omit<OutcomeRow, 'differs'>[] = [
    { id: 'status', label: 'Outcome', values: runs.map((t) => t.outcome?.status ?? t.status) },
    { id: 'reason', label: 'Why it ended', values: of((o) => o.reason) },
    { id: 'steps', label: 'Steps', values: runs.map((t) => String(t.outcome?.totals.steps ?? t.steps.length)) },
    { id: 'tokens', label: 'Tokens (in / out)', values: of((o) => `${o.totals.inputTokens} / ${o.totals.outputTokens}`) },
    { id: 'cost', label: 'Cost', values: of((o) => (o.totals.costUsd === null ? 'unknown (no price)' : `$${o.totals.costUsd.toFixed(4)}`)) },
    { id: 'validations', label: 'Runner validations', values: of((o) => String(o.totals.validations)) },
    { id: 'formatErrors', label: 'Format errors', values: of((o) => String(o.totals.formatErrors)) },
    { id: 'wallTime', label: 'Wall time', values: of((o) => `${(o.totals.wallMs / 1000).toFixed(1)} s`) },
    { id: 'exactMatch', label: "Same as the developers' fix", values: of((o) => (o.exactMatch === null ? 'not compared' : o.exactMatch ? 'yes' : 'no')) },
    { id: 'patch', label: 'Final patch', values: of((o) => patchSize(o.finalPatch)) },
  ];
  return rows.map((r) => ({ ...r, differs: new Set(r.values).size > 1 }));
}

/** The bugs of the runs compared, each once, in the runs' order: the developers' fix is revealed per bug. */
export function bugsOf(runs: readonly Trajectory[]): string[] {
  return [...new Set(runs.map((t) => t.bug.id))];
}

/**
 * The first step (0-based) at which the prompts of run `a` and run `b` differ — a step only one of them has counts —
 * or -1 when they agree step for step: where the prompt diff opens.
 */
export function firstPromptDifference(a: Trajectory, b: Trajectory): number {
  const length = Math.max(a.steps.length, b.steps.length);
  for (let i = 0; i < length; i++) if (promptText(a.steps[i]) !== promptText(b.steps[i])) return i;
  return -1;
}
