// Passerine's five commands (Rondon et al., Google): cat, code_search, edit, test, finish.
// The paper describes behaviour, not code; where it is silent the choice is ours and noted in docs/toolkits/passerine.md.
import type { Tool, ToolContext, ToolDefinition } from '../../contracts/tools.ts';
import { TestId } from '../../contracts/bug.ts';
import { isTestFile } from '../../contracts/test-edits.ts';
import {
  ToolRefusal, defineTool, failingFirst, formatValidation, intArg, joinText, normalizePath, numberLines, readFileOrRefuse,
  splitText, stringArg, stringListArg, testEditRefusal, type CapPolicy,
} from '../common.ts';
import { textFiles } from '../corpus.ts';

/** The paper states no output cap; 20,000 characters keeps a whole ~400-line file readable. */
const PASSERINE_CAP: CapPolicy = { maxChars: 20_000, mode: 'head' };
const EDIT_CONTEXT_LINES = 3;
const SEARCH_MAX_FILES = 5;
const SEARCH_SNIPPETS_PER_FILE = 3;

const def = (d: Omit<ToolDefinition, 'toolkit'>): ToolDefinition => ({ toolkit: 'passerine', ...d });

export const cat = defineTool(
  def({
    name: 'cat',
    description: 'Show a file of the workspace; every line is prefixed with its line number.',
    args: [{ name: 'file', type: 'string', description: 'repo-relative path of the file', required: true }],
    follows: 'paper §3 (cat: file contents with line numbers)',
  }),
  PASSERINE_CAP,
  async (args, ctx) => {
    const { path, content } = await readFileOrRefuse(ctx.workspace, stringArg(args, 'file', { required: true, aliases: ['path', 'filename'] }));
    const { lines } = splitText(content);
    return { ok: true, output: lines.length ? numberLines(lines, 1) : `(${path} is empty)`, data: { file: path, lines: lines.length } };
  },
);

export const codeSearch = defineTool(
  def({
    name: 'code_search',
    description: `Search the code base for terms (case-insensitive, literal). Lists at most ${SEARCH_MAX_FILES} files, best first, each with matching lines.`,
    args: [{ name: 'terms', type: 'string[]', description: 'search terms; files matching more of them rank higher', required: true }],
    follows: 'paper §3 (code_search: up to 5 file matches); ranking is ours (distinct terms matched, then occurrences)',
  }),
  PASSERINE_CAP,
  async (args, ctx) => {
    const raw = stringListArg(args, 'terms', { required: true, aliases: ['query', 'term'] }) ?? [];
    // a plain string with spaces is several terms; a list keeps phrases whole
    const given = args.terms ?? args.query ?? args.term;
    const terms = [...new Set((typeof given === 'string' ? given.split(/\s+/) : raw).map((t) => t.trim()).filter(Boolean))];
    if (terms.length === 0) throw new ToolRefusal('give at least one non-empty search term, e.g. {"terms": ["parseNumber"]}.');
    const lowered = terms.map((t) => t.toLowerCase());
    const hits: { path: string; distinct: number; occurrences: number; lines: { line: number; text: string }[] }[] = [];
    for (const file of await textFiles(ctx.workspace)) {
      const haystack = file.content.toLowerCase();
      const matched = lowered.filter((term) => haystack.includes(term));
      if (matched.length === 0) continue;
      let occurrences = 0;
      const lines: { line: number; text: string }[] = [];
      file.content.split('\n').forEach((text, i) => {
        const lower = text.toLowerCase();
        const count = matched.reduce((n, term) => n + countOccurrences(lower, term), 0);
        occurrences += count;
        if (count > 0) lines.push({ line: i + 1, text: text.trim() });
      });
      hits.push({ path: file.path, distinct: matched.length, occurrences, lines });
    }
    hits.sort((a, b) => b.distinct - a.distinct || b.occurrences - a.occurrences || (a.path < b.path ? -1 : 1));
    if (hits.length === 0) return { ok: true, output: `No files contain ${terms.map((t) => `"${t}"`).join(', ')}.`, data: { terms, files: [] } };
    const top = hits.slice(0, SEARCH_MAX_FILES);
    const output = [
      `${hits.length} file(s) match; showing ${top.length}:`,
      ...top.map((hit) => {
        const snippets = hit.lines.slice(0, SEARCH_SNIPPETS_PER_FILE).map((l) => `  ${l.line}: ${l.text}`);
        const more = hit.lines.length > SEARCH_SNIPPETS_PER_FILE ? [`  … ${hit.lines.length - SEARCH_SNIPPETS_PER_FILE} more matching line(s)`] : [];
        return [`${hit.path} (${hit.distinct}/${terms.length} terms, ${hit.occurrences} matches)`, ...snippets, ...more].join('\n');
      }),
    ].join('\n');
    return { ok: true, output, data: { terms, files: top.map((h) => h.path), totalFiles: hits.length } };
  },
);

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

