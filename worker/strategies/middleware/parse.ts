// Turning a model reply into one command, per output format. Tolerant where models are sloppy
// (fences with trailing spaces, JSON with trailing commas, diffs without a fence); every tolerance
// that changed the text is returned as a rectification so the trajectory shows it.
import { jsonrepair } from 'jsonrepair';
import type { OutputFormat } from '../../contracts/strategy.ts';
import type { ToolDefinition } from '../../contracts/tools.ts';
import type { ParsedCommand, Rectification } from '../../contracts/trajectory.ts';

export interface ParseResult {
  command?: ParsedCommand;
  thought?: string;
  /** set when no command could be read: told to the model as a format error */
  error?: string;
  rectifications: Rectification[];
}

export interface ParseOptions {
  /** tool definitions, for THOUGHT/ACTION positional arguments */
  tools?: readonly Pick<ToolDefinition, 'name' | 'args' | 'aliases'>[];
}

interface Fence {
  lang: string;
  body: string;
  start: number;
  end: number;
  /** the fence deviated from the canonical "```lang\n…\n```" (spaces, CRLF, indentation) */
  sloppy: boolean;
}

/** Every ``` fenced block, tolerant of spaces after the language, CRLF, and an indented closing fence. */
export function findFences(text: string): Fence[] {
  const fences: Fence[] = [];
  const re = /^([ \t]*)```[ \t]*([\w+-]*)([ \t]*)\r?\n([\s\S]*?)\r?\n?([ \t]*)```[ \t]*$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const sloppy = Boolean(m[1] || m[3] || m[5] || /\r/.test(m[0]));
    fences.push({ lang: (m[2] ?? '').toLowerCase(), body: m[4] ?? '', start: m.index, end: m.index + m[0].length, sloppy });
  }
  return fences;
}

function outside(text: string, fences: Fence[]): string {
  let out = '';
  let at = 0;
  for (const f of fences) {
    out += text.slice(at, f.start);
    at = f.end;
  }
  return (out + text.slice(at)).trim();
}

// ---------- unified diff (one-shot) ----------

function parseUnifiedDiffReply(text: string): ParseResult {
  const fences = findFences(text);
  const rect: Rectification[] = [];
  const looksLikeDiff = (s: string) => /^@@ /m.test(s) && /^(---|\+\+\+) /m.test(s);
  const fence = fences.find((f) => (f.lang === 'diff' || f.lang === 'patch') && looksLikeDiff(f.body)) ?? fences.find((f) => looksLikeDiff(f.body));
  if (fence) {
    if (fence.sloppy) rect.push({ kind: 'whitespace', message: 'read the diff from a fence with extra whitespace' });
    return { command: { name: 'apply_patch', args: { diff: fence.body + '\n' } }, thought: outside(text, [fence]), rectifications: rect };
  }
  const start = text.search(/^(diff --git |--- )/m);
  if (start >= 0 && looksLikeDiff(text.slice(start))) {
    rect.push({ kind: 'other', message: 'read a bare (unfenced) unified diff' });
    return { command: { name: 'apply_patch', args: { diff: text.slice(start).replace(/\s*$/, '\n') } }, thought: text.slice(0, start).trim(), rectifications: rect };
  }
  return {
    error: 'no unified diff found in the reply. Reply with the fix as a unified diff (--- a/<path>, +++ b/<path>, @@ hunks) inside a ```diff fenced block.',
    rectifications: rect,
  };
}

// ---------- JSON command (RepairAgent) ----------

function firstJsonObject(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  const end = text.lastIndexOf('}');
  return end > start ? text.slice(start, end + 1) : text.slice(start);
}

export function parseJsonCommand(text: string): ParseResult {
  const rect: Rectification[] = [];
  const fences = findFences(text);
  const fence = fences.find((f) => f.lang === 'json') ?? fences.find((f) => f.body.trim().startsWith('{'));
  const candidate = fence ? fence.body : firstJsonObject(text);
  if (!candidate) return { error: 'no JSON object found in the reply. Reply with {"thoughts": "...", "command": {"name": "<tool>", "args": {...}}}.', rectifications: rect };
  let value: unknown;
  try {
    value = JSON.parse(candidate);
  } catch (first) {
    try {
      value = JSON.parse(jsonrepair(candidate));
      rect.push({ kind: 'json-repair', message: `repaired invalid JSON (${(first as Error).message})` });
    } catch {
      return { error: `the reply's JSON cannot be parsed or repaired: ${(first as Error).message}. Reply with one valid JSON object.`, rectifications: rect };
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: 'the reply\'s JSON is not an object with a "command" field.', rectifications: rect };
  const obj = value as Record<string, unknown>;
  const thought = typeof obj.thoughts === 'string' ? obj.thoughts : typeof obj.thought === 'string' ? obj.thought : undefined;
  let cmd = obj.command as unknown;
  if (cmd === undefined && typeof obj.name === 'string') {
    cmd = { name: obj.name, args: obj.args };
    rect.push({ kind: 'other', message: 'read a top-level {"name", "args"} as the command' });
  }
  if (typeof cmd === 'string') {
    cmd = { name: cmd, args: obj.args ?? {} };
    rect.push({ kind: 'other', message: 'read "command" given as a string, with "args" beside it' });
  }
  if (!cmd || typeof cmd !== 'object' || typeof (cmd as { name?: unknown }).name !== 'string') {
    return { ...(thought ? { thought } : {}), error: 'the JSON has no "command": {"name": "<tool>", "args": {...}}.', rectifications: rect };
  }
  const { name, args } = cmd as { name: string; args?: unknown };
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    return { ...(thought ? { thought } : {}), error: `the arguments of "${name}" must be a JSON object of named arguments.`, rectifications: rect };
  }
  return { command: { name: name.trim(), args: (args ?? {}) as Record<string, unknown> }, ...(thought ? { thought } : {}), rectifications: rect };
}

