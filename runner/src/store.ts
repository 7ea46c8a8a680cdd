// Content-addressed store of base snapshots: blobs keyed by their git blob oid (verified on upload),
// manifests keyed by tree id, and each complete snapshot materialised once as a read-only directory tree.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SnapshotManifest, SnapshotStatus } from '../../worker/contracts/runner-api.ts';
import { HttpError } from './errors.ts';

export function gitBlobOid(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

/** Repo-relative, '/'-separated, no '..', no absolute paths, no control characters. */
export function checkRepoPath(p: string, what: string): void {
  const bad =
    p.length === 0 ||
    p.startsWith('/') ||
    p.includes('\\') ||
    [...p].some((c) => c.charCodeAt(0) < 0x20) ||
    p.split('/').some((seg) => seg === '' || seg === '.' || seg === '..');
  if (bad) throw new HttpError(400, 'bad-request', `${what} has an invalid path "${p}": use repo-relative paths with '/' separators and no '..'.`);
}

/** Every proper prefix directory of a repo path: `a/b/c` → `a`, `a/b`. */
function parentDirs(p: string): string[] {
  const out: string[] = [];
  for (let i = p.indexOf('/'); i !== -1; i = p.indexOf('/', i + 1)) out.push(p.slice(0, i));
  return out;
}

/** Refuses a file list that cannot be a directory tree: a path twice, or a file that is also another file's directory. */
export function checkTreePaths(paths: string[], what: string): void {
  const files = new Set<string>();
  for (const p of paths) {
    checkRepoPath(p, what);
    if (files.has(p)) throw new HttpError(400, 'bad-request', `${what} lists "${p}" twice.`);
    files.add(p);
  }
  for (const p of paths) {
    const clash = parentDirs(p).find((d) => files.has(d));
    if (clash !== undefined) {
      throw new HttpError(400, 'bad-request', `${what} lists both the file "${clash}" and "${p}" inside it: a path cannot be a file and a directory. Send the tree as git has it.`);
    }
  }
}

/** A write failed for lack of space (or quota): 507 naming the data directory, so the operator knows what to free. */
export function diskFullError(e: unknown, dataDir: string): HttpError | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return undefined;
  return new HttpError(
    507,
    'disk-full',
    `The runner's data directory ${dataDir} is full (${code}): free space on its disk, or restart the runner with --data-dir on a larger one.`,
    { dataDir },
  );
}

interface ReadyTree {
  dir: string;
  manifest: SnapshotManifest;
  /** the snapshot's file paths and directory paths, for overlay conflict checks (built on first use) */
  index?: { files: Set<string>; dirs: Set<string> };
}

export class SnapshotStore {
  readonly blobsDir: string;
  readonly manifestsDir: string;
  readonly treesDir: string;
  private materialising = new Map<string, Promise<string>>();
  /** trees known to be materialised: validations skip re-reading the manifest and re-checking every blob */
  private readyTrees = new Map<string, ReadyTree>();

  constructor(readonly dataDir: string) {
    this.blobsDir = path.join(dataDir, 'blobs');
    this.manifestsDir = path.join(dataDir, 'snapshots');
    this.treesDir = path.join(dataDir, 'trees');
  }

  async init(): Promise<void> {
    for (const d of [this.dataDir, this.blobsDir, this.manifestsDir, this.treesDir, path.join(this.dataDir, 'work')]) await mkdir(d, { recursive: true });
    // sandboxed processes may run as an unprivileged user: they need to traverse to the trees they read
    await chmod(this.dataDir, 0o755).catch(() => undefined);
    await chmod(this.treesDir, 0o755).catch(() => undefined);
  }

