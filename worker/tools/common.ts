// Shared plumbing for every toolkit: argument checking with recoverable refusals, output capping with a
// visible note, file reading with path suggestions, line splitting/numbering and runner report formatting.
import { WorkspaceError, type Overlay, type Workspace } from '../contracts/workspace.ts';
import type { Tool, ToolContext, ToolDefinition, ToolResult } from '../contracts/tools.ts';
import type { TestSelection, ValidationResult } from '../contracts/runner-api.ts';
import { describeTestEdit, refusedTestEdits } from '../contracts/test-edits.ts';

/** Thrown by argument/precondition checks; turned into `ok: false` with the message shown to the model. */
export class ToolRefusal extends Error {
  constructor(message: string, readonly data?: Record<string, unknown>) {
    super(message);
    this.name = 'ToolRefusal';
  }
}

export interface CapPolicy {
  /** maximum characters shown to the model */
  maxChars: number;
  /** 'head': keep the start (RepairAgent code: first 4,000 chars); 'head-tail': keep both ends (HAFixAgent: 7,500 + 7,500) */
  mode: 'head' | 'head-tail';
}

/** Cut `text` to the policy and say, visibly, what was cut. */
export function capOutput(text: string, policy: CapPolicy): string {
  const { maxChars, mode } = policy;
  if (text.length <= maxChars) return text;
  const totalLines = countLines(text);
  if (mode === 'head-tail') {
    const half = Math.floor(maxChars / 2);
    const head = text.slice(0, half);
    const tail = text.slice(text.length - half);
    const cutChars = text.length - head.length - tail.length;
    const cutLines = totalLines - countLines(head) - countLines(tail);
    return `${head}\n[output cut: ${cutChars} characters (about ${Math.max(cutLines, 0)} lines) omitted from the middle of ${text.length}; showing the first and last ${half} characters. Narrow the command (grep, head, sed -n) to see the rest.]\n${tail}`;
  }
  let head = text.slice(0, maxChars);
  const lastBreak = head.lastIndexOf('\n');
  if (lastBreak > maxChars * 0.5) head = head.slice(0, lastBreak); // cut at a line boundary when that loses little
  const shownLines = countLines(head);
  return `${head}\n[output cut: showing the first ${head.length} of ${text.length} characters (${shownLines} of ${totalLines} lines); ask for a narrower range to see the rest.]`;
}

function countLines(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length;
}

export function capPolicy(ctx: ToolContext, fallback: CapPolicy): CapPolicy {
  const maxChars = ctx.settings.outputCap;
  const mode = ctx.settings.outputCapMode;
  return {
    maxChars: typeof maxChars === 'number' && maxChars > 0 ? maxChars : fallback.maxChars,
    mode: mode === 'head' || mode === 'head-tail' ? mode : fallback.mode,
  };
}

export function refusal(message: string, data?: Record<string, unknown>): ToolResult {
  return { ok: false, output: message, shown: message, ...(data ? { data } : {}) };
}

/**
 * Wraps a tool implementation: refusals and workspace errors become `ok: false` results with a recovery hint,
 * and any call that does not succeed leaves the overlay exactly as it found it.
 */
export function defineTool(
  definition: ToolDefinition,
  cap: CapPolicy,
  impl: (args: Record<string, unknown>, ctx: ToolContext) => Promise<Omit<ToolResult, 'shown'> & { shown?: string }>,
): Tool {
  return {
    definition,
    async run(args, ctx) {
      const before: Overlay = ctx.workspace.overlay();
      try {
        if (args === null || typeof args !== 'object' || Array.isArray(args)) {
          throw new ToolRefusal(`${definition.name} takes a JSON object of arguments: ${usage(definition)}`);
        }
        const result = await impl(args, ctx);
        if (!result.ok) ctx.workspace.setOverlay(before);
        return { ...result, shown: result.shown ?? capOutput(result.output, capPolicy(ctx, cap)) };
      } catch (err) {
        ctx.workspace.setOverlay(before);
        if (err instanceof ToolRefusal) return refusal(`${definition.name}: ${err.message}`, err.data);
        if (err instanceof WorkspaceError) return refusal(`${definition.name}: ${err.message}`);
        if (isAbort(err)) throw err;
        const message = err instanceof Error ? err.message : String(err);
        return refusal(`${definition.name} failed: ${message}`);
      }
    },
  };
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'aborted');
}

/** One-line usage from a definition, used in refusals so the model can retry correctly. */
export function usage(definition: ToolDefinition): string {
  const args = definition.args.map((a) => `${a.name}${a.required ? '' : '?'}: ${a.type}`).join(', ');
  return `${definition.name}(${args})`;
}

// ---------- arguments ----------

