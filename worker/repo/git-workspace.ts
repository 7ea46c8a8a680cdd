// Workspace: the tree at a commit plus a copy-on-write overlay of edits. Nothing is checked out:
// reads go overlay-first, then straight to the object store through the repository session.
import git from 'isomorphic-git';
import { WorkspaceError, type Overlay, type TreeFile, type Workspace } from '../contracts/workspace.ts';
import type { RepoSession } from './session.ts';
import { formatFileDiff } from '../diff/unified-diff-format.ts';

/** Repo-relative path with '/' separators; './', leading '/', '\\' and '//' tolerated, '..' refused. */
export function normalizeWorkspacePath(path: string, allowRoot = false): string {
  const raw = String(path ?? '');
  const parts = raw.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) {
    throw new WorkspaceError(`Path ${JSON.stringify(raw)} leaves the repository ('..'): use a path relative to the repository root.`, 'invalid-path', raw);
  }
  if (parts.some((p) => p === '.git')) {
    throw new WorkspaceError(`Path ${JSON.stringify(raw)} points into .git: only files of the project can be read or edited.`, 'invalid-path', raw);
  }
  if (/[\0]/.test(raw)) throw new WorkspaceError(`Path ${JSON.stringify(raw)} contains a NUL character.`, 'invalid-path', raw);
  const normalized = parts.join('/');
  if (!normalized && !allowRoot) {
    throw new WorkspaceError(`Path ${JSON.stringify(raw)} is empty: name a file relative to the repository root (e.g. src/main/java/...).`, 'invalid-path', raw);
  }
  return normalized;
}

function isBinary(bytes: Uint8Array): boolean {
  // git's heuristic: a NUL byte in the first 8000 bytes.
  return bytes.subarray(0, 8000).includes(0);
}

const decoder = new TextDecoder();

/** What every workspace forked from one base shares: the base tree index and decoded base files. */
class BaseTree {
  private index?: Promise<{ files: Map<string, TreeFile & { mode: string }>; dirs: Set<string>; list: TreeFile[] }>;
  private readonly texts = new Map<string, Promise<string>>();

  constructor(
    readonly session: RepoSession,
    readonly commit: string,
    readonly treeId: string,
  ) {}

  load() {
    return (this.index ??= this.session.listTreeFiles(this.treeId).then((list) => {
      const files = new Map(list.map((f) => [f.path, f] as const));
      const dirs = new Set<string>(['']);
      for (const f of list) {
        const parts = f.path.split('/');
        for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
      }
      return { files, dirs, list: list.map((f) => ({ path: f.path, oid: f.oid })) };
    }));
  }

  async text(path: string, oid: string): Promise<string> {
    let found = this.texts.get(oid);
    if (!found) {
      found = this.session.readBlob(oid).then((bytes) => {
        if (isBinary(bytes)) throw new WorkspaceError(`${path} is a binary file; it cannot be read as text.`, 'binary', path);
        return decoder.decode(bytes);
      });
      found.catch(() => this.texts.delete(oid));
      this.texts.set(oid, found);
    }
    return found;
  }
}

class OverlayWorkspace implements Workspace {
  private edits: Map<string, string | null>;

  constructor(
    private readonly base: BaseTree,
    overlay: Overlay = {},
  ) {
    this.edits = new Map(Object.entries(overlay));
  }

  get commit() {
    return this.base.commit;
  }

  get treeId() {
    return this.base.treeId;
  }

  private async isLiveDirectory(path: string): Promise<boolean> {
    if (path === '') return true;
    const prefix = `${path}/`;
    for (const [p, v] of this.edits) if (v !== null && p.startsWith(prefix)) return true;
    const { files, dirs } = await this.base.load();
    if (!dirs.has(path)) return false;
    for (const f of files.keys()) if (f.startsWith(prefix) && this.edits.get(f) !== null) return true;
    return false;
  }

  private async fileExists(path: string): Promise<boolean> {
    const edit = this.edits.get(path);
    if (edit !== undefined) return edit !== null;
    return (await this.base.load()).files.has(path);
  }

  async read(path: string): Promise<string> {
    const p = normalizeWorkspacePath(path);
    const edit = this.edits.get(p);
    if (edit !== undefined) {
      if (edit === null) throw new WorkspaceError(`${p} was deleted in this workspace; revert it or write it again to bring it back.`, 'not-found', p);
      return edit;
    }
    const entry = (await this.base.load()).files.get(p);
    if (entry) return this.base.text(p, entry.oid);
    if (await this.isLiveDirectory(p)) throw new WorkspaceError(`${p} is a directory, not a file: list it with listFiles('${p}').`, 'is-directory', p);
    throw new WorkspaceError(`${p} does not exist at commit ${this.commit.slice(0, 12)}: check the path (listFiles shows what exists).`, 'not-found', p);
  }

