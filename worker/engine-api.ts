// The engine's public surface: what the UI calls through Comlink (worker/worker-entry.ts) and what the
// CLI calls directly in Node (worker/cli/). Plain data in and out, so it crosses the worker boundary.
import type { BugCategory, PublicBug } from './contracts/bug.ts';
import type { ValidationResult } from './contracts/runner-api.ts';
import type { PriceTable } from './agent/prices.ts';

export interface BugSummary {
  id: string;
  library: string;
  title: string;
  category: BugCategory;
  blameable: boolean;
  defectKinds: string[];
  failingTests: string[];
  /** the repository is already in the local store */
  imported: boolean;
}

export interface CodeExcerpt {
  file: string;
  startLine: number;
  lines: string[];
  /** line numbers (in the file) that fault localization points at */
  highlight: number[];
}

export interface BugView {
  bug: PublicBug;
  failingTestSources: { test: string; file: string; excerpt?: CodeExcerpt; error?: string }[];
  buggyCode: CodeExcerpt[];
}

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

export interface RunRequest {
  bugId: string;
  preset: string;
  /** named variants of the preset (ablations, paper-vs-code options), applied in order */
  variants?: string[];
  /** StrategySpec fields merged over the preset and its variants */
  overrides?: Record<string, unknown>;
  model: ModelSettings;
  runner: RunnerSettings;
  /** USD per million tokens by model name (default: worker/agent/prices.ts DEFAULT_PRICES); recorded with the run */
  prices?: PriceTable;
}

export type PatchChoice = 'none' | 'ground-truth' | { diff: string };

export interface ImportProgress {
  phase: string;
  loaded: number;
  total?: number;
}

export interface RepoInfo {
  repoId: string;
  bytes: number;
}

/** Streamed while a run goes: the UI renders steps as they arrive. */
export type RunEvent =
  /** one per trajectory; `trajectory` counts from 0 of `trajectories` independent ones */
  /** `stepsBefore`: steps the run had when it started here (a continued run; 0 for a new one) */
  | { type: 'run-started'; runId: string; bugId: string; preset: string; trajectory: number; trajectories: number; stepsBefore: number }
  | { type: 'model-delta'; runId: string; step: number; text: string }
  | { type: 'step'; runId: string; step: unknown }
  | { type: 'human-turn'; runId: string; step: number; messages: { role: string; content: string }[] }
  /** `last`: no further trajectory of this request follows */
  | { type: 'run-finished'; runId: string; outcome: unknown; last: boolean }
  | { type: 'run-failed'; runId: string; error: string };

export type { ValidationResult };
