// The review queue: the plausible patches of an experiment (or of some runs) that no exact or AST match decides,
// one item per (bug, normalised patch) — every run that ends with the same normalised patch shares the item and its
// label — each with what a rater needs beside it: the developers' fix, the fault lines it touches, the tests the
// patch passed in its re-check, and the labels so far. docs/formats/labels.md.
import type { FaultLocation } from '../contracts/bug.ts';
import type { LabelSet, LabelValue, RaterLabel, ResolvedLabel } from '../contracts/patch-labels.ts';
import type { PatchEvidence } from '../contracts/patch-evidence.ts';
import type { Trajectory } from '../contracts/trajectory.ts';
import { faultLocalizationFromDiff } from '../diff/fix-locations.ts';
import { patchKey } from '../diff/normalised-patch.ts';
import { comparePatches, isPlausible, type JavaSyntax } from './metrics/index.ts';
import type { BugMetaLoader } from './analyses.ts';
import { resolvedLabels, labelKey } from './label-agreement.ts';

export interface ReviewRun {
  runId: string;
  variant?: string;
  sample?: number;
}

export interface ReviewItem {
  bugId: string;
  patchKey: string;
  /** the final patch of the first run (the others normalise to the same patch) */
  patch: string;
  /** every run that ends with this patch */
  runs: ReviewRun[];
  /** the developers' fix (empty when the bug has none) */
  developerPatch: string;
  /** the buggy lines the developers' fix changes (perfect fault localization) */
  faultLines: FaultLocation[];
  /** tests the patch passed in its re-check after the run */
  passingTests: string[];
  /** why the queue holds it: no exact or AST match, or the match could not be computed */
  why: string;
  raterLabels: RaterLabel[];
  resolved?: ResolvedLabel;
  /** the label the metrics count: the resolution, else the raters' common label */
  label?: LabelValue;
  /** stored evidence beside the item (later revisions of its tests, `review evidence`): never a label */
  evidence?: PatchEvidence[];
}

export interface ReviewQueue {
  items: ReviewItem[];
  /** plausible runs an exact or AST match already decides (not in the queue) */
  decidedRuns: number;
  /** items still without a label the metrics count */
  unlabelled: number;
}

export interface ReviewSource {
  runs: readonly (ReviewRun & { trajectory: Trajectory })[];
  bugMeta: BugMetaLoader;
  syntax?: JavaSyntax;
  labels: LabelSet;
}

export async function reviewQueue(source: ReviewSource): Promise<ReviewQueue> {
  const items = new Map<string, ReviewItem>();
  let decidedRuns = 0;
  const decided = new Set<string>();
  const byBug = new Map<string, (ReviewRun & { trajectory: Trajectory })[]>();
  for (const r of source.runs) if (isPlausible(r.trajectory) && r.trajectory.outcome?.finalPatch.trim()) byBug.set(r.trajectory.bug.id, [...(byBug.get(r.trajectory.bug.id) ?? []), r]);
  const resolved = resolvedLabels(source.labels);
  for (const [bugId, runs] of byBug) {
    const bug = await source.bugMeta(bugId, runs.map((r) => r.trajectory.outcome!.finalPatch));
    for (const r of runs) {
      const patch = r.trajectory.outcome!.finalPatch;
      const key = patchKey(patch, bug.testDirs);
      const id = labelKey(bugId, key);
      if (decided.has(id)) {
        decidedRuns++;
        continue;
      }
      const existing = items.get(id);
      if (existing) {
        existing.runs.push({ runId: r.runId, ...(r.variant !== undefined ? { variant: r.variant, sample: r.sample } : {}) });
        continue;
      }
      const match = comparePatches(patch, bug.groundTruthPatch, bug.buggyFiles, source.syntax, bug.testDirs);
      if (match.exact || match.ast) {
        decided.add(id);
        decidedRuns++;
        continue;
      }
      const truth = bug.groundTruthPatch ?? '';
      const resolution = source.labels.resolved.find((x) => x.bugId === bugId && x.patchKey === key);
      const label = resolved.get(id);
      items.set(id, {
        bugId,
        patchKey: key,
        patch,
        runs: [{ runId: r.runId, ...(r.variant !== undefined ? { variant: r.variant, sample: r.sample } : {}) }],
        developerPatch: truth,
        faultLines: truth ? faultLocalizationFromDiff(truth, { readBuggyFile: (p) => bug.buggyFiles?.[p] }) : [],
        passingTests: (r.trajectory.outcome!.recheck?.tests ?? []).filter((t) => t.status === 'pass').map((t) => t.id),
        why: match.note ?? 'no exact or AST match with the developers’ fix',
        raterLabels: source.labels.raterLabels.filter((x) => x.bugId === bugId && x.patchKey === key),
        ...(resolution ? { resolved: resolution } : {}),
        ...(label ? { label } : {}),
      });
    }
  }
  const list = [...items.values()];
  return { items: list, decidedRuns, unlabelled: list.filter((i) => !i.label).length };
}
