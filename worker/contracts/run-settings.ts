// How a run reaches its model and its runner. The model's key stays in the browser (or the CLI's process) and goes
// only to its endpoint; no record holds it.

export interface RunnerSettings {
  url: string;
  token: string;
}

/** How the run reaches a model. The key stays in the browser (or the CLI's process) and only goes to baseURL. */
export type ModelSettings =
  | { kind: 'openai'; baseURL: string; model: string; apiKey?: string; temperature?: number; topP?: number; seed?: number; maxTokens?: number }
  | { kind: 'scripted'; replies: string[] }
  /** a recorded run (cassette JSON); strict = every prompt must hash to the recorded one */
  | { kind: 'replay'; cassette: unknown; strict?: boolean }
  | { kind: 'human' };
