// Building the messages of one cycle from the strategy's templates and the run's memory.
//   full-history  : system + instance once, then every reply and the feedback on it (mini-swe-agent, Passerine)
//   dynamic-prompt: system + one user message re-rendered each cycle from the gathered information (RepairAgent)
import type { ChatMessage } from '../contracts/llm.ts';
import type { StrategySpec } from '../contracts/strategy.ts';
import type { ToolDefinition } from '../contracts/tools.ts';
import type { BugContext } from './bug-context.ts';
import { renderTemplate } from './templates.ts';

/** One tool result remembered for dynamic prompts (RepairAgent's "gathered information"). */
export interface GatheredEntry {
  step: number;
  tool: string;
  args: Record<string, unknown>;
  /** the arguments as the prompt shows them: name=JSON value, comma-separated */
  argsText: string;
  ok: boolean;
  shown: string;
  data?: Record<string, unknown>;
}

export interface PromptMemory {
  /** full-history: the rendered system and instance messages, fixed at the start */
  system?: string;
  instance?: string;
  /** full-history: assistant replies and user feedback after the instance */
  history: ChatMessage[];
  /** dynamic-prompt: every tool result, newest last */
  gathered: GatheredEntry[];
  /** names the model used that match no tool (RepairAgent lists them as banned) */
  bannedCommands?: string[];
  /** dynamic-prompt: the last command and what came back */
  last?: { command: string; result: string };
}

type Def = Pick<ToolDefinition, 'name' | 'description' | 'args'>;

export function argsText(args: Record<string, unknown>): string {
  return Object.entries(args)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(', ');
}

export function toolSignature(d: Def): string {
  return `${d.name}(${d.args.map((a) => `${a.name}${a.required ? '' : '?'}: ${a.type}`).join(', ')})`;
}

export function toolView(d: Def) {
  return { name: d.name, description: d.description, signature: toolSignature(d), args: d.args };
}

export interface PromptVars {
  bug: BugContext;
  spec: StrategySpec;
  state: string;
  /** tools allowed in the state (all tools when not state-based) */
  stateTools: readonly Def[];
  allTools: readonly Def[];
  stepIndex: number;
  extra: Record<string, unknown>;
}

export function templateVariables(v: PromptVars, memory: PromptMemory): Record<string, unknown> {
  const state = v.spec.states.find((s) => s.name === v.state);
  const remembered = v.spec.memory.cyclesRemembered;
  // startup results (step -1) belong to the bug information and are always kept
  const gathered = remembered ? memory.gathered.filter((g) => g.step < 0 || g.step >= v.stepIndex - remembered) : memory.gathered;
  const byTool: Record<string, GatheredEntry[]> = {};
  for (const g of gathered) (byTool[g.tool] ??= []).push(g);
  // RepairAgent's hypotheses: each express_hypothesis is current until a later discard_hypothesis refutes it
  const hypotheses: { text: string; status: 'current' | 'refuted' }[] = [];
  for (const g of memory.gathered) {
    if (g.tool === 'express_hypothesis' && g.ok) hypotheses.push({ text: String(g.args.hypothesis ?? ''), status: 'current' });
    if (g.tool === 'discard_hypothesis' && g.ok) for (const h of hypotheses) h.status = 'refuted';
  }
  return {
    bug: v.bug,
    strategy: { id: v.spec.id, name: v.spec.name },
    state: { name: v.state, description: state?.description ?? '' },
    states: v.spec.states,
    tools: v.stateTools.map(toolView),
    all_tools: v.allTools.map(toolView),
    step: { index: v.stepIndex + 1, used: v.stepIndex, left: Math.max(0, v.spec.budgets.maxSteps - v.stepIndex), max: v.spec.budgets.maxSteps },
    sentinel: v.spec.middleware.completionSentinel ?? '',
    gathered: byTool,
    hypotheses,
    banned_commands: memory.bannedCommands ?? [],
    settings: v.spec.toolSettings,
    gathered_list: gathered,
    last: memory.last ?? null,
    ...v.extra,
  };
}

/** The messages to send this cycle. Full-history renders system/instance once and keeps them in memory. */
export function buildMessages(v: PromptVars, memory: PromptMemory): ChatMessage[] {
  const spec = v.spec;
  if (spec.memory.kind === 'dynamic-prompt') {
    const vars = templateVariables(v, memory);
    return [
      { role: 'system', content: renderTemplate(spec.prompt.system, vars, `${spec.id}.system`) },
      { role: 'user', content: renderTemplate(spec.prompt.cycle!, vars, `${spec.id}.cycle`) },
    ];
  }
  if (memory.system === undefined || memory.instance === undefined) {
    const vars = templateVariables(v, memory);
    memory.system = renderTemplate(spec.prompt.system, vars, `${spec.id}.system`);
    memory.instance = renderTemplate(spec.prompt.instance, vars, `${spec.id}.instance`);
  }
  return [{ role: 'system', content: memory.system }, { role: 'user', content: memory.instance }, ...memory.history];
}
