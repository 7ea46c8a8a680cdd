// What a share link carries (docs/formats/bundle.md, "Links"): the view (a bug, a run and its step, an experiment,
// a comparison) and the configuration that view needs — a preset with its variants and overrides (edited templates
// included) and the model settings (never a key), or a whole ExperimentSpec — and, when that would not fit, a
// pointer to a bundle. Strict at every level: a field this version does not know is refused, not dropped.
import { z } from 'zod';
import { ExperimentModel, ExperimentSpec } from '../contracts/experiment.ts';

const Id = z.string().min(1);

export const LinkView = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('bug'), bug: Id }),
  /** `step`: 0-based step index to open */
  z.strictObject({ kind: z.literal('run'), run: Id, bug: Id.optional(), step: z.number().int().nonnegative().optional() }),
  z.strictObject({ kind: z.literal('experiment'), experiment: Id.optional() }),
  z.strictObject({ kind: z.literal('compare'), runs: z.array(Id).min(2) }),
]);
export type LinkView = z.infer<typeof LinkView>;

/** One strategy and its model: what a bug or run view needs to start the same run again. */
export const LinkRunConfig = z.strictObject({
  preset: Id,
  /** the preset's named variants, in order */
  variants: z.array(Id).default([]),
  /** StrategySpec fields merged last (edited prompt templates are `prompt.*` overrides) */
  overrides: z.record(z.string(), z.unknown()).default({}),
  /** provider, base URL, model name, sampling and seeds; it has no place for a key */
  model: ExperimentModel.optional(),
});
export type LinkRunConfig = z.infer<typeof LinkRunConfig>;

/** A bundle the link points to (the configuration did not fit, or the runs are wanted): its content hash, and where to fetch it. */
export const LinkBundleRef = z.strictObject({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a bundle hash is 64 lowercase hex digits'),
  url: z.url().optional(),
});

export const LinkState = z.strictObject({
  view: LinkView,
  config: LinkRunConfig.optional(),
  /** the experiment's spec (an experiment view: variants, model, seeds, bugs, budgets) */
  experiment: ExperimentSpec.optional(),
  bundle: LinkBundleRef.optional(),
});
export type LinkState = z.infer<typeof LinkState>;
export type LinkStateInput = z.input<typeof LinkState>;
