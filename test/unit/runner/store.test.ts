import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../../runner/src/errors.ts';
import { checkRepoPath, gitBlobOid, SnapshotStore } from '../../../runner/src/store.ts';

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
