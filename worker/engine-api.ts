// The engine's public surface: what the UI calls through Comlink (worker/worker-entry.ts) and what the
// CLI calls directly in Node (worker/cli/). Plain data in and out, so it crosses the worker boundary.
import type { BugCategory, PublicBug } from './contracts/bug.ts';
import type { ValidationResult } from './contracts/runner-api.ts';
import type { PriceTable } from './agent/prices.ts';
import type { StrategySpec } from './contracts/strategy.ts';
import type { StrategyOutline } from './api/strategy-outline.ts';

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
  /** `outline`: the strategy's states, tools and reply format, for the classroom's diagram and reply form */
  | { type: 'run-started'; runId: string; bugId: string; preset: string; trajectory: number; trajectories: number; stepsBefore: number; outline?: StrategyOutline }
  | { type: 'model-delta'; runId: string; step: number; text: string }
  | { type: 'step'; runId: string; step: unknown }
  /** `state`: the strategy state the turn is in (its tools are the ones allowed now) */
  | { type: 'human-turn'; runId: string; step: number; messages: { role: string; content: string }[]; state?: string }
  /** `last`: no further trajectory of this request follows */
  | { type: 'run-finished'; runId: string; outcome: unknown; last: boolean }
  | { type: 'run-failed'; runId: string; error: string }
  /** the runner is unreachable or answers 5xx: the run waits and retries (worker/agent/runner-outage.ts); never the model's problem */
  | { type: 'runner-waiting'; runId: string; attempt: number; maxRetries: number; retryInMs: number; error: string }
  | { type: 'runner-back'; runId: string; waitedMs: number };

export type { ValidationResult };

/** The strategy editor's starting point: a preset resolved with its chosen variants, the bare preset, the toolkit's tools. */
export interface EditableStrategy {
  strategy: StrategySpec;
  /** the preset without variants: saved edits are overrides of this (worker/api/strategy-overrides.ts) */
  presetStrategy: StrategySpec;
  toolkitTools: string[];
}

export type { PromptPreview, PromptPreviewRequest } from './api/prompt-preview.ts';
export type { StrategyOutline };
/** experiments in the browser (worker/api/experiments.ts) */
export type { ExperimentListing, ExperimentSnapshot, ExperimentRunSettings, ExperimentLiveness, ExperimentReportView } from './api/experiments.ts';
export type { ExperimentEstimate, VariantEstimate } from './api/experiment-estimate.ts';
export type { ExperimentEvent, ExperimentProgress } from './experiments/scheduler.ts';
export type { ExperimentReport, VariantRow } from './experiments/report.ts';
/** forking a saved run at step k (worker/api/fork.ts) */
export type { ForkRequest } from './api/fork.ts';
export type { BundleDownload, OpenedBundle, OpenedRun } from './api/share.ts';
export type { ReplayResult } from './share/bundle-replay.ts';

