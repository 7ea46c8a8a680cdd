// RepairAgent's 14 tools (Bouzenia, Devanbu, Pradel — ICSE 2025) under the paper's names, with the released code's
// names (sola-st/RepairAgent) as aliases. Outputs are cut at settings.outputCap (default 4,000 characters, as in the code).
import type { Tool, ToolContext, ToolDefinition } from '../../contracts/tools.ts';
import { estimateTokens } from '../../llm/usage-estimate.ts';
import { requireJava } from '../../java/loader.ts';
import {
  ToolRefusal, defineTool, failingFirst, formatValidation, intArg, normalizePath, numberLines, readFileOrRefuse,
  splitText, stringArg, stringListArg, type CapPolicy,
} from '../common.ts';
import { isJava, textFiles } from '../corpus.ts';
import { ochiai } from '../../runner-client/ochiai.ts';
import { perfectFaultLocalization } from './fault-localization.ts';
import { searchCodeBase, type SearchMode } from './search.ts';
import { runWriteFix } from './write-fix.ts';

const REPAIRAGENT_CAP: CapPolicy = { maxChars: 4_000, mode: 'head' };
/** Paper §III-D: generate_method_body gets at most 12k tokens of context and may answer with up to 4k tokens. */
const GENERATE_CONTEXT_TOKENS = 12_000;
const GENERATE_OUTPUT_TOKENS = 4_000;
const OCHIAI_TOP = 20;

const def = (d: Omit<ToolDefinition, 'toolkit'>): ToolDefinition => ({ toolkit: 'repairagent', ...d });
const FILE_ALIASES = ['filepath', 'file_path', 'file', 'path', 'filename', 'file_name'];

export const readRange = defineTool(
  def({
    name: 'read_range',
    description: 'Read lines startline..endline (1-based, inclusive) of a file. Each line is printed as "Line N:<code>"; "EOF" marks the end of the file.',
    args: [
      { name: 'filepath', type: 'string', description: 'repo-relative path of the file', required: true },
      { name: 'startline', type: 'integer', description: 'first line to read', required: true },
      { name: 'endline', type: 'integer', description: 'last line to read (inclusive)', required: true },
    ],
    follows: 'paper §III-D and released code (Line N: format, EOF past the end)',
  }),
  REPAIRAGENT_CAP,
  async (args, ctx) => {
    const { path, content } = await readFileOrRefuse(ctx.workspace, stringArg(args, 'filepath', { required: true, aliases: FILE_ALIASES }));
    const start = intArg(args, 'startline', { required: true, aliases: ['start_line', 'start'] });
    const end = intArg(args, 'endline', { required: true, aliases: ['end_line', 'end'] });
    const lines = splitText(content).lines;
    if (start < 1) throw new ToolRefusal(`startline must be at least 1 (got ${start}).`);
    if (end < start) throw new ToolRefusal(`endline ${end} is before startline ${start}.`);
    if (start > lines.length) throw new ToolRefusal(`startline ${start} is past the end of ${path}, which has ${lines.length} lines.`);
    const shown = lines.slice(start - 1, end);
    const eof = end >= lines.length ? '\nEOF' : '';
    return { ok: true, output: numberLines(shown, start, 'repairagent') + eof, data: { file: path, start, end: Math.min(end, lines.length) } };
  },
);

export const getClassesAndMethods = defineTool(
  def({
    name: 'get_classes_and_methods',
    description: 'List the classes of a Java file and the methods of each (with their line ranges).',
    args: [{ name: 'file_path', type: 'string', description: 'repo-relative path of a .java file', required: true }],
    follows: 'paper §III-D and released code (class → method names; line ranges added)',
  }),
  REPAIRAGENT_CAP,
  async (args, ctx) => {
    const { path, content } = await readFileOrRefuse(ctx.workspace, stringArg(args, 'file_path', { required: true, aliases: FILE_ALIASES }));
    if (!isJava(path)) throw new ToolRefusal(`${path} is not a Java file; this tool lists classes and methods of .java files.`);
    const types = requireJava().types(content);
    if (types.length === 0) return { ok: true, output: `${path} declares no classes.`, data: { file: path, types: [] } };
    const output = types
      .map((t) => [`${t.kind} ${t.name} (lines ${t.start}-${t.end})`, ...t.methods.map((m) => `  ${m.name} (lines ${m.start}-${m.end}): ${m.signature}`)].join('\n'))
      .join('\n');
    return { ok: true, output, data: { file: path, types: types.map((t) => ({ name: t.name, methods: t.methods.map((m) => m.name) })) } };
  },
);

