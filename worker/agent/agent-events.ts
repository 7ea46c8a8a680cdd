// What a run is given (RunAgentOptions) and what it tells its caller as it goes (AgentEvent). Apart from loop.ts so
// that the loop's helpers can name these types without importing the loop.
import type { LlmProvider } from '../contracts/llm.ts';
import type { PublicBug } from '../contracts/bug.ts';
import type { Workspace } from '../contracts/workspace.ts';
import type { Validator } from '../contracts/tools.ts';
import type { StrategySpec } from '../contracts/strategy.ts';
import type { Outcome, Trajectory, TrajStep } from '../contracts/trajectory.ts';
import type { AnyTool } from '../tools/agent-tool.ts';
import type { PriceTable } from '../contracts/prices.ts';
import type { RunControl } from './run-control.ts';
import type { RunnerWaitPolicy } from './runner-outage.ts';

export type AgentEvent =
  | { type: 'step-started'; runId: string; index: number; state: string }
  | { type: 'model-delta'; runId: string; index: number; text: string }
  | { type: 'step'; runId: string; step: TrajStep }
  | { type: 'paused'; runId: string; nextIndex: number }
  /** the runner is unavailable: the run waits `retryInMs`, then tries again (attempt = failed attempts so far) */
  | { type: 'waiting-for-runner'; runId: string; attempt: number; maxRetries: number; retryInMs: number; error: string }
  | { type: 'runner-back'; runId: string; waitedMs: number }
  /** the retries ran out: the run is set aside as waiting-for-runner (resumable), without an outcome */
  | { type: 'set-aside'; runId: string; reason: string }
  | { type: 'finished'; runId: string; outcome: Outcome };

export interface RunAgentOptions {
  strategy: StrategySpec;
  /** preset name and the overrides that produced `strategy` (for the record) */
  preset?: string;
  variants?: string[];
  overrides?: Record<string, unknown>;
  bug: PublicBug;
  workspace: Workspace;
  validator: Validator;
  llm: LlmProvider;
  /** public model settings for the record; default: the provider's own `config`. Filtered: never a key. */
  modelConfig?: Record<string, unknown>;
  tools: readonly AnyTool[];
  auxiliaryLlm?: LlmProvider;
  /** called after every step (and at the end) with the whole trajectory: persist it here */
  record?: (trajectory: Trajectory) => Promise<void>;
  onEvent?: (event: AgentEvent) => void;
  signal?: AbortSignal;
  control?: RunControl;
  prices?: PriceTable;
  /** for the outcome's exact-match check only; never shown to the agent */
  groundTruthPatch?: string;
  /** extra template variables, e.g. HAFixAgent's history_context */
  context?: Record<string, unknown>;
  /**
   * Computes extra template variables once at the start of the run (and again on resume), e.g. HAFixAgent's
   * history context from the history extractor according to `strategy.toolSettings.historyContext`.
   * Merged over `context`.
   */
  contextProvider?: (strategy: StrategySpec, bug: PublicBug, workspace: Workspace) => Promise<Record<string, unknown>>;
  /** continue a saved, unfinished trajectory (same strategy, bug and workspace base) */
  resumeFrom?: Trajectory;
  runId?: string;
  trajectoryIndex?: number;
  /** re-validate the final patch after the run (default true) */
  recheck?: boolean;
  /** how long an unavailable runner is waited for before the run is set aside (worker/agent/runner-outage.ts) */
  runnerWait?: Partial<RunnerWaitPolicy>;
  /**
   * secrets (the model's API key) replaced by "[redacted key]" in everything the run records and the model sees
   * again: replies, tool output, errors, the outcome. The providers redact their own key too; this is the backstop.
   */
  secrets?: readonly string[];
}
