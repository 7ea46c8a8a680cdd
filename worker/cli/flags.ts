// Helpers shared by the CLI's commands: output, and flag values checked with a message that names the flag and
// says what to give instead (the caller's error reaches stderr as `repairlab: …`, exit code 1).

/** One JSON document with --json, else the text rendering. */
export const print = (json: boolean, value: unknown, text: () => string): void => console.log(json ? JSON.stringify(value, null, 2) : text());

/** A whole number ≥ `min` (default 1), e.g. `--rounds 3`. */
export function wholeNumber(flag: string, value: string, min = 1): number {
  const n = Number(value);
  if (!value.trim() || !Number.isInteger(n) || n < min) throw new Error(`${flag} ${value}: give a whole number ≥ ${min}.`);
  return n;
}

/** A JSON object given on the command line, e.g. `--overrides '{"sampling":{"trajectories":1}}'`. */
export function parseJsonFlag(flag: string, text: string, example = '{"path": "src/main/java/Foo.java"}'): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through to the message below
  }
  throw new Error(`${flag}: expected a JSON object, e.g. '${example}'.`);
}

/** One of a fixed set of values. */
export function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`${flag} ${value}: use one of ${allowed.join(', ')}.`);
  return value as T;
}
