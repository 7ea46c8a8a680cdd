// Agent runs as every part asks for them and hears of them: how a run reaches its model and its runner, the request
// that starts, continues or forks one, the events it streams and the row a saved run is listed as. Plain data, so it
// crosses the worker boundary (the page calls these through Comlink; the CLI in Node).
import type { PriceTable } from './prices.ts';
import type { ModelSettings, RecordingProvenance, RunnerSettings } from './run-settings.ts';
import type { StrategyOutline } from './strategy.ts';

export interface RunRequest {
  bugId: string;
  preset: string;
  /** named variants of the preset (ablations, paper-vs-code options), applied in order */
  variants?: string[];
  /** StrategySpec fields merged over the preset and its variants */
  overrides?: Record<string, unknown>;
  model: ModelSettings;
  runner: RunnerSettings;
  /** USD per million tokens by model name (default: worker/contracts/prices.ts DEFAULT_PRICES); recorded with the run */
  prices?: PriceTable;
}

/** The strategy edit a fork makes. Neither field: the parent's recorded strategy, unchanged. */
export interface ForkStrategyEdit {
  /** a saved variant (src/state/variants.ts): a preset and its overrides, in place of the parent's preset, variants and overrides */
  strategy?: { preset: string; variants?: string[]; overrides?: Record<string, unknown> };
  /** StrategySpec fields merged over the parent's own overrides */
  overrides?: Record<string, unknown>;
}

/** Fork run `runId` at step `atStep` (1-based: its first `atStep` steps are replayed), with a strategy edit and a model (worker/runs/run-fork.ts). */
export interface ForkRequest extends ForkStrategyEdit {
  runId: string;
  atStep: number;
  /** the model from step atStep + 1 on: list-based models (scripted, replay) answer from their first reply */
  model: ModelSettings;
  runner: RunnerSettings;
  /** default: the parent's price table, so the replayed steps cost what they cost */
  prices?: PriceTable;
}

/** What `validate` applies before it runs the tests: nothing, the ground-truth fix, or a unified diff. */
export type PatchChoice = 'none' | 'ground-truth' | { diff: string };

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

/** A saved run as the Runs list shows it (RunManager.list). */
export interface RunSummary {
  runId: string;
  bugId: string;
  preset: string;
  /** the preset's named variants, the overrides and the model the run used (shown wherever a run is listed) */
  variants: string[];
  overrides: Record<string, unknown>;
  model: string;
  /** the recording its model replayed (a demo recording, a loaded cassette, a bundle's replay): config.model.recording */
  recording?: RecordingProvenance;
  /** the finished run's cost, null when unpriced or unfinished */
  costUsd: number | null;
  createdAt: string;
  steps: number;
  /** outcome status, or the trajectory's own status while unfinished */
  status: string;
  reason: string;
  /** unfinished, saved with a resume point, and not going on in this engine: a reload or crash stopped it (continueRun) */
  interrupted: boolean;
  /** a fork: the run it replayed and how many of its steps (worker/runs/run-fork.ts) */
  forkOf?: { runId: string; step: number };
  /** the experiment cell the run is (or was an attempt of): the run's record does not say, the cell's does (worker/experiments/run-cells.ts) */
  experiment?: RunCell;
}

/** Where a run sits in an experiment: which experiment, variant and sample. */
export interface RunCell {
  experimentId: string;
  /** the spec's name, when it has one */
  experimentName?: string;
  variant: string;
  /** 0-based, as the cell records it */
  sample: number;
  /** an earlier attempt the cell set aside (an infrastructure failure) and ran again: not the run that counts */
  attempt?: boolean;
}

/**
 * Stop asked of a run that is not going on — most often one that ended a moment before the click. The page lets it
 * pass (the run's own end says how it ended); elsewhere it names the run. Told apart by `name`, which survives the
 * worker boundary (Comlink sends an error's name and message).
 */
export class RunNotGoingOnError extends Error {
  override name = 'RunNotGoingOnError';
}

/** Whether `e` is a RunNotGoingOnError — also after the worker boundary, where only its name is left. */
export function isRunNotGoingOn(e: unknown): boolean {
  return (e as Error | undefined)?.name === 'RunNotGoingOnError';
}
