// Blame: which commit last touched each line of a file at a revision, following history the way
// `git blame` does by default (git's blame.c): commits are visited newest first; for each commit the
// lines still "suspect" are passed to every parent in which they are unchanged (through every parent
// of a merge, in parent order), the file is followed across renames (git's rename detection, ≥ 50%
// similar), and the line diff is git's own (xdiff.ts). Lines no parent explains are blamed on the commit.
import type { RepoSession } from '../repo/session.ts';
import { xdiffLineMap } from '../diff/xdiff.ts';
import { deletedFiles, findRenameSource } from './rename.ts';

export interface BlameLine {
  /** 1-based line number in the file at the blamed revision */
  line: number;
  /** commit that introduced the line */
  commit: string;
  /** path of the file in that commit (differs from the blamed path across renames) */
  path: string;
  /** 1-based line number in that commit's version of the file */
  origLine: number;
}

export interface BlameOptions {
  /** git's diff.indentHeuristic (default true, like git). */
  indentHeuristic?: boolean;
}

interface Suspect {
  /** 0-based line in the final file */
  final: number;
  /** 0-based line in the origin's blob */
  orig: number;
}

interface Origin {
  commit: string;
  path: string;
  blob: string;
  mode: string;
  suspects: Suspect[];
}

export class BlameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlameError';
  }
}

// windows-1252 as WHATWG defines it maps every byte to its own code point (bytes 0x81, 0x8D … included):
// one char per byte, so comparing lines compares bytes (as git does), and it is far faster than fromCharCode.
const byteDecoder = new TextDecoder('windows-1252');

/** Bytes → one JS char per byte, so line comparison is exact byte comparison (as in git). */
function binaryString(bytes: Uint8Array): string {
  return byteDecoder.decode(bytes);
}

