// Patch review as the page and the CLI call it: the queue of an experiment (or of some runs), a rater's label, a
// resolution, and the agreement so far. Labels live in the platform's record store (worker/records/patch-label-store.ts).
import type { RecordStore } from '../contracts/platform.ts';
import type { LabelValue } from '../contracts/patch-labels.ts';
import type { Trajectory } from '../contracts/trajectory.ts';
import { PatchLabelStore, type LabelInput } from '../records/patch-label-store.ts';
import { ExperimentStore } from './experiment-store.ts';
import { bugMetaFromWorkspaces, isCounted, type BugWorkspaces } from './analyses.ts';
import { agreement, type Agreement } from './label-agreement.ts';
import type { JavaSyntax } from './metrics/index.ts';
import { reviewQueue, type ReviewQueue, type ReviewRun } from './review-queue.ts';

/** Whose plausible patches to review: an experiment's counted runs, or runs by id. */
export type ReviewTarget = { experimentId: string } | { runIds: string[] };

export class ReviewApi {
  readonly labels: PatchLabelStore;

  constructor(
    private readonly records: RecordStore,
    private readonly trajectory: (runId: string) => Promise<Trajectory | undefined>,
    private readonly bugs: BugWorkspaces,
    private readonly syntax: () => Promise<JavaSyntax>,
  ) {
    this.labels = new PatchLabelStore(records);
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
    return reviewQueue({ runs, bugMeta: bugMetaFromWorkspaces(this.bugs), syntax: await this.syntax(), labels: await this.labels.all() });
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
