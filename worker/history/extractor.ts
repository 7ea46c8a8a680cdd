// HAFixAgent's history extractor: blame the fault-localization lines at the buggy commit and find
// the bug-introducing ("blame") commit that the history heuristics (heuristics.ts) describe. When the buggy
// commit is a reconstruction (BugSpec.historyCommit), blame starts at the original revision instead, each
// line mapped onto it (history-base.ts), so the reconstruction's own diff is never history.
//
// Two behaviours, both offered (docs/history.md):
// - paper: blame every modified/deleted FL line; the result is the union of unique blame commits
//   (the paper asked an LLM judge to pick one when there were several; `judge` does that here);
// - code (released HAFixAgent): choose ONE line — first | random (seeded) | llm_judge — and blame it.
// Blameless bugs (insert-only fixes) fall back to the nearest substantive line within 5 lines above
// the insertion, else a structural line ({, }, ;, else {), skipping comments and blanks.
import { classifyFix, type Classification } from '../diff/fix-classification.ts';
import type { BugSpec, FaultLocation } from '../contracts/bug.ts';
import { requireJava, type LineKind } from '../java/index.ts';
import type { CommitInfo, RepoSession } from '../repo/session.ts';
import { formatFileDiff } from '../diff/unified-diff-format.ts';
import { blame, type BlameLine } from './blame.ts';
import { HistoryBase } from './history-base.ts';

export type LineSelector = 'first' | 'random' | 'llm_judge';

export interface BlameTarget {
  file: string;
  /** 1-based line in the buggy version */
  line: number;
  text: string;
  /** fault-localization line, or the blameless fallback's substitute for an insertion point */
  source: 'fault-localization' | 'blameless-fallback';
  fault: FaultLocation;
}

export interface BlameCommit {
  oid: string;
  /** author date, 'YYYY-MM-DD HH:MM:SS' in UTC */
  date: string;
  timestamp: number;
  author: string;
  /** first line of the message */
  summary: string;
  message: string;
}

export interface BlamedTarget {
  target: BlameTarget;
  /** blame of the line at the history commit (`blame.line` is its line number there) */
  blame: BlameLine;
}

export interface HistoryExtraction {
  bugId: string;
  buggyCommit: string;
  /** where blame started: the buggy commit, or the original revision it reconstructs (BugSpec.historyCommit) */
  historyCommit: string;
  mode: 'paper' | 'code';
  selector?: LineSelector;
  /** true when fault localization has modified/deleted lines (blame applies directly) */
  blameable: boolean;
  /** every line that could be blamed */
  candidates: BlameTarget[];
  /** the blamed lines (all candidates in paper mode, one in code mode) */
  blamed: BlamedTarget[];
  /** chosen lines with no counterpart at the history commit (added by the reconstruction): no blame */
  unblamed: BlameTarget[];
  /** unique blame commits, in the order first met */
  commits: BlameCommit[];
  /** what the heuristics use: one blame commit and the line that led to it (undefined: nothing to blame) */
  primary?: BlamedTarget & { commit: BlameCommit };
}

export interface ExtractorOptions {
  mode?: 'paper' | 'code';
  /** code mode only; default 'first' */
  selector?: LineSelector;
  /** seed for the random selector */
  seed?: number;
  /** llm_judge: pick one candidate line (code mode) or one commit (paper mode, several commits); returns an index */
  judge?: (choices: { file: string; line: number; text: string; commit?: BlameCommit }[]) => Promise<number>;
  /** how far above an insertion the blameless fallback looks (default 5) */
  blamelessWindow?: number;
  /** line kinds of a Java source (default: worker/java's classifier) */
  classifyLines?: (source: string) => LineKind[];
}

const decoder = new TextDecoder();

export class HistoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HistoryError';
  }
}

export function describeCommit(info: CommitInfo): BlameCommit {
  const iso = new Date(info.author.timestamp * 1000).toISOString();
  return {
    oid: info.oid,
    date: `${iso.slice(0, 10)} ${iso.slice(11, 19)}`,
    timestamp: info.author.timestamp,
    author: info.author.name,
    summary: info.message.split('\n', 1)[0]!.trim(),
    message: info.message.trim(),
  };
}

