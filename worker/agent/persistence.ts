// Saving runs through the platform's RecordStore (IndexedDB in the browser, JSON files in Node) after
// every step, and finding the unfinished ones after a reload so they can be resumed.
import type { RecordStore } from '../contracts/platform.ts';
import { parseTrajectory, type Trajectory } from '../contracts/trajectory.ts';

export const TRAJECTORY_COLLECTION = 'trajectories';

/** A `record` hook for runAgent: every snapshot overwrites the run's record. */
export function storeRecorder(records: RecordStore, collection = TRAJECTORY_COLLECTION): (t: Trajectory) => Promise<void> {
  return (t) => records.put(collection, t.runId, t);
}

export async function loadTrajectory(records: RecordStore, runId: string, collection = TRAJECTORY_COLLECTION): Promise<Trajectory | undefined> {
  const raw = await records.get(collection, runId);
  return raw === undefined ? undefined : parseTrajectory(raw, `stored run ${runId}`);
}

/** Runs saved as running or paused: a reload interrupted them; pass one to runAgent({ resumeFrom }). */
export async function unfinishedRuns(records: RecordStore, collection = TRAJECTORY_COLLECTION): Promise<Trajectory[]> {
  const out: Trajectory[] = [];
  for (const id of await records.list(collection)) {
    const t = await loadTrajectory(records, id, collection).catch(() => undefined);
    if (t && t.status !== 'finished' && t.resume) out.push(t);
  }
  return out;
}