export const edit = defineTool(
  def({
    name: 'edit',
    description:
      'Replace lines start..end (1-based, inclusive) of a file with the replacement text. An empty replacement deletes the lines; ' +
      'end = start - 1 inserts before line start. Shows the edited region with 3 lines of context, numbered after the edit.',
    args: [
      { name: 'file', type: 'string', description: 'repo-relative path of the file', required: true },
      { name: 'start', type: 'integer', description: 'first line to replace (1-based)', required: true },
      { name: 'end', type: 'integer', description: 'last line to replace (inclusive); start - 1 to insert without replacing', required: true },
      { name: 'replacement', type: 'string', description: 'new text for those lines (may span several lines)', required: true },
    ],
    follows: 'paper §3 (edit: region ±3 lines, new numbering)',
  }),
  PASSERINE_CAP,
  async (args, ctx) => {
    const { path, content } = await fileToEdit(ctx, stringArg(args, 'file', { required: true, aliases: ['path', 'filename'] }));
    const start = intArg(args, 'start', { required: true, aliases: ['start_line', 'startline'] });
    const end = intArg(args, 'end', { required: true, aliases: ['end_line', 'endline'] });
    const replacement = stringArg(args, 'replacement', { required: true, aliases: ['text', 'content', 'new_text'] });
    const text = splitText(content);
    const count = text.lines.length;
    if (start < 1 || start > count + 1) throw new ToolRefusal(`start line ${start} is outside ${path}, which has ${count} lines (use 1–${count + 1}).`);
    if (end < start - 1) throw new ToolRefusal(`end line ${end} is before start line ${start}; use end ≥ start to replace, or end = start - 1 to insert.`);
    if (end > count) throw new ToolRefusal(`end line ${end} is past the end of ${path}, which has ${count} lines.`);
    const newLines = replacement === '' ? [] : replacement.replace(/\r?\n$/, '').split(/\r?\n/);
    text.lines.splice(start - 1, end - start + 1, ...newLines);
    if (count === 0) text.trailingNewline = true;
    const refused = await testEditRefusal(ctx, { [path]: joinText(text) });
    if (refused) throw new ToolRefusal(refused);
    await ctx.workspace.write(path, joinText(text));
    const from = Math.max(1, start - EDIT_CONTEXT_LINES);
    const to = Math.min(text.lines.length, start + newLines.length - 1 + EDIT_CONTEXT_LINES);
    const region = to >= from ? numberLines(text.lines.slice(from - 1, to), from) : '(the file is now empty)';
    const summary = `Edited ${path}: lines ${start}–${end} (${end - start + 1} line(s)) replaced by ${newLines.length} line(s).`;
    return { ok: true, output: `${summary}\n${region}`, data: { file: path, start, end, insertedLines: newLines.length } };
  },
);

/**
 * The file edit changes. A test file that does not exist yet starts empty when the strategy lets the agent add tests
 * (testEdits 'add': a reproduction test, written with start 1, end 0); any other missing file is refused.
 */
async function fileToEdit(ctx: ToolContext, rawPath: string): Promise<{ path: string; content: string }> {
  const path = normalizePath(rawPath);
  if (ctx.testEdits === 'add' && isTestFile(ctx.bug.layout, path) && path.endsWith('.java') && !(await ctx.workspace.exists(path)) && !(await ctx.workspace.isDirectory(path))) {
    return { path, content: '' };
  }
  return readFileOrRefuse(ctx.workspace, rawPath);
}

export const test = defineTool(
  def({
    name: 'test',
    description: "Build the project and run tests: the bug's failing tests first, then the rest of the suite; prints the parsed report.",
    args: [{ name: 'tests', type: 'string[]', description: 'optional test ids (pkg.Class::method) to run instead', required: false }],
    follows: 'paper §3 (test: build + run a target, parsed report); targets are test ids here',
  }),
  PASSERINE_CAP,
  async (args, ctx) => {
    const listed = stringListArg(args, 'tests', { aliases: ['target', 'targets'] });
    if (listed) {
      const bad = listed.filter((t) => !TestId.safeParse(t).success);
      if (bad.length) throw new ToolRefusal(`test ids look like pkg.Class::method; not understood: ${bad.join(', ')}. Omit 'tests' to run the failing tests and the suite.`);
    }
    const selection = listed?.length ? { mode: 'listed' as const, tests: listed } : failingFirst(ctx);
    const validation = await ctx.validator.validate(ctx.workspace, selection, { signal: ctx.signal });
    return { ok: true, output: formatValidation(validation), validation };
  },
);

export const finish = defineTool(
  def({
    name: 'finish',
    description: 'End the session, stating whether the bug is fixed: "success" or "failure".',
    args: [{ name: 'status', type: 'string', description: '"success" or "failure"', required: true }],
    follows: 'paper §3 (finish success|failure)',
  }),
  PASSERINE_CAP,
  async (args) => {
    const status = stringArg(args, 'status', { required: true, aliases: ['result', 'outcome'] }).trim().toLowerCase();
    if (status !== 'success' && status !== 'failure') throw new ToolRefusal(`status must be "success" or "failure", got "${status}".`);
    return { ok: true, output: `Finished: ${status}.`, finished: { success: status === 'success', reason: status } };
  },
);

export const passerineTools: Tool[] = [cat, codeSearch, edit, test, finish];
