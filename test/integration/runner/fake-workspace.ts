// FakeWorkspace: an in-memory Workspace for runner tests (the real one, over git objects, lives in worker/repo/).
// Blob oids are real git blob hashes; the tree id is a stable hash of the file list (not a git tree object).
import { createHash } from 'node:crypto';
import type { Overlay, TreeFile, Workspace } from '../../../worker/contracts/workspace.ts';
import { WorkspaceError } from '../../../worker/contracts/workspace.ts';

export function gitBlobOid(content: string | Uint8Array): string {
  const bytes = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content);
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

export class FakeWorkspace implements Workspace {
  readonly commit: string;
  readonly treeId: string;
  private edits: Overlay = {};

  constructor(private readonly base: Record<string, string>) {
    const listing = Object.keys(base)
      .sort()
      .map((p) => `${p}\0${gitBlobOid(base[p]!)}`)
      .join('\n');
    this.treeId = createHash('sha1').update(`fake-tree\n${listing}`).digest('hex');
    this.commit = createHash('sha1').update(`fake-commit\n${this.treeId}`).digest('hex');
  }

  async read(path: string): Promise<string> {
    if (path in this.edits) {
      const v = this.edits[path];
      if (v === null || v === undefined) throw new WorkspaceError(`${path} was deleted`, 'not-found', path);
      return v;
    }
    const v = this.base[path];
    if (v === undefined) throw new WorkspaceError(`${path} does not exist`, 'not-found', path);
    return v;
  }

  async exists(path: string): Promise<boolean> {
    return (await this.listFiles()).includes(path);
  }

  async isDirectory(path: string): Promise<boolean> {
    return (await this.listFiles()).some((p) => p.startsWith(`${path}/`));
  }

  async write(path: string, content: string): Promise<void> {
    this.edits[path] = content;
  }

  async delete(path: string): Promise<void> {
    this.edits[path] = null;
  }

  async listFiles(dir?: string): Promise<string[]> {
    const all = new Set(Object.keys(this.base));
    for (const [p, v] of Object.entries(this.edits)) {
      if (v === null) all.delete(p);
      else all.add(p);
    }
    return [...all].filter((p) => !dir || p.startsWith(`${dir}/`)).sort();
  }

  async baseFiles(): Promise<TreeFile[]> {
    return Object.keys(this.base)
      .sort()
      .map((path) => ({ path, oid: gitBlobOid(this.base[path]!) }));
  }

  async readBaseBlob(oid: string): Promise<Uint8Array> {
    for (const content of Object.values(this.base)) if (gitBlobOid(content) === oid) return new Uint8Array(Buffer.from(content));
    throw new WorkspaceError(`no blob ${oid}`, 'not-found', oid);
  }

  overlay(): Overlay {
    return { ...this.edits };
  }

  setOverlay(overlay: Overlay): void {
    this.edits = { ...overlay };
  }

  async diff(): Promise<string> {
    return Object.keys(this.edits).map((p) => `diff --git a/${p} b/${p}`).join('\n');
  }

  revert(paths?: string[]): void {
    if (!paths) this.edits = {};
    else for (const p of paths) delete this.edits[p];
  }

  fork(): Workspace {
    const f = new FakeWorkspace(this.base);
    f.setOverlay(this.edits);
    return f;
  }
}
