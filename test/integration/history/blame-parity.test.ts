// Blame parity: RepairLab's blame must agree with `git blame --porcelain` on every line of every file
// of a generated multi-hundred-commit history (renames, moves, merges, reverts, whitespace-only
// changes, deleted and re-added files), at HEAD and at older revisions. Differing lines are printed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blame } from '../../../worker/history/blame.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import type { RepoSession } from '../../../worker/repo/session.ts';
import { RepoStore } from '../../../worker/repo/repo-store.ts';
import { removeDir, tempDir } from '../repo/git-fixture.ts';
import { cachedHistoryRepo } from './history-generator.ts';
import { compareBlame, gitBlame } from './parity.ts';

describe('blame parity with git blame --porcelain', () => {
  let work: string;
  let repoDir: string;
  let session: RepoSession;

  beforeAll(async () => {
    const generated = cachedHistoryRepo();
    repoDir = generated.dir;
    work = tempDir('parity');
    const store = new RepoStore(createNodePlatform({ root: work }));
    await store.importBundle('generated', new Uint8Array(readFileSync(generated.bundle)));
    session = await store.openRepo('generated');
  }, 300_000);

  afterAll(() => removeDir(work));

  const git = (...args: string[]) => execFileSync('git', ['-C', repoDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });

  it('the generated history has what the parity claim is about', () => {
    expect(Number(git('rev-list', '--count', 'HEAD').trim())).toBeGreaterThanOrEqual(300);
    expect(Number(git('rev-list', '--merges', '--count', 'HEAD').trim())).toBeGreaterThanOrEqual(10);
    const log = git('log', '--format=%s', 'HEAD');
    for (const kind of ['rename ', 'whitespace ', 'delete ', 're-add ', 'Revert ']) expect(log).toContain(kind);
    expect(git('log', '-M', '--diff-filter=R', '--name-status', '--format=', 'HEAD')).toMatch(/^R0?[5-9]\d\t/m); // a rename with edits
  });

  it('agrees on every line of every file at HEAD and at four older revisions', async () => {
    const firstParents = git('rev-list', '--first-parent', 'HEAD').trim().split('\n');
    const revisions = ['HEAD', ...[30, 90, 160, 230].map((i) => firstParents[Math.min(i, firstParents.length - 1)]!)];
    const differences: string[] = [];
    let lines = 0;
    for (const rev of revisions) {
      for (const file of git('ls-tree', '-r', '--name-only', rev).split('\n').filter(Boolean)) {
        const ours = await blame(session, file, rev);
        const theirs = gitBlame(repoDir, file, rev);
        lines += theirs.length;
        differences.push(...compareBlame(`${rev.slice(0, 10)}:${file}`, ours, theirs));
      }
    }
    if (differences.length) console.log(`blame differs on ${differences.length} lines:\n${differences.join('\n')}`);
    expect(lines).toBeGreaterThan(3000);
    expect(differences).toEqual([]);
  }, 600_000);
});
