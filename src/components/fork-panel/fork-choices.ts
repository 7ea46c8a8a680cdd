// The fork panel's choices as the engine's ForkRequest fields: the strategy edit (none, a saved variant, or JSON
// overrides over the parent's) and the model from step k + 1 (the one in Settings, or a person).
import type { ForkRequest } from '../../../worker/contracts/runs.ts';
import type { ModelSettings } from '../../../worker/contracts/run-settings.ts';
import type { SavedVariant } from '../../state/variants.ts';

export type ForkEditChoice = { kind: 'none' } | { kind: 'variant'; variant: SavedVariant } | { kind: 'overrides'; text: string };

/** The strategy edit of a ForkRequest, or a message naming what is wrong with the overrides typed. */
export function forkEdit(choice: ForkEditChoice): Pick<ForkRequest, 'strategy' | 'overrides'> {
  if (choice.kind === 'none') return {};
  if (choice.kind === 'variant') return { strategy: { preset: choice.variant.preset, overrides: choice.variant.overrides } };
  const text = choice.text.trim();
  if (!text) throw new Error('Fork overrides: write a JSON object of StrategySpec fields (merged over the parent run\'s), e.g. {"budgets": {"maxSteps": 10}}, or pick "no edit".');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`Fork overrides: not valid JSON (${(e as Error).message}). Write a JSON object of StrategySpec fields, e.g. {"budgets": {"maxSteps": 10}}.`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('Fork overrides: write a JSON object of StrategySpec fields, e.g. {"budgets": {"maxSteps": 10}}.');
  return { overrides: value as Record<string, unknown> };
}

/** What the fork's own model is, in words, for the start button's neighbourhood. */
export function describeForkModel(model: ModelSettings): string {
  switch (model.kind) {
    case 'human':
      return 'you play the model';
    case 'openai':
      return `${model.model} at ${model.baseURL}`;
    case 'replay':
      return 'the recording loaded in Settings';
    case 'scripted':
      return `${model.replies.length} scripted replies`;
  }
}
