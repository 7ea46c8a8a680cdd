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

export class SnapshotStore {
  readonly blobsDir: string;
  readonly manifestsDir: string;
  readonly treesDir: string;
  private materialising = new Map<string, Promise<string>>();
  /** trees known to be materialised: validations skip re-reading the manifest and re-checking every blob */
  private readyTrees = new Map<string, { dir: string; manifest: SnapshotManifest }>();

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

  private blobPath(oid: string): string {
    return path.join(this.blobsDir, oid.slice(0, 2), oid.slice(2));
  }

  hasBlob(oid: string): boolean {
    return existsSync(this.blobPath(oid));
  }

  async putBlob(oid: string, bytes: Uint8Array): Promise<void> {
    if (!/^[0-9a-f]{40}$/.test(oid)) throw new HttpError(400, 'bad-request', `Blob key "${oid}" is not a 40-hex git blob oid.`);
    const actual = gitBlobOid(bytes);
    if (actual !== oid) {
      throw new HttpError(400, 'bad-request', `Blob ${oid} does not match its content (the content hashes to ${actual}); re-read it from the repository and upload again.`);
    }
    if (this.hasBlob(oid)) return;
    const file = this.blobPath(oid);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomUUID()}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, file);
  }

  readBlob(oid: string): Promise<Buffer> {
    return readFile(this.blobPath(oid));
  }

  async putManifest(manifest: SnapshotManifest): Promise<SnapshotStatus> {
    const seen = new Set<string>();
    for (const f of manifest.files) {
      checkRepoPath(f.path, 'Snapshot file');
      if (seen.has(f.path)) throw new HttpError(400, 'bad-request', `Snapshot lists "${f.path}" twice.`);
      seen.add(f.path);
    }
    const existing = await this.manifest(manifest.treeId);
    if (!existing) {
      const file = path.join(this.manifestsDir, `${manifest.treeId}.json`);
      const tmp = `${file}.${randomUUID()}.tmp`;
      await writeFile(tmp, JSON.stringify(manifest));
      await rename(tmp, file);
    }
    return this.status(manifest.treeId, existing ?? manifest);
  }

  async manifest(treeId: string): Promise<SnapshotManifest | undefined> {
    try {
      return JSON.parse(await readFile(path.join(this.manifestsDir, `${treeId}.json`), 'utf8')) as SnapshotManifest;
    } catch {
      return undefined;
    }
  }

  status(treeId: string, manifest: SnapshotManifest): SnapshotStatus {
    const missing = [...new Set(manifest.files.map((f) => f.oid).filter((oid) => !this.hasBlob(oid)))];
    return { treeId, complete: missing.length === 0, missingBlobs: missing };
  }

  /** Directory holding the snapshot's files (read-only for sandboxes); throws 404 when unknown or incomplete. */
  async tree(treeId: string): Promise<{ dir: string; manifest: SnapshotManifest }> {
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
      this.readyTrees.set(treeId, { dir, manifest });
      return { dir, manifest };
    }
    let pending = this.materialising.get(treeId);
    if (!pending) {
      pending = this.materialise(treeId, manifest, dir).finally(() => this.materialising.delete(treeId));
      this.materialising.set(treeId, pending);
    }
    await pending;
    this.readyTrees.set(treeId, { dir, manifest });
    return { dir, manifest };
  }

  private async materialise(treeId: string, manifest: SnapshotManifest, dir: string): Promise<string> {
    const tmp = path.join(this.treesDir, `.${treeId}.${randomUUID()}`);
    await mkdir(tmp, { recursive: true, mode: 0o755 });
    for (const f of manifest.files) {
      const target = path.join(tmp, f.path);
      await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
      await writeFile(target, await this.readBlob(f.oid), { mode: 0o644 });
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
