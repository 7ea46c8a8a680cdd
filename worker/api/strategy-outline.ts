// What the classroom (src/components/classroom/) shows of a run's strategy: its state machine, the tools it offers
// with their argument schemas, and the reply format the parser reads. Plain data, sent with 'run-started', so the
// page draws the diagram and builds the reply form without loading the toolkits (tree-sitter, just-bash) itself.
import type { OutputFormat, StrategySpec } from '../contracts/strategy.ts';
import type { ToolArgument } from '../contracts/tools.ts';
import { toolsForStrategy } from '../agent/presets/strategy-tools.ts';

export interface StrategyOutline {
  format: OutputFormat;
  states: { name: string; description: string; tools: string[] }[];
  transitions: { tool: string; from: string; to: string }[];
  startState: string;
  finalStates: string[];
  /** the strategy's tools (a variant that removes a tool removes it here, as in the run) */
  tools: { name: string; description: string; args: ToolArgument[]; aliases?: string[] }[];
  /** bash-block: the echoed command that ends the run */
  completionSentinel?: string;
}

export function strategyOutline(spec: StrategySpec): StrategyOutline {
  const sentinel = spec.middleware.completionSentinel ?? spec.toolSettings.completionSentinel;
  return {
    format: spec.output.format,
    states: spec.states.map((s) => ({ name: s.name, description: s.description, tools: [...s.tools] })),
    transitions: spec.transitions.map((t) => ({ tool: t.tool, from: t.from, to: t.to })),
    startState: spec.startState,
    finalStates: [...spec.finalStates],
    tools: toolsForStrategy(spec).map(({ definition: d }) => ({ name: d.name, description: d.description, args: d.args.map((a) => ({ ...a })), ...(d.aliases ? { aliases: [...d.aliases] } : {}) })),
    ...(sentinel ? { completionSentinel: sentinel } : {}),
  };
}