  async exists(path: string): Promise<boolean> {
    const p = normalizeWorkspacePath(path, true);
    return (await this.fileExists(p)) || (await this.isLiveDirectory(p));
  }

  async isDirectory(path: string): Promise<boolean> {
    return this.isLiveDirectory(normalizeWorkspacePath(path, true));
  }

  async write(path: string, content: string): Promise<void> {
    const p = normalizeWorkspacePath(path);
    if (typeof content !== 'string') throw new WorkspaceError(`Content for ${p} must be text.`, 'invalid-path', p);
    if (await this.isLiveDirectory(p)) throw new WorkspaceError(`${p} is a directory; write to a file inside it instead.`, 'is-directory', p);
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      if (await this.fileExists(parent)) {
        throw new WorkspaceError(`Cannot write ${p}: ${parent} is a file, not a directory. Delete ${parent} first or choose another path.`, 'invalid-path', p);
      }
    }
    this.edits.set(p, content);
  }

  async delete(path: string): Promise<void> {
    const p = normalizeWorkspacePath(path);
    if (!(await this.fileExists(p))) {
      if (await this.isLiveDirectory(p)) throw new WorkspaceError(`${p} is a directory; delete the files inside it one by one.`, 'is-directory', p);
      throw new WorkspaceError(`Cannot delete ${p}: no such file in this workspace.`, 'not-found', p);
    }
    if ((await this.base.load()).files.has(p)) this.edits.set(p, null);
    else this.edits.delete(p);
  }

  async listFiles(dir?: string): Promise<string[]> {
    const d = dir === undefined ? '' : normalizeWorkspacePath(dir, true);
    const prefix = d ? `${d}/` : '';
    const { files } = await this.base.load();
    const out = new Set<string>();
    for (const f of files.keys()) if (f.startsWith(prefix) && this.edits.get(f) !== null) out.add(f);
    for (const [p, v] of this.edits) if (v !== null && p.startsWith(prefix)) out.add(p);
    return [...out].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  async baseFiles(): Promise<TreeFile[]> {
    return (await this.base.load()).list.map((f) => ({ ...f }));
  }

  readBaseBlob(oid: string): Promise<Uint8Array> {
    return this.base.session.readBlob(oid);
  }

  overlay(): Overlay {
    return Object.fromEntries(this.edits);
  }

  setOverlay(overlay: Overlay): void {
    const next = new Map<string, string | null>();
    for (const [path, value] of Object.entries(overlay)) {
      if (value !== null && typeof value !== 'string') {
        throw new WorkspaceError(`Overlay entry ${path} must be text or null (deleted).`, 'invalid-path', path);
      }
      next.set(normalizeWorkspacePath(path), value);
    }
    this.edits = next;
  }

  async diff(): Promise<string> {
    const { files } = await this.base.load();
    const paths = [...this.edits.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    let out = '';
    for (const path of paths) {
      const edit = this.edits.get(path)!;
      const baseEntry = files.get(path);
      if (!baseEntry && edit === null) continue;
      let oldText: string | undefined;
      let binary = false;
      if (baseEntry) {
        const bytes = await this.base.session.readBlob(baseEntry.oid);
        binary = isBinary(bytes);
        oldText = decoder.decode(bytes);
      }
      const newText = edit === null ? undefined : edit;
      if (oldText !== undefined && newText !== undefined && oldText === newText) continue;
      const newOid = newText === undefined ? undefined : (await git.hashBlob({ object: newText })).oid;
      out += formatFileDiff({
        path,
        oldText,
        newText,
        oldOid: baseEntry?.oid,
        newOid,
        oldMode: baseEntry?.mode,
        newMode: baseEntry?.mode ?? '100644',
        binary,
      });
    }
    return out;
  }

  revert(paths?: string[]): void {
    if (!paths) {
      this.edits.clear();
      return;
    }
    for (const path of paths) this.edits.delete(normalizeWorkspacePath(path));
  }

  fork(): Workspace {
    return new OverlayWorkspace(this.base, this.overlay());
  }
}

/** A workspace on `commit` (oid, branch, tag or rev~N) with an empty overlay. */
export async function openWorkspace(session: RepoSession, commit: string, overlay: Overlay = {}): Promise<Workspace> {
  const oid = await session.resolveRef(commit);
  const { tree } = await session.readCommit(oid);
  const ws = new OverlayWorkspace(new BaseTree(session, oid, tree));
  if (Object.keys(overlay).length) ws.setOverlay(overlay);
  return ws;
}
