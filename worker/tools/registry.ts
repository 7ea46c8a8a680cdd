// Every toolkit's tools by name: what the agent loop dispatches to, the UI lists and the CLI prints.
import type { Tool, ToolDefinition, ToolkitName } from '../contracts/tools.ts';
import { passerineTools } from './passerine/index.ts';
import { repairAgentTools } from './repairagent/index.ts';
import { hafixTools } from './hafixagent/index.ts';

const TOOLKITS: Record<ToolkitName, Tool[]> = {
  repairagent: repairAgentTools,
  hafixagent: hafixTools,
  passerine: passerineTools,
};

export const TOOLKIT_NAMES = Object.keys(TOOLKITS) as ToolkitName[];

export function toolkit(name: ToolkitName): Tool[] {
  const tools = TOOLKITS[name];
  if (!tools) throw new Error(`unknown toolkit '${String(name)}': use one of ${TOOLKIT_NAMES.join(', ')}`);
  return tools;
}

export function allToolDefinitions(): ToolDefinition[] {
  return TOOLKIT_NAMES.flatMap((name) => TOOLKITS[name].map((tool) => tool.definition));
}

/** Definitions grouped by toolkit (what `repairlab tools --json` prints). */
export function toolDefinitionsByToolkit(): Record<ToolkitName, ToolDefinition[]> {
  return Object.fromEntries(TOOLKIT_NAMES.map((name) => [name, TOOLKITS[name].map((tool) => tool.definition)])) as Record<ToolkitName, ToolDefinition[]>;
}

/** A tool of `kit` by its name or one of its aliases (exact match; fuzzy repair is the agent middleware's job). */
export function findTool(kit: ToolkitName, nameOrAlias: string): Tool | undefined {
  const tools = toolkit(kit);
  return tools.find((t) => t.definition.name === nameOrAlias) ?? tools.find((t) => t.definition.aliases?.includes(nameOrAlias));
}
