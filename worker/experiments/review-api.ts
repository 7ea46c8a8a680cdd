// Patch review as the page and the CLI call it: the queue of an experiment (or of some runs), a rater's label, a
// resolution, and the agreement so far. Labels live in the platform's record store (worker/records/patch-label-store.ts).
import type { RecordStore } from '../contracts/platform.ts';
import type { LabelValue } from '../contracts/patch-labels.ts';
import type { Trajectory } from '../contracts/trajectory.ts';
import type { PatchEvidence } from '../contracts/patch-evidence.ts';
import type { RunnerSettings } from '../contracts/run-settings.ts';
import type { ValidationResult } from '../contracts/runner-api.ts';
import type { RepoSession } from '../repo/session.ts';
import { PatchLabelStore, type LabelInput } from '../records/patch-label-store.ts';
import { PatchEvidenceStore } from '../records/patch-evidence-store.ts';
import { overfittingEvidence, type EvidenceBugs } from './overfitting-evidence.ts';
import { ExperimentStore } from './experiment-store.ts';
import { bugMetaFromWorkspaces, isCounted, type BugWorkspaces } from './analyses.ts';
import { agreement, type Agreement } from './label-agreement.ts';
import type { JavaSyntax } from './metrics/index.ts';
import { reviewQueue, type ReviewQueue, type ReviewRun } from './review-queue.ts';

/** Whose plausible patches to review: an experiment's counted runs, or runs by id. */
export type ReviewTarget = { experimentId: string } | { runIds: string[] };

export interface EvidenceRequest {
  runner: RunnerSettings;
  /** only this bug's items */
  bugId?: string;
  /** later revisions per test file (default 3) */
  revisions?: number;
  /** the project's real repository on disk: later revisions come from it instead of the bug's own (Defects4J bundles stop at the buggy revision) */
  historyRepo?: RepoSession;
  /** told before each item and each later revision */
  onProgress?: (message: string) => void;
}

export class ReviewApi {
  readonly labels: PatchLabelStore;
  readonly evidence: PatchEvidenceStore;

  constructor(
    private readonly records: RecordStore,
    private readonly trajectory: (runId: string) => Promise<Trajectory | undefined>,
    private readonly bugs: BugWorkspaces & EvidenceBugs,
    private readonly syntax: () => Promise<JavaSyntax>,
  ) {
    this.labels = new PatchLabelStore(records);
    this.evidence = new PatchEvidenceStore(records);
  }

  async queue(target: ReviewTarget): Promise<ReviewQueue> {
    const runs: (ReviewRun & { trajectory: Trajectory })[] = [];
    if ('experimentId' in target) {
      const store = new ExperimentStore(this.records);
      if (!(await store.get(target.experimentId))) throw new Error(`there is no experiment ${target.experimentId} here (list them with \`repairlab experiments\`).`);
      for (const c of [...(await store.cells(target.experimentId)).values()].sort((a, b) => a.index - b.index)) {
        if (!isCounted(c)) continue;
        const trajectory = await this.trajectory(c.runId!);
        if (trajectory) runs.push({ runId: c.runId!, variant: c.variant, sample: c.sample, trajectory });
      }
    } else {
      for (const runId of target.runIds) {
        const trajectory = await this.trajectory(runId);
        if (!trajectory) throw new Error(`there is no run ${runId} here (list them with \`repairlab runs\`).`);
        runs.push({ runId, trajectory });
      }
    }
    const queue = await reviewQueue({ runs, bugMeta: bugMetaFromWorkspaces(this.bugs), syntax: await this.syntax(), labels: await this.labels.all() });
    const evidence = await this.evidence.all();
    for (const item of queue.items) {
      const mine = evidence.filter((e) => e.bugId === item.bugId && e.patchKey === item.patchKey);
      if (mine.length) item.evidence = mine;
    }
    return queue;
  }

  /**
   * Runs the history-aware overfitting check (overfitting-evidence.ts) for the target's queue items (or one bug's) and
   * stores what it found, replacing the items' earlier evidence. Evidence, never a label.
   */
  async computeEvidence(target: ReviewTarget, request: EvidenceRequest): Promise<{ items: number; evidence: PatchEvidence[] }> {
    const items = (await this.queue(target)).items.filter((i) => !request.bugId || i.bugId === request.bugId);
    if (request.bugId && !items.length) throw new Error(`the queue has no item of ${request.bugId}: nothing to compute evidence for.`);
    const fixResults = new Map<string, Promise<ValidationResult>>();
    const all: PatchEvidence[] = [];
    const noted = new Set<string>();
    for (const [i, item] of items.entries()) {
      request.onProgress?.(`${i + 1}/${items.length} ${item.bugId} ${item.patchKey}`);
      const found = await overfittingEvidence(this.bugs, item, {
        runner: request.runner,
        fixResults,
        ...(request.revisions !== undefined ? { revisions: request.revisions } : {}),
        ...(request.historyRepo ? { historyRepo: request.historyRepo } : {}),
        onNote: (note) => {
          if (!noted.has(note)) request.onProgress?.(`note: ${note}`);
          noted.add(note);
        },
        onRevision: (r) => request.onProgress?.(`  later ${r.testClass} @ ${r.commit.slice(0, 7)} ${r.subject}`),
      });
      await this.evidence.replace(item.bugId, item.patchKey, found);
      all.push(...found);
    }
    return { items: items.length, evidence: all };
  }

  label(input: LabelInput) {
    return this.labels.label(input);
  }

  resolve(input: { bugId: string; patchKey: string; label: LabelValue; by: string; note?: string }) {
    return this.labels.resolve(input);
  }

  /** Agreement over every stored label, or over the labels of one target's queue. */
  async agreement(target?: ReviewTarget): Promise<Agreement> {
    const all = await this.labels.all();
    if (!target) return agreement(all);
    const keys = new Set((await this.queue(target)).items.map((i) => `${i.bugId} ${i.patchKey}`));
    const mine = <T extends { bugId: string; patchKey: string }>(xs: T[]) => xs.filter((x) => keys.has(`${x.bugId} ${x.patchKey}`));
    return agreement({ raterLabels: mine(all.raterLabels), resolved: mine(all.resolved) });
  }
}
