// Trajectory files opened in the Runs view are STORED as runs: a mini-swe-agent (format 1.1) or SWE-agent file is
// converted (worker/records/trajectory-io.ts), marked `imported` with its source format, and written to the record
// store like any run, so it appears in the Runs list after a reload and can be compared. Its run id comes from the
// file's content (`imported-<format>-<sha-256 prefix>`): the same file imported twice is one run, two files with one
// name are two. A RepairLab trajectory file is stored under its own run id unless a run with that id exists already.
// Keys never enter a record: the converted file's `info` (mini-swe-agent keeps its whole config there, model_kwargs
// and all) has its key-named fields and key-shaped values replaced, by the rule experiment specs are checked with, and
// keys inside text as the model providers redact them.
import type { RecordStore } from '../contracts/platform.ts';
import type { Trajectory } from '../contracts/trajectory.ts';
import { importTrajectoryFile, type TrajectoryFileFormat } from './trajectory-io.ts';
import { loadTrajectory, storeRecorder } from './persistence.ts';
import { findKeyLike } from '../contracts/experiment.ts';
import { redactSecrets } from '../llm/redact.ts';

export const REDACTED = '[redacted]';

/** A copy of `json` with every key-named field and key-shaped value (findKeyLike's rule) replaced by REDACTED, and keys inside text (a bearer header) by redactSecrets'. */
export function redactKeyLike(json: unknown): unknown {
  if (typeof json === 'string') return findKeyLike(json) ? REDACTED : redactSecrets(json);
  if (Array.isArray(json)) return json.map(redactKeyLike);
  if (json && typeof json === 'object') {
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, findKeyLike({ [k]: null }) ? REDACTED : redactKeyLike(v)]));
  }
  return json;
}

export interface StoredImport {
  format: TrajectoryFileFormat;
  trajectory: Trajectory;
  /** false: a RepairLab run with this id was stored already, and is left as it was (the file is only shown) */
  stored: boolean;
}

async function contentId(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Reads a trajectory file of any supported format and stores it as a run; the error names the file. */
export async function importTrajectoryAsRun(records: RecordStore, text: string, fileName: string): Promise<StoredImport> {
  const { format, trajectory } = importTrajectoryFile(text, fileName);
  if (format === 'repairlab') {
    if (await loadTrajectory(records, trajectory.runId)) return { format, trajectory, stored: false };
  } else {
    trajectory.runId = `imported-${format}-${await contentId(text)}`;
    if (trajectory.imported) trajectory.imported.info = redactKeyLike(trajectory.imported.info) as Record<string, unknown>;
  }
  await storeRecorder(records)(trajectory);
  return { format, trajectory, stored: true };
}
