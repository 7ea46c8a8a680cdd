// Typed tool definitions shared by the three toolkits, the agent loop, the UI and the CLI.
// Implementations live in worker/tools/<toolkit>/.
import type { PublicBug } from './bug.ts';
import type { Workspace } from './workspace.ts';
import type { ValidationResult, TestSelection } from './runner-api.ts';
import type { LlmProvider } from './llm.ts';
import type { TestEdits } from './test-edits.ts';

export type ToolkitName = 'repairagent' | 'hafixagent' | 'passerine';

export interface ToolArgument {
  name: string;
  type: 'string' | 'integer' | 'boolean' | 'string[]' | 'object' | 'object[]';
  description: string;
  required: boolean;
}

export interface ToolDefinition {
  name: string;
  toolkit: ToolkitName;
  description: string;
  args: ToolArgument[];
  /** Other names the paper or the released code uses for this tool (rectification matches them too). */
  aliases?: string[];
  /** Which source the behaviour follows, for docs: e.g. 'paper §III-B', 'released code'. */
  follows?: string;
}

/** Validation as tools see it: the runner behind a narrow interface so tests can point it anywhere. */
export interface Validator {
  /**
   * `signal`: the run's stop / wall-time signal — the wait for the runner ends when it fires. `testEdits`: what the
   * overlay may do to test files (the runner refuses the rest; default none).
   */
  validate(workspace: Workspace, tests: TestSelection, opts?: ValidatorOptions): Promise<ValidationResult>;
  /** Several workspaces of one base tree validated alike, results in order (write_fix's variants); optional. */
  validateMany?(workspaces: Workspace[], tests: TestSelection, opts?: ValidatorOptions): Promise<ValidationResult[]>;
}

export interface ValidatorOptions {
  coverage?: boolean;
  signal?: AbortSignal;
  testEdits?: TestEdits;
}

export interface ToolContext {
  workspace: Workspace;
  bug: PublicBug;
  validator: Validator;
  /** Second model for generate_method_body and write_fix variant sampling (optional). */
  auxiliaryLlm?: LlmProvider;
  /** Tool settings: output caps, write_fix behaviour, search mode, … (per toolkit, documented there). */
  settings: Record<string, unknown>;
  signal?: AbortSignal;
  /** what the agent may do to test files (StrategySpec.testEdits); default 'none': the bug's tests are read-only */
  testEdits?: TestEdits;
}

export interface ToolResult {
  /** false when the tool refused its arguments or failed; `output` then says how to recover. */
  ok: boolean;
  /** full output */
  output: string;
  /** what the model is shown (capped, with a visible note of what was cut) */
  shown: string;
  /** set when the call ran the test suite */
  validation?: ValidationResult;
  /** structured by-products the prompt builder / metrics use (hypothesis text, search hits, fix attempts …) */
  data?: Record<string, unknown>;
  /** the agent asked to stop (goal_accomplished, finish, completion sentinel) */
  finished?: { success: boolean; reason: string };
}

export interface Tool {
  definition: ToolDefinition;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}