/** mulberry32: a small seeded generator so `random` picks the same line for the same seed everywhere. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The blameless fallback for an insertion after line `after`: the nearest substantive (executable) line
 * among the `window` lines at and above it; else the nearest structural line; comments and blanks skipped.
 */
export function blamelessFallbackLine(kinds: LineKind[], after: number, window = 5): number | undefined {
  const lines: number[] = [];
  for (let l = after; l > after - window && l >= 1; l--) lines.push(l);
  return lines.find((l) => kinds[l - 1] === 'executable') ?? lines.find((l) => kinds[l - 1] === 'structural');
}

/** Lines to blame for a bug: modified/deleted FL lines, or (none of those) the blameless fallback lines. */
export async function blameCandidates(session: RepoSession, bug: BugSpec, options: ExtractorOptions = {}): Promise<{ blameable: boolean; candidates: BlameTarget[] }> {
  // each fault-localization file's lines at the buggy commit (null: the file is not there), read once
  const sources = new Map<string, string[] | null>();
  const linesOf = async (file: string): Promise<string[] | null> => {
    if (!sources.has(file)) {
      const bytes = await session.readFileAt(bug.buggyCommit, file);
      sources.set(file, bytes ? decoder.decode(bytes).split('\n') : null);
    }
    return sources.get(file)!;
  };
  const textOf = async (file: string) => {
    const lines = await linesOf(file);
    if (!lines) throw new HistoryError(`Fault-localization file ${file} does not exist at the buggy commit ${bug.buggyCommit.slice(0, 12)}: the bug spec is inconsistent with its repository.`);
    return lines;
  };
  const direct: BlameTarget[] = [];
  for (const fault of bug.faultLocalization) {
    if (fault.kind === 'insert') continue;
    const lines = await textOf(fault.file);
    for (const line of fault.lines) {
      if (line > lines.length) throw new HistoryError(`Fault-localization line ${fault.file}:${line} is past the end of the file (${lines.length} lines).`);
      direct.push({ file: fault.file, line, text: lines[line - 1] ?? '', source: 'fault-localization', fault });
    }
  }
  if (direct.length) return { blameable: true, candidates: direct };

  const classify = options.classifyLines ?? ((src: string) => requireJava().classifyLines(src));
  const fallback: BlameTarget[] = [];
  for (const fault of bug.faultLocalization) {
    // an insertion into a file the fix creates (fault localization points at its would-be first line): no buggy
    // line, nothing to blame
    const lines = await linesOf(fault.file);
    if (!lines) continue;
    const kinds = classify(lines.join('\n'));
    for (const after of fault.lines) {
      const line = blamelessFallbackLine(kinds, after, options.blamelessWindow ?? 5);
      if (line && !fallback.some((t) => t.file === fault.file && t.line === line)) {
        fallback.push({ file: fault.file, line, text: lines[line - 1] ?? '', source: 'blameless-fallback', fault });
      }
    }
  }
  return { blameable: false, candidates: fallback };
}

async function selectLine(candidates: BlameTarget[], options: ExtractorOptions): Promise<BlameTarget> {
  const selector = options.selector ?? 'first';
  if (selector === 'first') return candidates[0]!;
  if (selector === 'random') return candidates[Math.floor(seededRandom(options.seed ?? 0)() * candidates.length)]!;
  if (!options.judge) throw new HistoryError('The llm_judge line selector needs a judge callback (a model to ask); use first or random otherwise.');
  const index = await options.judge(candidates.map((c) => ({ file: c.file, line: c.line, text: c.text })));
  const chosen = candidates[index];
  if (!chosen) throw new HistoryError(`The judge chose line #${index}, but there are only ${candidates.length} candidates.`);
  return chosen;
}

