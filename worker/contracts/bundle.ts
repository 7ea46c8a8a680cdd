// Bundle: one file holding a whole experiment — its record, its cells, every run's trajectory and the model's
// recorded replies as cassettes — so anyone can replay every run with no key and no model (docs/formats/bundle.md).
// The file is gzip-compressed JSON: an envelope naming the SHA-256 of the canonical JSON of `content` (the bundle's
// identity and its name); a reader verifies it before trusting a byte of the content.
import { z } from 'zod';
import { Cassette } from './cassette.ts';
import { CellRecord, ExperimentRecord } from './experiment.ts';
import { LabelSet } from './patch-labels.ts';
import { Trajectory } from './trajectory.ts';

export const BUNDLE_SCHEMA_VERSION = 1;

/** One recorded run and the replies that replay it. */
export const BundleRun = z.object({
  trajectory: Trajectory,
  /** cassetteFromTrajectory(trajectory): each step's prompt, its hash and the reply, in order */
  cassette: Cassette,
});
export type BundleRun = z.infer<typeof BundleRun>;

export const BundleContent = z.object({
  experiment: ExperimentRecord,
  /** every started cell, by index */
  cells: z.array(CellRecord),
  /** every run a cell points at (the counted run and earlier attempts), by run id */
  runs: z.array(BundleRun),
  /** the patch labels of the runs' final patches (each rater's and the resolved ones); absent when there are none */
  labels: LabelSet.optional(),
});
export type BundleContent = z.infer<typeof BundleContent>;

export const BundleFile = z.strictObject({
  kind: z.literal('repairlab-bundle'),
  schemaVersion: z.literal(BUNDLE_SCHEMA_VERSION),
  /** hex SHA-256 of canonicalJson(content): object keys sorted, no whitespace (worker/llm/prompt-hash.ts) */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 is 64 lowercase hex digits'),
  content: BundleContent,
});
export type BundleFile = z.infer<typeof BundleFile>;

/** A bundle that cannot be made or read; the message names the experiment or file and what to do. */
export class BundleError extends Error {
  override name = 'BundleError';
}
