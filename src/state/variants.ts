// Saved strategy variants: a name, the preset it edits and the edit as overrides of that preset (worker/strategies/
// strategy-overrides.ts), kept in this browser's localStorage. localStorage rather than IndexedDB through the engine:
// a handful of small JSON objects the page reads synchronously when it draws the editor and the run panel, like the
// settings beside them; the engine needs none of them until a run request carries the overrides.

export interface SavedVariant {
  name: string;
  preset: string;
  /** StrategySpec fields merged over the preset: exactly what a run request's `overrides` carries */
  overrides: Record<string, unknown>;
  savedAt: string;
}

const VARIANTS_KEY = 'repairlab.strategyVariants.v1';

/** Saved variants, by name; an unreadable entry (edited by hand, an older format) is left out rather than breaking the page. */
export function loadVariants(storage: Pick<Storage, 'getItem'> = localStorage): SavedVariant[] {
  try {
    const parsed = JSON.parse(storage.getItem(VARIANTS_KEY) ?? '[]') as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (v): v is SavedVariant => !!v && typeof v.name === 'string' && typeof v.preset === 'string' && !!v.overrides && typeof v.overrides === 'object' && !Array.isArray(v.overrides),
    );
  } catch {
    return [];
  }
}

/** Saves (or replaces, by name) a variant; the name must say something. */
export function saveVariant(variant: Omit<SavedVariant, 'savedAt'>, storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage): SavedVariant[] {
  const name = variant.name.trim();
  if (!name) throw new Error('Name the variant before saving it (e.g. "repairagent-short-prompt").');
  const saved = { ...variant, name, savedAt: new Date().toISOString() };
  const all = [...loadVariants(storage).filter((v) => v.name !== name), saved].sort((a, b) => a.name.localeCompare(b.name));
  storage.setItem(VARIANTS_KEY, JSON.stringify(all));
  return all;
}

export function deleteVariant(name: string, storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage): SavedVariant[] {
  const all = loadVariants(storage).filter((v) => v.name !== name);
  storage.setItem(VARIANTS_KEY, JSON.stringify(all));
  return all;
}