export function stringArg(args: Record<string, unknown>, name: string, opts: { required: true; aliases?: string[] }): string;
export function stringArg(args: Record<string, unknown>, name: string, opts?: { required?: boolean; aliases?: string[] }): string | undefined;
export function stringArg(args: Record<string, unknown>, name: string, opts: { required?: boolean; aliases?: string[] } = {}): string | undefined {
  const value = pick(args, name, opts.aliases);
  if (value === undefined || value === null) {
    if (opts.required) throw new ToolRefusal(`missing argument '${name}' (a string).`);
    return undefined;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') throw new ToolRefusal(`argument '${name}' must be a string, got ${describe(value)}.`);
  return value;
}

export function intArg(args: Record<string, unknown>, name: string, opts: { required: true; aliases?: string[] }): number;
export function intArg(args: Record<string, unknown>, name: string, opts?: { required?: boolean; aliases?: string[] }): number | undefined;
export function intArg(args: Record<string, unknown>, name: string, opts: { required?: boolean; aliases?: string[] } = {}): number | undefined {
  const value = pick(args, name, opts.aliases);
  if (value === undefined || value === null || value === '') {
    if (opts.required) throw new ToolRefusal(`missing argument '${name}' (a whole number).`);
    return undefined;
  }
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new ToolRefusal(`argument '${name}' must be a whole number, got ${describe(value)}.`);
  return n;
}

/** A list of strings; a single string is accepted as a one-element list (models often send one). */
export function stringListArg(args: Record<string, unknown>, name: string, opts: { required?: boolean; aliases?: string[] } = {}): string[] | undefined {
  const value = pick(args, name, opts.aliases);
  if (value === undefined || value === null) {
    if (opts.required) throw new ToolRefusal(`missing argument '${name}' (a list of strings).`);
    return undefined;
  }
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.some((item) => typeof item !== 'string' && typeof item !== 'number')) {
    throw new ToolRefusal(`argument '${name}' must be a list of strings, got ${describe(value)}.`);
  }
  return list.map(String);
}

function pick(args: Record<string, unknown>, name: string, aliases: string[] = []): unknown {
  for (const key of [name, ...aliases]) if (key in args) return args[key];
  return undefined;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'string' ? `"${value.slice(0, 40)}"` : typeof value;
}

// ---------- files ----------

/** Repo-relative form of a path the model typed: './a/b', '/a/b', 'a\\b' → 'a/b'. */
export function normalizePath(path: string): string {
  return path.trim().replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/^\/+/, '');
}

/** Read a file, or refuse naming the path and suggesting files with the same name. */
export async function readFileOrRefuse(workspace: Workspace, rawPath: string): Promise<{ path: string; content: string }> {
  const path = normalizePath(rawPath);
  if (path === '') throw new ToolRefusal('the file path is empty; give a repo-relative path like src/main/java/org/Foo.java.');
  try {
    return { path, content: await workspace.read(path) };
  } catch (err) {
    if (!(err instanceof WorkspaceError)) throw err;
    if (err.code === 'is-directory') {
      const inside = (await workspace.listFiles(path)).slice(0, 10);
      throw new ToolRefusal(`'${path}' is a directory, not a file. Files in it include: ${inside.join(', ')}`);
    }
    if (err.code === 'binary') throw new ToolRefusal(`'${path}' is a binary file and cannot be shown as text.`);
    const suggestions = await similarPaths(workspace, path);
    throw new ToolRefusal(
      `file not found: '${path}'.` +
        (suggestions.length ? ` Did you mean: ${suggestions.join(', ')}?` : ' Paths are repo-relative, e.g. src/main/java/org/Foo.java; search the code base to find the file.'),
    );
  }
}

/** Files whose name matches the last segment of `path` (or of a dotted class name). */
export async function similarPaths(workspace: Workspace, path: string, limit = 5): Promise<string[]> {
  let base = path.split('/').pop() ?? path;
  if (!base.includes('.java') && base.includes('.')) base = `${base.split('.').pop()}.java`; // org.foo.Bar → Bar.java
  if (!base.includes('.')) base = `${base}.java`;
  const lower = base.toLowerCase();
  const files = await workspace.listFiles();
  return files.filter((file) => (file.split('/').pop() ?? '').toLowerCase() === lower).slice(0, limit);
}

// ---------- the bug's tests ----------

/** The base tree's paths by tree id (a base never changes; the test-edit check asks on every write). */
const basePathsByTree = new Map<string, Promise<ReadonlySet<string>>>();
function basePaths(workspace: Workspace): Promise<ReadonlySet<string>> {
  let paths = basePathsByTree.get(workspace.treeId);
  if (!paths) {
    if (basePathsByTree.size >= 8) basePathsByTree.clear();
    paths = workspace.baseFiles().then((files) => new Set(files.map((f) => f.path)));
    basePathsByTree.set(workspace.treeId, paths);
  }
  return paths;
}

