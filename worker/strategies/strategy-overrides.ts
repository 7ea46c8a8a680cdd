// An edited strategy as the overrides a run request carries: only what differs from the preset, in the form
// resolveStrategy merges (plain objects key by key, arrays and scalars whole). So a saved variant runs through the
// same path as any overrides, and the run's record names the edit (config.overrides) and its result (config.strategy).
import { isPlainObject } from './presets/preset-variants.ts';

function jsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (isPlainObject(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  return v;
}

/**
 * The overrides that turn `base` into `edited`. A key `base` has and `edited` leaves out cannot be expressed as an
 * override (merging never deletes): that throws naming the key, so the editor can ask for a value instead.
 */
export function overridesBetween(base: Record<string, unknown>, edited: Record<string, unknown>, path = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(base)) {
    if (!(key in edited) && base[key] !== undefined) throw new Error(`${path}${key} is set by the preset and cannot be removed by an edit: give it a value instead.`);
  }
  for (const [key, value] of Object.entries(edited)) {
    const was = base[key];
    if (jsonEqual(was, value)) continue;
    if (isPlainObject(was) && isPlainObject(value)) {
      const inner = overridesBetween(was, value, `${path}${key}.`);
      if (Object.keys(inner).length) out[key] = inner;
    } else out[key] = value;
  }
  return out;
}