  /** Runs a write; a full disk becomes a 507 naming the data directory. */
  private async writing<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw diskFullError(e, this.dataDir) ?? e;
    }
  }

  private blobPath(oid: string): string {
    return path.join(this.blobsDir, oid.slice(0, 2), oid.slice(2));
  }

  /** The stored blob's file (uploaded jars are copied from here). */
  blobFile(oid: string): string {
    return this.blobPath(oid);
  }

  hasBlob(oid: string): boolean {
    return existsSync(this.blobPath(oid));
  }

  private static checkBlob(oid: string, bytes: Uint8Array): void {
    if (!/^[0-9a-f]{40}$/.test(oid)) throw new HttpError(400, 'bad-request', `Blob key "${oid}" is not a 40-hex git blob oid.`);
    const actual = gitBlobOid(bytes);
    if (actual !== oid) {
      throw new HttpError(400, 'bad-request', `Blob ${oid} does not match its content (the content hashes to ${actual}); re-read it from the repository and upload again.`);
    }
  }

  async putBlob(oid: string, bytes: Uint8Array): Promise<void> {
    await this.putBlobs([[oid, bytes]]);
  }

  /**
   * Stores a batch all or nothing: every oid is checked against its content before the first is written, and blobs
   * this call wrote are removed again when a later write fails (a full disk). Returns the oids, in order.
   */
  async putBlobs(blobs: Array<[oid: string, bytes: Uint8Array]>): Promise<string[]> {
    for (const [oid, bytes] of blobs) SnapshotStore.checkBlob(oid, bytes);
    const written: string[] = [];
    try {
      for (const [oid, bytes] of blobs) {
        if (this.hasBlob(oid)) continue;
        const file = this.blobPath(oid);
        const tmp = `${file}.${randomUUID()}.tmp`;
        await this.writing(async () => {
          await mkdir(path.dirname(file), { recursive: true });
          try {
            await writeFile(tmp, bytes);
            await rename(tmp, file);
          } catch (e) {
            await rm(tmp, { force: true });
            throw e;
          }
        });
        written.push(file);
      }
    } catch (e) {
      await Promise.all(written.map((f) => rm(f, { force: true })));
      throw e;
    }
    return blobs.map(([oid]) => oid);
  }

  readBlob(oid: string): Promise<Buffer> {
    return readFile(this.blobPath(oid));
  }

  async putManifest(manifest: SnapshotManifest): Promise<SnapshotStatus> {
    checkTreePaths(
      manifest.files.map((f) => f.path),
      `Snapshot ${manifest.treeId}`,
    );
    const existing = await this.manifest(manifest.treeId);
    if (!existing) {
      const file = path.join(this.manifestsDir, `${manifest.treeId}.json`);
      const tmp = `${file}.${randomUUID()}.tmp`;
      await this.writing(async () => {
        try {
          await writeFile(tmp, JSON.stringify(manifest));
          await rename(tmp, file);
        } catch (e) {
          await rm(tmp, { force: true });
          throw e;
        }
      });
    }
    return this.status(manifest.treeId, existing ?? manifest);
  }

  /** The stored manifest; one that is unreadable or not a valid tree (stored by an older runner) counts as absent. */
  async manifest(treeId: string): Promise<SnapshotManifest | undefined> {
    try {
      const manifest = JSON.parse(await readFile(path.join(this.manifestsDir, `${treeId}.json`), 'utf8')) as SnapshotManifest;
      checkTreePaths(
        manifest.files.map((f) => f.path),
        'stored snapshot',
      );
      return manifest;
    } catch {
      return undefined;
    }
  }

  /**
   * Refuses an overlay that cannot be laid over the snapshot: a file written where the snapshot has a directory, a
   * file written inside one of the snapshot's files, or two overlay entries where one is the other's directory.
   * Checked before anything is written or dispatched.
   */
  async checkOverlay(treeId: string, overlay: Record<string, string | null>): Promise<void> {
    for (const p of Object.keys(overlay)) checkRepoPath(p, 'overlay');
    const ready = await this.tree(treeId);
    if (!ready.index) {
      const files = new Set(ready.manifest.files.map((f) => f.path));
      const dirs = new Set(ready.manifest.files.flatMap((f) => parentDirs(f.path)));
      ready.index = { files, dirs };
    }
    const { files, dirs } = ready.index;
    const written = Object.keys(overlay).filter((p) => overlay[p] !== null);
    const writtenSet = new Set(written);
    for (const p of written) {
      if (dirs.has(p)) {
        throw new HttpError(400, 'bad-request', `The overlay writes the file "${p}", but "${p}" is a directory in snapshot ${treeId}: choose another path.`);
      }
      for (const d of parentDirs(p)) {
        // (also when the overlay deletes that file: the cold path applies entries in request order)
        if (files.has(d)) {
          throw new HttpError(400, 'bad-request', `The overlay writes "${p}", but "${d}" is a file in snapshot ${treeId}, not a directory: choose another path.`);
        }
        if (writtenSet.has(d)) {
          throw new HttpError(400, 'bad-request', `The overlay writes both the file "${d}" and "${p}" inside it: a path cannot be a file and a directory.`);
        }
      }
    }
  }

  status(treeId: string, manifest: SnapshotManifest): SnapshotStatus {
    const missing = [...new Set(manifest.files.map((f) => f.oid).filter((oid) => !this.hasBlob(oid)))];
    return { treeId, complete: missing.length === 0, missingBlobs: missing };
  }

  /** Directory holding the snapshot's files (read-only for sandboxes); throws 404 when unknown or incomplete. */
  async tree(treeId: string): Promise<ReadyTree> {
    const ready = this.readyTrees.get(treeId);
    if (ready) return ready;
    const manifest = await this.manifest(treeId);
    if (!manifest) {
      throw new HttpError(404, 'unknown-snapshot', `Snapshot ${treeId} is not on this runner: PUT /v1/snapshots with its manifest and upload the missing blobs first.`);
    }
    const status = this.status(treeId, manifest);
    if (!status.complete) {
      throw new HttpError(404, 'unknown-snapshot', `Snapshot ${treeId} is incomplete (${status.missingBlobs.length} blobs missing): POST them to /v1/blobs first.`, {
        missingBlobs: status.missingBlobs.slice(0, 50),
      });
    }
    const dir = path.join(this.treesDir, treeId);
    // the tree is renamed into place when complete, so its existence means it is whole
    if (existsSync(dir)) {
      const found = { dir, manifest };
      this.readyTrees.set(treeId, found);
      return found;
    }
    let pending = this.materialising.get(treeId);
    if (!pending) {
      pending = this.materialise(treeId, manifest, dir).finally(() => this.materialising.delete(treeId));
      this.materialising.set(treeId, pending);
    }
    await pending;
    const made = this.readyTrees.get(treeId) ?? { dir, manifest };
    this.readyTrees.set(treeId, made);
    return made;
  }

  private async materialise(treeId: string, manifest: SnapshotManifest, dir: string): Promise<string> {
    const tmp = path.join(this.treesDir, `.${treeId}.${randomUUID()}`);
    try {
      await this.writing(async () => {
        await mkdir(tmp, { recursive: true, mode: 0o755 });
        for (const f of manifest.files) {
          const target = path.join(tmp, f.path);
          await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
          await writeFile(target, await this.readBlob(f.oid), { mode: 0o644 });
        }
      });
    } catch (e) {
      // a half-written tree would never be used again: leave nothing behind
      await rm(tmp, { recursive: true, force: true });
      throw e;
    }
    try {
      await rename(tmp, dir);
    } catch (e) {
      // another runner sharing this data directory materialised it first: keep theirs (it may be in use)
      await rm(tmp, { recursive: true, force: true });
      if (!existsSync(dir)) throw e;
    }
    return dir;
  }
}
