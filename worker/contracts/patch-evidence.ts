// Evidence beside a patch label (docs/formats/labels.md, "Evidence"): a candidate patch and the developers' fix run
// against a LATER revision of a test class (from the bug's real history, after the fix), one record per (bug,
// normalised patch, later commit, test file). Evidence helps a rater; it is never a label and the metrics never count it.
import { z } from 'zod';
import { PatchKey } from './patch-labels.ts';

/** A test the developers' fix passes that the candidate does not (its status and first failure line under the candidate). */
export const EvidenceFailure = z.strictObject({
  id: z.string().min(1),
  status: z.enum(['fail', 'error', 'timeout', 'skipped', 'not-run', 'compile-error']),
  message: z.string().max(2000).optional(),
});
export type EvidenceFailure = z.infer<typeof EvidenceFailure>;

export const PatchEvidence = z.strictObject({
  bugId: z.string().min(1),
  patchKey: PatchKey,
  /** the later commit whose revision of the test file was run */
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  subject: z.string(),
  /** committer time of the later commit (seconds since the epoch) */
  timestamp: z.number().int(),
  /** true when the later commit descends from the developers' fix commit (its real history after the fix) */
  afterFix: z.boolean(),
  /** the test file overlaid (a path under the bug's test roots) and its class */
  testFile: z.string().min(1),
  testClass: z.string().min(1),
  /** compared: both trees compiled with the later test file; not-applicable: it does not compile against the fix's tree */
  status: z.enum(['compared', 'not-applicable']),
  /** not-applicable: the compiler's first messages on the fix's tree */
  reason: z.string().optional(),
  /** tests of the later class the developers' fix passes */
  fixPasses: z.number().int().nonnegative(),
  /** tests of the later class the developers' fix does not pass (never evidence against the candidate) */
  fixFails: z.array(z.string()),
  /** tests the fix passes that the candidate passes too */
  bothPass: z.array(z.string()),
  /** overfitting evidence: tests the fix passes that the candidate does not */
  candidateFails: z.array(EvidenceFailure),
  /** the runner that answered */
  runner: z.string().optional(),
  at: z.string().min(1),
});
export type PatchEvidence = z.infer<typeof PatchEvidence>;
