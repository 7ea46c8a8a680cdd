// The links the docs measure (docs/formats/bundle.md, "Link lengths"): for each preset, a run view with a typical
// edit — one named variant, the system template edited (a sentence added), a smaller step budget, a cheaper
// model with a temperature and seeds. Shared by the codec's tests and the docs check.
import { listPresets, resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import type { LinkStateInput } from '../../../worker/share/link-state.ts';

export const EDITED_SENTENCE = '\nBefore the fix, state the root cause in one sentence and name the method it is in.\n';

export function typicalLink(preset: string): LinkStateInput {
  const info = listPresets().find((p) => p.id === preset)!;
  const variant = info.variants.find((v) => v.id !== 'stop-rules')?.id ?? 'stop-rules';
  return {
    view: { kind: 'run', run: `run-${preset}-example`, bug: 'textkit-1', step: 3 },
    config: {
      preset,
      variants: [variant],
      overrides: { prompt: { system: resolveStrategy(preset).prompt.system + EDITED_SENTENCE }, budgets: { maxSteps: 12 } },
      model: { provider: 'openai', model: 'gpt-4o-mini', sampling: { temperature: 0.2 }, seeds: [1, 2, 3] },
    },
  };
}

export const PRESET_IDS = listPresets().map((p) => p.id);
