// A patch reduced to what it changes, so that the same change made by two runs is recognised as one patch (one label
// for every occurrence): per program file (test files left out), each block of changed lines as the buggy line it
// starts at, the removed lines and the added lines, with whitespace runs collapsed and ends trimmed. Context lines
// and hunk boundaries are dropped: the same change diffed with other context, or split into other hunks, is the same
// patch; a change in indentation alone is not a change.
import { parsePatch } from 'diff';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export interface ChangeBlock {
  /** 1-based line of the buggy file the block starts at (the line after, for a pure insertion) */
  at: number;
  removed: string[];
  added: string[];
}

export interface NormalisedFile {
  from: string | null;
  to: string | null;
  blocks: ChangeBlock[];
}

const squash = (line: string) => line.replace(/\s+/g, ' ').trim();

function cleanPath(name: string | undefined): string | null {
  if (!name) return null;
  const p = name.split('\t')[0]!.trim();
  return p === '/dev/null' ? null : p.replace(/^[ab]\//, '');
}

const underTestDir = (path: string, testDirs: readonly string[]) => testDirs.some((d) => path.startsWith(`${d.replace(/\/+$/, '')}/`));

/** The patch's change blocks per program file, sorted by path. An empty or test-only patch has none. */
export function normalisePatch(diff: string, testDirs: readonly string[] = []): NormalisedFile[] {
  if (!diff.trim()) return [];
  const files: NormalisedFile[] = [];
  for (const p of parsePatch(diff)) {
    const from = cleanPath(p.oldFileName);
    const to = cleanPath(p.newFileName);
    const path = to ?? from;
    if (path === null || underTestDir(path, testDirs)) continue;
    const blocks: ChangeBlock[] = [];
    for (const h of p.hunks) {
      let line = h.oldStart === 0 ? 1 : h.oldStart;
      let open: ChangeBlock | undefined;
      for (const l of h.lines) {
        const kind = l[0];
        if (kind === '\\') continue; // "\ No newline at end of file"
        if (kind === ' ') {
          open = undefined;
          line++;
          continue;
        }
        if (!open) blocks.push((open = { at: line, removed: [], added: [] }));
        if (kind === '-') {
          open.removed.push(squash(l.slice(1)));
          line++;
        } else open.added.push(squash(l.slice(1)));
      }
    }
    // a block that only re-indents changes nothing once whitespace is collapsed
    const changed = blocks.filter((b) => b.removed.join('\n') !== b.added.join('\n'));
    if (changed.length || from !== to) files.push({ from, to, blocks: changed });
  }
  return files.sort((a, b) => (a.to ?? a.from ?? '').localeCompare(b.to ?? b.from ?? ''));
}

/** 16 hex digits of the SHA-256 of the normalised patch: the patch's identity in labels. */
export function patchKey(diff: string, testDirs: readonly string[] = []): string {
  return bytesToHex(sha256(new TextEncoder().encode(JSON.stringify(normalisePatch(diff, testDirs))))).slice(0, 16);
}
