// Repairing a parsed command before it runs: tool and argument names, file paths. Two policies:
//  - 'paper' (RepairAgent paper): substring match either way, then normalised Levenshtein below a threshold;
//    ambiguity is reported back to the model.
//  - 'code'  (RepairAgent released code): exact tool names only; argument names mapped by substring.
// Every change is returned as a Rectification for the trajectory.
import { distance } from 'fastest-levenshtein';
import type { ToolDefinition } from '../../contracts/tools.ts';
import type { Workspace } from '../../contracts/workspace.ts';
import type { ParsedCommand, Rectification } from '../../contracts/trajectory.ts';

type Def = Pick<ToolDefinition, 'name' | 'args' | 'aliases'>;

export interface RectifyOptions {
  mode: 'paper' | 'code' | 'off';
  threshold: number;
  repairPaths: boolean;
}

export interface RectifyResult {
  command?: ParsedCommand;
  tool?: Def;
  error?: string;
  rectifications: Rectification[];
}

const norm = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');

export function normalisedDistance(a: string, b: string): number {
  const x = norm(a);
  const y = norm(b);
  return distance(x, y) / Math.max(1, x.length, y.length);
}

/** Best match of `name` among `names` under a policy; `ambiguous` lists ties. */
export function matchName(name: string, names: readonly string[], mode: 'paper' | 'code' | 'substring', threshold: number): { match?: string; ambiguous?: string[] } {
  if (names.includes(name)) return { match: name };
  const n = norm(name);
  const exactNorm = names.filter((c) => norm(c) === n);
  if (exactNorm.length === 1) return { match: exactNorm[0]! };
  if (mode === 'code') return {};
  const sub = names.filter((c) => n.length >= 3 && (norm(c).includes(n) || n.includes(norm(c))));
  if (sub.length === 1) return { match: sub[0]! };
  // several candidates: ambiguous (the paper reports this back to the model rather than guessing)
  if (sub.length > 1) return { ambiguous: sub };
  if (mode === 'substring') return {};
  const close = names.map((c) => ({ c, d: normalisedDistance(name, c) })).filter((s) => s.d < threshold).sort((a, b) => a.d - b.d);
  if (close.length === 1 || (close.length > 1 && close[0]!.d < close[1]!.d)) return { match: close[0]!.c };
  if (close.length > 1) return { ambiguous: close.map((s) => s.c) };
  return {};
}

function resolveTool(name: string, defs: readonly Def[], opts: RectifyOptions, rect: Rectification[]): { tool?: Def; error?: string } {
  const direct = defs.find((d) => d.name === name) ?? defs.find((d) => d.aliases?.includes(name));
  if (direct) {
    if (direct.name !== name) rect.push({ kind: 'tool-name', from: name, to: direct.name, message: `${name} is an alias of ${direct.name}` });
    return { tool: direct };
  }
  const known = defs.map((d) => d.name);
  if (opts.mode !== 'off') {
    const aliasOwner = new Map<string, string>();
    for (const d of defs) for (const a of [d.name, ...(d.aliases ?? [])]) aliasOwner.set(a, d.name);
    const m = matchName(name, [...aliasOwner.keys()], opts.mode, opts.threshold);
    if (m.match) {
      const to = aliasOwner.get(m.match)!;
      rect.push({ kind: 'tool-name', from: name, to, message: `unknown command ${name} read as ${to}` });
      return { tool: defs.find((d) => d.name === to)! };
    }
    if (m.ambiguous) {
      const owners = [...new Set(m.ambiguous.map((a) => aliasOwner.get(a)!))];
      if (owners.length === 1) {
        rect.push({ kind: 'tool-name', from: name, to: owners[0]!, message: `unknown command ${name} read as ${owners[0]}` });
        return { tool: defs.find((d) => d.name === owners[0])! };
      }
      return { error: `the command "${name}" is ambiguous: it could be ${owners.join(' or ')}. Use the exact name.` };
    }
  }
  return { error: `unknown command "${name}". Available commands: ${known.join(', ')}.` };
}

