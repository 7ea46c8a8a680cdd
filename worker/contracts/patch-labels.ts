// Patch correctness labels (docs/formats/labels.md): a rater's judgement of one plausible patch of one bug against
// the developers' fix. A label belongs to (bug, normalised patch) — every run that ends with the same normalised patch
// shares it — and each rater's label is kept apart from the resolved one, which is what the metrics count.
import { z } from 'zod';

export const LABEL_VALUES = ['correct', 'overfitting', 'unsure'] as const;
export const LabelValue = z.enum(LABEL_VALUES);
export type LabelValue = z.infer<typeof LabelValue>;

/** A rater's name is part of a record id: one safe segment. */
export const RaterName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_@+-]{0,63}$/, 'use letters, digits and _ @ + - (up to 64, starting with a letter or digit)');

/** The key of a normalised patch (worker/diff/normalised-patch.ts patchKey): 16 hex digits of its SHA-256. */
export const PatchKey = z.string().regex(/^[0-9a-f]{16}$/, 'a patch key is 16 lowercase hex digits (patchKey)');

/** One rater's label of one (bug, normalised patch). A rater who labels again replaces the record (the time says when). */
export const RaterLabel = z.strictObject({
  bugId: z.string().min(1),
  patchKey: PatchKey,
  rater: RaterName,
  label: LabelValue,
  note: z.string().max(4000).optional(),
  /** ISO time of the label */
  at: z.string().min(1),
});
export type RaterLabel = z.infer<typeof RaterLabel>;

/** The label the metrics count, when raters disagreed or someone decided: kept apart from every rater's own. */
export const ResolvedLabel = z.strictObject({
  bugId: z.string().min(1),
  patchKey: PatchKey,
  label: LabelValue,
  /** who resolved it */
  by: RaterName,
  note: z.string().max(4000).optional(),
  at: z.string().min(1),
});
export type ResolvedLabel = z.infer<typeof ResolvedLabel>;

/** Both kinds, as bundles and label files carry them. */
export const LabelSet = z.strictObject({
  raterLabels: z.array(RaterLabel),
  resolved: z.array(ResolvedLabel),
});
export type LabelSet = z.infer<typeof LabelSet>;

/** A label file (`repairlab review export`): the envelope around a LabelSet. */
export const LabelFile = z.strictObject({
  kind: z.literal('repairlab-labels'),
  schemaVersion: z.literal(1),
  raterLabels: z.array(RaterLabel),
  resolved: z.array(ResolvedLabel),
});

/** Reads a label file, refusing malformed ones with the file's name, the offending field and what to do. */
export function parseLabelFile(text: string, source: string): LabelSet {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${source} is not JSON (${(e as Error).message}): a label file is what \`repairlab review export\` writes (docs/formats/labels.md).`);
  }
  const r = LabelFile.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new Error(`${source} is not a label file: ${issue.path.join('.') || '(top level)'}: ${issue.message}. See docs/formats/labels.md (kind "repairlab-labels", schemaVersion 1, raterLabels, resolved).`);
  }
  return { raterLabels: r.data.raterLabels, resolved: r.data.resolved };
}
