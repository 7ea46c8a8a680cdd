// The diff a step made to one file, as the trajectory records it: jsdiff's createTwoFilesPatch with 3 lines of
// context, without its "=====" line. The commonest agent edit — one line replaced, inserted or deleted (a
// `sed -i`, a one-line patch) — is written directly when jsdiff's answer is certain: then the minimal edit is
// unique and the output is the same text (test/unit/agent/step-diff.test.ts compares the two on many edits).
// jsdiff's Myers diff costs far more than that on a cold JIT, and a run edits files only a few times.
import { createTwoFilesPatch } from 'diff';

const CONTEXT = 3;

export function fileDiff(path: string, old: string | null, now: string | null): string {
  if (old !== null && now !== null) {
    const fast = singleLinePatch(path, old, now);
    if (fast !== undefined) return fast;
  }
  return createTwoFilesPatch(old === null ? '/dev/null' : `a/${path}`, now === null ? '/dev/null' : `b/${path}`, old ?? '', now ?? '', undefined, undefined, { context: CONTEXT }).replace(/^=+\n/, '');
}

/** A path jsdiff prints as it is (no C-style quoting). */
function plainPath(path: string): boolean {
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/**
 * The patch for old → now when they differ in exactly one line (replaced, inserted or deleted), both end with a
 * newline and hold no carriage return, and the changed line(s) differ from the lines around them; undefined
 * otherwise. With maximal common prefix p and suffix, the only other minimal edits would move the change next to an
 * equal neighbouring line, so excluding equal neighbours leaves one minimal edit — which Myers' diff (jsdiff)
 * finds, writing the removal before the addition.
 */
export function singleLinePatch(path: string, old: string, now: string): string | undefined {
  if (old === now || !old.endsWith('\n') || !now.endsWith('\n') || old.includes('\r') || now.includes('\r') || !plainPath(path)) return undefined;
  const a = old.split('\n');
  const b = now.split('\n');
  a.pop();
  b.pop();
  const n = a.length;
  const m = b.length;
  let p = 0;
  while (p < n && p < m && a[p] === b[p]) p++;
  let s = 0;
  while (s < n - p && s < m - p && a[n - 1 - s] === b[m - 1 - s]) s++;
  const removed = n - p - s;
  const added = m - p - s;
  if (removed > 1 || added > 1) return undefined;
  const above = p > 0 ? a[p - 1] : undefined;
  const below = p + removed < n ? a[p + removed] : undefined;
  const changed = [...(removed ? [a[p]!] : []), ...(added ? [b[p]!] : [])];
  if (changed.some((line) => line === above || line === below)) return undefined;
  const before = Math.min(p, CONTEXT);
  const after = Math.min(s, CONTEXT);
  const lines: string[] = [];
  for (let i = p - before; i < p; i++) lines.push(` ${a[i]}`);
  if (removed) lines.push(`-${a[p]}`);
  if (added) lines.push(`+${b[p]}`);
  for (let i = p + removed; i < p + removed + after; i++) lines.push(` ${a[i]}`);
  const oldLines = before + removed + after;
  const newLines = before + added + after;
  // unified diff: an empty range names the line before it
  const oldStart = p - before + 1 - (oldLines === 0 ? 1 : 0);
  const newStart = p - before + 1 - (newLines === 0 ? 1 : 0);
  return `--- a/${path}\n+++ b/${path}\n@@ -${oldStart},${oldLines} +${newStart},${newLines} @@\n${lines.join('\n')}\n`;
}
