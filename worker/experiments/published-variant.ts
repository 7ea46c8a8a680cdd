// A published variant beside an experiment's own (docs/formats/published.md): its imported runs
// (published-import.ts) become cells of one more variant of the experiment, so the report computes its counts,
// metrics and statistics — McNemar against each local variant — exactly as for a variant the experiment ran.
// Per bug the published variant has one sample (sample 0): the bug's first entry that re-validated plausible, else
// its first entry. An experiment bug the publication has no entry for is `not-run` for it (not attempted: left out
// of its denominators, and of the paired tests); samples after the first are `not-run` too.
import type { CellRecord, ExperimentRecord, ExperimentSpec } from '../contracts/experiment.ts';
import type { TrajectoryHeader } from '../records/persistence.ts';

export interface PublishedJoin {
  experiment: ExperimentRecord;
  spec: ExperimentSpec;
  cells: CellRecord[];
}

/** The runs of one published variant among stored run headers. */
export function publishedRunsOf(headers: readonly TrajectoryHeader[], variant: string): TrajectoryHeader[] {
  return headers.filter((h) => h.published?.variant === variant);
}

/** The experiment with `variant`'s published runs as one more variant; refuses a name the experiment already uses. */
export function withPublishedVariant(join: PublishedJoin, variant: string, runs: readonly TrajectoryHeader[]): PublishedJoin {
  const { experiment, spec, cells } = join;
  if (spec.variants.some((v) => v.name === variant)) throw new Error(`--with-published ${variant}: the experiment has a variant of that name already; import the published results under another --variant`);
  if (runs.length === 0) throw new Error(`--with-published ${variant}: no imported runs of that variant (repairlab published import … --variant ${variant}; repairlab published list shows what is imported)`);
  const byBug = new Map<string, TrajectoryHeader[]>();
  for (const r of runs) byBug.set(r.bug.id, [...(byBug.get(r.bug.id) ?? []), r]);
  const format = runs[0]!.published!.format;
  const added: CellRecord[] = [];
  let index = Math.max(experiment.cells, ...cells.map((c) => c.index + 1));
  const at = new Date(0).toISOString();
  for (const bug of experiment.bugs) {
    const list = (byBug.get(bug.id) ?? []).sort((a, b) => a.published!.entry - b.published!.entry);
    const counted = list.find((r) => r.outcome?.plausible) ?? list[0];
    for (let sample = 0; sample < spec.samples; sample++) {
      const base = { experimentId: experiment.id, index: index++, bugId: bug.id, variant, sample, runner: 0, startedAt: at, attempts: [], costUsd: null, calls: 0, steps: 0 };
      if (sample > 0 || !counted) {
        added.push({ ...base, status: 'not-run', reason: counted ? 'a publication gives one sample per bug' : 'the publication has no entry for this bug' });
        continue;
      }
      const plausible = counted.outcome?.plausible === true;
      const p = counted.published!;
      added.push({
        ...base,
        status: plausible ? 'plausible' : 'not-plausible',
        runId: counted.runId,
        finishedAt: counted.updatedAt,
        reason: `published ${p.publishedPlausible ? 'plausible' : 'not plausible'}${p.revalidated ? `; re-validated ${plausible ? 'plausible' : 'not plausible'}` : '; not re-validated (no patch published)'}`,
      });
    }
  }
  return {
    experiment: { ...experiment, cells: experiment.cells + added.length },
    spec: { ...spec, variants: [...spec.variants, { name: variant, preset: `published:${format}`, variants: [], overrides: {} }] },
    cells: [...cells, ...added],
  };
}
