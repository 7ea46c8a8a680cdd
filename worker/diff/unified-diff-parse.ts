// A small parser for git-style unified diffs (`diff --git a/x b/x`, `--- a/x`, `+++ b/x`, `@@ … @@`).
// Pure (no Node APIs): shared by the benchmark builder, the bug check, the Defects4J importer and the
// in-browser history extractor.

export interface DiffLine {
  kind: 'context' | 'add' | 'remove';
  text: string;
  /** line number in the old (buggy) file; for an added line, the old line it follows (0 = top of file) */
  oldLine: number;
  /** line number in the new (fixed) file; for a removed line, the new line it follows */
  newLine: number;
}

/** A maximal run of changed lines with no context line in between (HAFixAgent's "hunk"). */
export interface ChangeBlock {
  removed: DiffLine[];
  added: DiffLine[];
  /** old line after which the block starts (0 = before line 1) */
  oldAnchor: number;
}

export interface FileDiff {
  /** old path, or null when the file is new */
  oldPath: string | null;
  /** new path, or null when the file is deleted */
  newPath: string | null;
  lines: DiffLine[];
}

export class DiffParseError extends Error {
  constructor(message: string, readonly lineNumber: number) {
    super(`unified diff, line ${lineNumber}: ${message}`);
    this.name = 'DiffParseError';
  }
}

function stripPrefix(path: string): string | null {
  const p = path.split('\t')[0]!.trim();
  if (p === '/dev/null') return null;
  return p.replace(/^[ab]\//, '');
}

export function parseUnifiedDiff(text: string): FileDiff[] {
  const files: FileDiff[] = [];
  const lines = text.split('\n');
  let current: FileDiff | null = null;
  let oldNo = 0;
  let newNo = 0;
  let oldLeft = 0;
  let newLeft = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (oldLeft > 0 || newLeft > 0) {
      const tag = line[0];
      const body = line.slice(1);
      if (tag === ' ' || (line === '' && oldLeft > 0 && newLeft > 0)) {
        current!.lines.push({ kind: 'context', text: body, oldLine: ++oldNo, newLine: ++newNo });
        oldLeft--;
        newLeft--;
      } else if (tag === '-') {
        current!.lines.push({ kind: 'remove', text: body, oldLine: ++oldNo, newLine: newNo });
        oldLeft--;
      } else if (tag === '+') {
        current!.lines.push({ kind: 'add', text: body, oldLine: oldNo, newLine: ++newNo });
        newLeft--;
      } else if (tag === '\\') {
        // "\ No newline at end of file"
      } else {
        throw new DiffParseError(`hunk ends early (expected ${oldLeft} old / ${newLeft} new lines)`, i + 1);
      }
      continue;
    }
    if (line.startsWith('diff --git ')) {
      current = null;
      continue;
    }
    if (line.startsWith('--- ')) {
      const next = lines[i + 1] ?? '';
      if (!next.startsWith('+++ ')) throw new DiffParseError('"---" header without "+++"', i + 1);
      current = { oldPath: stripPrefix(line.slice(4)), newPath: stripPrefix(next.slice(4)), lines: [] };
      files.push(current);
      i++;
      continue;
    }
    const hunk = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      if (!current) throw new DiffParseError('hunk header before a file header', i + 1);
      const oldStart = Number(hunk[1]);
      const oldCount = hunk[2] === undefined ? 1 : Number(hunk[2]);
      const newStart = Number(hunk[3]);
      const newCount = hunk[4] === undefined ? 1 : Number(hunk[4]);
      // For an empty side git writes start = line *before* the hunk; otherwise start is the first line.
      oldNo = oldCount === 0 ? oldStart : oldStart - 1;
      newNo = newCount === 0 ? newStart : newStart - 1;
      oldLeft = oldCount;
      newLeft = newCount;
      continue;
    }
    // index lines, mode lines, "similarity index", blank separators: ignored
  }
  if (oldLeft > 0 || newLeft > 0) throw new DiffParseError('diff ends inside a hunk', lines.length);
  return files;
}

/** Split a file's diff lines into change blocks separated by context (or by a gap between @@ hunks). */
export function changeBlocks(file: FileDiff): ChangeBlock[] {
  const blocks: ChangeBlock[] = [];
  let block: ChangeBlock | null = null;
  let lastOld = -1;
  for (const l of file.lines) {
    if (l.kind === 'context') {
      block = null;
      lastOld = l.oldLine;
      continue;
    }
    const anchor = l.kind === 'remove' ? l.oldLine - 1 : l.oldLine;
    const contiguous = block !== null && (l.kind === 'add' ? l.oldLine === lastOld : l.oldLine === lastOld + 1);
    if (!block || !contiguous) {
      block = { removed: [], added: [], oldAnchor: anchor };
      blocks.push(block);
    }
    if (l.kind === 'remove') {
      block.removed.push(l);
      lastOld = l.oldLine;
    } else {
      block.added.push(l);
      lastOld = l.oldLine;
    }
  }
  return blocks;
}

export function filePath(file: FileDiff): string {
  return (file.oldPath ?? file.newPath)!;
}
