// Applying a model-written unified diff to the workspace overlay with the `diff` package. Models get
// hunk counts wrong and drop the a/ b/ prefixes, so headers are recounted and paths resolved first;
// a hunk that still does not apply is named in the error, and nothing is written unless every file applies.
import { applyPatch, parsePatch, type StructuredPatch } from 'diff';
import { describeBytes, MAX_OVERLAY_BYTES, overlayTooLarge, utf8Bytes } from '../contracts/overlay-limits.ts';
import type { Workspace } from '../contracts/workspace.ts';
import type { Rectification } from '../contracts/trajectory.ts';

export class PatchApplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchApplyError';
  }
}

/** Rewrite every `@@ -a,b +c,d @@` with counts recomputed from the hunk's lines (models often miscount). */
export function recountHunks(diff: string): { text: string; changed: number } {
  const lines = diff.replace(/\r\n/g, '\n').split('\n');
  let changed = 0;
  for (let i = 0; i < lines.length; i++) {
    const m = /^@@ -(\d+)?(?:,\d+)? \+(\d+)?(?:,\d+)? @@(.*)$/.exec(lines[i]!) ?? (/^@@\s*@@?(.*)$/.exec(lines[i]!) ? [lines[i]!, undefined, undefined, ''] : null);
    if (!m) continue;
    let oldCount = 0;
    let newCount = 0;
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      if (l.startsWith('@@') || l.startsWith('--- ') || l.startsWith('diff --git') || (l.startsWith('+++ ') && lines[j - 1]?.startsWith('--- '))) break;
      if (l.startsWith('\\')) continue;
      if (l.startsWith('+')) newCount++;
      else if (l.startsWith('-')) oldCount++;
      else if (l.startsWith(' ') || l === '') {
        // a blank line at the very end of the text is not context
        if (l === '' && j === lines.length - 1) break;
        oldCount++;
        newCount++;
      } else break;
    }
    const oldStart = m[1] ?? '1';
    const newStart = m[2] ?? oldStart;
    const header = `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@${m[3] ?? ''}`;
    if (header !== lines[i]) {
      lines[i] = header;
      changed++;
    }
    i = j - 1;
  }
  return { text: lines.join('\n'), changed };
}

