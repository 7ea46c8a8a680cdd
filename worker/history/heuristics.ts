// HAFixAgent's three history heuristics, built from the blame commit found by extractor.ts:
//   fn_all  — names of every function/class/interface/enum in the non-test program files the commit changed;
//   fn_pair — the enclosing function before (<blame>~1) and after (<blame>) the commit, Javadoc included;
//   fl_diff — the commit's diff of the blamed file.
// Caps follow the released code and are settings. Each section starts with a header naming the
// commit, its date and its message. Java parsing is worker/java (tree-sitter).
import type { BugSpec } from '../contracts/bug.ts';
import { requireJava, type MethodSource } from '../java/index.ts';
import type { RepoSession } from '../repo/session.ts';
import { formatFileDiff } from '../diff/unified-diff-format.ts';
import { extractHistory, type BlamedTarget, type BlameCommit, type ExtractorOptions, type HistoryExtraction } from './extractor.ts';

export const HISTORY_HEURISTICS = ['fn_all', 'fn_pair', 'fl_diff'] as const;
export type HistoryHeuristic = (typeof HISTORY_HEURISTICS)[number];

export interface HeuristicSettings {
  /** fn_all: changed program files considered (buggy files first when over the cap) */
  maxFiles: number;
  /** fn_all: names listed */
  maxNames: number;
  /** fn_pair: characters of each function version */
  maxFunctionChars: number;
  /** fl_diff: characters of the diff */
  maxDiffChars: number;
}

/** The released HAFixAgent code's caps. */
export const DEFAULT_HEURISTIC_SETTINGS: HeuristicSettings = { maxFiles: 50, maxNames: 600, maxFunctionChars: 1500, maxDiffChars: 3000 };

const decoder = new TextDecoder();

// The released code's test-file test: any of these in the file name or its directory.
const TEST_MARKERS = ['test_', '_test', 'Test', 'Spec', 'spec_', '/test/', '/tests/'];

/** A non-test Java source file (HAFix "program file"); test source roots of the bug's layout count as tests too. */
export function isProgramFile(path: string, testDirs: string[] = []): boolean {
  if (!path.endsWith('.java')) return false;
  if (testDirs.some((d) => path.startsWith(`${d.replace(/\/+$/, '')}/`))) return false;
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const dir = slash < 0 ? '' : path.slice(0, slash);
  return !TEST_MARKERS.some((m) => name.includes(m) || dir.includes(m));
}

