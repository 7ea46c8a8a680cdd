// The prompt preview: the messages a run's first cycle would send for a bug, a strategy (a preset with overrides,
// resolved exactly as a run resolves it) and any of its states — built by the loop's own parts: buildBugContext,
// the history context provider, toolsForStrategy and buildMessages (worker/strategies/prompt.ts). Nothing here renders
// a template itself, so what the preview shows is what the model would be sent.
import { createPatch } from 'diff';
import { toPublicBug, type BugSpec } from '../contracts/bug.ts';
import type { ChatMessage } from '../contracts/llm.ts';
import type { PromptPreview, PromptPreviewRequest, RenderedPrompt } from '../contracts/editable-strategy.ts';
import type { StrategySpec } from '../contracts/strategy.ts';
import type { Workspace } from '../contracts/workspace.ts';
import { buildBugContext } from './bug-context.ts';
import { buildMessages, type PromptMemory, type PromptVars } from './prompt.ts';
import { resolveStrategy } from './presets/index.ts';
import { toolsForStrategy } from './strategy-tools.ts';
import { historyContextProvider } from '../history/run-context.ts';
import type { RepoSession } from '../repo/session.ts';
import { estimateUsage } from '../llm/usage-estimate.ts';

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
