// How a run reaches its model and its runner. The model's key stays in the browser (or the CLI's process) and goes
// only to its endpoint; no record holds it.

export interface RunnerSettings {
  url: string;
  token: string;
  /**
   * Where the runner's current token is served: the page's own /runtime-config.json (`npm start` writes it), set by
   * the page when its runner came from there. A runner that refuses the token (401) — restarted with a new one — is
   * asked again with the token served there now, if it names the same runner URL (worker/runner-client/served-token.ts).
   */
  tokenSource?: string;
}

/** Who wrote a recording's replies: a cassette's `provenance.source` (worker/contracts/cassette.ts). */
export type RecordingSource = 'hand-authored' | 'model' | 'mixed';

/**
 * The recording a run's model replays, as its record names it (`config.model.recording`, docs/formats/trajectory.md):
 * its name (a demo recording's or a cassette file's, without `.cassette.json`) and who wrote its replies — taken from
 * the cassette's provenance, never guessed from the provider.
 */
export interface RecordingProvenance {
  name: string;
  source: RecordingSource;
}

/** Who wrote a recording's replies, in the words the Runs list, the run panel and reports use. */
export const RECORDING_SOURCE_WORDS: Record<RecordingSource, string> = {
  'hand-authored': 'replies written by hand',
  model: 'replies recorded from a model',
  mixed: 'replies partly written by hand, partly from a model',
};

/**
 * RECORDING_SOURCE_WORDS, and where a reader could take a hand-written demo for a model's work (the model menu,
 * Settings, the HTML report and its CSV) the hand-written one says so outright.
 */
export function recordingSourceWords(source: RecordingSource, opts: { notAModel?: boolean } = {}): string {
  return source === 'hand-authored' && opts.notAModel ? `${RECORDING_SOURCE_WORDS[source]}, not by a model` : RECORDING_SOURCE_WORDS[source];
}

/** The recording a run's record names (`config.model.recording`), or undefined when it names none or a malformed one. */
export function recordingOf(model: Record<string, unknown>): RecordingProvenance | undefined {
  if (model.recording === undefined) return undefined;
  try {
    return parseRecordingProvenance(model.recording, 'config.model.recording');
  } catch {
    return undefined;
  }
}

/**
 * `value` as a RecordingProvenance, or an error naming `where` and the shape expected: a run request crosses the
 * worker boundary as plain data, so what a page or a file sends is checked before it reaches a record.
 */
export function parseRecordingProvenance(value: unknown, where: string): RecordingProvenance {
  const r = value as Partial<RecordingProvenance> | null;
  if (!r || typeof r !== 'object' || typeof r.name !== 'string' || !r.name.trim() || !(typeof r.source === 'string' && Object.hasOwn(RECORDING_SOURCE_WORDS, r.source))) {
    throw new Error(`${where}: expected { name: "<the recording's name>", source: "hand-authored" | "model" | "mixed" }, got ${JSON.stringify(value)}.`);
  }
  return { name: r.name, source: r.source };
}

/** How the run reaches a model. The key stays in the browser (or the CLI's process) and only goes to baseURL. */
export type ModelSettings =
  /** `recording`: the endpoint replays a recording (a demo endpoint `npm start` serves), named in the run's record */
  | { kind: 'openai'; baseURL: string; model: string; apiKey?: string; temperature?: number; topP?: number; seed?: number; maxTokens?: number; recording?: RecordingProvenance }
  | { kind: 'scripted'; replies: string[] }
  /** a recorded run (cassette JSON); strict = every prompt must hash to the recorded one; `name`: what the record calls it (a file name) */
  | { kind: 'replay'; cassette: unknown; strict?: boolean; name?: string }
  | { kind: 'human' };
