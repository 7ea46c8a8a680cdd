// A run's outcome: the final patch (program files only), re-validated on the runner after the run,
// and compared with the ground truth ignoring whitespace and comments.
import type { PublicBug } from '../contracts/bug.ts';
import { isTestFile } from '../contracts/test-edits.ts';
import type { Overlay, Workspace } from '../contracts/workspace.ts';
import { applyUnifiedDiff } from '../diff/apply-diff.ts';

/** Split a multi-file unified diff into per-file sections keyed by path. */
export function splitDiffByFile(diff: string): { path: string; text: string }[] {
  const sections: { path: string; text: string }[] = [];
  const lines = diff.split('\n');
  let cur: { path: string; lines: string[] } | undefined;
  const flush = () => cur && sections.push({ path: cur.path, text: cur.lines.join('\n') });
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const git = /^diff --git a\/(\S+) b\/(\S+)/.exec(l);
    const plain = !git && l.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ') && !(cur && cur.lines.at(-1)?.startsWith('diff --git'));
    if (git || plain) {
      flush();
      const path = git ? git[2]! : (lines[i + 1]!.slice(4).split('\t')[0]!.trim().replace(/^[ab]\//, '') || l.slice(4).trim().replace(/^[ab]\//, ''));
      cur = { path: path === '/dev/null' ? l.slice(4).trim().replace(/^[ab]\//, '') : path, lines: [] };
    }
    cur?.lines.push(l);
  }
  flush();
  return sections;
}

/** A test file of the bug (test sources or test resources): never part of a patch. */
export function isTestPath(bug: PublicBug, path: string): boolean {
  return isTestFile(bug.layout, path);
}

/** The overlay without test files: what programPatch reports, and all the final re-check validates. */
export function programOverlay(ws: Workspace, bug: PublicBug): Overlay {
  return Object.fromEntries(Object.entries(ws.overlay()).filter(([path]) => !isTestPath(bug, path)));
}

/** The overlay's diff restricted to program files (edits to tests are not part of a patch). */
export async function programPatch(ws: Workspace, bug: PublicBug): Promise<string> {
  const diff = await ws.diff();
  if (!diff.trim()) return '';
  const kept = splitDiffByFile(diff).filter((s) => !isTestPath(bug, s.path));
  return kept.map((s) => s.text.replace(/\n*$/, '\n')).join('');
}

/** Java source with comments and all whitespace removed (strings kept intact). */
export function normalizeJava(src: string): string {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    const n = src[i + 1];
    if (c === '/' && n === '/') {
      const j = src.indexOf('\n', i);
      i = j < 0 ? src.length : j;
    } else if (c === '/' && n === '*') {
      const j = src.indexOf('*/', i + 2);
      i = j < 0 ? src.length : j + 1;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      for (; j < src.length && src[j] !== c; j++) if (src[j] === '\\') j++;
      out += src.slice(i, j + 1);
      i = j;
    } else if (!/\s/.test(c)) out += c;
  }
  return out;
}

/**
 * True when the files the two patches touch end up identical after removing whitespace and comments.
 * `ws` holds the agent's final overlay; the ground truth is applied to a fork of the clean base.
 */
export async function exactMatch(ws: Workspace, bug: PublicBug, groundTruthPatch: string): Promise<boolean> {
  const truth = ws.fork();
  truth.revert();
  await applyUnifiedDiff(truth, groundTruthPatch);
  const agentFiles = Object.keys(ws.overlay()).filter((p) => !isTestPath(bug, p));
  const truthFiles = Object.keys(truth.overlay()).filter((p) => !isTestPath(bug, p));
  for (const path of new Set([...agentFiles, ...truthFiles])) {
    const read = async (w: Workspace) => ((await w.exists(path)) ? normalizeJava(await w.read(path)) : null);
    if ((await read(ws)) !== (await read(truth))) return false;
  }
  return true;
}
