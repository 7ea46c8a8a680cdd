// Git-style unified diff text ("diff --git" headers, hunk headers with git's default function-name
// context) from a list of changed line ranges. The changes come from xdiff.ts, which makes git's
// choices; the `diff` package's Myers picks different (equally short) scripts in about half of
// randomly edited files, so its hunks would not match `git diff`.
import { xdiffChanges, type LineChange } from './xdiff.ts';

/** Splits text into lines that keep their '\n' (git compares lines with their newline). */
export function splitLinesKeepEol(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    out.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

const FUNC_LINE_MAX = 80;

/** git's default hunk-header function line (xdiff def_ff): nearest line above that starts with a letter, '_' or '$'. */
function functionLineAbove(oldLines: string[], before: number): string {
  for (let l = before; l >= 0; l--) {
    const rec = oldLines[l] ?? '';
    if (/^[A-Za-z_$]/.test(rec)) {
      let text = rec.slice(0, FUNC_LINE_MAX);
      text = text.replace(/[ \t\n\v\f\r]+$/, '');
      return text;
    }
  }
  return '';
}

function range(start: number, count: number): string {
  const shown = count === 0 ? start : start + 1;
  return count === 1 ? `${shown}` : `${shown},${count}`;
}

/** Hunks in git's format (context 3, hunks merged when ≤ 6 lines apart). Lines keep their '\n'. */
export function formatHunks(oldLines: string[], newLines: string[], changes: LineChange[], context = 3): string {
  let out = '';
  let i = 0;
  while (i < changes.length) {
    let j = i;
    while (j + 1 < changes.length) {
      const a = changes[j]!;
      const b = changes[j + 1]!;
      if (b.oldStart - (a.oldStart + a.oldCount) > 2 * context) break;
      j++;
    }
    const first = changes[i]!;
    const last = changes[j]!;
    const s1 = Math.max(first.oldStart - context, 0);
    const s2 = Math.max(first.newStart - context, 0);
    let post = context;
    post = Math.min(post, oldLines.length - (last.oldStart + last.oldCount));
    post = Math.min(post, newLines.length - (last.newStart + last.newCount));
    const e1 = last.oldStart + last.oldCount + post;
    const e2 = last.newStart + last.newCount + post;
    const func = functionLineAbove(oldLines, s1 - 1);
    out += `@@ -${range(s1, e1 - s1)} +${range(s2, e2 - s2)} @@${func ? ` ${func}` : ''}\n`;
    const emit = (prefix: string, line: string) => {
      out += prefix + line;
      if (!line.endsWith('\n')) out += '\n\\ No newline at end of file\n';
    };
    let o = s1;
    for (let k = i; k <= j; k++) {
      const c = changes[k]!;
      for (; o < c.oldStart; o++) emit(' ', oldLines[o]!);
      for (let x = 0; x < c.oldCount; x++) emit('-', oldLines[c.oldStart + x]!);
      for (let x = 0; x < c.newCount; x++) emit('+', newLines[c.newStart + x]!);
      o = c.oldStart + c.oldCount;
    }
    for (; o < e1; o++) emit(' ', oldLines[o]!);
    i = j + 1;
  }
  return out;
}

export interface FileDiffInput {
  path: string;
  /** undefined = file did not exist */
  oldText?: string;
  newText?: string;
  oldOid?: string;
  newOid?: string;
  oldMode?: string;
  newMode?: string;
  binary?: boolean;
  /** Line diff to use (default: xdiffChanges, git's algorithm). */
  changes?: (oldLines: string[], newLines: string[]) => LineChange[];
}

const ZERO = '0000000';

/** One file's `diff --git` section, as `git diff` prints it (empty string when nothing changed). */
export function formatFileDiff(input: FileDiffInput): string {
  const { path } = input;
  const abbrev = (oid?: string) => (oid ? oid.slice(0, 7) : ZERO);
  let head = `diff --git a/${path} b/${path}\n`;
  if (input.oldText === undefined && input.newText === undefined) return '';
  if (input.oldText === undefined) {
    head += `new file mode ${input.newMode ?? '100644'}\nindex ${ZERO}..${abbrev(input.newOid)}\n`;
  } else if (input.newText === undefined) {
    head += `deleted file mode ${input.oldMode ?? '100644'}\nindex ${abbrev(input.oldOid)}..${ZERO}\n`;
  } else {
    if (input.oldText === input.newText && input.oldMode === input.newMode) return '';
    if (input.oldMode && input.newMode && input.oldMode !== input.newMode) {
      head += `old mode ${input.oldMode}\nnew mode ${input.newMode}\n`;
      if (input.oldText === input.newText) return head;
      head += `index ${abbrev(input.oldOid)}..${abbrev(input.newOid)}\n`;
    } else {
      head += `index ${abbrev(input.oldOid)}..${abbrev(input.newOid)} ${input.oldMode ?? '100644'}\n`;
    }
  }
  const oldName = input.oldText === undefined ? '/dev/null' : `a/${path}`;
  const newName = input.newText === undefined ? '/dev/null' : `b/${path}`;
  if (input.binary) return `${head}Binary files ${oldName} and ${newName} differ\n`;
  const oldLines = splitLinesKeepEol(input.oldText ?? '');
  const newLines = splitLinesKeepEol(input.newText ?? '');
  if (oldLines.length === 0 && newLines.length === 0) return head;
  const changes = (input.changes ?? xdiffChanges)(oldLines, newLines);
  return `${head}--- ${oldName}\n+++ ${newName}\n${formatHunks(oldLines, newLines, changes)}`;
}
