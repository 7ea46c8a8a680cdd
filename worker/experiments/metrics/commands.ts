// What each step's command did, in toolkit-independent terms: the label a heatmap shows, its kinds (read, search,
// edit, test, …), the files it read (and which part) and the files it edited. Passerine's smells and the tool-use
// counts are computed over these. HAFixAgent's bash commands are split into their simple commands
// (`grep … && sed -n …` is a search and a read).
import type { TrajStep } from '../../contracts/trajectory.ts';

export type CommandKind = 'read' | 'search' | 'edit' | 'test' | 'build' | 'finish' | 'other';

/** What part of a file a read showed: the whole file, a line range, or a named piece (a method, the outline). */
export type ReadPart = { kind: 'all' } | { kind: 'lines'; start: number; end: number } | { kind: 'named'; name: string };

export interface FileRead {
  file: string;
  part: ReadPart;
}

export interface StepCommand {
  index: number;
  /** the command as a heatmap row: tool name, or the program for bash (`sed -i`, `grep`, `test` …); `(format-error)` etc. when the reply had none */
  label: string;
  /** every program of a bash line, the tool name otherwise: what tool-use counts count */
  programs: string[];
  kinds: Set<CommandKind>;
  /** false when the reply held no command (format error, model error): such steps are not commands */
  isCommand: boolean;
  /** the tool ran (false: refused by state gating or as a repeat before running) */
  ran: boolean;
  /** the tool ran and succeeded (a refused or failed read showed nothing) */
  ok: boolean;
  reads: FileRead[];
  /** files the command meant to edit (its arguments) together with the files the step actually changed */
  edits: string[];
  /** files the step changed (overlayChange) */
  changed: string[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim().replace(/^\.\//, '') : undefined);
const int = (v: unknown): number | undefined => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
};

/** Files named in a unified diff's +++ headers (a/ b/ prefixes dropped). */
function diffFiles(diff: unknown): string[] {
  if (typeof diff !== 'string') return [];
  const files = [...diff.matchAll(/^\+\+\+ (\S+)/gm)].map((m) => m[1]!.replace(/^b\//, '')).filter((p) => p !== '/dev/null');
  return [...new Set(files)];
}

interface Classified {
  kinds: CommandKind[];
  reads?: FileRead[];
  edits?: string[];
}

/** The named tools of the RepairAgent, Passerine and one-shot toolkits (aliases included). */
function classifyTool(name: string, args: Record<string, unknown>): Classified {
  const file = str(args.file) ?? str(args.filepath) ?? str(args.file_path) ?? str(args.test_file_path);
  switch (name) {
    case 'cat':
      return { kinds: ['read'], reads: file ? [{ file, part: { kind: 'all' } }] : [] };
    case 'read_range': {
      const start = int(args.startline);
      const end = int(args.endline);
      return { kinds: ['read'], reads: file && start !== undefined && end !== undefined ? [{ file, part: { kind: 'lines', start, end } }] : [] };
    }
    case 'get_classes_and_methods':
      return { kinds: ['read'], reads: file ? [{ file, part: { kind: 'named', name: '(outline)' } }] : [] };
    case 'extract_method':
    case 'extract_method_code':
      return { kinds: ['read'], reads: file ? [{ file, part: { kind: 'named', name: `method ${String(args.method_name)}` } }] : [] };
    case 'extract_tests':
    case 'extract_test_code':
      return { kinds: ['read'], reads: file ? [{ file, part: { kind: 'named', name: '(tests)' } }] : [] };
    case 'code_search':
    case 'search_code_base':
    case 'find_similar_api_calls':
    case 'extract_similar_functions_calls':
      return { kinds: ['search'] };
    case 'edit':
      return { kinds: ['edit'], edits: file ? [file] : [] };
    case 'write_fix': {
      // write_fix applies the change and runs the tests in one call
      const changes = (args.changes ?? (args.file_name ? [args] : [])) as unknown;
      const files = Array.isArray(changes) ? changes.map((c) => str((c as Record<string, unknown>)?.file_name)).filter((f): f is string => !!f) : [];
      return { kinds: ['edit', 'test'], edits: files };
    }
    case 'apply_patch':
      return { kinds: ['edit', 'test'], edits: diffFiles(args.diff) };
    case 'test':
    case 'run_tests':
      return { kinds: ['test'] };
    case 'finish':
    case 'goal_accomplished':
    case 'goals_accomplished':
      return { kinds: ['finish'] };
    default:
      return { kinds: ['other'] };
  }
}

// ---- bash (HAFixAgent) ----

/** Splits a command line into simple commands at `&&`, `||`, `;`, `|` and newlines outside quotes; each as words. */
export function splitBash(line: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  const endWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length) commands.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (c === '&' && line[i + 1] === '&') {
      endCommand();
      i++;
    } else if (c === '|' || c === ';' || c === '\n') {
      endCommand();
      if (c === '|' && line[i + 1] === '|') i++;
    } else if (c === '>' || c === '<') {
      // a redirection is its own word: `>`, `>>`, `2>`, then the target
      const fd = inWord && /^\d+$/.test(word) ? word : '';
      if (fd) [word, inWord] = ['', false];
      endWord();
      let op = fd + c;
      if (line[i + 1] === '>') op += line[++i];
      words.push(op);
    } else if (/\s/.test(c)) endWord();
    else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

const TEST_ID = /^[\w$.]+(::[\w$]+)?$/;
const READ_PROGRAMS = new Set(['cat', 'head', 'tail', 'nl', 'less', 'more']);
const SEARCH_PROGRAMS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'find', 'ack']);
const SCRATCH = /^(\/tmp\/|\/dev\/)/;

interface BashCommand extends Classified {
  program: string;
}

function classifyBashCommand(raw: string[]): BashCommand | undefined {
  const words = [...raw];
  while (words.length && /^[A-Za-z_]\w*=/.test(words[0]!)) words.shift(); // VAR=value prefixes
  const program = words[0];
  if (!program) return undefined;
  // output redirections write files: `> f`, `>> f`, `2> f`
  const args: string[] = [];
  const written: string[] = [];
  for (let i = 1; i < words.length; i++) {
    if (/^\d*>>?$/.test(words[i]!) || words[i] === '<') {
      const target = words[++i];
      if (words[i - 1] !== '<' && target && !SCRATCH.test(target) && !target.startsWith('&')) written.push(target);
    } else args.push(words[i]!);
  }
  const files = (list: string[]) => list.filter((a) => !a.startsWith('-'));
  const withEdits = (c: BashCommand): BashCommand => (written.length ? { ...c, kinds: [...new Set([...c.kinds, 'edit' as const])], edits: [...(c.edits ?? []), ...written] } : c);
  if (program === 'sed') {
    const inPlace = args.some((a) => /^-[A-Za-z]*i/.test(a) || a.startsWith('--in-place'));
    const positional = files(args);
    // sed's first positional argument is the script unless -e/-f gave it
    const script = args.some((a) => a === '-e' || a === '-f') ? undefined : positional.shift();
    const targets = positional.map((p) => p.replace(/^\.\//, ''));
    if (inPlace) return withEdits({ program: 'sed -i', kinds: ['edit'], edits: targets });
    const range = script ? /^(\d+)(?:,(\d+))?p$/.exec(script) : null;
    const part: ReadPart = range ? { kind: 'lines', start: Number(range[1]), end: Number(range[2] ?? range[1]) } : { kind: 'all' };
    return withEdits({ program: args.includes('-n') ? 'sed -n' : 'sed', kinds: ['read'], reads: targets.map((file) => ({ file, part })) });
  }
  if (READ_PROGRAMS.has(program)) {
    const targets = files(args).filter((a) => !/^\d+$/.test(a));
    // head/tail show a part of the file; only cat/nl/less/more show it whole
    const part: ReadPart = program === 'head' || program === 'tail' ? { kind: 'named', name: `${program} ${args.join(' ')}` } : { kind: 'all' };
    return withEdits({ program, kinds: ['read'], reads: targets.map((t) => ({ file: t.replace(/^\.\//, ''), part })) });
  }
  if (SEARCH_PROGRAMS.has(program)) return withEdits({ program, kinds: ['search'] });
  if (program === 'compile') return withEdits({ program, kinds: ['build'] });
  if (program === 'test' && args.every((a) => a === '-r' || TEST_ID.test(a))) return withEdits({ program, kinds: ['test'] });
  if (program === 'defects4j') {
    const sub = args[0] ?? '';
    const kinds: CommandKind[] = sub === 'test' ? ['test'] : sub === 'compile' ? ['build'] : ['other'];
    return withEdits({ program: `defects4j ${sub}`.trim(), kinds });
  }
  if (program === 'echo' && /^COMPLETE_/.test(args[0] ?? '')) return { program, kinds: ['finish'] };
  if (program === 'tee') return { program, kinds: ['edit'], edits: files(args).filter((f) => !SCRATCH.test(f)) };
  return withEdits({ program, kinds: ['other'] });
}

/** A command that changed files edited them, whatever it was (`mv`, `cp`, a script …). */
function withChangeKind(kinds: CommandKind[], changed: string[]): Set<CommandKind> {
  const set = new Set(kinds);
  if (changed.length) set.add('edit');
  return set;
}

/** The step's command in toolkit-independent terms. */
export function stepCommand(step: TrajStep): StepCommand {
  const name = step.tool?.name ?? step.parsed?.command?.name;
  const args = step.tool?.args ?? step.parsed?.command?.args ?? {};
  const changed = step.overlayChange?.files ?? [];
  const ok = step.tool?.ok ?? false;
  if (!name) {
    return { index: step.index, label: `(${step.status})`, programs: [], kinds: new Set(), isCommand: false, ran: false, ok: false, reads: [], edits: [], changed };
  }
  if (name === 'bash') {
    const parts = splitBash(typeof args.command === 'string' ? args.command : '')
      .map(classifyBashCommand)
      .filter((c): c is BashCommand => !!c);
    const label = parts.find((p) => p.program !== 'cd')?.program ?? parts[0]?.program ?? 'bash';
    return {
      index: step.index,
      label,
      programs: parts.map((p) => p.program),
      kinds: withChangeKind(parts.flatMap((p) => p.kinds), changed),
      isCommand: true,
      ran: !!step.tool,
      ok,
      reads: parts.flatMap((p) => p.reads ?? []),
      edits: [...new Set([...parts.flatMap((p) => p.edits ?? []), ...changed])],
      changed,
    };
  }
  const c = classifyTool(name, args);
  return { index: step.index, label: name, programs: [name], kinds: withChangeKind(c.kinds, changed), isCommand: true, ran: !!step.tool, ok, reads: c.reads ?? [], edits: [...new Set([...(c.edits ?? []), ...changed])], changed };
}
