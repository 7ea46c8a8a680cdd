// A Workspace over a local git repository read with the git command line (Node only): the benchmark's way to hand
// a real commit's tree to the runner client without the browser's isomorphic-git store.
import { execFileSync } from 'node:child_process';
import type { Overlay, TreeFile, Workspace } from '../../worker/contracts/workspace.ts';
import { WorkspaceError } from '../../worker/contracts/workspace.ts';

export class GitCliWorkspace implements Workspace {
  readonly treeId: string;
  private files: TreeFile[];
  private edits: Overlay = {};

  constructor(
    private readonly gitDir: string,
    readonly commit: string,
  ) {
    this.treeId = this.git(['rev-parse', `${commit}^{tree}`]).trim();
    this.files = this.git(['ls-tree', '-r', '--full-tree', commit])
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [meta, path] = line.split('\t') as [string, string];
        const [, type, oid] = meta.split(' ') as [string, string, string];
        return { type, oid, path };
      })
      .filter((f) => f.type === 'blob')
      .map(({ path, oid }) => ({ path, oid }));
  }

  private git(args: string[]): string {
    return execFileSync('git', ['--git-dir', this.gitDir, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  }

  async read(path: string): Promise<string> {
    if (path in this.edits) {
      const v = this.edits[path];
      if (v === null || v === undefined) throw new WorkspaceError(`${path} was deleted`, 'not-found', path);
      return v;
    }
    const f = this.files.find((x) => x.path === path);
    if (!f) throw new WorkspaceError(`${path} is not in commit ${this.commit}`, 'not-found', path);
    return this.git(['cat-file', 'blob', f.oid]);
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
    const all = new Set(this.files.map((f) => f.path));
    for (const [p, v] of Object.entries(this.edits)) {
      if (v === null) all.delete(p);
      else all.add(p);
    }
    return [...all].filter((p) => !dir || p.startsWith(`${dir}/`)).sort();
  }

  async baseFiles(): Promise<TreeFile[]> {
    return [...this.files];
  }

  async readBaseBlob(oid: string): Promise<Uint8Array> {
    return new Uint8Array(execFileSync('git', ['--git-dir', this.gitDir, 'cat-file', 'blob', oid], { maxBuffer: 256 * 1024 * 1024 }));
  }

  overlay(): Overlay {
    return { ...this.edits };
  }

  setOverlay(overlay: Overlay): void {
    this.edits = { ...overlay };
  }

  async diff(): Promise<string> {
    throw new Error('GitCliWorkspace.diff is not needed by the benchmark');
  }

  revert(paths?: string[]): void {
    if (!paths) this.edits = {};
    else for (const p of paths) delete this.edits[p];
  }

  fork(): Workspace {
    const f = new GitCliWorkspace(this.gitDir, this.commit);
    f.setOverlay(this.edits);
    return f;
  }
}