export const extractMethod = defineTool(
  def({
    name: 'extract_method',
    aliases: ['extract_method_code'],
    description: 'Show the code of every method with the given name in a file (all overloads), each as an "Implementation candidate".',
    args: [
      { name: 'filepath', type: 'string', description: 'repo-relative path of a .java file', required: true },
      { name: 'method_name', type: 'string', description: 'simple name of the method (or the class name for constructors)', required: true },
    ],
    follows: 'paper §III-D and released code (Implementation candidate i)',
  }),
  REPAIRAGENT_CAP,
  async (args, ctx) => {
    const { path, content } = await readFileOrRefuse(ctx.workspace, stringArg(args, 'filepath', { required: true, aliases: FILE_ALIASES }));
    const raw = stringArg(args, 'method_name', { required: true, aliases: ['method', 'name'] }).trim();
    const name = raw.replace(/\(.*$/, '').split('.').pop() ?? raw; // "Foo.bar(int)" → "bar"
    const java = requireJava();
    const found = java.methodsByName(content, name);
    if (found.length === 0) {
      const names = [...new Set(java.methods(content).map((m) => m.name))];
      throw new ToolRefusal(`no method named '${name}' in ${path}. Its methods are: ${names.join(', ') || '(none)'}.`);
    }
    const output = found
      .map((m, i) => `Implementation candidate ${i} (class ${m.className}, lines ${m.start}-${m.end}): ${m.signature}\n${numberLines(m.text.split('\n'), m.start, 'repairagent')}`)
      .join('\n\n');
    return { ok: true, output, data: { file: path, method: name, candidates: found.map((m) => ({ start: m.start, end: m.end })) } };
  },
);

/** Test source roots + package path of a test id's class: org.demo.RangeTest → src/test/java/org/demo/RangeTest.java */
function testFileCandidates(ctx: ToolContext, testId: string): string[] {
  const className = testId.split('::')[0]!.split('$')[0]!;
  return ctx.bug.layout.testDirs.map((dir) => `${dir.replace(/\/$/, '')}/${className.replace(/\./g, '/')}.java`);
}

export const extractTests = defineTool(
  def({
    name: 'extract_tests',
    aliases: ['extract_test_code'],
    description: "Show the code of the bug's failing test method(s) declared in a test file.",
    args: [{ name: 'test_file_path', type: 'string', description: 'repo-relative path of the test file', required: true }],
    follows: 'paper §III-D and released code (source of the failing test methods)',
  }),
  REPAIRAGENT_CAP,
  async (args, ctx) => {
    const { path, content } = await readFileOrRefuse(ctx.workspace, stringArg(args, 'test_file_path', { required: true, aliases: FILE_ALIASES }));
    const failing = ctx.bug.failingTests;
    const inFile = failing.filter((t) => testFileCandidates(ctx, t).includes(path));
    if (inFile.length === 0) {
      const files = [...new Set(failing.flatMap((t) => testFileCandidates(ctx, t).slice(0, 1)))];
      throw new ToolRefusal(`${path} holds none of the failing tests (${failing.join(', ')}). Their files: ${files.join(', ')}.`);
    }
    const java = requireJava();
    const parts = inFile.map((testId) => {
      const method = java.testMethod(content, testId);
      if (!method) return `${testId}: not declared in ${path} (it may be inherited from a superclass).`;
      return `${testId} (lines ${method.start}-${method.end}):\n${numberLines(method.text.split('\n'), method.start, 'repairagent')}`;
    });
    return { ok: true, output: parts.join('\n\n'), data: { file: path, tests: inFile } };
  },
);

export const searchCodeBaseTool = defineTool(
  def({
    name: 'search_code_base',
    description:
      'Search all Java files for keywords. Returns file → class → method → matched keywords, and the files whose names match. ' +
      'Use identifiers or code fragments as keywords.',
    args: [{ name: 'key_words', type: 'string[]', description: 'keywords to look for', required: true }],
    follows: "settings.searchMode: 'code' (default; released code: keyword pieces matched against method names) or 'paper' (§III-D: camelCase/_/. subtokens matched against method code)",
  }),
  REPAIRAGENT_CAP,
  async (args, ctx) => {
    const keywords = (stringListArg(args, 'key_words', { required: true, aliases: ['keywords', 'keyword', 'query', 'terms'] }) ?? []).filter((k) => k.trim());
    if (keywords.length === 0) throw new ToolRefusal('give at least one keyword, e.g. {"key_words": ["parseNumber"]}.');
    const mode: SearchMode = ctx.settings.searchMode === 'paper' ? 'paper' : 'code';
    const { matches, matchingFiles } = searchCodeBase(requireJava(), await textFiles(ctx.workspace, isJava), keywords, mode);
    const lines: string[] = [];
    const fileCount = Object.keys(matches).length;
    if (fileCount === 0) lines.push(`No methods match ${keywords.map((k) => `"${k}"`).join(', ')}.`);
    for (const [file, classes] of Object.entries(matches)) {
      lines.push(file);
      for (const [cls, methods] of Object.entries(classes)) {
        lines.push(`  ${cls}`);
        for (const [method, hit] of Object.entries(methods)) lines.push(`    ${method}: ${hit.join(', ')}`);
      }
    }
    lines.push(matchingFiles.length ? `Files whose names match: ${matchingFiles.join(', ')}` : 'No file names match.');
    return { ok: true, output: lines.join('\n'), data: { keywords, mode, matches, matchingFiles } };
  },
);

/** Method names called in a snippet: `foo(`, `a.bar(`, `new Baz(` — keywords excluded. */
function calledNames(snippet: string): string[] {
  const keywords = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'synchronized', 'try', 'do', 'else', 'throw', 'assert', 'super', 'this']);
  const names = [...snippet.matchAll(/([A-Za-z_$][\w$]*)\s*(?:<[^<>()]*>)?\s*\(/g)].map((m) => m[1]!).filter((n) => !keywords.has(n));
  return [...new Set(names)];
}

