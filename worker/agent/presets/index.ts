// Presets and overrides: a preset is a StrategySpec; an override is a partial spec deep-merged over it
// (arrays replace). Ablations are named overrides.
import { parseStrategySpec, type StrategySpec, type StrategySpecInput } from '../../contracts/strategy.ts';
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
  /** named overrides for this preset (ablations, paper/code variants) */
  variants: { id: string; description: string }[];
}

export interface NamedOverride {
  id: string;
  description: string;
  override: Record<string, unknown>;
}

/** The practitioner summary's stop rules, offered for every preset. */
export const STOP_RULES_VARIANT: NamedOverride = {
  id: 'stop-rules',
  description: 'practitioner stop rules: the same error twice in a row ends the run as stuck; a change that breaks passing tests is reverted and the model told to retry',
  override: { stop: { sameErrorTwice: true, regressionRevert: true } },
};

const PRESETS: Record<string, { spec: StrategySpecInput; variants: NamedOverride[] }> = {
  repairagent: { spec: repairAgentPreset, variants: [...repairAgentVariants, STOP_RULES_VARIANT] },
  hafixagent: { spec: hafixAgentPreset, variants: [...hafixAgentVariants, STOP_RULES_VARIANT] },
  passerine: { spec: passerinePreset, variants: [...passerineVariants, STOP_RULES_VARIANT] },
  oneshot: { spec: oneshotPreset, variants: [STOP_RULES_VARIANT] },
};

/** Register a preset (used by the preset modules of milestone 2 and by tests). */
export function registerPreset(spec: StrategySpecInput, variants: NamedOverride[] = []): void {
  PRESETS[spec.id] = { spec, variants };
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function deepMerge<T>(base: T, override: Record<string, unknown>): T {
  if (!isPlainObject(base)) return override as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(override)) {
    out[k] = isPlainObject(v) && isPlainObject(out[k]) ? deepMerge(out[k], v) : v;
  }
  return out as T;
}

export function listPresets(): PresetInfo[] {
  return Object.values(PRESETS).map(({ spec, variants }) => ({
    id: spec.id,
    name: spec.name,
    description: spec.description,
    toolkit: spec.toolkit,
    follows: spec.follows ?? [],
    variants: variants.map((v) => ({ id: v.id, description: v.description })),
  }));
}

/**
 * The strategy for a preset, with named variants (e.g. 'no-search-tools') and free overrides applied
 * in that order. Throws naming the preset or variant when unknown, or the field when the result is invalid.
 */
export function resolveStrategy(preset: string, opts: { variants?: string[]; overrides?: Record<string, unknown> } = {}): StrategySpec {
  const entry = PRESETS[preset];
  if (!entry) throw new Error(`unknown preset "${preset}": use one of ${Object.keys(PRESETS).join(', ')}`);
  let spec: Record<string, unknown> = structuredClone(entry.spec) as Record<string, unknown>;
  for (const id of opts.variants ?? []) {
    const v = entry.variants.find((x) => x.id === id);
    if (!v) throw new Error(`preset ${preset} has no variant "${id}": use one of ${entry.variants.map((x) => x.id).join(', ') || '(none)'}`);
    spec = deepMerge(spec, v.override);
  }
  if (opts.overrides) spec = deepMerge(spec, opts.overrides);
  return parseStrategySpec(spec, `preset ${preset}`);
}
