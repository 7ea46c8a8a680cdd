// The strategy editor's plain data: a preset as the editor starts from it, and the prompt preview — the messages a
// run's first cycle would send (worker/strategies/first-prompt.ts builds them).
import type { ChatMessage } from './llm.ts';
import type { StrategySpec } from './strategy.ts';

/** The strategy editor's starting point: a preset resolved with its chosen variants, the bare preset, the toolkit's tools. */
export interface EditableStrategy {
  strategy: StrategySpec;
  /** the preset without variants: saved edits are overrides of this (worker/strategies/strategy-overrides.ts) */
  presetStrategy: StrategySpec;
  toolkitTools: string[];
}

export interface PromptPreviewRequest {
  bugId: string;
  preset: string;
  /** named variants of the preset, as a run request gives them */
  variants?: string[];
  /** StrategySpec fields merged over the preset, as a run request gives them (a saved variant's edit) */
  overrides?: Record<string, unknown>;
  /** the state whose prompt to show (default: the strategy's start state) */
  state?: string;
}

export interface RenderedPrompt {
  state: string;
  messages: ChatMessage[];
  /** ~4 characters a token, 4 a message (worker/llm/usage-estimate.ts): the estimate runs record for keyless models */
  estimatedInputTokens: number;
}

export interface PromptPreview extends RenderedPrompt {
  strategyId: string;
  states: string[];
  /** the tools offered in the state */
  tools: string[];
  /** startup commands a run executes before its first cycle; the preview does not run them, so their results are missing */
  startupNotRun: string[];
  /** the preset's own rendering (no variants, no overrides) for the same bug and state, when the preset has that state */
  preset?: RenderedPrompt;
  /** per message index: a unified diff of the preset's message against this one (only messages that differ) */
  differences: { index: number; role: string; diff: string }[];
}
