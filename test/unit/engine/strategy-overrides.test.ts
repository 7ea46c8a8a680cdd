// A saved variant is the edited strategy as overrides of its preset: resolving the preset with them gives back the
// edited strategy exactly, the overrides hold only what changed, and a removed key is refused by name.
import { expect, it } from 'vitest';
import { parseStrategySpec } from '../../../worker/contracts/strategy.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { overridesBetween } from '../../../worker/strategies/strategy-overrides.ts';

it('round-trips an edit of prompts, states, tools and budgets through resolveStrategy', () => {
  const preset = resolveStrategy('repairagent');
  const edited = structuredClone(preset);
  edited.prompt.system = `${edited.prompt.system}\nBe brief.`;
  edited.states[0]!.tools = edited.states[0]!.tools.slice(1);
  edited.budgets.maxSteps = 7;
  const overrides = overridesBetween(preset, edited);
  expect(Object.keys(overrides).sort()).toEqual(['budgets', 'prompt', 'states']);
  expect(overrides.budgets).toEqual({ maxSteps: 7 });
  expect(overrides.prompt).toEqual({ system: edited.prompt.system });
  expect(resolveStrategy('repairagent', { overrides })).toEqual(parseStrategySpec(edited));
  expect(overridesBetween(preset, structuredClone(preset))).toEqual({});
});

it('refuses to remove a key the preset sets, naming it', () => {
  const preset = resolveStrategy('repairagent');
  const edited = structuredClone(preset) as Record<string, unknown> & { prompt: Record<string, unknown> };
  delete edited.prompt.cycle;
  expect(() => overridesBetween(preset, edited)).toThrow(/prompt\.cycle is set by the preset and cannot be removed/);
});