async function repairPath(ws: Workspace, value: string, rect: Rectification[], argName: string): Promise<{ value: string; error?: string }> {
  if (!value || (await ws.exists(value))) return { value };
  let wanted = value.trim().replace(/^\.?\//, '');
  // dotted class name: org.jfree.Foo or org.jfree.Foo.java → org/jfree/Foo.java
  if (!wanted.includes('/') && /^[\w$]+(\.[\w$]+)+$/.test(wanted)) {
    const base = wanted.endsWith('.java') ? wanted.slice(0, -5) : wanted;
    wanted = `${base.replace(/\./g, '/')}.java`;
    if (await ws.exists(wanted)) {
      rect.push({ kind: 'file-path', from: value, to: wanted, message: `${argName}: class name ${value} read as ${wanted}` });
      return { value: wanted };
    }
  }
  const all = await ws.listFiles();
  const hits = all.filter((f) => f === wanted || f.endsWith(`/${wanted}`));
  if (hits.length === 1) {
    rect.push({ kind: 'file-path', from: value, to: hits[0]!, message: `${argName}: ${value} resolved to the only file ending with it, ${hits[0]}` });
    return { value: hits[0]! };
  }
  if (hits.length > 1) return { value, error: `${argName}: "${value}" matches several files: ${hits.slice(0, 8).join(', ')}${hits.length > 8 ? ' …' : ''}. Give the full path.` };
  return { value };
}

const isPathArg = (name: string) => /path|file/i.test(name) && !/^(files|paths)$/i.test(name);

export async function rectifyCommand(command: ParsedCommand, defs: readonly Def[], ws: Workspace | undefined, opts: RectifyOptions): Promise<RectifyResult> {
  const rect: Rectification[] = [];
  const found = resolveTool(command.name, defs, opts, rect);
  if (!found.tool) return { error: found.error!, rectifications: rect };
  const tool = found.tool;
  const argNames = tool.args.map((a) => a.name);
  const args: Record<string, unknown> = {};
  const { _positional, _text, ...named } = command.args as Record<string, unknown> & { _positional?: unknown; _text?: unknown };
  // positional words (THOUGHT/ACTION with a name that needed repair) fill the declared arguments in order
  if (Array.isArray(_positional) || typeof _text === 'string') {
    const words = Array.isArray(_positional) ? _positional.map(String) : [];
    tool.args.forEach((def, i) => {
      const last = i === tool.args.length - 1;
      const v = last && typeof _text === 'string' ? [...words.slice(i), _text].join('\n') : words[i];
      if (v !== undefined && v !== '') args[def.name] = def.type === 'integer' && /^-?\d+$/.test(v) ? Number(v) : def.type === 'string[]' ? [v] : v;
    });
  }
  for (const [key, value] of Object.entries(named)) {
    if (argNames.includes(key)) {
      args[key] = value;
      continue;
    }
    const m = opts.mode === 'off' ? {} : matchName(key, argNames, opts.mode === 'paper' ? 'paper' : 'substring', opts.threshold);
    if (m.match && !(m.match in named)) {
      rect.push({ kind: 'arg-name', from: key, to: m.match, message: `${tool.name}: argument ${key} read as ${m.match}` });
      args[m.match] = value;
    } else if (m.ambiguous) {
      return { tool, error: `${tool.name}: argument "${key}" is ambiguous (${m.ambiguous.join(', ')}). Use the exact argument names: ${argNames.join(', ')}.`, rectifications: rect };
    } else {
      return { tool, error: `${tool.name}: unknown argument "${key}". Its arguments are: ${argNames.join(', ') || '(none)'}.`, rectifications: rect };
    }
  }
  const missing = tool.args.filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
  if (missing.length) return { tool, error: `${tool.name}: missing required argument(s) ${missing.join(', ')}.`, rectifications: rect };
  if (opts.repairPaths && ws) {
    for (const def of tool.args) {
      const v = args[def.name];
      if (def.type === 'string' && typeof v === 'string' && isPathArg(def.name)) {
        const r = await repairPath(ws, v, rect, def.name);
        if (r.error) return { tool, error: r.error, rectifications: rect };
        args[def.name] = r.value;
      }
    }
  }
  return { command: { name: tool.name, args }, tool, rectifications: rect };
}
