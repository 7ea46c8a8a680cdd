// A Workspace (worker/contracts/workspace.ts) over a commit of an on-disk git repository, read with the
// git command line. Node only: the bundled-benchmark check uses it to hand real git trees to the runner
// without going through the browser store (worker/repo/ is the product's implementation).
import { execFileSync } from 'node:child_process';
import { createTwoFilesPatch } from 'diff';
import { WorkspaceError, type Overlay, type TreeFile, type Workspace } from '../../worker/contracts/workspace.ts';
import { git } from '../git.ts';

export class GitCliWorkspace implements Workspace {
  readonly treeId: string;
  private edits: Overlay = {};
  private files: TreeFile[] | undefined;

  constructor(
    private readonly gitDir: string,
    readonly commit: string,
    /** known already (a fork): saves a git process per fork */
    treeId?: string,
  ) {
    this.treeId = treeId ?? git(gitDir, ['rev-parse', `${commit}^{tree}`]).trim();
  }

  async baseFiles(): Promise<TreeFile[]> {
    this.files ??= git(this.gitDir, ['ls-tree', '-r', '-z', '--full-tree', this.commit])
      .split('\0')
      .filter(Boolean)
      .map((entry) => {
        const [meta, path] = entry.split('\t') as [string, string];
        return { path, oid: meta.split(' ')[2]! };
      })
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return this.files;
  }

  async readBaseBlob(oid: string): Promise<Uint8Array> {
    return new Uint8Array(execFileSync('git', ['--git-dir', this.gitDir, 'cat-file', 'blob', oid], { maxBuffer: 256 * 1024 * 1024 }));
  }

  private async baseText(path: string): Promise<string | undefined> {
    const file = (await this.baseFiles()).find((f) => f.path === path);
    return file ? new TextDecoder().decode(await this.readBaseBlob(file.oid)) : undefined;
  }

  async read(path: string): Promise<string> {
    if (path in this.edits) {
      const edited = this.edits[path];
      if (edited === null || edited === undefined) throw new WorkspaceError(`${path} was deleted in this workspace`, 'not-found', path);
      return edited;
    }
    const text = await this.baseText(path);
    if (text === undefined) {
      if (await this.isDirectory(path)) throw new WorkspaceError(`${path} is a directory`, 'is-directory', path);
      throw new WorkspaceError(`${path} does not exist at ${this.commit.slice(0, 12)}`, 'not-found', path);
    }
    return text;
  }

  async exists(path: string): Promise<boolean> {
    return (await this.listFiles()).includes(path) || (await this.isDirectory(path));
  }

  async isDirectory(path: string): Promise<boolean> {
    const prefix = path.replace(/\/+$/, '') + '/';
    return (await this.listFiles()).some((p) => p.startsWith(prefix));
  }

  async write(path: string, content: string): Promise<void> {
    this.edits[path] = content;
  }

  async delete(path: string): Promise<void> {
    if (!(await this.listFiles()).includes(path)) throw new WorkspaceError(`${path} does not exist`, 'not-found', path);
    this.edits[path] = null;
  }

  async listFiles(dir?: string): Promise<string[]> {
    const all = new Set((await this.baseFiles()).map((f) => f.path));
    for (const [path, content] of Object.entries(this.edits)) {
      if (content === null) all.delete(path);
      else all.add(path);
    }
    const prefix = dir ? dir.replace(/\/+$/, '') + '/' : '';
    return [...all].filter((p) => p.startsWith(prefix)).sort();
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
      const before = (await this.baseText(path)) ?? '';
      const after = this.edits[path] ?? '';
      parts.push(`diff --git a/${path} b/${path}\n` + createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after).split('\n').slice(2).join('\n'));
    }
    return parts.join('');
  }

  revert(paths?: string[]): void {
    if (!paths) this.edits = {};
    else for (const p of paths) delete this.edits[p];
  }

  fork(): Workspace {
    const copy = new GitCliWorkspace(this.gitDir, this.commit, this.treeId);
    copy.setOverlay(this.edits);
    return copy;
  }
}

/** The overlay that turns `base` into `target` (files changed, added or deleted between the commits). */
export function overlayBetween(gitDir: string, base: string, target: string): Overlay {
  const overlay: Overlay = {};
  for (const line of git(gitDir, ['diff', '--name-status', '--no-renames', base, target]).split('\n').filter(Boolean)) {
    const [status, path] = line.split('\t') as [string, string];
    overlay[path] = status === 'D' ? null : git(gitDir, ['show', `${target}:${path}`]);
  }
  return overlay;
}
