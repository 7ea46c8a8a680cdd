// No leakage (Passerine's rule): an agent sees the buggy commit's tree and history only. The fix must not
// be reachable from main or from any buggy commit, and no file of the buggy tree may hold fixed content.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BenchmarkIndex, BugSpec, toPublicBug } from '../../../worker/contracts/bug.ts';
import { parseUnifiedDiff } from '../../../worker/diff/unified-diff-parse.ts';
import { DEFAULT_OUT_DIR } from '../../../benchmarks/build.ts';
import { git, listRefs, openBundle } from '../../../benchmarks/git.ts';

const index = BenchmarkIndex.parse(JSON.parse(readFileSync(join(DEFAULT_OUT_DIR, 'index.json'), 'utf8')));
const bugs = index.bugs.map((p) => BugSpec.parse(JSON.parse(readFileSync(join(DEFAULT_OUT_DIR, p), 'utf8'))));
const work = mkdtempSync(join(tmpdir(), 'repairlab-leak-'));
for (const repo of index.repositories) openBundle(join(DEFAULT_OUT_DIR, repo.bundle), join(work, `${repo.repoId}.git`));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const isAncestor = (dir: string, a: string, b: string) => {
  try {
    git(dir, ['merge-base', '--is-ancestor', a, b]);
    return true;
  } catch {
    return false;
  }
};

describe.each(bugs.map((b) => [b.id, b] as const))('bug %s', (_id, bug) => {
  const dir = join(work, `${bug.repoId}.git`);
  const fixed = bug.groundTruth.fixedCommit!;

  it('keeps the fixed commit off main and off every buggy commit', () => {
    const refs = listRefs(dir);
    const visible = Object.entries(refs).filter(([name]) => name.startsWith('refs/heads/') || name.startsWith('refs/repairlab/bugs/'));
    expect(visible.length).toBeGreaterThan(1);
    for (const [name, oid] of visible) expect(isAncestor(dir, fixed, oid), `${fixed} reachable from ${name}`).toBe(false);
  });

  it('has no fixed file content anywhere in the buggy tree', () => {
    const buggyBlobs = new Set(git(dir, ['ls-tree', '-r', bug.buggyCommit]).split('\n').filter(Boolean).map((l) => l.split(/\s+/)[2]));
    for (const file of parseUnifiedDiff(bug.groundTruth.patch!)) {
      const path = file.newPath!;
      const fixedBlob = git(dir, ['rev-parse', `${fixed}:${path}`]).trim();
      expect(buggyBlobs.has(fixedBlob), `${path} of the fix is in the buggy tree`).toBe(false);
      const addedBlock = file.lines.filter((l) => l.kind === 'add').map((l) => l.text).join('\n');
      const buggyFile = file.oldPath ? git(dir, ['show', `${bug.buggyCommit}:${file.oldPath}`]) : '';
      if (addedBlock.trim().length > 20) expect(buggyFile.includes(addedBlock), `added lines of ${path} already in the buggy file`).toBe(false);
    }
  });

  it('leaves the ground truth out of the public view given to agents', () => {
    const shown = JSON.stringify(toPublicBug(bug));
    expect(shown).not.toContain(fixed);
    expect(shown).not.toContain('groundTruth');
  });
});
