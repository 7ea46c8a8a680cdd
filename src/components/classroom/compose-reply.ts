// The classroom's reply form as text: the tool and argument fields a person filled in, turned into exactly the reply
// the strategy's parser reads (worker/agent/middleware/parse.ts), so a form reply and the same text typed by hand make
// the same step. Pure functions: the form (reply-form/) and the unit tests share them.
import { parseThoughtAction } from '../../../worker/strategies/middleware/parse.ts';
import type { StrategyOutline } from '../../../worker/contracts/strategy.ts';
import type { OutputFormat } from '../../../worker/contracts/strategy.ts';
import type { ToolArgument } from '../../../worker/contracts/tools.ts';

export type OutlineTool = StrategyOutline['tools'][number];

/** A field the person left wrong: `field` is the argument's name, the message says what to write. */
export class ReplyFieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ReplyFieldError';
  }
}

/** How a field of this argument type is typed in the form (the label's hint). */
export function fieldHint(arg: ToolArgument): string {
  switch (arg.type) {
    case 'integer':
      return 'a whole number';
    case 'boolean':
      return 'yes or no';
    case 'string[]':
      return 'one per line';
    case 'object':
      return 'a JSON object';
    case 'object[]':
      return 'a JSON array of objects';
    case 'string':
      return 'text';
  }
}

/**
 * The typed arguments of `tool` from the raw field texts (checkboxes give 'true' / 'false'). An empty optional field
 * is left out; an empty required one, a non-number or bad JSON is refused naming the field.
 */
export function argsFromFields(tool: OutlineTool, fields: Record<string, string>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const arg of tool.args) {
    const raw = fields[arg.name] ?? '';
    if (arg.type === 'boolean') {
      if (raw === 'true' || arg.required) args[arg.name] = raw === 'true';
      continue;
    }
    if (raw.trim() === '') {
      if (arg.required) throw new ReplyFieldError(arg.name, `${tool.name}: "${arg.name}" is required — ${arg.description} (${fieldHint(arg)}).`);
      continue;
    }
    args[arg.name] = typedValue(tool.name, arg, raw);
  }
  return args;
}

function typedValue(toolName: string, arg: ToolArgument, raw: string): unknown {
  switch (arg.type) {
    case 'integer': {
      if (!/^\s*-?\d+\s*$/.test(raw)) throw new ReplyFieldError(arg.name, `${toolName}: "${arg.name}" must be a whole number, not "${raw}".`);
      return Number(raw);
    }
    case 'string[]':
      return raw.split('\n').map((s) => s.trim()).filter(Boolean);
    case 'object':
    case 'object[]': {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch (e) {
        throw new ReplyFieldError(arg.name, `${toolName}: "${arg.name}" is not valid JSON (${(e as Error).message}); write ${fieldHint(arg)}.`);
      }
      const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
      const ok = arg.type === 'object' ? isObject(value) : Array.isArray(value) && value.every(isObject);
      if (!ok) throw new ReplyFieldError(arg.name, `${toolName}: "${arg.name}" must be ${fieldHint(arg)}.`);
      return value;
    }
    default:
      return raw;
  }
}

export interface ComposedCommand {
  tool: OutlineTool;
  args: Record<string, unknown>;
  thought: string;
}

/** The reply text the parser of `format` reads as `tool` with `args` (and `thought` as the reasoning). */
export function composeReply(format: OutputFormat, { tool, args, thought }: ComposedCommand): string {
  const t = thought.trim();
  switch (format) {
    case 'json-command':
      // the layout of the hand-written demo replies (worker/agent/demo-cassettes.ts)
      return JSON.stringify({ thoughts: t, command: { name: tool.name, args } }, null, 2);
    case 'bash-block':
      return `${t ? `THOUGHT: ${t}\n\n` : ''}\`\`\`bash\n${stringArg(args, 'command')}\n\`\`\``;
    case 'unified-diff':
      return `${t ? `${t}\n\n` : ''}\`\`\`diff\n${stringArg(args, 'diff').replace(/\n+$/, '')}\n\`\`\``;
    case 'thought-action':
      return `THOUGHT: ${t}\nACTION: ${thoughtAction(tool, args)}`;
  }
}

function stringArg(args: Record<string, unknown>, name: string): string {
  const v = args[name];
  return typeof v === 'string' ? v.trim() : '';
}

/**
 * Passerine's ACTION: `<command> <arguments>` as its prompt teaches (the last text argument on the following lines when
 * it spans lines or has spaces), checked by parsing it back; when the positional form would not read back as the same
 * arguments (a path with a space, say), the JSON form the parser also reads.
 */
function thoughtAction(tool: OutlineTool, args: Record<string, unknown>): string {
  const words: string[] = [];
  let tail: string | undefined;
  tool.args.forEach((arg, i) => {
    const v = args[arg.name];
    if (v === undefined) return;
    const last = i === tool.args.length - 1;
    if (Array.isArray(v)) words.push(...v.map(String));
    else if (last && arg.type === 'string' && /\s/.test(String(v))) tail = String(v);
    else words.push(String(v));
  });
  const positional = [tool.name, ...words].join(' ') + (tail !== undefined ? `\n${tail}` : '');
  const back = parseThoughtAction(`ACTION: ${positional}`, { tools: [tool] });
  if (back.command && back.command.name === tool.name && sameJson(back.command.args, args)) return positional;
  return JSON.stringify({ command: { name: tool.name, args } });
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, sortKeys(x)]));
  return v;
}

/** The tools a person may call in `state` ('*' = all of the strategy's tools; no state known: all). */
export function toolsAllowedIn(outline: StrategyOutline, state: string | undefined): OutlineTool[] {
  const spec = outline.states.find((s) => s.name === state);
  if (!spec || spec.tools.includes('*')) return outline.tools;
  return outline.tools.filter((t) => spec.tools.includes(t.name) || (t.aliases ?? []).some((a) => spec.tools.includes(a)));
}

/**
 * The part of the prompt that says how to reply: its "## Output format" section when it has one (RepairAgent's
 * cycle prompt), else the system message, where the other presets teach the format in a few lines.
 */
export function outputFormatSection(messages: readonly { role: string; content: string }[], format: OutputFormat): string {
  for (const m of [...messages].reverse()) {
    const match = /^#{1,4}[ \t]*Output format[ \t]*\n([\s\S]*?)(?=^#{1,4}\s|(?![\s\S]))/im.exec(m.content);
    if (match) return match[1]!.trim();
  }
  return messages.find((m) => m.role === 'system')?.content.trim() || FORMAT_FALLBACK[format];
}

const FORMAT_FALLBACK: Record<OutputFormat, string> = {
  'json-command': '{"thoughts": "<your reasoning>", "command": {"name": "<command>", "args": {…}}}',
  'bash-block': 'THOUGHT: <reasoning>, then exactly one ```bash block with one command',
  'thought-action': 'THOUGHT: <reasoning>\nACTION: <command> <arguments>',
  'unified-diff': 'the fix as a unified diff in a ```diff block',
};
