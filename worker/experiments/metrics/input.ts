// What the metrics read: finished trajectories grouped by (variant, bug, sample), and what is known about each bug
// (category, ground truth). The experiment engine builds this; everything here is plain data except the trajectories'
// own objects, which are taken as the zod schema made them.
import type { BugCategory } from '../../contracts/bug.ts';
import type { LabelValue } from '../../contracts/patch-labels.ts';
import type { Trajectory } from '../../contracts/trajectory.ts';

export const CATEGORIES: readonly BugCategory[] = ['SL', 'SH', 'SFMH', 'MFMH'];

/** One cell sample: the run of `variant` on `bugId`, sample number `sample` (0-based). */
export interface RunInput {
  variant: string;
  bugId: string;
  sample: number;
  trajectory: Trajectory;
}

/**
 * One attempted sample that ended in an infrastructure error (the endpoint could not serve it, the runner was gone):
 * it has no run to read, and it is never a success. The success metrics count it in n (as not plausible and not
 * valid) — the papers report over every bug attempted, and leaving it out would raise a variant's rate for a failure
 * nobody fixed; the per-run figures (cost, steps, smells, tool use) have no run of it to read.
 */
export interface ErroredSample {
  variant: string;
  bugId: string;
  sample: number;
}

export interface BugMeta {
  id: string;
  category: BugCategory;
  /** the developers' fix as a unified diff (program files), from BugSpec.groundTruth.patch */
  groundTruthPatch?: string;
  /**
   * Buggy-version text of every file either patch touches (the engine reads them from the buggy tree; see
   * `filesToRead`). Needed for exact and AST match: both patches are applied to these and the results compared.
   */
  buggyFiles?: Record<string, string>;
  /** test source roots (BugSpec.layout.testDirs): edits there are neither part of a patch nor of localization */
  testDirs?: string[];
}

export interface MetricsInput {
  runs: readonly RunInput[];
  /** attempted samples in an infrastructure error: in n of their (variant, bug), never plausible or valid */
  errored?: readonly ErroredSample[];
  /** the variants' order in the tables (default: as the runs, then the errored samples, name them) */
  variants?: readonly string[];
  bugs: readonly BugMeta[];
  /** k values for plausible@k and valid@k (default [1, 5, 10]); a bug with fewer samples than k is left out of that mean */
  ks?: readonly number[];
  /** HAFixAgent's #Unique Pass is against one baseline configuration: also count bugs a variant passes and this one does not */
  baseline?: string;
  /** manual validity judgements by run id (Passerine graded validity by hand); they take precedence over the AST-match proxy */
  validity?: Readonly<Record<string, boolean>>;
  /**
   * resolved patch labels, bug id → patch key (worker/diff/normalised-patch.ts patchKey) → label: a plausible patch
   * labelled correct is correct though not an exact or AST match (docs/metrics.md, *Correct*)
   */
  labels?: Readonly<Record<string, Readonly<Record<string, LabelValue>>>>;
}

/** Refuses input the tables would silently get wrong, naming the offending entry. */
export function checkInput(input: MetricsInput): void {
  const bugIds = new Set<string>();
  for (const b of input.bugs) {
    if (bugIds.has(b.id)) throw new Error(`metrics input: bug '${b.id}' is listed twice in bugs[]: give each bug once`);
    bugIds.add(b.id);
    if (!CATEGORIES.includes(b.category)) throw new Error(`metrics input: bug '${b.id}' has category '${String(b.category)}': use one of ${CATEGORIES.join(', ')}`);
  }
  const seen = new Set<string>();
  for (const [i, r] of input.runs.entries()) {
    const where = `metrics input: runs[${i}] (variant '${r.variant}', bug '${r.bugId}', sample ${r.sample})`;
    if (!r.variant) throw new Error(`${where}: variant is empty: name the variant the run belongs to`);
    if (!Number.isInteger(r.sample) || r.sample < 0) throw new Error(`${where}: sample must be a non-negative integer`);
    if (!bugIds.has(r.bugId)) throw new Error(`${where}: bug '${r.bugId}' is not in bugs[]: add its metadata (category, ground truth)`);
    if (r.trajectory.bug.id !== r.bugId) throw new Error(`${where}: the trajectory ${r.trajectory.runId} is of bug '${r.trajectory.bug.id}', not '${r.bugId}'`);
    const key = JSON.stringify([r.variant, r.bugId, r.sample]);
    if (seen.has(key)) throw new Error(`${where}: the same (variant, bug, sample) appears twice: each cell sample must be given once`);
    seen.add(key);
  }
  for (const [i, e] of (input.errored ?? []).entries()) {
    const where = `metrics input: errored[${i}] (variant '${e.variant}', bug '${e.bugId}', sample ${e.sample})`;
    if (!e.variant) throw new Error(`${where}: variant is empty: name the variant the sample belongs to`);
    if (!Number.isInteger(e.sample) || e.sample < 0) throw new Error(`${where}: sample must be a non-negative integer`);
    if (!bugIds.has(e.bugId)) throw new Error(`${where}: bug '${e.bugId}' is not in bugs[]: add its metadata (category, ground truth)`);
    const key = JSON.stringify([e.variant, e.bugId, e.sample]);
    if (seen.has(key)) throw new Error(`${where}: this (variant, bug, sample) is also given as a run or another errored sample: give each cell sample once`);
    seen.add(key);
  }
  for (const k of input.ks ?? []) {
    if (!Number.isInteger(k) || k < 1) throw new Error(`metrics input: ks holds ${k}: each k must be a positive integer`);
  }
}

/** Whether `path` lies under one of the test roots. */
export function isUnderTestDir(path: string, testDirs: readonly string[] | undefined): boolean {
  return (testDirs ?? []).some((d) => path.startsWith(`${d.replace(/\/+$/, '')}/`));
}