export const findSimilarApiCalls = defineTool(
  def({
    name: 'find_similar_api_calls',
    aliases: ['extract_similar_functions_calls'],
    description: 'Given a code snippet that calls a method, list other calls to methods of the same name, in one file (file_path) or in the whole code base.',
    args: [
      { name: 'code_snippet', type: 'string', description: 'code containing the call, e.g. "range.contains(x)"', required: true },
      { name: 'file_path', type: 'string', description: 'limit the search to this file (omit to search the whole code base)', required: false },
    ],
    follows: 'paper §III-D (code base) and released code (one file)',
  }),
  REPAIRAGENT_CAP,
  async (args, ctx) => {
    const snippet = stringArg(args, 'code_snippet', { required: true, aliases: ['snippet', 'code', 'call'] });
    const names = calledNames(snippet);
    if (names.length === 0) throw new ToolRefusal(`no method call found in the snippet "${snippet.slice(0, 80)}"; include the call with its parentheses, e.g. "list.add(x)".`);
    const filePath = stringArg(args, 'file_path', { aliases: FILE_ALIASES });
    const files = filePath ? [await readFileOrRefuse(ctx.workspace, filePath)].map((f) => ({ path: f.path, content: f.content })) : await textFiles(ctx.workspace, isJava);
    const java = requireJava();
    const lines: string[] = [];
    let total = 0;
    for (const name of names) {
      const sites = files.filter((f) => f.content.includes(name)).flatMap((f) => java.callSites(f.content, name).map((s) => ({ ...s, file: f.path })));
      total += sites.length;
      lines.push(`Calls to ${name} (${sites.length}):`);
      for (const s of sites) lines.push(`  ${s.file}:${s.line}:${s.column}${s.method ? ` in ${s.className}.${s.method}` : ''}: ${s.lineText}`);
    }
    return { ok: true, output: lines.join('\n'), data: { names, scope: filePath ? normalizePath(filePath) : 'codebase', calls: total } };
  },
);

