// The prompt preview: the messages a run's first cycle would send for a bug, a strategy (a preset with overrides,
// resolved exactly as a run resolves it) and any of its states — built by the loop's own parts: buildBugContext,
// the history context provider, toolsForStrategy and buildMessages (worker/agent/prompt.ts). Nothing here renders
// a template itself, so what the preview shows is what the model would be sent.
import { createPatch } from 'diff';
import { toPublicBug, type BugSpec } from '../contracts/bug.ts';
import type { ChatMessage } from '../contracts/llm.ts';
import type { StrategySpec } from '../contracts/strategy.ts';
import type { Workspace } from '../contracts/workspace.ts';
import { buildBugContext } from '../agent/bug-context.ts';
import { buildMessages, type PromptMemory, type PromptVars } from '../agent/prompt.ts';
import { resolveStrategy } from '../agent/presets/index.ts';
import { toolsForStrategy } from '../agent/presets/strategy-tools.ts';
import { historyContextProvider } from '../history/run-context.ts';
import type { RepoSession } from '../repo/session.ts';
import { estimateUsage } from '../llm/usage-estimate.ts';

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

/** What the preview needs from the engine: the bug with its workspace at the buggy commit and its repository. */
export interface PreviewSource {
  workspaceFor(bugId: string): Promise<{ bug: BugSpec; workspace: Workspace }>;
  ensureRepository(bug: BugSpec): Promise<RepoSession>;
}

/**
 * The first cycle's messages for `strategy` in `state`, built as runLoop builds them: the same bug context, the same
 * extra template variables (HAFixAgent's history), the tools the state allows, an empty memory.
 */
export async function renderFirstPrompt(strategy: StrategySpec, state: string, bug: BugSpec, workspace: Workspace, session: RepoSession): Promise<RenderedPrompt> {
  const stateSpec = strategy.states.find((s) => s.name === state);
  if (!stateSpec) throw new Error(`state "${state}" is not one of strategy ${strategy.id}'s states (${strategy.states.map((s) => s.name).join(', ')})`);
  const publicBug = toPublicBug(bug);
  const defs = toolsForStrategy(strategy).map((t) => t.definition);
  const allowed = stateSpec.tools.includes('*') ? defs : defs.filter((d) => stateSpec.tools.includes(d.name));
  const extra = await historyContextProvider(session, bug)(strategy);
  const vars: PromptVars = { bug: await buildBugContext(publicBug, workspace), spec: strategy, state, stateTools: allowed, allTools: defs, stepIndex: 0, extra };
  const memory: PromptMemory = { history: [], gathered: [], bannedCommands: [] };
  const messages = buildMessages(vars, memory);
  return { state, messages, estimatedInputTokens: estimateUsage(messages, '').inputTokens };
}

export async function previewPrompt(source: PreviewSource, request: PromptPreviewRequest): Promise<PromptPreview> {
  const strategy = resolveStrategy(request.preset, { variants: request.variants, overrides: request.overrides });
  const state = request.state ?? strategy.startState;
  const { bug, workspace } = await source.workspaceFor(request.bugId);
  const session = await source.ensureRepository(bug);
  const rendered = await renderFirstPrompt(strategy, state, bug, workspace, session);
  const presetSpec = resolveStrategy(request.preset);
  const preset = presetSpec.states.some((s) => s.name === state) ? await renderFirstPrompt(presetSpec, state, bug, workspace, session) : undefined;
  const stateSpec = strategy.states.find((s) => s.name === state)!;
  return {
    ...rendered,
    strategyId: strategy.id,
    states: strategy.states.map((s) => s.name),
    tools: toolsForStrategy(strategy)
      .map((t) => t.definition.name)
      .filter((name) => stateSpec.tools.includes('*') || stateSpec.tools.includes(name)),
    startupNotRun: strategy.startup.map((c) => c.tool),
    ...(preset ? { preset } : {}),
    differences: preset ? messageDifferences(preset.messages, rendered.messages) : [],
  };
}

/** Unified diffs of the messages that differ, by index (a message only one side has is diffed against nothing). */
export function messageDifferences(before: readonly ChatMessage[], after: readonly ChatMessage[]): PromptPreview['differences'] {
  const out: PromptPreview['differences'] = [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const a = before[i];
    const b = after[i];
    if (a && b && a.role === b.role && a.content === b.content) continue;
    const role = b?.role ?? a?.role ?? 'user';
    out.push({ index: i, role, diff: createPatch(`message ${i + 1} (${role})`, a?.content ?? '', b?.content ?? '', 'preset', 'this strategy') });
  }
  return out;
}
