// Focused blame cases, each checked against `git blame --porcelain` on the same repository and,
// where the expected owner is obvious by construction, against that commit too.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blame, blameLines } from '../../../worker/history/blame.ts';
import { blameCommand } from '../../../worker/cli/on-disk-repo.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import type { RepoSession } from '../../../worker/repo/session.ts';
import { RepoStore } from '../../../worker/repo/repo-store.ts';
import { GitFixture, removeDir, tempDir } from '../repo/git-fixture.ts';
import { compareBlame, gitBlame } from './parity.ts';

const body = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `    ${prefix} line ${i} with enough text to hash;\n`).join('');

describe('blame: renames, merges and git rename scoring', () => {
  let work: string;
  let fx: GitFixture;
  let session: RepoSession;
  const c: Record<string, string> = {};

  beforeAll(async () => {
    work = tempDir('blame-cases');
    fx = new GitFixture(join(work, 'repo'));
    fx.write('a/Widget.java', body('widget', 20));
    fx.write('b/Other.java', body('other', 20));
    fx.write('Small.java', body('small', 10));
    fx.write('old/Shrink.java', body('shrink', 30));
    c.base = fx.commit('base');

    // Rename with small edits (~90% similar): blame follows to the old path.
    mkdirSync(join(fx.dir, 'core'));
    fx.git('mv', 'a/Widget.java', 'core/Widget.java');
    fx.write('core/Widget.java', readFileSync(join(fx.dir, 'core/Widget.java'), 'utf8').replace('widget line 3 ', 'widget line three '));
    c.move = fx.commit('move widget');

    // Rename with heavy edits (< 50% similar): git does not follow; the new file starts here.
    fx.git('mv', 'Small.java', 'Tiny.java');
    fx.write('Tiny.java', body('small', 3) + body('rewritten', 8));
    c.rewrite = fx.commit('rewrite small as tiny');

    // A rename that drops 40% of the file (60% similar): git's size pre-check compares the size change
    // with the larger file, so the rename is followed (jackson-databind's 9610aff moved
    // DeserializationConfig.java to cfg/ this way).
    mkdirSync(join(fx.dir, 'cfg'));
    fx.git('mv', 'old/Shrink.java', 'cfg/Shrink.java');
    fx.write('cfg/Shrink.java', body('shrink', 18) + '    new shrink line;\n');
    c.shrink = fx.commit('move shrink and drop most of it');

    // Two deleted files could be the source; the one with the same basename wins at >= 75% even though
    // the other one is more similar.
    fx.write('x/Target.java', body('target', 20));
    const renamed = body('target', 20).replace('target line 0 ', 'target line zero ').replace('target line 1 ', 'target line one ').replace('target line 2 ', 'target line two ');
    // The decoy is closer to the final file (95%) than the real source (85%).
    fx.write('y/Decoy.java', renamed.replace('target line 19', 'decoy line 19'));
    c.pair = fx.commit('add target and decoy');
    fx.git('rm', '-q', 'x/Target.java', 'y/Decoy.java');
    fx.write('z/Target.java', renamed);
    c.pick = fx.commit('target moves, decoy goes');

    // A merge: lines from the second parent keep their topic-branch commit.
    fx.git('checkout', '-q', '-b', 'topic');
    fx.write('b/Other.java', body('other', 20) + '    added on topic;\n');
    c.topic = fx.commit('topic adds a line');
    fx.git('checkout', '-q', 'main');
    fx.write('b/Other.java', '    added on main;\n' + body('other', 20));
    c.main = fx.commit('main adds a line');
    fx.git('merge', '-q', '--no-ff', '--no-edit', 'topic');
    c.merge = fx.git('rev-parse', 'HEAD').trim();

    // CRLF lines, tabs, a file emptied and refilled, and a binary-looking file.
    fx.write('crlf.txt', 'one\r\n\ttwo\r\nthree\r\n');
    fx.write('empty.txt', 'x\n');
    fx.write('bin.dat', 'a\0b\nc\n');
    c.crlf1 = fx.commit('crlf and friends');
    fx.write('crlf.txt', 'one\r\n\ttwo\r\n\tinserted\r\nthree\r\nfour');
    fx.write('empty.txt', '');
    fx.write('bin.dat', 'a\0b\nc\nd\n');
    c.crlf2 = fx.commit('edit them');
    fx.write('empty.txt', 'x\ny\n');
    c.crlf3 = fx.commit('refill');

    const store = new RepoStore(createNodePlatform({ root: join(work, 'store') }));
    await store.importBundle('cases', new Uint8Array(readFileSync(fx.bundle(join(work, 'cases.bundle')))));
    session = await store.openRepo('cases');
  });

  afterAll(() => removeDir(work));

  const parity = async (path: string, rev = 'HEAD') => {
    const ours = await blame(session, path, rev);
    expect(compareBlame(path, ours, gitBlame(fx.dir, path, rev))).toEqual([]);
    return ours;
  };

  it('follows a rename with small edits to the old path', async () => {
    const lines = await parity('core/Widget.java');
    expect(lines[0]).toEqual({ line: 1, commit: c.base, path: 'a/Widget.java', origLine: 1 });
    expect(lines[3]).toMatchObject({ commit: c.move, path: 'core/Widget.java' });
  });

  it('follows a rename that shrinks the file by more than half of what is left, as git does', async () => {
    const lines = await parity('cfg/Shrink.java');
    expect(lines[5]).toEqual({ line: 6, commit: c.base, path: 'old/Shrink.java', origLine: 6 });
    expect(lines[18]).toMatchObject({ commit: c.shrink, path: 'cfg/Shrink.java' });
  });

  it('does not follow a rename below 50% similarity', async () => {
    const lines = await parity('Tiny.java');
    expect(new Set(lines.map((l) => l.commit))).toEqual(new Set([c.rewrite]));
  });

  it('prefers a unique same-basename source, like git', async () => {
    const lines = await parity('z/Target.java');
    expect(lines[10]).toMatchObject({ commit: c.pair, path: 'x/Target.java', origLine: 11 });
  });

  it('passes blame through both parents of a merge', async () => {
    const lines = await parity('b/Other.java');
    expect(lines[0]).toMatchObject({ commit: c.main, origLine: 1 });
    expect(lines[21]).toMatchObject({ commit: c.topic, origLine: 21 });
    expect(lines[5]).toMatchObject({ commit: c.base, origLine: 5 });
    expect((await blameLines(session, 'b/Other.java', c.merge!, [22]))[0]?.commit).toBe(c.topic);
  });

  it('handles CRLF, tabs, a missing final newline, emptied files and binary content like git', async () => {
    const crlf = await parity('crlf.txt');
    expect(crlf.map((l) => l.commit)).toEqual([c.crlf1, c.crlf1, c.crlf2, c.crlf1, c.crlf2]);
    const refilled = await parity('empty.txt');
    expect(refilled.map((l) => l.commit)).toEqual([c.crlf3, c.crlf3]);
    expect(await parity('empty.txt', c.crlf2)).toEqual([]);
    await parity('bin.dat');
  });

  it('blameCommand reads a plain on-disk repository and prints one JSON object per line', async () => {
    const lines: unknown[] = [];
    for await (const json of blameCommand(fx.dir, 'core/Widget.java', 'HEAD')) lines.push(JSON.parse(json));
    expect(lines).toEqual(gitBlame(fx.dir, 'core/Widget.java'));
    await expect(async () => {
      for await (const _ of blameCommand(join(fx.dir, 'core'), 'Widget.java')) void _;
    }).rejects.toThrow(/not a git repository/);
  });

  it('explains bad input', async () => {
    await expect(blame(session, 'nope.java')).rejects.toThrow(/nope\.java does not exist at HEAD/);
    await expect(blame(session, 'core')).rejects.toThrow(/directory/);
    await expect(blameLines(session, 'Tiny.java', 'HEAD', [999])).rejects.toThrow(/outside/);
  });
});