/** Files whose blob differs between the commit and its first parent (all files for a root commit), in path order. */
export async function changedFiles(session: RepoSession, commit: string): Promise<string[]> {
  const info = await session.readCommit(commit);
  const after = new Map((await session.listTreeFiles(info.tree)).map((f) => [f.path, f.oid]));
  const parent = info.parents[0];
  const before = parent ? new Map((await session.listTree(parent)).map((f) => [f.path, f.oid])) : new Map<string, string>();
  const paths = new Set<string>();
  for (const [p, oid] of after) if (before.get(p) !== oid) paths.add(p);
  for (const p of before.keys()) if (!after.has(p)) paths.add(p);
  return [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The section header naming the commit; `line` overrides the primary blamed line (fn_pair may describe another). */
export function historyHeader(extraction: HistoryExtraction, line: (BlamedTarget & { commit: BlameCommit }) | undefined = extraction.primary): string {
  const p = line;
  if (!p) return '';
  return [
    '## History: the commit that last changed the buggy code (git blame)',
    `Commit: ${p.commit.oid}`,
    `Commit date: ${p.commit.date}`,
    `Commit message: ${p.commit.summary}`,
    `Blamed line: ${p.target.file}:${p.target.line} (line ${p.blame.origLine} of ${p.blame.path} in that commit)`,
    '',
  ].join('\n');
}

/** fn_all: declared names in the commit's changed program files (buggy files first when capped), deduplicated. */
export async function fnAllNames(session: RepoSession, bug: BugSpec, extraction: HistoryExtraction, settings = DEFAULT_HEURISTIC_SETTINGS): Promise<string[]> {
  const p = extraction.primary;
  if (!p) return [];
  const commit = p.commit.oid;
  const program: string[] = [];
  for (const path of await changedFiles(session, commit)) {
    if (!isProgramFile(path, bug.layout.testDirs)) continue;
    const bytes = await session.readFileAt(commit, path);
    if (!bytes || bytes.subarray(0, 8000).includes(0)) continue; // deleted in the commit, or binary
    program.push(path);
  }
  let files = program;
  if (program.length > settings.maxFiles) {
    // The blamed file is known by its path in the blame commit; other buggy files by their buggy path.
    const buggy = new Set(bug.faultLocalization.map((f) => (f.file === p.target.file ? p.blame.path : f.file)));
    const first = program.filter((f) => buggy.has(f));
    files = [...first, ...program.filter((f) => !buggy.has(f))].slice(0, settings.maxFiles);
  }
  const java = requireJava();
  const names: string[] = [];
  const seen = new Set<string>();
  for (const path of files) {
    const source = decoder.decode((await session.readFileAt(commit, path))!);
    for (const d of java.declarations(source)) {
      if (!seen.has(d.name)) {
        seen.add(d.name);
        names.push(d.name);
      }
    }
  }
  return names.slice(0, settings.maxNames);
}

export interface FunctionPair {
  name: string;
  className?: string;
  /** '' when the function did not exist before the commit (or the file did not) */
  before: string;
  /** false when the blamed file did not exist before the commit (the commit added it) */
  fileExistedBefore: boolean;
  after: string;
  /** the blamed line whose function this is: the primary one, or (when that sits in no function) the next that does */
  line: BlamedTarget & { commit: BlameCommit };
}

/**
 * The blamed lines fn_pair may describe, best first: the primary line, the other lines blamed to the primary commit,
 * then the lines blamed to other commits (in the order met). An import or a field has no enclosing function, so
 * fn_pair moves on to the next line that sits in one.
 */
function fnPairCandidates(extraction: HistoryExtraction): (BlamedTarget & { commit: BlameCommit })[] {
  const p = extraction.primary;
  if (!p) return [];
  const withCommit = (b: BlamedTarget) => ({ ...b, commit: extraction.commits.find((c) => c.oid === b.blame.commit)! });
  const rest = extraction.blamed.filter((b) => b.target !== p.target);
  return [p, ...rest.filter((b) => b.blame.commit === p.commit.oid).map(withCommit), ...rest.filter((b) => b.blame.commit !== p.commit.oid).map(withCommit)];
}

/** fn_pair: the enclosing function (by the FL method name, else the method around the buggy line) before and after the blame commit. */
export async function fnPair(session: RepoSession, bug: BugSpec, extraction: HistoryExtraction, settings = DEFAULT_HEURISTIC_SETTINGS): Promise<FunctionPair | undefined> {
  const java = requireJava();
  const buggyFiles = new Map<string, string>();
  const buggySource = async (file: string) => {
    let text = buggyFiles.get(file);
    if (text === undefined) buggyFiles.set(file, (text = decoder.decode((await session.readFileAt(bug.buggyCommit, file)) ?? new Uint8Array())));
    return text;
  };
  let chosen: (BlamedTarget & { commit: BlameCommit }) | undefined;
  let name: string | undefined;
  let className: string | undefined;
  for (const candidate of fnPairCandidates(extraction)) {
    name = candidate.target.fault.method;
    className = candidate.target.fault.className;
    if (!name) {
      const m = java.enclosingMethod(await buggySource(candidate.target.file), candidate.target.line);
      name = m?.name;
      className = m?.className;
    }
    if (name) {
      chosen = candidate;
      break;
    }
  }
  if (!chosen || !name) return undefined; // no blamed line sits inside a function (fields, imports …)
  const p = chosen;
  const methodName = name;
  const simpleClass = className?.split('.').pop();
  const sourceAt = async (commit: string | undefined) => {
    const bytes = commit ? await session.readFileAt(commit, p.blame.path) : undefined;
    return bytes ? decoder.decode(bytes) : undefined;
  };
  const byName = (source: string) => {
    const candidates = java.methodsByName(source, methodName);
    return { candidates, first: candidates.find((m) => simpleClass !== undefined && m.className.split('.').pop() === simpleClass) ?? candidates[0] };
  };
  // After: the overload that holds the blamed line in the blame commit; before: the same signature in the
  // parent, else (new overload, renamed parameters …) the first function of that name, as the released code does.
  const afterSource = await sourceAt(p.commit.oid);
  const parent = (await session.readCommit(p.commit.oid)).parents[0];
  const beforeSource = await sourceAt(parent);
  let after: MethodSource | undefined;
  if (afterSource) {
    const { candidates, first } = byName(afterSource);
    after = candidates.find((m) => m.start <= p.blame.origLine && p.blame.origLine <= m.end) ?? first;
  }
  let before: MethodSource | undefined;
  if (beforeSource) {
    const { candidates, first } = byName(beforeSource);
    before = (after && candidates.find((m) => m.signature === after.signature)) ?? first;
  }
  const cap = (m?: MethodSource) => (m?.textWithDoc ?? '').slice(0, settings.maxFunctionChars);
  return { name: methodName, className, before: cap(before), fileExistedBefore: beforeSource !== undefined, after: cap(after), line: p };
}

/** fl_diff: the blame commit's diff (against its first parent) of the blamed file, capped. */
export async function flDiff(session: RepoSession, extraction: HistoryExtraction, settings = DEFAULT_HEURISTIC_SETTINGS): Promise<string> {
  const p = extraction.primary;
  if (!p) return '';
  const info = await session.readCommit(p.commit.oid);
  const path = p.blame.path;
  const after = await session.entryAt(info.oid, path);
  const before = info.parents[0] ? await session.entryAt(info.parents[0], path) : undefined;
  const text = async (oid?: string) => (oid ? decoder.decode(await session.readBlob(oid)) : undefined);
  const diff = formatFileDiff({
    path,
    oldText: before?.type === 'blob' ? await text(before.oid) : undefined,
    newText: after?.type === 'blob' ? await text(after.oid) : undefined,
    oldOid: before?.oid,
    newOid: after?.oid,
    oldMode: before?.mode,
    newMode: after?.mode,
  });
  return diff.trimEnd().slice(0, settings.maxDiffChars);
}

export interface HistoryContext {
  heuristic: HistoryHeuristic;
  extraction: HistoryExtraction;
  /** the prompt section ('' when the bug has nothing to blame) */
  text: string;
  /** why `text` is empty */
  emptyReason?: string;
}

/** Why a history section came out empty, for messages. */
function emptyReason(extraction: HistoryExtraction, heuristic: HistoryHeuristic): string {
  if (!extraction.candidates.length) return 'no fault-localization line to blame';
  if (!extraction.blamed.length) {
    return extraction.unblamed.length
      ? `the chosen line(s) do not exist at the original revision ${extraction.historyCommit.slice(0, 12)} (added when the buggy version was reconstructed), so they have no blame commit`
      : 'no fault-localization line has a blame commit';
  }
  if (heuristic === 'fn_pair') return 'no blamed line sits inside a function (they are imports, fields or other declarations)';
  return `the blame commit's ${heuristic === 'fl_diff' ? 'diff of the blamed file' : 'changed program files'} came out empty`;
}

/** fn_pair's "before" half: the function's earlier text, or — when it had none — that the commit added it (never an empty block). */
function fnPairBefore(pair: FunctionPair): string {
  if (pair.before) return `The enclosing function ${pair.name} before this commit:\n\`\`\`java\n${pair.before}\n\`\`\`\n\nand after it:\n`;
  const added = pair.fileExistedBefore ? 'this commit added the function' : `this commit added the file ${pair.line.blame.path}`;
  return `The enclosing function ${pair.name} did not exist before this commit (${added}). After it:\n`;
}

/** The history section for one heuristic: extraction + heuristic + header. */
export async function historyContext(
  session: RepoSession,
  bug: BugSpec,
  heuristic: HistoryHeuristic,
  options: ExtractorOptions & { settings?: Partial<HeuristicSettings> } = {},
): Promise<HistoryContext> {
  if (!HISTORY_HEURISTICS.includes(heuristic)) {
    throw new Error(`Unknown history heuristic ${JSON.stringify(heuristic)}: use one of ${HISTORY_HEURISTICS.join(', ')}.`);
  }
  return renderHistoryContext(session, bug, heuristic, await extractHistory(session, bug, options), options.settings);
}

/** One heuristic's section from an extraction already made (several heuristics over one blame: no blame again). */
export async function renderHistoryContext(
  session: RepoSession,
  bug: BugSpec,
  heuristic: HistoryHeuristic,
  extraction: HistoryExtraction,
  overrides: Partial<HeuristicSettings> = {},
): Promise<HistoryContext> {
  const settings = { ...DEFAULT_HEURISTIC_SETTINGS, ...overrides };
  if (!extraction.primary) return { heuristic, extraction, text: '', emptyReason: emptyReason(extraction, heuristic) };
  let body = '';
  let header = historyHeader(extraction);
  if (heuristic === 'fn_all') {
    const names = await fnAllNames(session, bug, extraction, settings);
    body = `Functions, classes, interfaces and enums declared in the program files this commit changed:\n${names.map((n) => `- ${n}`).join('\n')}\n`;
  } else if (heuristic === 'fn_pair') {
    const pair = await fnPair(session, bug, extraction, settings);
    if (pair) {
      header = historyHeader(extraction, pair.line);
      body = `${fnPairBefore(pair)}\`\`\`java\n${pair.after}\n\`\`\`\n`;
    }
  } else {
    const diff = await flDiff(session, extraction, settings);
    if (diff) body = `This commit's change to ${extraction.primary.blame.path}:\n\`\`\`diff\n${diff}\n\`\`\`\n`;
  }
  return body ? { heuristic, extraction, text: `${header}${body}` } : { heuristic, extraction, text: '', emptyReason: emptyReason(extraction, heuristic) };
}
