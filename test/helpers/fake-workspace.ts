// FakeWorkspace: an in-memory Workspace for unit tests (no git store). Same overlay semantics as the
// real one (worker/repo/git-workspace.ts): reads go overlay-first, deletions are null entries, the base never changes.
import { createHash } from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import { WorkspaceError, type Overlay, type TreeFile, type Workspace } from '../../worker/contracts/workspace.ts';

function gitBlobOid(content: string): string {
  const bytes = Buffer.from(content, 'utf8');
  return createHash('sha1').update(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes])).digest('hex');
}

function checkPath(path: string): void {
  if (!path || path.startsWith('/') || path.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new WorkspaceError(`invalid path '${path}': use a repo-relative path like src/main/java/A.java`, 'invalid-path', path);
  }
}

export class FakeWorkspace implements Workspace {
  readonly commit: string;
  readonly treeId: string;
  private readonly base: ReadonlyMap<string, string>;
  private edits: Overlay;

  constructor(files: Record<string, string>, overlay: Overlay = {}) {
    this.base = new Map(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
    this.treeId = createHash('sha1').update(JSON.stringify([...this.base])).digest('hex');
    this.commit = createHash('sha1').update(`fake-commit ${this.treeId}`).digest('hex');
    this.edits = { ...overlay };
  }

  async read(path: string): Promise<string> {
    checkPath(path);
    if (path in this.edits) {
      const edited = this.edits[path];
      if (edited === null || edited === undefined) throw new WorkspaceError(`file not found: ${path} (deleted in this workspace)`, 'not-found', path);
      return edited;
    }
    const content = this.base.get(path);
    if (content !== undefined) return content;
    if (await this.isDirectory(path)) throw new WorkspaceError(`${path} is a directory, not a file`, 'is-directory', path);
    throw new WorkspaceError(`file not found: ${path}`, 'not-found', path);
  }

  async exists(path: string): Promise<boolean> {
    try {
      await this.read(path);
      return true;
    } catch {
      return false;
    }
  }

  async isDirectory(path: string): Promise<boolean> {
    const prefix = path.endsWith('/') ? path : `${path}/`;
    return (await this.listFiles()).some((file) => file.startsWith(prefix));
  }

  async write(path: string, content: string): Promise<void> {
    checkPath(path);
    this.edits[path] = content;
  }

  async delete(path: string): Promise<void> {
    if (!(await this.exists(path))) throw new WorkspaceError(`file not found: ${path}`, 'not-found', path);
    this.edits[path] = null;
  }

  async listFiles(dir?: string): Promise<string[]> {
    const all = new Set(this.base.keys());
    for (const [path, content] of Object.entries(this.edits)) {
      if (content === null) all.delete(path);
      else all.add(path);
    }
    const prefix = dir ? (dir.endsWith('/') ? dir : `${dir}/`) : '';
    return [...all].filter((path) => path.startsWith(prefix)).sort();
  }

  async baseFiles(): Promise<TreeFile[]> {
    return [...this.base].map(([path, content]) => ({ path, oid: gitBlobOid(content) }));
  }

  async readBaseBlob(oid: string): Promise<Uint8Array> {
    for (const content of this.base.values()) if (gitBlobOid(content) === oid) return new TextEncoder().encode(content);
    throw new WorkspaceError(`no base blob ${oid}`, 'not-found', oid);
  }

  overlay(): Overlay {
    return { ...this.edits };
  }

  setOverlay(overlay: Overlay): void {
    this.edits = { ...overlay };
  }

  async diff(): Promise<string> {
    const parts: string[] = [];
    for (const path of Object.keys(this.edits).sort()) {
      const before = this.base.get(path);
      const after = this.edits[path];
      if (after === before) continue;
      parts.push(
        createTwoFilesPatch(
          before === undefined ? '/dev/null' : `a/${path}`,
          after === null || after === undefined ? '/dev/null' : `b/${path}`,
          before ?? '',
          after ?? '',
        ),
      );
    }
    return parts.join('');
  }

  revert(paths?: string[]): void {
    if (!paths) this.edits = {};
    else for (const path of paths) delete this.edits[path];
  }

  fork(): Workspace {
    return new FakeWorkspace(Object.fromEntries(this.base), this.overlay());
  }
}
