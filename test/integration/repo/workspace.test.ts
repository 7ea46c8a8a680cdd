import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceError } from '../../../worker/contracts/workspace.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import type { RepoSession } from '../../../worker/repo/session.ts';
import { RepoStore } from '../../../worker/repo/repo-store.ts';
import { openWorkspace } from '../../../worker/repo/git-workspace.ts';
import { GitFixture, removeDir, tempDir } from './git-fixture.ts';

const JAVA = [
  'package demo;',
  '',
  '/** A counter. */',
  'public class Counter {',
  '  private int count;',
  '',
  '  public void increment() {',
  '    count++;',
  '  }',
  '',
  '  public int get() {',
  '    return count;',
  '  }',
  '',
  '  public void reset() {',
  '    count = 0;',
  '  }',
  '',
  '  public String describe() {',
  '    return "count=" + count;',
  '  }',
  '}',
  '',
].join('\n');

describe('Workspace (tree at a commit + copy-on-write overlay)', () => {
  let work: string;
  let fixture: GitFixture;
  let session: RepoSession;
  let c1: string;
  let c2: string;

  beforeAll(async () => {
    work = tempDir('ws');
    fixture = new GitFixture(join(work, 'src'));
    fixture.write('src/demo/Counter.java', JAVA);
    fixture.write('src/demo/Util.java', 'package demo;\nclass Util {}\n');
    fixture.write('README.md', 'readme\nno newline at end');
    fixture.write('gone.txt', 'delete me\n');
    c1 = fixture.commit('one');
    fixture.write('src/demo/Util.java', 'package demo;\nclass Util { int v; }\n');
    c2 = fixture.commit('two');
    const store = new RepoStore(createNodePlatform({ root: join(work, 'store') }));
    await store.importBundle('ws', new Uint8Array(readFileSync(fixture.bundle(join(work, 'ws.bundle')))));
    session = await store.openRepo('ws');
  });

  afterAll(() => removeDir(work));

  it('reads files at a commit and answers exists/isDirectory/listFiles', async () => {
    const old = await openWorkspace(session, c1);
    expect(old.commit).toBe(c1);
    expect(await old.read('src/demo/Util.java')).toBe('package demo;\nclass Util {}\n');
    expect(await old.read('./src//demo\\Util.java')).toBe('package demo;\nclass Util {}\n');
    const ws = await openWorkspace(session, 'main');
    expect(ws.commit).toBe(c2);
    expect(await ws.read('src/demo/Util.java')).toContain('int v;');
    expect(await ws.exists('src/demo')).toBe(true);
    expect(await ws.isDirectory('src/demo')).toBe(true);
    expect(await ws.isDirectory('src/demo/Util.java')).toBe(false);
    expect(await ws.exists('src/nope')).toBe(false);
    expect(await ws.listFiles('src')).toEqual(['src/demo/Counter.java', 'src/demo/Util.java']);
    expect((await ws.baseFiles()).map((f) => f.path)).toEqual(['README.md', 'gone.txt', 'src/demo/Counter.java', 'src/demo/Util.java']);
    const utilOid = (await ws.baseFiles()).find((f) => f.path === 'src/demo/Util.java')!.oid;
    expect(new TextDecoder().decode(await ws.readBaseBlob(utilOid))).toContain('int v;');
  });

  it('gives clear errors naming the path', async () => {
    const ws = await openWorkspace(session, c2);
    await expect(ws.read('src/Missing.java')).rejects.toMatchObject({ code: 'not-found', path: 'src/Missing.java' });
    await expect(ws.read('src/demo')).rejects.toMatchObject({ code: 'is-directory' });
    await expect(ws.read('../etc/passwd')).rejects.toBeInstanceOf(WorkspaceError);
    await expect(ws.read('')).rejects.toMatchObject({ code: 'invalid-path' });
    await expect(ws.write('src/demo', 'x')).rejects.toMatchObject({ code: 'is-directory' });
    await expect(ws.write('README.md/inner.txt', 'x')).rejects.toMatchObject({ code: 'invalid-path' });
    await expect(ws.delete('nothing.txt')).rejects.toMatchObject({ code: 'not-found', message: expect.stringContaining('nothing.txt') });
  });

  it('keeps edits in the overlay: write, delete, revert, fork, setOverlay', async () => {
    const ws = await openWorkspace(session, c2);
    await ws.write('src/demo/New.java', 'class New {}\n');
    await ws.delete('gone.txt');
    expect(await ws.read('src/demo/New.java')).toBe('class New {}\n');
    await expect(ws.read('gone.txt')).rejects.toMatchObject({ code: 'not-found', message: expect.stringContaining('deleted in this workspace') });
    expect(await ws.exists('gone.txt')).toBe(false);
    expect(await ws.listFiles()).toEqual(['README.md', 'src/demo/Counter.java', 'src/demo/New.java', 'src/demo/Util.java']);
    expect(ws.overlay()).toEqual({ 'src/demo/New.java': 'class New {}\n', 'gone.txt': null });

    const fork = ws.fork();
    await fork.write('README.md', 'changed\n');
    expect(await ws.read('README.md')).toBe('readme\nno newline at end');
    expect(await fork.read('README.md')).toBe('changed\n');

    // Deleting a file that only exists in the overlay removes the edit entirely.
    await ws.delete('src/demo/New.java');
    expect(ws.overlay()).toEqual({ 'gone.txt': null });
    ws.revert(['gone.txt']);
    expect(await ws.read('gone.txt')).toBe('delete me\n');
    const saved = fork.overlay();
    fork.revert();
    expect(fork.overlay()).toEqual({});
    fork.setOverlay(saved);
    expect(await fork.read('README.md')).toBe('changed\n');
    // Deleting every file of a directory makes the directory disappear.
    await ws.delete('src/demo/Counter.java');
    await ws.delete('src/demo/Util.java');
    expect(await ws.isDirectory('src/demo')).toBe(false);
    expect(await ws.diff()).toContain('deleted file mode 100644');
  });

  it('prints the same diff as `git diff` for the same edits', async () => {
    const ws = await openWorkspace(session, c2);
    const lines = JAVA.split('\n');
    lines[7] = '    count += 1;'; // one line in increment()
    lines[19] = '    return "count: " + count;'; // a far-away second hunk in describe()
    lines.splice(12, 0, '  // getter above'); // an insertion close to the first hunk
    await ws.write('src/demo/Counter.java', lines.join('\n'));
    await ws.write('README.md', 'readme\nno newline at end\nnow with one\n');
    await ws.write('src/demo/Util.java', 'package demo;\nclass Util { int v; }'); // drops the final newline
    await ws.write('docs/added.md', '# Added\n\ntext\n');
    await ws.write('empty.txt', '');
    await ws.delete('gone.txt');
    const ours = await ws.diff();

    for (const [path, content] of Object.entries(ws.overlay())) {
      if (content === null) fixture.git('rm', '-q', path);
      else fixture.write(path, content);
    }
    fixture.git('add', '-A');
    const theirs = fixture.git('diff', '--cached', '--no-color', '--no-ext-diff', '--no-renames');
    fixture.git('reset', '-q', '--hard');
    expect(ours).toBe(theirs);
    expect(ours).toContain('@@ -5,11 +5,12 @@ public class Counter {');
  });
});
