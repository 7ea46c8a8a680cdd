// The loop runs any Tool from worker/tools plus the engine's own tools (apply_patch for one-shot):
// this type is the Tool contract with 'engine' allowed as the toolkit.
import type { Tool, ToolContext, ToolDefinition, ToolResult } from '../contracts/tools.ts';

export interface AgentTool {
  definition: Omit<ToolDefinition, 'toolkit'> & { toolkit: ToolDefinition['toolkit'] | 'engine' };
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

export type AnyTool = Tool | AgentTool;