/**
 * Why the run's test-edit policy (ctx.testEdits, default none) refuses these overlay entries — the same rule the
 * runner applies (worker/contracts/test-edits.ts), told to the model so it learns it instead of meeting a runner 400.
 * Undefined when they are allowed.
 */
export async function testEditRefusal(ctx: ToolContext, entries: Overlay): Promise<string | undefined> {
  const policy = ctx.testEdits ?? 'none';
  if (policy === 'any' || Object.keys(entries).length === 0) return undefined;
  const refused = refusedTestEdits(entries, ctx.bug.layout, await basePaths(ctx.workspace), policy);
  if (refused.length === 0) return undefined;
  const sources = ctx.bug.layout.sourceDirs.join(', ');
  const advice =
    refused.every((r) => r.kind === 'shadow')
      ? 'Give the new file a name no existing class or resource has.'
      : policy === 'add'
        ? `The tests define the bug, so the bug's tests are read-only: you may add test files of your own, but fix the bug in the program code (under ${sources}).`
        : `The tests define the bug, so they are read-only here: fix the bug in the program code (under ${sources}), not in the tests.`;
  return `refused: this ${refused.map(describeTestEdit).join('; ')}. ${advice}`;
}

/** testEditRefusal for the changes made to ctx.workspace since its overlay was `before`. */
export async function testEditRefusalSince(ctx: ToolContext, before: Overlay): Promise<string | undefined> {
  const changed = Object.entries(ctx.workspace.overlay()).filter(([path, content]) => !(path in before) || before[path] !== content);
  return testEditRefusal(ctx, Object.fromEntries(changed));
}

// ---------- lines ----------

export interface SplitText {
  lines: string[];
  eol: '\n' | '\r\n';
  trailingNewline: boolean;
}

export function splitText(content: string): SplitText {
  const eol = content.includes('\r\n') ? '\r\n' : '\n';
  const trailingNewline = content.endsWith('\n');
  const body = trailingNewline ? content.slice(0, content.length - (content.endsWith('\r\n') ? 2 : 1)) : content;
  return { lines: body === '' && trailingNewline ? [''] : content === '' ? [] : body.split(/\r?\n/), eol, trailingNewline };
}

export function joinText(text: SplitText): string {
  const joined = text.lines.join(text.eol);
  return text.trailingNewline && text.lines.length > 0 ? joined + text.eol : joined;
}

/** `lines` numbered from `first`, right-aligned to the widest number. */
export function numberLines(lines: string[], first: number, format: 'padded' | 'repairagent' = 'padded'): string {
  if (format === 'repairagent') return lines.map((line, i) => `Line ${first + i}:${line}`).join('\n');
  const width = String(first + lines.length - 1).length;
  return lines.map((line, i) => `${String(first + i).padStart(width)} ${line}`).join('\n');
}

// ---------- runner ----------

/** The bug's failing tests first, then the rest of the suite (Defects4J's usual order). */
export function failingFirst(ctx: ToolContext): TestSelection {
  return { mode: 'failing-first', tests: [...ctx.bug.failingTests] };
}

/** A readable report of one validation: compile errors, then the Defects4J-style summary and each failure. */
export function formatValidation(result: ValidationResult, opts: { maxFrames?: number } = {}): string {
  const maxFrames = opts.maxFrames ?? 8;
  const parts: string[] = [];
  if (!result.compiled) {
    parts.push('Compilation failed:');
    for (const d of result.diagnostics.filter((d) => d.kind === 'error')) {
      parts.push(`  ${d.file}:${d.line}${d.column ? `:${d.column}` : ''}: error: ${d.message}`);
    }
    return parts.join('\n');
  }
  parts.push(result.report.trim() || `Failing tests: ${result.failingTests.length}`);
  for (const test of result.tests) {
    if (!test.failure || (test.status !== 'fail' && test.status !== 'error' && test.status !== 'timeout')) continue;
    parts.push(`--- ${test.id} (${test.status})`);
    parts.push(`${test.failure.exception}${test.failure.message ? `: ${test.failure.message}` : ''}`);
    for (const frame of test.failure.frames.slice(0, maxFrames)) parts.push(`\tat ${frame}`);
    const omitted = test.failure.omittedFrames + Math.max(test.failure.frames.length - maxFrames, 0);
    if (omitted > 0) parts.push(`\t... ${omitted} more frames`);
  }
  if (result.stopped === 'first-failure') parts.push('(stopped at the first failing test; the rest of the suite was not run)');
  if (result.stopped === 'wall-clock') parts.push('(stopped: the test run hit its time limit)');
  if (result.plausible) parts.push('All tests pass.');
  return parts.join('\n');
}
