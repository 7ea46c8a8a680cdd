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

/** A text file given on the command line, and how many bytes were not UTF-8 (decoded as U+FFFD, so reported). */
export interface FlagText {
  text: string;
  /** invalid UTF-8 sequences replaced while decoding (0: decoded exactly) */
  replaced: number;
}

/** Decodes `bytes` as UTF-8; invalid sequences become U+FFFD and are counted, never silently. */
export function decodeUtf8(bytes: Uint8Array): FlagText {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), replaced: 0 };
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes);
    // U+FFFD that decoding produced (not ones the file held as valid UTF-8: EF BF BD)
    const inFile = countOf(bytes, [0xef, 0xbf, 0xbd]);
    return { text, replaced: Math.max(1, [...text].filter((c) => c === '\uFFFD').length - inFile) };
  }
}

function countOf(bytes: Uint8Array, seq: number[]): number {
  let n = 0;
  for (let i = 0; i + seq.length <= bytes.length; i++) if (seq.every((b, k) => bytes[i + k] === b)) n++;
  return n;
}
