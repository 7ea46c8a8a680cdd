import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../../runner/src/errors.ts';
import { markRunner, otherRunnersAlive, prepareDataDir, sweepLeftovers } from '../../../runner/src/data-dir.ts';
import { checkRepoPath, checkTreePaths, diskFullError, gitBlobOid, SnapshotStore } from '../../../runner/src/store.ts';

let dir: string;
let store: SnapshotStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-store-'));
  store = new SnapshotStore(dir);
  await store.init();
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('SnapshotStore', () => {
  it('hashes blobs as git does', () => {
    // `printf 'hello\n' | git hash-object --stdin`
    expect(gitBlobOid(Buffer.from('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('lists missing blobs, then materialises the tree once complete', async () => {
    const a = Buffer.from('class A {}\n');
    const manifest = { treeId: 'f'.repeat(40), files: [{ path: 'src/A.java', oid: gitBlobOid(a) }] };
    expect(await store.putManifest(manifest)).toEqual({ treeId: manifest.treeId, complete: false, missingBlobs: [gitBlobOid(a)] });
    await expect(store.tree(manifest.treeId)).rejects.toMatchObject({ code: 'unknown-snapshot' });
    await store.putBlob(gitBlobOid(a), a);
    const tree = await store.tree(manifest.treeId);
    expect(await readFile(path.join(tree.dir, 'src/A.java'), 'utf8')).toBe('class A {}\n');
  });

  it('refuses a blob whose content does not hash to its key, and keeps nothing', async () => {
    await expect(store.putBlob(gitBlobOid(Buffer.from('x')), Buffer.from('y'))).rejects.toBeInstanceOf(HttpError);
    expect(store.hasBlob(gitBlobOid(Buffer.from('x')))).toBe(false);
  });

  it('rejects paths that escape the tree', () => {
    for (const bad of ['../etc/passwd', '/abs', 'a//b', 'a/./b', 'a\\b', '']) expect(() => checkRepoPath(bad, 'test')).toThrow(HttpError);
    expect(() => checkRepoPath('src/main/java/A.java', 'test')).not.toThrow();
  });
});

describe('SnapshotStore: all or nothing, and path conflicts', () => {
  it('stores nothing of a blob batch when one oid does not match its content', async () => {
    const good = Buffer.from('good\n');
    await expect(store.putBlobs([[gitBlobOid(good), good], [gitBlobOid(Buffer.from('x')), Buffer.from('y')]])).rejects.toMatchObject({ status: 400 });
    expect(store.hasBlob(gitBlobOid(good))).toBe(false);
    expect(await store.putBlobs([[gitBlobOid(good), good]])).toEqual([gitBlobOid(good)]);
    expect(store.hasBlob(gitBlobOid(good))).toBe(true);
  });

  it('refuses a file list where a path is both a file and a directory', () => {
    expect(() => checkTreePaths(['a', 'a/b'], 'Snapshot t')).toThrow('both the file "a" and "a/b"');
    expect(() => checkTreePaths(['x/a/b/c', 'x/a'], 'Snapshot t')).toThrow('both the file "x/a" and "x/a/b/c"');
    expect(() => checkTreePaths(['a', 'a'], 'Snapshot t')).toThrow('twice');
    expect(() => checkTreePaths(['a.txt', 'a/b', 'ab/c'], 'Snapshot t')).not.toThrow();
  });

  it('refuses such a manifest and treats one already on disk as absent, so a corrected one replaces it', async () => {
    const a = Buffer.from('a\n');
    const treeId = 'e'.repeat(40);
    const bad = { treeId, files: [{ path: 'a', oid: gitBlobOid(a) }, { path: 'a/b', oid: gitBlobOid(a) }] };
    await expect(store.putManifest(bad)).rejects.toMatchObject({ status: 400 });
    // as an older runner would have stored it
    await writeFile(path.join(store.manifestsDir, `${treeId}.json`), JSON.stringify(bad));
    await store.putBlob(gitBlobOid(a), a);
    await expect(store.tree(treeId)).rejects.toMatchObject({ code: 'unknown-snapshot' });
    expect(await readdir(store.treesDir)).toEqual([]);
    await store.putManifest({ treeId, files: [{ path: 'a/b', oid: gitBlobOid(a) }] });
    expect(await readFile(path.join((await store.tree(treeId)).dir, 'a/b'), 'utf8')).toBe('a\n');
  });

  it('refuses overlays that conflict with the snapshot, naming both paths', async () => {
    const a = Buffer.from('class A {}\n');
    const treeId = 'd'.repeat(40);
    await store.putBlob(gitBlobOid(a), a);
    await store.putManifest({ treeId, files: [{ path: 'src/A.java', oid: gitBlobOid(a) }] });
    await expect(store.checkOverlay(treeId, { 'src/A.java/x.txt': 'x' })).rejects.toThrow('"src/A.java" is a file');
    await expect(store.checkOverlay(treeId, { 'src/A.java/x.txt': 'x', 'src/A.java': null })).rejects.toThrow('"src/A.java" is a file');
    await expect(store.checkOverlay(treeId, { src: 'x' })).rejects.toThrow('"src" is a directory');
    await expect(store.checkOverlay(treeId, { 'n/a': 'x', 'n/a/b': 'y' })).rejects.toThrow('both the file "n/a"');
    await expect(store.checkOverlay(treeId, { '../x': 'x' })).rejects.toThrow('invalid path');
    await expect(store.checkOverlay(treeId, { 'src/A.java': 'x', 'src/B.java': 'y', 'src/A.java.orig': 'z', src2: 'w' })).resolves.toBeUndefined();
  });

  it('names the data directory when a write fails for lack of space', () => {
    const e = diskFullError(Object.assign(new Error('no space'), { code: 'ENOSPC' }), '/data/dir');
    expect(e).toMatchObject({ status: 507, code: 'disk-full' });
    expect(e!.message).toContain('/data/dir');
    expect(diskFullError(Object.assign(new Error('x'), { code: 'EACCES' }), '/data/dir')).toBeUndefined();
  });
});

describe('data directory at start', () => {
  it('opens the directories it creates above the data directory, whatever the umask', async () => {
    const old = process.umask(0o077);
    try {
      await prepareDataDir(path.join(dir, 'made', 'here', 'data'), true);
    } finally {
      process.umask(old);
    }
    for (const d of ['made', 'made/here', 'made/here/data']) expect((await stat(path.join(dir, d))).mode & 0o777).toBe(0o755);
  });

  it('leaves the sweep to the last runner: nothing is removed while another live runner uses the directory', async () => {
    const work = path.join(dir, 'work', 'cold-busy');
    await mkdir(work, { recursive: true });
    const other = await markRunner(dir); // this process is alive
    try {
      expect(await otherRunnersAlive(dir)).toBe(true);
      expect(await sweepLeftovers(dir, true)).toEqual([]);
      await expect(stat(work)).resolves.toBeTruthy();
    } finally {
      await other.unmark();
    }
    const dead = spawnSync('true').pid!;
    await writeFile(path.join(dir, 'runners', `${dead}-x`), '');
    expect(await otherRunnersAlive(dir)).toBe(false);
    expect(await readdir(path.join(dir, 'runners'))).toEqual([]);
    expect(await sweepLeftovers(dir, false)).toEqual([work]);
  });

  it("does not count a runner's own marker, and never sweeps a harness build whose process is alive", async () => {
    const mine = await markRunner(dir);
    try {
      // a runner marks itself before it looks: alone, it is the only one
      expect(await otherRunnersAlive(dir, mine.name)).toBe(false);
      const building = path.join(dir, 'harness', `0123456789abcdef.tmp-${process.pid}-x`);
      const dead = spawnSync('true').pid!;
      const abandoned = path.join(dir, 'harness', `0123456789abcdef.tmp-${dead}-y`);
      await mkdir(building, { recursive: true });
      await mkdir(abandoned, { recursive: true });
      expect(await sweepLeftovers(dir, false)).toEqual([abandoned]);
      await expect(stat(building)).resolves.toBeTruthy();
    } finally {
      await mine.unmark();
    }
  });
});
