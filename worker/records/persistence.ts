// Saving runs through the platform's RecordStore (IndexedDB in the browser, JSON files in Node) after
// every step, and finding the unfinished ones after a reload so they can be resumed.
//
// Storage is append-only: a run is one header record in 'trajectories' (the trajectory without its steps, plus
// `stepCount`) and one record per step in 'trajectory-steps', keyed `<runId>.<index as 5 digits>`. A step is
// written once, when it first appears (the loop never changes a pushed step in place; when it replaces one, the
// recorder sees a new object and writes that step again), so a run of n steps writes n step records and n small
// headers instead of n whole trajectories. A store that writes several records together (RecordStore.putAll:
// IndexedDB) gets the new steps and their header in one write; otherwise the steps are written before the header
// that counts them, so a crash between the two leaves a record that still loads (the header's older count).
// Records of the earlier format — the whole trajectory, steps included, under its run id in 'trajectories' — still
// load.
import type { RecordStore } from '../contracts/platform.ts';
import { parseTrajectory, type Trajectory, type TrajStep } from '../contracts/trajectory.ts';

export const TRAJECTORY_COLLECTION = 'trajectories';
export const TRAJECTORY_STEPS_COLLECTION = 'trajectory-steps';

export interface TrajectoryCollections {
  /** headers (and records of the earlier whole-trajectory format) */
  trajectories: string;
  steps: string;
}

const DEFAULT_COLLECTIONS: TrajectoryCollections = { trajectories: TRAJECTORY_COLLECTION, steps: TRAJECTORY_STEPS_COLLECTION };

/** What 'trajectories' holds per run: everything but the steps, and how many steps belong to it. */
export type TrajectoryHeader = Omit<Trajectory, 'steps'> & { stepCount: number };

/** Record ids are one safe path segment in Node (`/^[\w.@+-]+$/`); run ids the loop makes (`run-…`) are. */
const SAFE_ID = /^[\w.@+-]+$/;

/** The id of a step record: `<runId>.<index padded to 5 digits>`. */
export function stepRecordId(runId: string, index: number): string {
  return `${runId}.${String(index).padStart(5, '0')}`;
}

function isHeader(raw: unknown): raw is TrajectoryHeader {
  return typeof raw === 'object' && raw !== null && typeof (raw as { stepCount?: unknown }).stepCount === 'number' && !('steps' in raw);
}

/** A header of either format (an earlier whole-trajectory record is cut down to one); undefined for anything else. */
function headerOf(raw: unknown): TrajectoryHeader | undefined {
  if (isHeader(raw)) return raw;
  if (typeof raw === 'object' && raw !== null && Array.isArray((raw as { steps?: unknown }).steps)) {
    const { steps, ...rest } = raw as Trajectory;
    return { ...rest, stepCount: steps.length };
  }
  return undefined;
}

/**
 * A `record` hook for runAgent. Each call writes the steps this recorder has not written yet (by object identity:
 * new steps, and a step the loop replaced), then the run's header. After a resume the first call writes all steps
 * once (they are copies). Steps beyond the new count left by an earlier record of the same run id are deleted.
 */
