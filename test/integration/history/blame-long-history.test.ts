// Blame over a long history keeps memory bounded: every commit of a busy directory has a tree of its own,
// and the session keeps only a budget of parsed tree entries (closure-compiler's HEAD ran out of memory
// when every tree stayed). The answer must not change with the budget: it is checked against git.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blame } from '../../../worker/history/blame.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RepoSession } from '../../../worker/repo/session.ts';
import { GitFixture, removeDir, tempDir } from '../repo/git-fixture.ts';
import { compareBlame, gitBlame } from './parity.ts';

const FILES = 150;
const COMMITS = 120;

describe('blame over a long history of a busy directory', () => {
  let work: string;
  let fx: GitFixture;

  beforeAll(() => {
    work = tempDir('blame-long');
    fx = new GitFixture(join(work, 'repo'));
    for (let f = 0; f < FILES; f++) fx.write(`busy/File${f}.java`, `class File${f} {}\n`);
    fx.write('busy/Target.java', Array.from({ length: 40 }, (_, i) => `    line ${i};\n`).join(''));
    fx.commit('start');
    // Each commit changes one other file of busy/ (a new busy/ tree every time); every tenth also edits Target.
    const target = Array.from({ length: 40 }, (_, i) => `    line ${i};\n`);
    for (let c = 1; c <= COMMITS; c++) {
      fx.write(`busy/File${c % FILES}.java`, `class File${c % FILES} { int v = ${c}; }\n`);
      if (c % 10 === 0) {
        target[(c / 10) * 3] = `    line ${(c / 10) * 3} edited in ${c};\n`;
        fx.write('busy/Target.java', target.join(''));
      }
      fx.commit(`change ${c}`);
    }
    // packed, as a repository in the store always is (the session reads packs directly)
    fx.git('repack', '-adq');
  }, 120_000);

  afterAll(() => removeDir(work));

  const sessionWith = (treeCacheEntries?: number) =>
    new RepoSession('long', createNodePlatform({ root: fx.dir, reposRoot: fx.dir }).fs, join(fx.dir, '.git'), treeCacheEntries ? { treeCacheEntries } : {});

  it('blames as git does with a small tree budget, reading one entry per directory rather than whole trees', async () => {
    const budget = 5 * (FILES + 1);
    const bounded = sessionWith(budget);
    const lines = await blame(bounded, 'busy/Target.java');
    expect(compareBlame('busy/Target.java', lines, gitBlame(fx.dir, 'busy/Target.java'))).toEqual([]);
    expect(new Set(lines.map((l) => l.commit)).size).toBe(COMMITS / 10 + 1);
    // no rename to look for: blame found each path by name in the raw trees and listed none of them
    expect(bounded.cachedTreeEntries).toBe(0);
  });

  it("keeps no more tree entries than its budget when every commit's tree is listed", async () => {
    const commits = fx.git('rev-list', 'HEAD').trim().split('\n');
    const budget = 5 * (FILES + 1);
    const bounded = sessionWith(budget);
    const unbounded = sessionWith(10_000_000);
    for (const commit of commits) {
      expect((await bounded.listTree(commit)).length).toBe(FILES + 1);
      await unbounded.listTree(commit);
    }
    expect(bounded.cachedTreeEntries).toBeGreaterThan(0);
    expect(bounded.cachedTreeEntries).toBeLessThanOrEqual(budget);
    // The listings held far more than the budget: the bound is what kept them out.
    expect(unbounded.cachedTreeEntries).toBeGreaterThan(COMMITS * FILES);
  });
});
