import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodePlatform, packIndexOids } from '../../../worker/platform/node.ts';
import { GitBundleError as BundleError } from '../../../worker/repo/git-bundle.ts';
import { RepoStore } from '../../../worker/repo/repo-store.ts';
import { GitFixture, removeDir, tempDir } from './git-fixture.ts';

describe('RepoStore on the Node platform', () => {
  let work: string;
  let fixture: GitFixture;
  let commits: string[];
  let bundlePath: string;

  beforeAll(() => {
    work = tempDir('store');
    fixture = new GitFixture(join(work, 'src'));
    fixture.write('README.md', 'hello\n');
    fixture.write('src/main/java/demo/A.java', 'class A {}\n');
    const c1 = fixture.commit('first');
    fixture.write('src/main/java/demo/A.java', 'class A {\n  int x;\n}\n');
    fixture.write('docs/notes.txt', 'notes\n');
    const c2 = fixture.commit('second');
    fixture.git('tag', '-a', 'v1', '-m', 'release one');
    fixture.git('branch', 'side', c1);
    commits = [c1, c2];
    bundlePath = fixture.bundle(join(work, 'repo.bundle'));
  });

  afterAll(() => removeDir(work));

  it('indexes a pack with git index-pack where git is installed, listing the objects isomorphic-git lists', async () => {
    const bytes = new Uint8Array(readFileSync(bundlePath));
    const native = createNodePlatform({ root: join(work, 'store-native') });
    const js = createNodePlatform({ root: join(work, 'store-js'), jsPackIndex: true });
    expect(native.indexPack).toBeTypeOf('function');
    expect(js.indexPack).toBeUndefined();
    const [a, b] = [await new RepoStore(native).importBundle('demo', bytes), await new RepoStore(js).importBundle('demo', bytes)];
    expect(a.objects).toBe(b.objects);
    const listed = (root: string) => execFileSync('git', ['--git-dir', join(root, 'demo'), 'cat-file', '--batch-all-objects', '--batch-check'], { encoding: 'utf8' });
    expect(listed(native.reposRoot)).toBe(listed(js.reposRoot));
    const session = await new RepoStore(native).openRepo('demo');
    expect(new TextDecoder().decode(await session.readFileAt(commits[0]!, 'src/main/java/demo/A.java'))).toBe('class A {}\n');
    expect(() => packIndexOids(new Uint8Array(2000))).toThrow('not a version-2 pack index');
  });

  it('imports a bundle, reports progress, and reads files at each commit without a checkout', async () => {
    const platform = createNodePlatform({ root: join(work, 'store1') });
    const store = new RepoStore(platform);
    const phases = new Set<string>();
    const result = await store.importBundle('demo', new Uint8Array(readFileSync(bundlePath)), { onProgress: (p) => phases.add(p.phase) });
    expect(result.head).toBe(commits[1]);
    expect(phases.size).toBeGreaterThan(1);
    expect(result.refs.map((r) => r.name)).toEqual(expect.arrayContaining(['refs/heads/main', 'refs/heads/side', 'refs/tags/v1']));

    const session = await store.openRepo('demo');
    expect(await session.resolveRef('HEAD')).toBe(commits[1]);
    expect(await session.resolveRef('main~1')).toBe(commits[0]);
    expect(await session.resolveRef('side')).toBe(commits[0]);
    expect(await session.resolveRef('v1')).toBe(commits[1]);
    expect(await session.resolveRef(commits[1]!.slice(0, 8))).toBe(commits[1]);
    const files = await session.listTree(commits[1]!);
    expect(files.map((f) => f.path)).toEqual(['README.md', 'docs/notes.txt', 'src/main/java/demo/A.java']);
    const gitOid = fixture.git('rev-parse', `${commits[0]}:src/main/java/demo/A.java`).trim();
    expect((await session.listTree(commits[0]!)).find((f) => f.path.endsWith('A.java'))?.oid).toBe(gitOid);
    expect(new TextDecoder().decode(await session.readFileAt(commits[0]!, 'src/main/java/demo/A.java'))).toBe('class A {}\n');
    const commit = await session.readCommit(commits[1]!);
    expect(commit.parents).toEqual([commits[0]]);
    expect(commit.message.trim()).toBe('second');
    expect(commit.committer.timestamp).toBe(1_700_000_000 + 2 * 3600);
    await expect(session.resolveRef('nope')).rejects.toThrow(/nope.*not found/);

    // No checkout: the stored repository is a bare git dir that git itself can read.
    expect(execFileSync('git', ['--git-dir', join(platform.reposRoot, 'demo'), 'log', '--format=%H'], { encoding: 'utf8' }).trim().split('\n')).toEqual(
      [...commits].reverse(),
    );
    expect(execFileSync('git', ['--git-dir', join(platform.reposRoot, 'demo'), 'fsck', '--strict'], { encoding: 'utf8' })).toBe('');

    const repos = await store.listRepos();
    expect(repos.map((r) => r.repoId)).toEqual(['demo']);
    expect(repos[0]!.bytes).toBeGreaterThan(100);
    await store.deleteRepo('demo');
    expect(await store.listRepos()).toEqual([]);
    await expect(store.openRepo('demo')).rejects.toThrow(/not in the local store/);
  });

  it('rejects a corrupt bundle and leaves the stored repository untouched', async () => {
    const platform = createNodePlatform({ root: join(work, 'store2') });
    const store = new RepoStore(platform);
    const good = new Uint8Array(readFileSync(bundlePath));
    await store.importBundle('demo', good);
    const before = await store.listRepos();

    const corrupt = good.slice();
    corrupt[corrupt.length - 40] = corrupt[corrupt.length - 40]! ^ 0xff;
    await expect(store.importBundle('demo', corrupt, { label: 'broken.bundle' })).rejects.toThrow(/broken\.bundle.*checksum/);
    const truncated = good.slice(0, good.length - 100);
    await expect(store.importBundle('demo', truncated)).rejects.toThrow(BundleError);
    await expect(store.importBundle('demo', new TextEncoder().encode('not a bundle at all\n'))).rejects.toThrow(/not a git bundle/);

    expect(await store.listRepos()).toEqual(before);
    const session = await store.openRepo('demo');
    expect(new TextDecoder().decode(await session.readFileAt(commits[1]!, 'README.md'))).toBe('hello\n');
    // No temporary import directories are left behind.
    expect(readdirNames(platform.reposRoot)).toEqual(['demo']);
  });

  it('refuses shallow (prerequisite) and SHA-256 bundles with clear errors', async () => {
    const store = new RepoStore(createNodePlatform({ root: join(work, 'store3') }));
    const incremental = join(work, 'incremental.bundle');
    fixture.git('bundle', 'create', '-q', incremental, `${commits[0]}..main`);
    await expect(store.importBundle('inc', new Uint8Array(readFileSync(incremental)))).rejects.toThrow(/prerequisite.*full/);

    const sha256 = new GitFixture(join(work, 'sha256'), 1_700_000_000, ['--object-format=sha256']);
    sha256.write('a.txt', 'a\n');
    sha256.commit('one');
    const file = sha256.bundle(join(work, 'sha256.bundle'));
    await expect(store.importBundle('s', new Uint8Array(readFileSync(file)))).rejects.toThrow(/sha256.*SHA-1 repositories only/i);
    expect(await store.listRepos()).toEqual([]);
  });

  it('replaces a stored repository only after a successful re-import', async () => {
    const store = new RepoStore(createNodePlatform({ root: join(work, 'store4') }));
    await store.importBundle('demo', new Uint8Array(readFileSync(bundlePath)));
    fixture.write('README.md', 'hello again\n');
    const c3 = fixture.commit('third');
    const newer = fixture.bundle(join(work, 'newer.bundle'));
    await store.importBundle('demo', new Uint8Array(readFileSync(newer)));
    const session = await store.openRepo('demo');
    expect(await session.resolveRef('HEAD')).toBe(c3);
    await expect(store.importBundle('../evil', new Uint8Array(readFileSync(newer)))).rejects.toThrow(/not valid/);
  });
});

function readdirNames(dir: string): string[] {
  return execFileSync('ls', ['-A', dir], { encoding: 'utf8' }).split('\n').filter(Boolean);
}
