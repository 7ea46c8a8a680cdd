// Imports other than bundles: a bare packfile, a repository folder (as a file list), a .zip of one;
// and the clear refusals (not a repository, shallow clone).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RepoStore } from '../../../worker/repo/repo-store.ts';
import { GitFixture, removeDir, tempDir } from './git-fixture.ts';

function filesUnder(root: string, dir = root): { path: string; bytes: Uint8Array }[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(root, full) : [{ path: relative(root, full), bytes: new Uint8Array(readFileSync(full)) }];
  });
}

describe('importing packs, folders and zips', () => {
  let work: string;
  let fx: GitFixture;
  let commits: string[];

  beforeAll(() => {
    work = tempDir('import-formats');
    fx = new GitFixture(join(work, 'project'));
    fx.write('src/A.java', 'class A {}\n');
    const c1 = fx.commit('one');
    fx.git('checkout', '-q', '-b', 'side');
    fx.write('src/B.java', 'class B {}\n');
    const side = fx.commit('side work');
    fx.git('checkout', '-q', 'main');
    fx.write('src/A.java', 'class A { int x; }\n');
    const c2 = fx.commit('two');
    commits = [c1, side, c2];
  });

  afterAll(() => removeDir(work));

  const store = (name: string) => new RepoStore(createNodePlatform({ root: join(work, name) }));

  it('imports a bare packfile, naming the newest tip main', async () => {
    const pack = execFileSync('git', ['pack-objects', '--all', '--stdout'], { cwd: fx.dir, input: '', maxBuffer: 1 << 26 });
    const s = store('pack');
    const result = await s.importPack('p', new Uint8Array(pack));
    expect(result.head).toBe(commits[2]);
    expect(result.refs.map((r) => r.oid).sort()).toEqual([commits[1], commits[2]].sort());
    const session = await s.openRepo('p');
    expect(await session.resolveRef('main')).toBe(commits[2]);
    expect(new TextDecoder().decode(await session.readFileAt(commits[1]!, 'src/B.java'))).toBe('class B {}\n');
  });

  it('imports a repository folder (work tree with .git) and a zip of it; loose objects included', async () => {
    const s = store('folder');
    const result = await s.importGitFiles('f', filesUnder(fx.dir), { label: 'project/' });
    expect(result.head).toBe(commits[2]);
    expect(result.refs.map((r) => r.name).sort()).toEqual(['refs/heads/main', 'refs/heads/side']);
    const session = await s.openRepo('f');
    expect(await session.resolveRef('side')).toBe(commits[1]);
    expect(execFileSync('git', ['--git-dir', join(work, 'folder', 'repos', 'f'), 'fsck'], { encoding: 'utf8' })).toBe('');

    const zipped = zipSync(Object.fromEntries(filesUnder(fx.dir).map((f) => [`project/${f.path}`, f.bytes])));
    const z = await s.importZip('z', zipped, { label: 'project.zip' });
    expect(z.head).toBe(commits[2]);
  });

  it('refuses a folder that is not a repository, a shallow clone and a broken zip, storing nothing', async () => {
    const s = store('refuse');
    await expect(s.importGitFiles('x', [{ path: 'src/A.java', bytes: new Uint8Array([1]) }], { label: 'src/' })).rejects.toThrow(
      /src\/ is not a git repository.*contains \.git/,
    );
    const shallow = join(work, 'shallow');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${fx.dir}`, shallow]);
    await expect(s.importGitFiles('sh', filesUnder(shallow))).rejects.toThrow(/shallow clone.*unshallow/);
    await expect(s.importZip('zz', new Uint8Array([1, 2, 3, 4]), { label: 'bad.zip' })).rejects.toThrow(/bad\.zip is not a readable zip/);
    const headObject = `.git/objects/${commits[2]!.slice(0, 2)}/${commits[2]!.slice(2)}`;
    const broken = filesUnder(fx.dir).filter((f) => f.path !== headObject);
    await expect(s.importGitFiles('br', broken)).rejects.toThrow(/incomplete or corrupt/);
    expect(await s.listRepos()).toEqual([]);
  });
});
