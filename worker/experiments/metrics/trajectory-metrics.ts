// Everything the tables need from one finished trajectory, as one plain row.
import type { BugCategory } from '../../contracts/bug.ts';
import type { LabelValue } from '../../contracts/patch-labels.ts';
import { patchKey } from '../../diff/normalised-patch.ts';
import type { Trajectory } from '../../contracts/trajectory.ts';
import { stepCommand, type StepCommand } from './commands.ts';
import type { PatchComparison } from './correctness.ts';
import { localizationDistance, type LocalizationDistance } from './file-distance.ts';
import { isUnderTestDir, type BugMeta, type RunInput } from './input.ts';
import { trajectorySmells, type SmellCounts } from './smells.ts';

export interface TrajectoryRow {
  variant: string;
  bugId: string;
  category: BugCategory;
  sample: number;
  runId: string;
  status: string;
  /** the final patch passed the re-check (HAFixAgent's TestPass, Passerine's plausible) */
  plausible: boolean;
  /** plausible and semantically the developers' fix: a manual judgement when given, else AST match (see validBy) */
  valid: boolean | null;
  validBy: 'annotation' | 'ast-match' | 'not-plausible' | null;
  exactMatch: boolean | null;
  astMatch: boolean | null;
  correctnessNote?: string;
  /** the final patch's identity in labels (normalised: patchKey); null without a patch */
  patchKey: string | null;
  /** the resolved label of (bug, patchKey), when there is one */
  label: LabelValue | null;
  /** plausible and an exact match, an AST match or labelled correct (see correctBy) */
  correct: boolean;
  correctBy: 'exact-match' | 'ast-match' | 'label' | null;
  /** plausible, no exact or AST match, and no resolved label: waits for review (counted as not correct meanwhile) */
  unlabelled: boolean;
  steps: number;
  inputTokens: number;
  outputTokens: number;
  tokens: number;
  /** null when some model of the run had no price */
  costUsd: number | null;
  wallMs: number;
  /** model calls of the agent (one per step) */
  llmCalls: number;
  /** calls a tool made to the run's second model (RepairAgent's write_fix variants, generate_method_body) */
  auxiliaryCalls: number;
  /** characters of the prompts sent and of the replies received, summed over the agent's calls */
  inputChars: number;
  outputChars: number;
  smells: SmellCounts;
  /** per tool (bash: per program) how many times it was called */
  toolCounts: Record<string, number>;
  /** the command label of each step, by step index (heatmap input) */
  commands: string[];
  /** program files the agent edited during the run (test files left out) */
  editedFiles: string[];
  fileDistance: LocalizationDistance | null;
}

export function isPlausible(t: Trajectory): boolean {
  return t.outcome ? (t.outcome.plausible ?? t.outcome.status === 'plausible') : false;
}

/** Why a trajectory cannot count as a sample, or undefined when it can. */
export function exclusionReason(t: Trajectory): string | undefined {
  if (!t.outcome) return `unfinished (status ${t.status}): finish or continue the run first`;
  if (t.outcome.status === 'unknown') return 'imported and never validated: its plausibility is unknown';
  return undefined;
}

function programFilesOf(patch: string | undefined, testDirs: readonly string[] | undefined): string[] {
  if (!patch) return [];
  const files = [...patch.matchAll(/^\+\+\+ (\S+)/gm), ...patch.matchAll(/^--- (\S+)/gm)].map((m) => m[1]!.replace(/^[ab]\//, ''));
  return [...new Set(files)].filter((f) => f !== '/dev/null' && !isUnderTestDir(f, testDirs)).sort();
}

export function trajectoryRow(run: RunInput, bug: BugMeta, correctness: PatchComparison, annotation: boolean | undefined, labels?: Readonly<Record<string, LabelValue>>): TrajectoryRow {
  const t = run.trajectory;
  const outcome = t.outcome!;
  const commands: StepCommand[] = t.steps.map(stepCommand);
  const plausible = isPlausible(t);
  const toolCounts: Record<string, number> = {};
  for (const c of commands) for (const p of c.programs) toolCounts[p] = (toolCounts[p] ?? 0) + 1;
  const edited = new Set<string>();
  for (const c of commands) for (const f of c.ok ? c.edits : c.changed) if (!isUnderTestDir(f, bug.testDirs)) edited.add(f);
  const editedFiles = [...edited].sort();
  let valid: boolean | null;
  let validBy: TrajectoryRow['validBy'];
  if (annotation !== undefined) [valid, validBy] = [annotation, 'annotation'];
  else if (!plausible) [valid, validBy] = [false, 'not-plausible'];
  else [valid, validBy] = correctness.ast === null ? [null, null] : [correctness.ast, 'ast-match'];
  const finalPatch = outcome.finalPatch ?? '';
  const key = finalPatch.trim() ? patchKey(finalPatch, bug.testDirs) : null;
  const label = (key && labels?.[key]) || null;
  const correctBy: TrajectoryRow['correctBy'] = !plausible ? null : correctness.exact ? 'exact-match' : correctness.ast ? 'ast-match' : label === 'correct' ? 'label' : null;
  return {
    variant: run.variant,
    bugId: run.bugId,
    category: bug.category,
    sample: run.sample,
    runId: t.runId,
    status: outcome.status,
    plausible,
    valid,
    validBy,
    exactMatch: correctness.exact,
    astMatch: correctness.ast,
    ...(correctness.note ? { correctnessNote: correctness.note } : {}),
    patchKey: key,
    label,
    correct: correctBy !== null,
    correctBy,
    unlabelled: plausible && correctBy === null && label === null,
    steps: outcome.totals.steps,
    inputTokens: outcome.totals.inputTokens,
    outputTokens: outcome.totals.outputTokens,
    tokens: outcome.totals.inputTokens + outcome.totals.outputTokens,
    costUsd: outcome.totals.costUsd,
    wallMs: outcome.totals.wallMs,
    llmCalls: t.steps.length,
    auxiliaryCalls: t.steps.reduce((s, step) => s + (step.auxiliary?.calls ?? 0), 0),
    inputChars: t.steps.reduce((s, step) => s + step.prompt.messages.reduce((m, msg) => m + msg.content.length, 0), 0),
    outputChars: t.steps.reduce((s, step) => s + (step.response?.content.length ?? 0), 0),
    smells: trajectorySmells(commands),
    toolCounts,
    commands: commands.map((c) => c.label),
    editedFiles,
    fileDistance: localizationDistance(editedFiles, programFilesOf(bug.groundTruthPatch, bug.testDirs)),
  };
}
