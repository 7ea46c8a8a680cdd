// Opening a bundle into a record store: its runs (as ordinary run records: header + steps), its cells and its
// experiment header, so the experiment and its runs are listed like local ones. All or nothing: conflicts are found
// before the first write, the header goes last (an experiment is listed only once it is whole), and a failed write
// removes what was written.
import { BundleError, type BundleFile } from '../contracts/bundle.ts';
import type { RecordStore } from '../contracts/platform.ts';
import { canonicalJson } from '../llm/prompt-hash.ts';
import { CELL_COLLECTION, EXPERIMENT_COLLECTION, cellRecordId } from '../experiments/experiment-store.ts';
import { deleteTrajectory, loadTrajectory, storeRecorder } from '../records/persistence.ts';
import { PatchLabelStore } from '../records/patch-label-store.ts';

export interface ImportResult {
  experimentId: string;
  cells: number;
  /** runs written now */
  runs: number;
  /** runs this store held already, identical */
  runsPresent: number;
  /** the experiment was here already with this very content */
  alreadyPresent: boolean;
  /** patch labels written now (a label this store holds already for the same patch and rater is kept) */
  labels: number;
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

export async function importBundle(records: RecordStore, bundle: BundleFile): Promise<ImportResult> {
  const { experiment, cells, runs } = bundle.content;
  const conflict = (what: string) =>
    new BundleError(`bundle ${bundle.sha256.slice(0, 16)}… cannot be opened here: ${what}. Nothing was imported; open it with another REPAIRLAB_HOME (or delete the local copy first).`);

  const existing = await records.get(EXPERIMENT_COLLECTION, experiment.id);
  if (existing !== undefined && !same(existing, experiment)) throw conflict(`experiment ${experiment.id} exists here with different content`);
  for (const cell of cells) {
    const here = await records.get(CELL_COLLECTION, cellRecordId(experiment.id, cell.index));
    if (here !== undefined && !same(here, cell)) throw conflict(`cell ${cell.index} of experiment ${experiment.id} exists here with different content`);
  }
  const toWrite = [];
  for (const run of runs) {
    const here = await loadTrajectory(records, run.trajectory.runId).catch(() => null);
    if (here === undefined) toWrite.push(run.trajectory);
    else if (here === null || !same(here, run.trajectory)) throw conflict(`run ${run.trajectory.runId} exists here with different content`);
  }

  const written: { runs: string[]; cells: number[] } = { runs: [], cells: [] };
  try {
    const record = storeRecorder(records);
    for (const t of toWrite) {
      written.runs.push(t.runId);
      await record(t);
    }
    for (const cell of cells) {
      written.cells.push(cell.index);
      await records.put(CELL_COLLECTION, cellRecordId(experiment.id, cell.index), cell);
    }
    await records.put(EXPERIMENT_COLLECTION, experiment.id, experiment);
  } catch (e) {
    // leave nothing half-imported (a cell record that was here before with this content stays)
    for (const index of written.cells) if (existing === undefined) await records.delete(CELL_COLLECTION, cellRecordId(experiment.id, index)).catch(() => undefined);
    for (const runId of written.runs) await deleteTrajectory(records, runId).catch(() => undefined);
    throw new BundleError(`opening bundle ${bundle.sha256.slice(0, 16)}… failed while writing (${(e as Error).message}); what was written is removed again.`);
  }
  // labels last: the experiment is whole without them, and the local labels of the same patches win
  const labels = bundle.content.labels ? (await new PatchLabelStore(records).merge(bundle.content.labels)).added : 0;
  return { experimentId: experiment.id, cells: cells.length, runs: toWrite.length, runsPresent: runs.length - toWrite.length, alreadyPresent: existing !== undefined && toWrite.length === 0, labels };
}