export const generateMethodBody = defineTool(
  def({
    name: 'generate_method_body',
    aliases: ['AI_generates_method_code'],
    description: 'Ask a second language model to write the body of a method from the code that precedes it in the file.',
    args: [
      { name: 'filepath', type: 'string', description: 'repo-relative path of the .java file', required: true },
      { name: 'method_name', type: 'string', description: 'name of the method to (re)generate', required: true },
    ],
    follows: 'paper §III-D (context ≤12k tokens, output ≤4k tokens); the model is the run’s auxiliary model',
  }),
  REPAIRAGENT_CAP,
  async (args, ctx) => {
    const { path, content } = await readFileOrRefuse(ctx.workspace, stringArg(args, 'filepath', { required: true, aliases: FILE_ALIASES }));
    const name = stringArg(args, 'method_name', { required: true, aliases: ['method', 'name'] }).trim().replace(/\(.*$/, '');
    if (!ctx.auxiliaryLlm) throw new ToolRefusal('no auxiliary model is configured for this run, so methods cannot be generated; read or extract the method instead.');
    const method = requireJava().methodsByName(content, name)[0];
    if (!method) throw new ToolRefusal(`no method named '${name}' in ${path}.`);
    const lines = content.split('\n');
    // the file up to and including the signature, trimmed from the front to the token budget
    const signatureEnd = method.start - 1 + method.text.split('\n').findIndex((l) => l.includes('{')) + 1;
    let context = lines.slice(0, Math.max(signatureEnd, method.start)).join('\n');
    const maxChars = GENERATE_CONTEXT_TOKENS * 4;
    if (estimateTokens(context) > GENERATE_CONTEXT_TOKENS) context = context.slice(context.length - maxChars);
    const reply = await ctx.auxiliaryLlm.complete({
      messages: [
        { role: 'system', content: 'You complete Java code. Answer with the complete method (signature and body) only, in a ```java block.' },
        { role: 'user', content: `Complete the method \`${method.signature}\` of class ${method.className} in this file (${path}):\n\n${context}` },
      ],
      maxTokens: GENERATE_OUTPUT_TOKENS,
      purpose: 'generate_method_body',
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    const code = /```(?:java)?\s*([\s\S]*?)```/.exec(reply.content)?.[1]?.trimEnd() ?? reply.content.trim();
    return { ok: true, output: `Generated implementation of ${method.className}.${name}:\n${code}`, data: { file: path, method: name, model: reply.model, usage: reply.usage } };
  },
);

export const runTests = defineTool(
  def({
    name: 'run_tests',
    description: "Compile the project and run the bug's failing tests first, then the rest of the suite; shows a cleaned report.",
    args: [],
    follows: 'paper §III-D and released code (cleaned test report)',
  }),
  REPAIRAGENT_CAP,
  async (_args, ctx) => {
    const validation = await ctx.validator.validate(ctx.workspace, failingFirst(ctx), { signal: ctx.signal });
    return { ok: true, output: formatValidation(validation, { maxFrames: 5 }), validation };
  },
);

export const runFaultLocalization = defineTool(
  def({
    name: 'run_fault_localization',
    description: 'Locate the likely buggy lines. Prints file#line#code for each, with #FAULT_OF_OMISSION where code is missing.',
    args: [],
    follows: "settings.faultLocalization: 'perfect' (default, paper and code) or 'ochiai' (spectrum-based from runner coverage, the paper's realistic-FL ablation)",
  }),
  REPAIRAGENT_CAP,
  async (_args, ctx) => {
    if (ctx.settings.faultLocalization !== 'ochiai') {
      const fl = await perfectFaultLocalization(ctx);
      return { ok: true, output: fl.text, data: { kind: 'perfect', lines: fl.lines } };
    }
    const validation = await ctx.validator.validate(ctx.workspace, { mode: 'all' }, { coverage: true, signal: ctx.signal });
    if (!validation.compiled) return { ok: false, output: `Fault localization needs a compiling project:\n${formatValidation(validation)}`, validation };
    if (!validation.coverage?.length) throw new ToolRefusal('the runner returned no coverage, so Ochiai cannot rank lines; switch faultLocalization to perfect.');
    const sourceDirs = ctx.bug.layout.sourceDirs.map((d) => d.replace(/\/?$/, '/'));
    // program lines only (tests cover themselves), and only lines some failing test executed
    const ranked = ochiai(validation.coverage)
      .filter((r) => r.score > 0 && sourceDirs.some((d) => r.file.startsWith(d)))
      .slice(0, OCHIAI_TOP);
    if (ranked.length === 0) return { ok: true, output: 'No program line is covered by a failing test: Ochiai has nothing to rank.', validation, data: { kind: 'ochiai', ranked } };
    const sources = new Map<string, string[]>();
    const out = [`Fault localization (Ochiai over ${validation.coverage.length} tests; top ${ranked.length}). Format: file#line#code (score)`];
    for (const r of ranked) {
      if (!sources.has(r.file)) sources.set(r.file, splitText(await ctx.workspace.read(r.file).catch(() => '')).lines);
      out.push(`${r.file}#${r.line}#${(sources.get(r.file)![r.line - 1] ?? '').trim()} (${r.score.toFixed(3)})`);
    }
    return { ok: true, output: out.join('\n'), validation, data: { kind: 'ochiai', ranked } };
  },
);

export const writeFix = defineTool(
  def({
    name: 'write_fix',
    description:
      'Apply a fix and run the tests. changes: list of {file_name, insertions: [{line_number, new_lines: [..]}], deletions: [line numbers], ' +
      'modifications: [{line_number, modified_line}]}. All line numbers refer to the file before this fix; an insertion goes before the given line. ' +
      'A fix that does not make every test pass is reverted.',
    args: [{ name: 'changes', type: 'object[]', description: 'the file changes (see description)', required: true }],
    follows: "settings.writeFixMode: 'code' (default; released code: deletions blank lines, dissimilar modifications skipped, FL lines required) or 'paper'",
  }),
  REPAIRAGENT_CAP,
  runWriteFix,
);

const note = (name: string, aliases: string[], description: string, argName: string | undefined, follows: string, effect: (text: string) => { output: string; data: Record<string, unknown>; finished?: { success: boolean; reason: string } }): Tool =>
  defineTool(
    def({
      name,
      aliases,
      description,
      args: argName
        ? [{ name: argName, type: 'string', description: argName === 'hypothesis' ? 'what is wrong in the code and why the tests fail' : 'why (optional)', required: name === 'express_hypothesis' }]
        : [],
      follows,
    }),
    REPAIRAGENT_CAP,
    async (args) => {
      const text = (argName ? stringArg(args, argName, { required: name === 'express_hypothesis', aliases: ['reason', 'hypothesis', 'text', 'explanation'] }) : undefined)?.trim() ?? '';
      if (name === 'express_hypothesis' && text === '') throw new ToolRefusal('state the hypothesis: what is wrong and why the tests fail.');
      return { ok: true, ...effect(text) };
    },
  );

export const expressHypothesis = note(
  'express_hypothesis', [], 'State a hypothesis about the bug: what is wrong and why. Moves to the state "collect information to fix the bug".', 'hypothesis',
  'paper §III-C (S1 → S2)',
  (text) => ({ output: `Hypothesis recorded: ${text}\nNext: collect the information needed to fix the bug.`, data: { hypothesis: text, nextState: 'collect information to fix the bug' } }),
);
export const discardHypothesis = note(
  'discard_hypothesis', [], 'Discard the current hypothesis (it was refuted). Moves back to "collect information to understand the bug".', 'reason',
  'paper §III-C (→ S1)',
  (text) => ({ output: `Hypothesis discarded${text ? `: ${text}` : ''}.\nNext: understand the bug again and express a new hypothesis.`, data: { discarded: text, nextState: 'collect information to understand the bug' } }),
);
export const collectMoreInformation = note(
  'collect_more_information', ['go_back_to_collect_more_info'], 'Go back to collecting information to fix the bug.', 'reason',
  'paper §III-C (S3 → S2); code name go_back_to_collect_more_info',
  (text) => ({ output: `Back to collecting information${text ? `: ${text}` : ''}.`, data: { reason: text, nextState: 'collect information to fix the bug' } }),
);
export const goalAccomplished = note(
  'goal_accomplished', ['goals_accomplished'], 'Declare the bug fixed and stop.', 'reason',
  'paper §III-C (→ Done); code name goals_accomplished',
  (text) => ({ output: `Goal accomplished${text ? `: ${text}` : ''}.`, data: { reason: text }, finished: { success: true, reason: text || 'goal accomplished' } }),
);

export const repairAgentTools: Tool[] = [
  readRange, getClassesAndMethods, extractMethod, extractTests, searchCodeBaseTool, findSimilarApiCalls, generateMethodBody,
  runTests, runFaultLocalization, writeFix, expressHypothesis, discardHypothesis, collectMoreInformation, goalAccomplished,
];