// ---------- one bash block (HAFixAgent / mini-swe-agent) ----------

export function parseBashBlock(text: string): ParseResult {
  const rect: Rectification[] = [];
  const fences = findFences(text).filter((f) => ['bash', 'sh', 'shell'].includes(f.lang));
  if (fences.length !== 1) {
    return {
      error: `found ${fences.length} bash code blocks; reply with exactly ONE \`\`\`bash block holding one command (chain steps with && or ||).`,
      rectifications: rect,
    };
  }
  const f = fences[0]!;
  if (f.sloppy) rect.push({ kind: 'whitespace', message: 'read the bash block from a fence with extra whitespace or CRLF' });
  if (f.lang !== 'bash') rect.push({ kind: 'other', from: f.lang, to: 'bash', message: `read a \`\`\`${f.lang} block as bash` });
  const command = f.body.replace(/\r/g, '').trim();
  if (!command) return { error: 'the bash block is empty; put one command in it.', rectifications: rect };
  return { command: { name: 'bash', args: { command } }, thought: outside(text, [f]), rectifications: rect };
}

// ---------- THOUGHT / ACTION (Passerine) ----------

function stripFence(s: string): string {
  const m = /^\s*```[\w+-]*[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```\s*$/.exec(s);
  return m ? m[1]! : s;
}

export function parseThoughtAction(text: string, opts: ParseOptions = {}): ParseResult {
  const rect: Rectification[] = [];
  const actionAt = text.search(/^\s*\**ACTION\**\s*:\**/im);
  if (actionAt < 0) return { error: 'no ACTION found. Reply with "THOUGHT: <reasoning>" and then "ACTION: <command> <arguments>".', rectifications: rect };
  const thoughtMatch = /^\s*\**THOUGHT\**\s*:\**\s*([\s\S]*)$/im.exec(text.slice(0, actionAt));
  const thought = (thoughtMatch ? thoughtMatch[1]! : text.slice(0, actionAt)).trim();
  const actionText = text.slice(actionAt).replace(/^\s*\**ACTION\**\s*:\**[ \t]*/i, '');
  if (actionText.trim().startsWith('{')) {
    const json = parseJsonCommand(actionText);
    return { ...json, ...(thought ? { thought } : {}) };
  }
  const firstLineEnd = actionText.indexOf('\n');
  const head = (firstLineEnd < 0 ? actionText : actionText.slice(0, firstLineEnd)).trim();
  const rest = firstLineEnd < 0 ? '' : actionText.slice(firstLineEnd + 1);
  const [name = '', ...words] = head.split(/\s+/);
  if (!name) return { error: 'the ACTION line names no command.', rectifications: rect };
  const tool = opts.tools?.find((t) => t.name === name || t.aliases?.includes(name));
  if (!tool) {
    // unknown here; the name rectifier may still map it — keep positional words
    return { command: { name, args: { _positional: words, ...(rest.trim() ? { _text: stripFence(rest) } : {}) } }, thought, rectifications: rect };
  }
  const args: Record<string, unknown> = {};
  const defs = tool.args;
  let w = 0;
  for (let i = 0; i < defs.length; i++) {
    const def = defs[i]!;
    const isLast = i === defs.length - 1;
    if (def.type === 'string[]') {
      args[def.name] = isLast ? words.slice(w).concat(rest.trim() ? [rest.trim()] : []) : words.slice(w, w + 1);
      w = isLast ? words.length : w + 1;
    } else if (isLast && def.type === 'string' && (rest || w < words.length - 1)) {
      // the last string argument takes the rest of the line and every following line (edit's replacement)
      const inline = words.slice(w).join(' ');
      args[def.name] = rest ? stripFence(inline ? `${inline}\n${rest}` : rest) : inline;
      w = words.length;
    } else if (w < words.length) {
      const word = words[w++]!;
      args[def.name] = def.type === 'integer' && /^-?\d+$/.test(word) ? Number(word) : word;
    }
  }
  if (w < words.length) rect.push({ kind: 'other', message: `ignored extra words after ${tool.name}: ${words.slice(w).join(' ')}` });
  return { command: { name: tool.name, args }, ...(thought ? { thought } : {}), rectifications: rect };
}

export function parseByFormat(format: OutputFormat, text: string, opts: ParseOptions = {}): ParseResult {
  switch (format) {
    case 'unified-diff':
      return parseUnifiedDiffReply(text);
    case 'json-command':
      return parseJsonCommand(text);
    case 'bash-block':
      return parseBashBlock(text);
    case 'thought-action':
      return parseThoughtAction(text, opts);
  }
}
