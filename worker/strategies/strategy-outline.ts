// A strategy's outline (StrategyOutline, worker/contracts/strategy.ts): what the classroom shows of a run's strategy — its state
// machine, its tools with their argument schemas and the reply format — built from the resolved StrategySpec.
import type { StrategyOutline, StrategySpec } from '../contracts/strategy.ts';
import { toolsForStrategy } from './strategy-tools.ts';

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
