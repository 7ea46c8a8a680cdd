// just-bash's async IFileSystem over a Workspace. It is mounted at REPO_ROOT inside a MountableFs (which hands it
// mount-relative paths: '/' is the repository root); reads go overlay-first,
// writes and deletions land in the workspace overlay. Directories are derived from file paths (git has no empty
// directories); `mkdir` of a new directory is remembered for this filesystem's lifetime only.
import type { CpOptions, FileContent, FsStat, IFileSystem, MkdirOptions, RmOptions } from 'just-bash';
import { WorkspaceError, type Overlay, type Workspace } from '../../contracts/workspace.ts';

export const REPO_ROOT = '/repo';

type DirentEntry = Awaited<ReturnType<NonNullable<IFileSystem['readdirWithFileTypes']>>>[number];
type ReadOptions = Parameters<IFileSystem['readFile']>[1];
type WriteOptions = Parameters<IFileSystem['writeFile']>[2];
const EPOCH = new Date(0); // fixed mtimes keep outputs identical across runs and platforms

function fsError(code: string, what: string, op: string, path: string): Error {
  const err = new Error(`${code}: ${what}, ${op} '${path}'`) as Error & { code: string };
  err.code = code;
  return err;
}

export function normalizeAbsolute(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** Why writing these entries is refused (the bug's tests are read-only), or undefined when allowed. */
export type WriteGuard = (entries: Overlay) => Promise<string | undefined>;

export class WorkspaceFs implements IFileSystem {
  private files = new Set<string>();
  private dirs = new Set<string>();

  private constructor(
    private readonly workspace: Workspace,
    private readonly guard: WriteGuard,
  ) {}

  /** Builds the path index up front: just-bash's getAllPaths() (used for globs) is synchronous. */
  static async create(workspace: Workspace, guard: WriteGuard = async () => undefined): Promise<WorkspaceFs> {
    const fs = new WorkspaceFs(workspace, guard);
    for (const path of await workspace.listFiles()) fs.addFile(path);
    fs.dirs.add('');
    return fs;
  }

  private addFile(rel: string): void {
    this.files.add(rel);
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) this.dirs.add(parts.slice(0, i).join('/'));
  }

  /** Why writes were refused during this filesystem's life (commands such as sed -i report them as a missing file). */
  readonly refusals: string[] = [];

  /** A refused write or deletion fails as on a read-only file, with the reason (the model reads stderr). */
  private async checkWritable(entries: Overlay, op: string, path: string): Promise<void> {
    const why = await this.guard(entries);
    if (!why) return;
    if (!this.refusals.includes(why)) this.refusals.push(why);
    throw fsError('EACCES', `permission denied (${why})`, op, path);
  }

  /** Repo-relative path ('' for the root) of a mount-relative path. */
  private rel(path: string, _op: string): string {
    return normalizeAbsolute(path).slice(1);
  }

  private isDir(rel: string): boolean {
    return this.dirs.has(rel);
  }

  async readFile(path: string, _options?: ReadOptions): Promise<string> {
    const rel = this.rel(path, 'open');
    if (this.isDir(rel)) throw fsError('EISDIR', 'illegal operation on a directory', 'read', path);
    if (!this.files.has(rel)) throw fsError('ENOENT', 'no such file or directory', 'open', path);
    try {
      return await this.workspace.read(rel);
    } catch (err) {
      if (err instanceof WorkspaceError && err.code === 'binary') throw fsError('EIO', 'binary file not shown', 'read', path);
      throw err;
    }
  }

  async readFileBuffer(path: string): Promise<Uint8Array> {
    return new TextEncoder().encode(await this.readFile(path));
  }

  async writeFile(path: string, content: FileContent, _options?: WriteOptions): Promise<void> {
    const rel = this.rel(path, 'open');
    if (rel === '' || this.isDir(rel)) throw fsError('EISDIR', 'illegal operation on a directory', 'write', path);
    const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    if (!this.isDir(parent)) throw fsError('ENOENT', 'no such file or directory', 'open', path);
    const text = typeof content === 'string' ? content : new TextDecoder().decode(content);
    await this.checkWritable({ [rel]: text }, 'open', path);
    await this.workspace.write(rel, text);
    this.addFile(rel);
  }

  async appendFile(path: string, content: FileContent, options?: WriteOptions): Promise<void> {
    const rel = this.rel(path, 'open');
    const existing = this.files.has(rel) ? await this.readFile(path) : '';
    await this.writeFile(path, existing + (typeof content === 'string' ? content : new TextDecoder().decode(content)), options);
  }

  async exists(path: string): Promise<boolean> {
    try {
      const rel = this.rel(path, 'access');
      return this.files.has(rel) || this.isDir(rel);
    } catch {
      return false;
    }
  }

  async stat(path: string): Promise<FsStat> {
    const rel = this.rel(path, 'stat');
    if (this.isDir(rel)) return { isFile: false, isDirectory: true, isSymbolicLink: false, mode: 0o755, size: 0, mtime: EPOCH };
    if (!this.files.has(rel)) throw fsError('ENOENT', 'no such file or directory', 'stat', path);
    const size = new TextEncoder().encode(await this.readFile(path)).length;
    return { isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o644, size, mtime: EPOCH };
  }

  async lstat(path: string): Promise<FsStat> {
    return this.stat(path);
  }

  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    const rel = this.rel(path, 'mkdir');
    if (this.files.has(rel)) throw fsError('EEXIST', 'file already exists', 'mkdir', path);
    if (this.isDir(rel)) {
      if (options?.recursive) return;
      throw fsError('EEXIST', 'file already exists', 'mkdir', path);
    }
    const parts = rel.split('/');
    const parent = parts.slice(0, -1).join('/');
    if (!options?.recursive && !this.isDir(parent)) throw fsError('ENOENT', 'no such file or directory', 'mkdir', path);
    for (let i = 1; i <= parts.length; i++) this.dirs.add(parts.slice(0, i).join('/'));
  }

  private children(rel: string): { name: string; dir: boolean }[] {
    const prefix = rel === '' ? '' : `${rel}/`;
    const names = new Map<string, boolean>();
    for (const dir of this.dirs) if (dir !== rel && dir.startsWith(prefix) && !dir.slice(prefix.length).includes('/')) names.set(dir.slice(prefix.length), true);
    for (const file of this.files) if (file.startsWith(prefix) && !file.slice(prefix.length).includes('/')) names.set(file.slice(prefix.length), false);
    return [...names].map(([name, dir]) => ({ name, dir })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async readdir(path: string): Promise<string[]> {
    return (await this.readdirWithFileTypes(path)).map((e) => e.name);
  }

  async readdirWithFileTypes(path: string): Promise<DirentEntry[]> {
    const rel = this.rel(path, 'scandir');
    if (this.files.has(rel)) throw fsError('ENOTDIR', 'not a directory', 'scandir', path);
    if (!this.isDir(rel)) throw fsError('ENOENT', 'no such file or directory', 'scandir', path);
    return this.children(rel).map((c) => ({ name: c.name, isFile: !c.dir, isDirectory: c.dir, isSymbolicLink: false }));
  }

  async rm(path: string, options?: RmOptions): Promise<void> {
    const rel = this.rel(path, 'rm');
    if (rel === '') throw fsError('EPERM', 'operation not permitted', 'rm', path);
    if (this.files.has(rel)) {
      await this.checkWritable({ [rel]: null }, 'rm', path);
      await this.workspace.delete(rel);
      this.files.delete(rel);
      return;
    }
    if (this.isDir(rel)) {
      const inside = [...this.files].filter((f) => f.startsWith(`${rel}/`));
      if (inside.length && !options?.recursive) throw fsError('ENOTEMPTY', 'directory not empty', 'rm', path);
      // all or nothing: a directory holding one of the bug's tests is not half removed
      await this.checkWritable(Object.fromEntries(inside.map((f) => [f, null])), 'rm', path);
      for (const file of inside) {
        await this.workspace.delete(file);
        this.files.delete(file);
      }
      for (const dir of [...this.dirs]) if (dir === rel || dir.startsWith(`${rel}/`)) this.dirs.delete(dir);
      return;
    }
    if (!options?.force) throw fsError('ENOENT', 'no such file or directory', 'rm', path);
  }

  async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    const from = this.rel(src, 'cp');
    const to = this.rel(dest, 'cp');
    if (this.files.has(from)) {
      await this.writeFile(dest, await this.readFile(src));
      return;
    }
    if (!this.isDir(from)) throw fsError('ENOENT', 'no such file or directory', 'cp', src);
    if (!options?.recursive) throw fsError('EISDIR', 'is a directory', 'cp', src);
    await this.mkdir(dest, { recursive: true });
    for (const file of [...this.files].filter((f) => f.startsWith(`${from}/`))) {
      const target = `/${to ? `${to}/` : ''}${file.slice(from.length + 1)}`;
      await this.mkdir(target.slice(0, target.lastIndexOf('/')), { recursive: true });
      await this.writeFile(target, await this.workspace.read(file));
    }
  }

  async mv(src: string, dest: string): Promise<void> {
    await this.cp(src, dest, { recursive: true });
    await this.rm(src, { recursive: true });
  }

  resolvePath(base: string, path: string): string {
    return normalizeAbsolute(path.startsWith('/') ? path : `${base}/${path}`);
  }

  getAllPaths(): string[] {
    return [...[...this.dirs].map((d) => `/${d}`), ...[...this.files].map((f) => `/${f}`)].sort();
  }

  async chmod(path: string): Promise<void> {
    if (!(await this.exists(path))) throw fsError('ENOENT', 'no such file or directory', 'chmod', path);
  }

  async symlink(_target: string, linkPath: string): Promise<void> {
    throw fsError('EPERM', 'links are not supported in the repository view', 'symlink', linkPath);
  }

  async link(_existing: string, newPath: string): Promise<void> {
    throw fsError('EPERM', 'links are not supported in the repository view', 'link', newPath);
  }

  async readlink(path: string): Promise<string> {
    throw fsError('EINVAL', 'invalid argument (not a link)', 'readlink', path);
  }

  async realpath(path: string): Promise<string> {
    if (!(await this.exists(path))) throw fsError('ENOENT', 'no such file or directory', 'realpath', path);
    return normalizeAbsolute(path);
  }

  async utimes(path: string): Promise<void> {
    if (!(await this.exists(path))) throw fsError('ENOENT', 'no such file or directory', 'utimes', path);
  }
}
