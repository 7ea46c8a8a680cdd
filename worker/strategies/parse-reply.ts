// `repairlab parse --preset <p>`: what the engine would make of one model reply — the parsed command and
// every rectification — for people debugging a model that keeps failing the format. No workspace, so
// file paths are not repaired here.
import type { ToolDefinition } from '../contracts/tools.ts';
import type { ParsedCommand, Rectification } from '../contracts/trajectory.ts';
import { allToolDefinitions } from '../tools/registry.ts';
import { applyPatchTool } from '../tools/engine-tools.ts';
import { parseByFormat } from './middleware/parse.ts';
import { rectifyCommand } from './middleware/rectify.ts';
import { resolveStrategy } from './presets/index.ts';
import { toolsForStrategy } from './strategy-tools.ts';

export interface ParsedReply {
  preset: string;
  format: string;
  thought?: string;
  command?: ParsedCommand;
  /** what the model would be told instead of running a command */
  error?: string;
  rectifications: Rectification[];
}

export function toolDefinitionsFor(toolkit: string): Pick<ToolDefinition, 'name' | 'args' | 'aliases' | 'description'>[] {
  if (toolkit === 'engine') return [applyPatchTool.definition];
  return allToolDefinitions().filter((d) => d.toolkit === toolkit);
}

export async function parseReply(preset: string, text: string, opts: { variants?: string[]; overrides?: Record<string, unknown> } = {}): Promise<ParsedReply> {
  const spec = resolveStrategy(preset, opts);
  // the strategy's own tools: a variant that removes a tool (no-search-tools) removes it here as in a run
  const defs = toolsForStrategy(spec).map((t) => t.definition);
  const parsed = parseByFormat(spec.output.format, text, { tools: defs });
  const out: ParsedReply = { preset: spec.id, format: spec.output.format, ...(parsed.thought ? { thought: parsed.thought } : {}), rectifications: [...parsed.rectifications] };
  if (parsed.error || !parsed.command) return { ...out, error: parsed.error ?? 'no command' };
  const r = await rectifyCommand(parsed.command, defs, undefined, { mode: spec.middleware.rectifyNames, threshold: spec.middleware.levenshteinThreshold, repairPaths: false });
  out.rectifications.push(...r.rectifications);
  if (r.error) return { ...out, command: parsed.command, error: r.error };
  return { ...out, command: r.command };
}
