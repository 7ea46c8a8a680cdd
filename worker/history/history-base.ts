// Where a bug's history starts, and how its buggy-version lines map onto it.
//
// A bug whose buggy commit is a reconstruction (the Defects4J importer's: the fixed tree minus the minimised patch,
// committed on top of the original buggy revision) names the original revision as `historyCommit`. The reconstruction
// is not history: its diff holds the developer fix's other hunks. So blame starts at `historyCommit`, and each
// fault-localization line of the buggy version is first mapped onto that commit's version of the file:
// - a line the reconstruction left unchanged maps to itself (git's own line diff, as blame uses);
// - a line it changed maps to its nearest original counterpart in the block of original lines it replaced: the
//   line sharing the most words with it (a renamed parameter, a reformatted expression), else — no word shared —
//   the line at the same offset, counted from the block's start or end, whichever is nearer;
// - a line it added where it replaced nothing (a pure insertion) maps to the original line within 3 lines of the
//   insertion point that shares at least half its words (and two or more) — e.g. an expression hoisted into a new
//   local variable; with no such line, or in a file the original revision lacks, it has no counterpart and is
//   reported as having no blame.
import type { BugSpec } from '../contracts/bug.ts';
import type { RepoSession } from '../repo/session.ts';
import { blameLineMap } from './blame.ts';

// one char per byte, so lines compare as bytes, as in blame (blame.ts)
const decoder = new TextDecoder('windows-1252');

/** The commit whose history blame reads: `historyCommit` when the buggy commit is a reconstruction. */
export function historyRevision(bug: Pick<BugSpec, 'buggyCommit' | 'historyCommit'>): string {
  return bug.historyCommit ?? bug.buggyCommit;
}

/**
 * For each 1-based line of `buggyText`, the 1-based line of `originalText` it maps to (rule above), or undefined.
 * Exported for tests and for `repairlab defects4j check`.
 */
export function mapLinesToOriginal(originalText: string, buggyText: string): (number | undefined)[] {
  const map = blameLineMap(originalText, buggyText);
  const originalLines = originalText.split('\n');
  const buggyLines = buggyText.split('\n');
  const out: (number | undefined)[] = new Array(map.length);
  for (let i = 0; i < map.length; i++) {
    if (map[i]! >= 0) {
      out[i] = map[i]! + 1;
      continue;
    }
    // the changed block around i: buggy lines [start, end) replaced original lines (before, after), 0-based
    let start = i;
    while (start > 0 && map[start - 1]! < 0) start--;
    let end = i;
    while (end < map.length && map[end]! < 0) end++;
    const before = start > 0 ? map[start - 1]! : -1;
    const after = end < map.length ? map[end]! : originalLineCount(originalText);
    if (after - before - 1 <= 0) {
      out[i] = insertionCounterpart(buggyLines[i] ?? '', originalLines, before, after);
      continue;
    }
    // positional counterpart, counted from whichever end of the block the line is nearer
    const fromStart = i - start;
    const fromEnd = end - 1 - i;
    const positional = fromEnd < fromStart ? Math.max(before + 1, after - 1 - fromEnd) : Math.min(before + 1 + fromStart, after - 1);
    // the most similar replaced line (shared words), ties to the one nearest the positional counterpart
    const words = wordsOf(buggyLines[i] ?? '');
    let best = positional;
    let bestScore = 0;
    for (let o = before + 1; o < after; o++) {
      const score = sharedWords(words, wordsOf(originalLines[o] ?? ''));
      if (score > bestScore || (score === bestScore && score > 0 && Math.abs(o - positional) < Math.abs(best - positional))) {
        best = o;
        bestScore = score;
      }
    }
    out[i] = best + 1;
  }
  return out;
}

/** Original lines within this many lines of a pure insertion may be its counterpart. */
const INSERTION_WINDOW = 3;

/**
 * A pure insertion's counterpart: the original line near it (within INSERTION_WINDOW of the insertion point) sharing at
 * least half its words (and two or more), e.g. a condition the reconstruction hoisted into a new local variable;
 * none otherwise. Returns a 1-based line or undefined.
 */
function insertionCounterpart(line: string, originalLines: string[], before: number, after: number): number | undefined {
  const words = wordsOf(line);
  const needed = Math.max(2, Math.ceil(words.length / 2));
  let best: number | undefined;
  let bestScore = needed - 1;
  for (let o = Math.max(0, before + 1 - INSERTION_WINDOW); o < Math.min(originalLines.length, after + INSERTION_WINDOW); o++) {
    const score = sharedWords(words, wordsOf(originalLines[o]!));
    if (score > bestScore) {
      best = o;
      bestScore = score;
    }
  }
  return best === undefined ? undefined : best + 1;
}

function wordsOf(line: string): string[] {
  return line.match(/[A-Za-z_$][\w$]*|\d+/g) ?? [];
}

/** Words two lines share, counted with multiplicity. */
function sharedWords(a: string[], b: string[]): number {
  const left = new Map<string, number>();
  for (const w of a) left.set(w, (left.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of b) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      shared++;
      left.set(w, n - 1);
    }
  }
  return shared;
}

function originalLineCount(text: string): number {
  if (!text) return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/** Maps buggy-version lines of one file onto the history commit; identity when the bug's buggy commit is its history. */
export class HistoryBase {
  private readonly maps = new Map<string, Promise<(number | undefined)[] | undefined>>();

  constructor(
    private readonly session: RepoSession,
    readonly bug: Pick<BugSpec, 'buggyCommit' | 'historyCommit'>,
  ) {}

  get revision(): string {
    return historyRevision(this.bug);
  }

  /** The line at the history commit, or undefined when it has no counterpart there (no blame). */
  async mapLine(file: string, line: number): Promise<number | undefined> {
    if (this.revision === this.bug.buggyCommit) return line;
    let map = this.maps.get(file);
    if (!map) this.maps.set(file, (map = this.buildMap(file)));
    return (await map)?.[line - 1];
  }

  private async buildMap(file: string): Promise<(number | undefined)[] | undefined> {
    const [original, buggy] = await Promise.all([this.session.readFileAt(this.revision, file), this.session.readFileAt(this.bug.buggyCommit, file)]);
    if (!original || !buggy) return undefined;
    return mapLinesToOriginal(decoder.decode(original), decoder.decode(buggy));
  }
}
