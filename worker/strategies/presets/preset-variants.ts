// Named variants of a preset (ablations, paper-vs-code options, stop rules) as declarative edits that compose:
// any set of them, given in any order, yields one strategy — or a refusal naming the two variants that disagree.
//
// A variant may (1) set values — a partial StrategySpec, deep-merged; arrays and scalars are single values — and
// (2) remove tools from the whole strategy. Resolution (resolveVariants) is order-free by construction:
//   - the variants are taken as a set (duplicates ignored);
//   - their set-values are merged after checking that no two variants set one field (or a field and its parent) to
//     different values — equal values agree, anything else is refused as a conflict;
//   - the tool removals are a union, applied by the caller after every value is in place, so a variant that rebuilds
//     the states (no-state-machine) cannot bring a removed tool back, whatever the order.

export interface Variant {
  id: string;
  description: string;
  /** StrategySpec values this variant sets (deep-merged over the preset; arrays replace) */
  set?: Record<string, unknown>;
  /** tools taken out of every state, transition and startup command */
  removeTools?: string[];
}

/** What a set of variants amounts to: the values to merge, and the tools to remove after everything else. */
export interface ResolvedVariants {
  set: Record<string, unknown>;
  removeTools: string[];
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Merge `override` over `base`: plain objects merge key by key, everything else (arrays included) replaces. */
export function deepMerge<T>(base: T, override: Record<string, unknown>): T {
  if (!isPlainObject(base)) return override as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(override)) {
    out[k] = isPlainObject(v) && isPlainObject(out[k]) ? deepMerge(out[k], v) : v;
  }
  return out as T;
}

/** Equality of JSON values (key order does not matter). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return a === b;
}

/** Each value a partial spec sets, by dotted path (plain objects are walked into; arrays are one value). */
function leaves(partial: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(partial).flatMap(([k, v]) => (isPlainObject(v) && Object.keys(v).length ? leaves(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v] as [string, unknown]]));
}

/**
 * Compose variants (looked up by id in `available`) into one resolved edit. Throws naming the preset and the
 * variant for an unknown id, and both variants and the field for a conflict.
 */
export function resolveVariants(preset: string, ids: readonly string[], available: readonly Variant[]): ResolvedVariants {
  const chosen: Variant[] = [];
  for (const id of new Set(ids)) {
    const v = available.find((x) => x.id === id);
    if (!v) throw new Error(`preset ${preset} has no variant "${id}": use one of ${available.map((x) => x.id).join(', ') || '(none)'}`);
    chosen.push(v);
  }
  // canonical order (the preset's own list), so even the error for a conflict does not depend on the order given
  chosen.sort((a, b) => available.indexOf(a) - available.indexOf(b));
  const setBy = new Map<string, { variant: string; value: unknown }>();
  let set: Record<string, unknown> = {};
  for (const v of chosen) {
    for (const [path, value] of leaves(v.set ?? {})) {
      for (const [other, was] of setBy) {
        const overlaps = other === path || other.startsWith(`${path}.`) || path.startsWith(`${other}.`);
        if (overlaps && (other !== path || !jsonEqual(was.value, value))) {
          const what = other === path ? `${path} (${JSON.stringify(was.value)} vs ${JSON.stringify(value)})` : `${other} / ${path}`;
          throw new Error(`preset ${preset}: variants ${was.variant} and ${v.id} conflict — both set ${what.length > 160 ? path : what}; choose one of them.`);
        }
      }
      setBy.set(path, { variant: v.id, value });
    }
    set = deepMerge(set, v.set ?? {});
  }
  return { set, removeTools: [...new Set(chosen.flatMap((v) => v.removeTools ?? []))].sort() };
}

/** Pairs of variants of one preset that refuse to compose, with the reason (for docs and `repairlab presets`). */
export function conflictingPairs(preset: string, available: readonly Variant[]): { pair: [string, string]; reason: string }[] {
  const out: { pair: [string, string]; reason: string }[] = [];
  available.forEach((a, i) =>
    available.slice(i + 1).forEach((b) => {
      try {
        resolveVariants(preset, [a.id, b.id], available);
      } catch (e) {
        out.push({ pair: [a.id, b.id], reason: (e as Error).message });
      }
    }),
  );
  return out;
}
