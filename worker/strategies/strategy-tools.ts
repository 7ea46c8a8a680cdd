// The tools a resolved strategy offers: its toolkit narrowed to the tools its states name. The loop (through the
// run manager), `repairlab parse` and `repairlab tool` all ask here, so a variant that removes a tool removes it
// from every entry point alike.
import type { StrategySpec } from '../contracts/strategy.ts';
import type { AnyTool } from '../tools/agent-tool.ts';
import { applyPatchTool } from '../tools/engine-tools.ts';
import { toolkit } from '../tools/registry.ts';
import { listPresets, resolveStrategy } from './presets/index.ts';

export function toolsForStrategy(strategy: StrategySpec): AnyTool[] {
  if (strategy.toolkit === 'engine') return [applyPatchTool];
  const named = new Set(strategy.states.flatMap((s) => s.tools));
  const all = toolkit(strategy.toolkit);
  return named.has('*') ? all : all.filter((t) => named.has(t.definition.name) || (t.definition.aliases ?? []).some((a) => named.has(a)));
}

/**
 * The strategy's tool called `name` (or by one of its aliases). Throws naming the tools it has when there is none:
 * when the toolkit has that tool but the strategy left it out (a variant such as no-search-tools), it says so.
 */
export function strategyTool(strategy: StrategySpec, name: string, label: string): AnyTool {
  const tools = toolsForStrategy(strategy);
  const tool = tools.find((t) => t.definition.name === name) ?? tools.find((t) => t.definition.aliases?.includes(name));
  if (tool) return tool;
  const inKit = strategy.toolkit !== 'engine' && toolkit(strategy.toolkit).some((t) => t.definition.name === name || t.definition.aliases?.includes(name));
  const why = inKit ? `${label} leaves out ${name} (toolkit ${strategy.toolkit} has it)` : `toolkit ${strategy.toolkit} has no tool "${name}"`;
  throw new Error(`${why}. Its tools: ${tools.map((t) => t.definition.name).join(', ')}.`);
}

/**
 * The strategy `repairlab tool` runs a tool under: the given preset (default: the preset of `toolkitName`), with its
 * variants and overrides resolved as for a run, so the tool sees the settings (search and write_fix modes, fault
 * localization, caps) a run of that strategy gives it.
 */
export function strategyForToolkit(toolkitName: string, opts: { preset?: string; variants?: readonly string[]; overrides?: Record<string, unknown> }): StrategySpec {
  const presets = listPresets();
  const preset = opts.preset ?? presets.find((p) => p.toolkit === toolkitName)?.id;
  if (!preset) throw new Error(`unknown toolkit "${toolkitName}": use one of ${[...new Set(presets.map((p) => p.toolkit))].join(', ')}.`);
  const strategy = resolveStrategy(preset, opts);
  if (strategy.toolkit !== toolkitName) throw new Error(`--preset ${preset} uses toolkit ${strategy.toolkit}, not ${toolkitName}: name its toolkit, or a preset of ${toolkitName}.`);
  return strategy;
}