function splitLines(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
    out.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/**
 * git's xdi_diff trims a common tail (in 1 KiB blocks, then back to a line end) before diffing when no
 * context is asked for, as in blame. The trimmed lines are unchanged; trimming also changes which lines
 * xdiff sees, so it is reproduced for parity. Returns how many bytes of each text to diff.
 */
function trimCommonTail(a: string, b: string): number {
  const blk = 1024;
  const smaller = Math.min(a.length, b.length);
  let trimmed = 0;
  while (blk + trimmed <= smaller && a.slice(a.length - trimmed - blk, a.length - trimmed) === b.slice(b.length - trimmed - blk, b.length - trimmed)) {
    trimmed += blk;
  }
  let recovered = 0;
  const cut = a.length - trimmed;
  while (recovered < trimmed) if (a.charCodeAt(cut + recovered++) === 10) break;
  return trimmed - recovered;
}

/** For each line of the child's file, the matching line of the parent's file, or -1 (changed). */
export function blameLineMap(parentText: string, childText: string, options: BlameOptions = {}): Int32Array {
  const cutBytes = trimCommonTail(parentText, childText);
  const parentLines = splitLines(parentText.slice(0, parentText.length - cutBytes));
  const childLines = splitLines(childText.slice(0, childText.length - cutBytes));
  const head = xdiffLineMap(parentLines, childLines, { indentHeuristic: options.indentHeuristic ?? true });
  const childTotal = cutBytes ? splitLines(childText).length : childLines.length;
  const map = new Int32Array(childTotal);
  map.set(head);
  for (let i = childLines.length; i < childTotal; i++) map[i] = parentLines.length + (i - childLines.length);
  return map;
}

/** Newest-first queue of commits (git's prio_queue by committer date; ties in insertion order). */
class CommitQueue {
  private heap: { oid: string; date: number; seq: number }[] = [];
  private seq = 0;

  push(oid: string, date: number): void {
    const heap = this.heap;
    heap.push({ oid, date, seq: this.seq++ });
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  }

  pop(): string | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && this.before(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && this.before(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top?.oid;
  }

  private before(a: { date: number; seq: number }, b: { date: number; seq: number }) {
    return a.date > b.date || (a.date === b.date && a.seq < b.seq);
  }
}

class Blamer {
  private readonly origins = new Map<string, Map<string, Origin>>();
  private readonly queue = new CommitQueue();
  private readonly texts = new Map<string, Promise<string>>();
  private readonly bytes = new Map<string, Promise<Uint8Array>>();
  readonly result: BlameLine[] = [];

  constructor(
    private readonly session: RepoSession,
    private readonly options: BlameOptions,
  ) {}

  private readBytes(oid: string): Promise<Uint8Array> {
    let found = this.bytes.get(oid);
    if (!found) {
      found = this.session.readBlob(oid);
      this.bytes.set(oid, found);
    }
    return found;
  }

  private text(oid: string): Promise<string> {
    let found = this.texts.get(oid);
    if (!found) {
      found = this.readBytes(oid).then(binaryString);
      this.texts.set(oid, found);
    }
    return found;
  }

  private getOrigin(commit: string, path: string, blob: string, mode: string): Origin {
    let byPath = this.origins.get(commit);
    if (!byPath) this.origins.set(commit, (byPath = new Map()));
    let origin = byPath.get(path);
    if (!origin) byPath.set(path, (origin = { commit, path, blob, mode, suspects: [] }));
    return origin;
  }

  private async enqueue(commit: string): Promise<void> {
    this.queue.push(commit, (await this.session.readCommit(commit)).committer.timestamp);
  }

  async run(commit: string, path: string, blob: string, mode: string): Promise<void> {
    const lines = splitLines(await this.text(blob));
    const root = this.getOrigin(commit, path, blob, mode);
    root.suspects = lines.map((_, i) => ({ final: i, orig: i }));
    this.result.length = lines.length;
    if (!lines.length) return;
    await this.enqueue(commit);
    for (let next = this.queue.pop(); next; next = this.queue.pop()) {
      const byPath = this.origins.get(next);
      if (!byPath) continue;
      for (const origin of byPath.values()) {
        if (!origin.suspects.length) continue;
        await this.passBlame(origin);
        for (const s of origin.suspects) this.result[s.final] = { line: s.final + 1, commit: origin.commit, path: origin.path, origLine: s.orig + 1 };
        origin.suspects = [];
      }
    }
  }

  /** git's find_origin: the same path in the parent, unless it was added (or changed type) in this commit. */
  private async findOrigin(parent: string, origin: Origin): Promise<Origin | undefined> {
    const existing = this.origins.get(parent)?.get(origin.path);
    if (existing) return existing;
    const entry = await this.session.entryAt(parent, origin.path);
    if (!entry || entry.type !== 'blob') return undefined;
    if ((entry.mode === '120000') !== (origin.mode === '120000')) return undefined;
    return this.getOrigin(parent, origin.path, entry.oid, entry.mode);
  }

  /** git's find_rename: the file this one was renamed from, found among the files deleted since the parent. */
  private async findRename(parent: string, origin: Origin): Promise<Origin | undefined> {
    const entry = await this.session.entryAt(parent, origin.path);
    if (entry && entry.type === 'blob') return undefined; // not an addition
    const [p, c] = await Promise.all([this.session.readCommit(parent), this.session.readCommit(origin.commit)]);
    const candidates = await deletedFiles(this.session, p.tree, c.tree);
    const source = await findRenameSource(candidates, { path: origin.path, oid: origin.blob, mode: origin.mode }, (oid) => this.readBytes(oid));
    if (!source) return undefined;
    return this.getOrigin(parent, source.path, source.oid, source.mode);
  }

  private async moveTo(target: Origin, moved: Suspect[]): Promise<void> {
    if (!moved.length) return;
    const wasEmpty = target.suspects.length === 0;
    target.suspects.push(...moved);
    if (wasEmpty) await this.enqueue(target.commit);
  }

  private async passBlame(origin: Origin): Promise<void> {
    const parents = (await this.session.readCommit(origin.commit)).parents;
    const scapegoats: (Origin | undefined)[] = new Array(parents.length);
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < parents.length; i++) {
        if (scapegoats[i]) continue;
        const porigin = pass === 0 ? await this.findOrigin(parents[i]!, origin) : await this.findRename(parents[i]!, origin);
        if (!porigin) continue;
        if (porigin.blob === origin.blob) {
          // Unchanged in this parent: the parent takes the blame for every line (git's pass_whole_blame).
          const moved = origin.suspects;
          origin.suspects = [];
          await this.moveTo(porigin, moved);
          return;
        }
        let same = false;
        for (let j = 0; j < i; j++) if (scapegoats[j]?.blob === porigin.blob) same = true;
        if (!same) scapegoats[i] = porigin;
      }
    }
    for (const porigin of scapegoats) {
      if (!porigin) continue;
      await this.passToParent(origin, porigin);
      if (!origin.suspects.length) return;
    }
  }

  /** Lines unchanged between parent and this commit go to the parent (git's pass_blame_to_parent). */
  private async passToParent(origin: Origin, porigin: Origin): Promise<void> {
    const map = blameLineMap(await this.text(porigin.blob), await this.text(origin.blob), this.options);
    const kept: Suspect[] = [];
    const moved: Suspect[] = [];
    for (const s of origin.suspects) {
      const parentLine = map[s.orig] ?? -1;
      if (parentLine >= 0) moved.push({ final: s.final, orig: parentLine });
      else kept.push(s);
    }
    origin.suspects = kept;
    await this.moveTo(porigin, moved);
  }
}

/** Blames every line of `path` at revision `rev` (default HEAD). */
export async function blame(session: RepoSession, path: string, rev = 'HEAD', options: BlameOptions = {}): Promise<BlameLine[]> {
  const cleanPath = path.replace(/\\/g, '/').split('/').filter((p) => p && p !== '.').join('/');
  const commit = await session.resolveRef(rev);
  const entry = await session.entryAt(commit, cleanPath);
  if (!entry) throw new BlameError(`${cleanPath} does not exist at ${rev} (${commit.slice(0, 12)}): check the path and revision.`);
  if (entry.type !== 'blob') throw new BlameError(`${cleanPath} is a directory at ${rev}, not a file: blame one file.`);
  const blamer = new Blamer(session, options);
  await blamer.run(commit, cleanPath, entry.oid, entry.mode);
  return blamer.result;
}

/** Blames only some lines (1-based) — the history extractor's `git blame -L n,n`. */
export async function blameLines(session: RepoSession, path: string, rev: string, lines: number[], options: BlameOptions = {}): Promise<BlameLine[]> {
  const all = await blame(session, path, rev, options);
  return lines.map((n) => {
    const found = all[n - 1];
    if (!found) throw new BlameError(`Line ${n} is outside ${path} at ${rev} (${all.length} lines).`);
    return found;
  });
}