function cleanPath(p: string | undefined): string | null {
  if (!p) return null;
  const s = p.split('\t')[0]!.trim();
  if (s === '/dev/null') return null;
  return s.replace(/^[ab]\//, '').replace(/^\.\//, '');
}

/** The workspace file a diff path means: exact, else the unique file ending with it. */
async function resolvePath(ws: Workspace, path: string, rect: Rectification[]): Promise<string> {
  if (await ws.exists(path)) return path;
  const all = await ws.listFiles();
  const hits = all.filter((f) => f.endsWith(`/${path}`) || f.endsWith(`/${path.split('/').pop()}`));
  const bySuffix = hits.filter((f) => f.endsWith(`/${path}`));
  const pick = bySuffix.length === 1 ? bySuffix : hits.length === 1 ? hits : [];
  if (pick.length === 1) {
    rect.push({ kind: 'file-path', from: path, to: pick[0]!, message: `resolved diff path ${path} to ${pick[0]}` });
    return pick[0]!;
  }
  if (hits.length > 1) throw new PatchApplyError(`the diff names ${path}, which matches several files (${hits.slice(0, 5).join(', ')}); use the full repository path`);
  throw new PatchApplyError(`the diff names ${path}, which does not exist in the repository; use a repository-relative path such as ${all.find((f) => f.endsWith('.java')) ?? 'src/…/X.java'}`);
}

/** A hunk that did not apply exactly as written: at another line (offset), or with mismatching context (fuzz). */
export interface InexactHunk {
  path: string;
  /** 1-based number of the hunk within its file's section */
  hunk: number;
  kind: 'offset' | 'fuzz';
  /** offset: lines from where the header put it to where it applied */
  offset?: number;
}

export interface AppliedPatch {
  files: string[];
  rectifications: Rectification[];
  /** hunks applied elsewhere than their header says, or only with fuzz (empty: every hunk applied exactly) */
  inexact: InexactHunk[];
}

/** Where each hunk's old lines (context and removed) stand in `source`: exactly as the header says, elsewhere, or nowhere. */
function inexactHunks(path: string, source: string, patch: StructuredPatch): InexactHunk[] {
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  const out: InexactHunk[] = [];
  patch.hunks.forEach((h, i) => {
    const old = h.lines.filter((l) => l.startsWith(' ') || l.startsWith('-')).map((l) => l.slice(1));
    const at = (start: number) => old.every((l, k) => lines[start + k] === l);
    // oldStart is 1-based; an empty old side (pure insertion) names the line after which it goes
    const stated = old.length ? h.oldStart - 1 : h.oldStart;
    if (at(stated)) return;
    let found = -1;
    for (let d = 1; d < lines.length && found < 0; d++) {
      if (stated - d >= 0 && at(stated - d)) found = stated - d;
      else if (stated + d < lines.length && at(stated + d)) found = stated + d;
    }
    out.push(found >= 0 ? { path, hunk: i + 1, kind: 'offset', offset: found - stated } : { path, hunk: i + 1, kind: 'fuzz' });
  });
  return out;
}

/** One line per inexact hunk, for people: "Strings.java hunk 1 applied 3 lines below where its header says". */
export function describeInexact(h: InexactHunk): string {
  if (h.kind === 'fuzz') return `${h.path}: hunk ${h.hunk} applied with fuzz (up to 2 of its context lines differ from the file)`;
  const n = Math.abs(h.offset ?? 0);
  return `${h.path}: hunk ${h.hunk} applied ${n} line${n === 1 ? '' : 's'} ${(h.offset ?? 0) > 0 ? 'below' : 'above'} where its header says (offset ${h.offset! > 0 ? '+' : ''}${h.offset})`;
}

/** Apply `diff` to `ws`; throws PatchApplyError naming the file and hunk that failed (the workspace is unchanged then). */
export async function applyUnifiedDiff(ws: Workspace, diff: string): Promise<AppliedPatch> {
  const rect: Rectification[] = [];
  const inexact: InexactHunk[] = [];
  // the runner refuses (413) an overlay over its size limits; a diff that large is generated text, not a repair,
  // so it is refused here before it is parsed, with what to do
  const size = utf8Bytes(diff);
  if (size > MAX_OVERLAY_BYTES) {
    throw new PatchApplyError(`the diff is ${describeBytes(size)}, over the ${MAX_OVERLAY_BYTES / (1024 * 1024)} MB a patch may change; write a diff of only the lines to change`);
  }
  const recount = recountHunks(diff);
  if (recount.changed) rect.push({ kind: 'other', message: `recomputed the line counts of ${recount.changed} hunk header(s)` });
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(recount.text);
  } catch (err) {
    throw new PatchApplyError(`the diff is malformed: ${(err as Error).message}`);
  }
  patches = patches.filter((p) => p.hunks.length > 0 || p.oldFileName || p.newFileName);
  if (!patches.length || patches.every((p) => p.hunks.length === 0)) throw new PatchApplyError('the diff has no hunks (@@ … @@ sections)');
  const writes: { path: string; content: string | null }[] = [];
  for (const p of patches) {
    const oldPath = cleanPath(p.oldFileName);
    const newPath = cleanPath(p.newFileName);
    if (!oldPath && !newPath) throw new PatchApplyError('a file section of the diff names no file (--- / +++ lines missing)');
    if (!oldPath) {
      // new file
      const content = applyPatch('', p);
      if (content === false) throw new PatchApplyError(`cannot create ${newPath}: its hunk is malformed`);
      writes.push({ path: newPath!, content });
      continue;
    }
    const path = await resolvePath(ws, oldPath, rect);
    const source = await ws.read(path);
    let result = applyPatch(source, p);
    if (result === false) {
      result = applyPatch(source, p, { fuzzFactor: 2 });
      if (result !== false) rect.push({ kind: 'other', message: `applied ${path} with up to 2 mismatching context lines` });
    }
    if (result === false) {
      // find the first hunk that fails on its own, to name it
      const bad = p.hunks.findIndex((h) => applyPatch(source, { ...p, hunks: [h] }, { fuzzFactor: 2 }) === false);
      const h = p.hunks[bad >= 0 ? bad : 0]!;
      const firstRemoved = h.lines.find((l) => l.startsWith('-') || l.startsWith(' '));
      throw new PatchApplyError(
        `hunk ${bad + 1} of ${p.hunks.length} for ${path} (@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@) does not apply: ` +
          `its context/removed lines are not in the file${firstRemoved ? ` (e.g. ${JSON.stringify(firstRemoved.slice(1).trim())})` : ''}. Copy the lines exactly from the code shown.`,
      );
    }
    inexact.push(...inexactHunks(path, source, p));
    writes.push({ path: newPath && newPath !== oldPath ? newPath : path, content: result });
    if (newPath === null) writes[writes.length - 1] = { path, content: null };
  }
  const tooLarge = overlayTooLarge(Object.fromEntries(writes.map((w) => [w.path, w.content])));
  if (tooLarge) throw new PatchApplyError(`the patched files are too large to validate: ${tooLarge.message}`);
  for (const w of writes) {
    if (w.content === null) await ws.delete(w.path);
    else await ws.write(w.path, w.content);
  }
  return { files: writes.map((w) => w.path), rectifications: rect, inexact };
}
