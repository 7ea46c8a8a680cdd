// runToolScript: run a fixed list of tool calls in order and collect their results. The e2e test runs the same
// script in Chromium and in Node and compares the outputs, so results must not depend on the platform.
import type { ToolContext, ToolkitName, ToolResult } from '../contracts/tools.ts';
import { findTool } from './registry.ts';

export interface ToolCall {
  toolkit: ToolkitName;
  name: string;
  args: Record<string, unknown>;
}

export interface ToolCallOutcome {
  call: ToolCall;
  ok: boolean;
  output: string;
  shown: string;
  finished?: ToolResult['finished'];
  /** plausible/failing tests when the call validated (timings and cache flags left out: they differ run to run) */
  validation?: { plausible: boolean; compiled: boolean; failingTests: string[] };
}

export async function runToolScript(ctx: ToolContext, calls: ToolCall[]): Promise<ToolCallOutcome[]> {
  const outcomes: ToolCallOutcome[] = [];
  for (const call of calls) {
    const tool = findTool(call.toolkit, call.name);
    if (!tool) {
      const message = `unknown tool '${call.name}' in toolkit ${call.toolkit}`;
      outcomes.push({ call, ok: false, output: message, shown: message });
      continue;
    }
    const result = await tool.run(call.args, ctx);
    outcomes.push({
      call,
      ok: result.ok,
      output: result.output,
      shown: result.shown,
      ...(result.finished ? { finished: result.finished } : {}),
      ...(result.validation
        ? { validation: { plausible: result.validation.plausible, compiled: result.validation.compiled, failingTests: result.validation.failingTests } }
        : {}),
    });
  }
  return outcomes;
}