export function storeRecorder(records: RecordStore, collections: TrajectoryCollections = DEFAULT_COLLECTIONS): (t: Trajectory) => Promise<void> {
  /** per run: the step objects as last written */
  const written = new Map<string, TrajStep[]>();
  return async (t) => {
    let done = written.get(t.runId);
    if (!done) {
      if (!SAFE_ID.test(t.runId)) throw new Error(`Run id ${JSON.stringify(t.runId)} cannot be stored: use letters, digits and . _ @ + - only.`);
      done = [];
      written.set(t.runId, done);
      const before = await records.get(collections.trajectories, t.runId);
      for (let i = t.steps.length; i < (isHeader(before) ? before.stepCount : 0); i++) {
        await records.delete(collections.steps, stepRecordId(t.runId, i));
      }
    }
    const fresh: number[] = [];
    for (let i = 0; i < t.steps.length; i++) if (done[i] !== t.steps[i]) fresh.push(i);
    const { steps, ...rest } = t;
    const header: TrajectoryHeader = { ...rest, stepCount: steps.length };
    if (records.putAll) {
      // the new steps and the header that counts them in one write (one IndexedDB transaction)
      await records.putAll([
        ...fresh.map((i) => ({ collection: collections.steps, id: stepRecordId(t.runId, i), value: steps[i] })),
        { collection: collections.trajectories, id: t.runId, value: header },
      ]);
    } else {
      // steps first, then the header: a crash between them leaves the header's older count, which still loads
      await Promise.all(fresh.map((i) => records.put(collections.steps, stepRecordId(t.runId, i), steps[i])));
      await records.put(collections.trajectories, t.runId, header);
    }
    for (const i of fresh) done[i] = steps[i]!;
    done.length = steps.length;
  };
}

/** Run headers (no steps are read), in the store's order; records that are no trajectory are skipped. */
export async function listTrajectoryHeaders(records: RecordStore, collections: TrajectoryCollections = DEFAULT_COLLECTIONS): Promise<TrajectoryHeader[]> {
  return (await storedHeaders(records, collections)).map(([, h]) => h);
}

async function storedHeaders(records: RecordStore, collections: TrajectoryCollections): Promise<[string, TrajectoryHeader][]> {
  const out: [string, TrajectoryHeader][] = [];
  for (const id of await records.list(collections.trajectories)) {
    const h = headerOf(await records.get(collections.trajectories, id));
    if (h) out.push([id, h]);
  }
  return out;
}

/** Reassembles a stored run (either format) and validates it as a trajectory. */
export async function loadTrajectory(records: RecordStore, runId: string, collections: TrajectoryCollections = DEFAULT_COLLECTIONS): Promise<Trajectory | undefined> {
  const raw = await records.get(collections.trajectories, runId);
  if (raw === undefined) return undefined;
  return parseTrajectory(await assemble(records, raw, runId, collections), `stored run ${runId}`);
}

async function assemble(records: RecordStore, raw: unknown, runId: string, collections: TrajectoryCollections): Promise<unknown> {
  if (!isHeader(raw)) return raw;
  const { stepCount, ...rest } = raw;
  const steps = await Promise.all(Array.from({ length: stepCount }, (_, i) => records.get(collections.steps, stepRecordId(runId, i))));
  const missing = steps.findIndex((s) => s === undefined);
  if (missing >= 0) throw new Error(`stored run ${runId}: step ${missing} of ${stepCount} is missing (record ${stepRecordId(runId, missing)})`);
  return { ...rest, steps };
}

/** Runs saved as running, paused or waiting-for-runner: a reload (or an unavailable runner) interrupted them; pass one to runAgent({ resumeFrom }). */
export async function unfinishedRuns(records: RecordStore, collections: TrajectoryCollections = DEFAULT_COLLECTIONS): Promise<Trajectory[]> {
  const out: Trajectory[] = [];
  for (const [id, h] of await storedHeaders(records, collections)) {
    if (h.status === 'finished' || !h.resume) continue;
    const t = await loadTrajectory(records, id, collections).catch(() => undefined);
    if (t && t.status !== 'finished' && t.resume) out.push(t);
  }
  return out;
}

/** Deletes a stored run: its step records, then its header (so a crash between leaves a header that still names it). */
export async function deleteTrajectory(records: RecordStore, runId: string, collections: TrajectoryCollections = DEFAULT_COLLECTIONS): Promise<boolean> {
  const raw = await records.get(collections.trajectories, runId);
  if (raw === undefined) return false;
  if (isHeader(raw)) await Promise.all(Array.from({ length: raw.stepCount }, (_, i) => records.delete(collections.steps, stepRecordId(runId, i))));
  await records.delete(collections.trajectories, runId);
  return true;
}