export async function extractHistory(session: RepoSession, bug: BugSpec, options: ExtractorOptions = {}): Promise<HistoryExtraction> {
  const mode = options.mode ?? 'code';
  const { blameable, candidates } = await blameCandidates(session, bug, options);
  const base = new HistoryBase(session, bug);
  const result: HistoryExtraction = {
    bugId: bug.id,
    buggyCommit: bug.buggyCommit,
    historyCommit: base.revision,
    mode,
    ...(mode === 'code' ? { selector: options.selector ?? 'first' } : {}),
    blameable,
    candidates,
    blamed: [],
    unblamed: [],
    commits: [],
  };
  if (!candidates.length) return result;

  const chosen = mode === 'paper' ? candidates : [await selectLine(candidates, options)];
  const blames = new Map<string, BlameLine[]>();
  for (const target of chosen) {
    const historyLine = await base.mapLine(target.file, target.line);
    if (historyLine === undefined) {
      result.unblamed.push(target);
      continue;
    }
    let fileBlame = blames.get(target.file);
    if (!fileBlame) blames.set(target.file, (fileBlame = await blame(session, target.file, base.revision)));
    const line = fileBlame[historyLine - 1];
    if (!line) throw new HistoryError(`Blame has no line ${historyLine} in ${target.file} at ${base.revision.slice(0, 12)}.`);
    result.blamed.push({ target, blame: line });
  }
  if (!result.blamed.length) return result;
  const seen = new Map<string, BlameCommit>();
  for (const { blame: line } of result.blamed) {
    if (!seen.has(line.commit)) seen.set(line.commit, describeCommit(await session.readCommit(line.commit)));
  }
  result.commits = [...seen.values()];

  let primary = result.blamed[0]!;
  if (mode === 'paper' && result.commits.length > 1 && options.judge) {
    const firstPerCommit = result.commits.map((c) => result.blamed.find((b) => b.blame.commit === c.oid)!);
    const index = await options.judge(firstPerCommit.map((b) => ({ file: b.target.file, line: b.target.line, text: b.target.text, commit: seen.get(b.blame.commit) })));
    primary = firstPerCommit[index] ?? primary;
  }
  result.primary = { ...primary, commit: seen.get(primary.blame.commit)! };
  return result;
}

/** Unified diff (git format) of every file that differs between two commits, in path order. */
export async function diffCommits(session: RepoSession, from: string, to: string): Promise<string> {
  const [a, b] = await Promise.all([session.listTree(from), session.listTree(to)]);
  const before = new Map(a.map((f) => [f.path, f] as const));
  const after = new Map(b.map((f) => [f.path, f] as const));
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  let out = '';
  for (const path of paths) {
    const o = before.get(path);
    const n = after.get(path);
    if (o?.oid === n?.oid && o?.mode === n?.mode) continue;
    const text = async (oid?: string) => (oid ? decoder.decode(await session.readBlob(oid)) : undefined);
    out += formatFileDiff({ path, oldText: await text(o?.oid), newText: await text(n?.oid), oldOid: o?.oid, newOid: n?.oid, oldMode: o?.mode, newMode: n?.mode });
  }
  return out;
}

/**
 * HAFixAgent's category (SL/SH/SFMH/MFMH) and blameable/blameless, from the bug's ground-truth fix
 * (its patch, or the diff buggy → fixed commit). Uses worker/diff/fix-classification.ts.
 */
export async function classifyBug(session: RepoSession, bug: BugSpec): Promise<Classification> {
  const patch = bug.groundTruth.patch ?? (bug.groundTruth.fixedCommit ? await diffCommits(session, bug.buggyCommit, bug.groundTruth.fixedCommit) : undefined);
  if (!patch) throw new HistoryError(`Bug ${bug.id} has no ground-truth patch or fixed commit: it cannot be classified.`);
  return classifyFix(patch, { isProgramFile: (path) => path.endsWith('.java') && !bug.layout.testDirs.some((d) => path.startsWith(`${d.replace(/\/+$/, '')}/`)) });
}
