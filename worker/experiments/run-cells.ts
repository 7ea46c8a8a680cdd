// Which runs belong to an experiment. A run's record (its trajectory) does not name the experiment it ran for — the
// experiment's cell records name their runs (`runId`, and each set-aside attempt's) — so the Runs list joins the two
// here rather than every run record growing a field the agent loop would have to carry.
import { CELL_COLLECTION, type ExperimentStore } from './experiment-store.ts';
import { CellRecord } from '../contracts/experiment.ts';
import type { RunCell, RunSummary } from '../contracts/runs.ts';

/** Every run an experiment cell names, by run id: the cell's experiment (and its name), variant and sample. */
export async function runCells(store: ExperimentStore): Promise<Map<string, RunCell>> {
  const names = new Map((await store.list()).map((e) => [e.id, (e.spec as { name?: unknown }).name]));
  const ids = await store.records.list(CELL_COLLECTION);
  const raws = await Promise.all(ids.map((id) => store.records.get(CELL_COLLECTION, id)));
  const out = new Map<string, RunCell>();
  for (const raw of raws) {
    const parsed = CellRecord.safeParse(raw);
    // a cell record this version cannot read names no run it could show: the run is listed without its experiment
    if (!parsed.success) continue;
    const c = parsed.data;
    const name = names.get(c.experimentId);
    const cell: RunCell = { experimentId: c.experimentId, ...(typeof name === 'string' ? { experimentName: name } : {}), variant: c.variant, sample: c.sample };
    for (const a of c.attempts) if (a.runId) out.set(a.runId, { ...cell, attempt: true });
    if (c.runId) out.set(c.runId, cell);
  }
  return out;
}

/** The runs, each with the experiment cell it belongs to when one names it. */
export async function withRunCells(runs: RunSummary[], store: ExperimentStore): Promise<RunSummary[]> {
  if (runs.length === 0) return runs;
  const cells = await runCells(store);
  return runs.map((r) => {
    const cell = cells.get(r.runId);
    return cell ? { ...r, experiment: cell } : r;
  });
}
