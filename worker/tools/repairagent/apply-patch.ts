// Apply a parsed write_fix patch to a workspace, all files or none.
import { createPatch } from 'diff';
import type { ToolContext } from '../../contracts/tools.ts';
import type { Workspace } from '../../contracts/workspace.ts';
import { ToolRefusal, readFileOrRefuse, splitText, testEditRefusal } from '../common.ts';
import { applyChange, checkChange, type FileChange, type WriteFixMode } from './patch.ts';

/**
 * Read, check and apply `changes` to a workspace (of `ctx`'s base tree); returns per-file diffs. Throws ToolRefusal on
 * bad input or on a change to the bug's tests that ctx.testEdits does not allow (nothing written).
 */
export async function applyPatch(workspace: Workspace, changes: FileChange[], mode: WriteFixMode, ctx: ToolContext) {
  const seen = new Set<string>();
  const planned: { path: string; before: string; after: string; skipped: ReturnType<typeof applyChange>['skippedModifications'] }[] = [];
  for (const change of changes) {
    const { path, content } = await readFileOrRefuse(workspace, change.file_name);
    if (seen.has(path)) throw new ToolRefusal(`${path} appears in two changes; put all its insertions, deletions and modifications in one entry.`);
    seen.add(path);
    checkChange(change, splitText(content).lines.length);
    const applied = applyChange(content, change, mode);
    planned.push({ path, before: content, after: applied.content, skipped: applied.skippedModifications });
  }
  const refused = await testEditRefusal(ctx, Object.fromEntries(planned.map((p) => [p.path, p.after])));
  if (refused) throw new ToolRefusal(refused);
  // every change was checked before anything is written: a refused patch leaves the workspace untouched
  for (const p of planned) await workspace.write(p.path, p.after);
  return planned.map((p) => ({
    path: p.path,
    diff: createPatch(p.path, p.before, p.after, 'original', 'patched').split('\n').slice(2).join('\n').trimEnd(),
    skippedModifications: p.skipped,
  }));
}

