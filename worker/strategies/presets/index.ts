// Presets, variants and overrides, resolved in one place: resolveStrategy(preset, { variants, overrides }) is how
// every entry point (run, continue's records, parse, tool, the browser's run panel via the engine) gets a strategy.
// A preset is a StrategySpec; its variants are declarative edits that compose in any order (./variants.ts);
// overrides are a partial spec deep-merged last (arrays replace), with unknown keys refused.
import { parseStrategySpec, unknownOverrideKeys, type StrategySpec, type StrategySpecInput } from '../../contracts/strategy.ts';
import { conflictingPairs, deepMerge, isPlainObject, resolveVariants, type Variant } from './preset-variants.ts';
import { oneshotPreset } from './oneshot.ts';
import { repairAgentPreset, repairAgentVariants } from './repairagent.ts';
import { hafixAgentPreset, hafixAgentVariants } from './hafixagent.ts';
import { passerinePreset, passerineVariants } from './passerine.ts';

export interface PresetInfo {
  id: string;
  name: string;
  description: string;
  toolkit: StrategySpec['toolkit'];
  follows: string[];
  /** named variants of this preset (ablations, paper/code options, stop rules) */
  variants: { id: string; description: string }[];
  /** pairs of variants that cannot be combined, and why (every other combination composes, in any order) */
  refusedPairs: { pair: [string, string]; reason: string }[];
}

export { deepMerge, isPlainObject, resolveVariants, type Variant };

/** The practitioner summary's stop rules, offered for every preset. */
export const STOP_RULES_VARIANT: Variant = {
  id: 'stop-rules',
  description: 'practitioner stop rules: the same error twice in a row ends the run as stuck; a change that breaks passing tests is reverted and the model told to retry',
  set: { stop: { sameErrorTwice: true, regressionRevert: true } },
};

const PRESETS: Record<string, { spec: StrategySpecInput; variants: Variant[] }> = {
  repairagent: { spec: repairAgentPreset, variants: [...repairAgentVariants, STOP_RULES_VARIANT] },
  hafixagent: { spec: hafixAgentPreset, variants: [...hafixAgentVariants, STOP_RULES_VARIANT] },
  passerine: { spec: passerinePreset, variants: [...passerineVariants, STOP_RULES_VARIANT] },
  oneshot: { spec: oneshotPreset, variants: [STOP_RULES_VARIANT] },
};

/** Register a preset (used by the preset modules of milestone 2 and by tests). */
export function registerPreset(spec: StrategySpecInput, variants: Variant[] = []): void {
  PRESETS[spec.id] = { spec, variants };
}

export function listPresets(): PresetInfo[] {
  return Object.values(PRESETS).map(({ spec, variants }) => ({
    id: spec.id,
    name: spec.name,
    description: spec.description,
    toolkit: spec.toolkit,
    follows: spec.follows ?? [],
    variants: variants.map((v) => ({ id: v.id, description: v.description })),
    refusedPairs: conflictingPairs(spec.id, variants),
  }));
}

/**
 * The strategy for a preset with named variants (e.g. 'no-search-tools') and free overrides. The variants' values
 * are merged (order-free; two variants setting one field differently are refused), then the overrides (they win
 * over the variants), then the variants' tool removals (so nothing brings a removed tool back). Throws naming the
 * preset or variant when unknown, the two variants of a conflict, an override key the schema does not have (with
 * the nearest valid one), or the field when the result is invalid.
 */
export function resolveStrategy(preset: string, opts: { variants?: readonly string[]; overrides?: Record<string, unknown> } = {}): StrategySpec {
  const entry = PRESETS[preset];
  if (!entry) throw new Error(`unknown preset "${preset}": use one of ${Object.keys(PRESETS).join(', ')}`);
  const overrides = opts.overrides ?? {};
  if (!isPlainObject(overrides)) throw new Error(`overrides: give a JSON object of StrategySpec fields, e.g. {"budgets":{"maxSteps":10}}`);
  const unknown = unknownOverrideKeys(overrides);
  if (unknown.length) throw new Error(`overrides: ${unknown.join('; ')}`);
  const variants = resolveVariants(preset, opts.variants ?? [], entry.variants);
  const merged = deepMerge(deepMerge(structuredClone(entry.spec) as Record<string, unknown>, variants.set), overrides);
  const label = `preset ${preset}${opts.variants?.length ? ` with variant(s) ${opts.variants.join(', ')}` : ''}${Object.keys(overrides).length ? ' and overrides' : ''}`;
  return withoutTools(parseStrategySpec(merged, label), variants.removeTools, label);
}

/** The strategy with `tools` gone from every state, transition and startup command. */
function withoutTools(spec: StrategySpec, tools: readonly string[], label: string): StrategySpec {
  if (!tools.length) return spec;
  const gone = new Set(tools);
  const open = spec.states.find((s) => s.tools.includes('*'));
  if (open) throw new Error(`${label}: state "${open.name}" offers every tool ('*'), so ${tools.join(', ')} cannot be removed from it; list its tools instead.`);
  return {
    ...spec,
    states: spec.states.map((s) => ({ ...s, tools: s.tools.filter((t) => !gone.has(t)) })),
    transitions: spec.transitions.filter((t) => !gone.has(t.tool)),
    startup: spec.startup.filter((c) => !gone.has(c.tool)),
  };
}
