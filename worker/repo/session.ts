// One open repository. Commits, trees and blobs are read straight from the packfiles (pack-reader.ts) and
// memoised, because blame walks the same ones many times; anything else (loose objects, tags, refs) goes
// through isomorphic-git with ONE shared `cache` object, so its packfiles are parsed once per session.
import git from 'isomorphic-git';
import type { IsoFs } from '../contracts/platform.ts';
import type { TreeFile } from '../contracts/workspace.ts';
import { PackReader, findTreeEntry, parseCommit, parseTree } from './pack-reader.ts';

const nameEncoder = new TextEncoder();

export interface GitPerson {
  name: string;
  email: string;
  timestamp: number;
  timezoneOffset: number;
}

export interface CommitInfo {
  oid: string;
  tree: string;
  parents: string[];
  message: string;
  author: GitPerson;
  committer: GitPerson;
}

export interface TreeEntry {
  /** '100644', '100755', '120000' (symlink), '040000' (tree), '160000' (submodule) */
  mode: string;
  name: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

export class RepoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RepoError';
  }
}

/**
 * A read-only view of the store's fs that remembers directory listings, stats and missing files.
 * isomorphic-git looks for a loose object (a failed read) and lists objects/pack for every object it
 * reads; in a stored repository everything is packed and nothing changes during a session, so those
 * answers can be reused (this made blame several times faster). Writes are refused.
 */
export function readOnlyCachedFs(fs: IsoFs): IsoFs {
  const p = fs.promises;
  const missing = new Map<string, Error>();
  const dirs = new Map<string, Promise<string[]>>();
  const stats = new Map<string, Promise<Awaited<ReturnType<IsoFs['promises']['stat']>>>>();
  const notFound = (path: string) => {
    let err = missing.get(path);
    if (!err) missing.set(path, (err = Object.assign(new Error(`ENOENT: no such file or directory, '${path}'`), { code: 'ENOENT' })));
    return err;
  };
  const remember = <T>(path: string, run: () => Promise<T>): Promise<T> => {
    if (missing.has(path)) return Promise.reject(missing.get(path));
    return run().catch((err: unknown) => {
      if ((err as { code?: string }).code === 'ENOENT') throw notFound(path);
      throw err;
    });
  };
  const refuse = async () => {
    throw new Error('This repository session is read-only.');
  };
  const memo = <T>(cache: Map<string, Promise<T>>, path: string, run: () => Promise<T>) => {
    let found = cache.get(path);
    if (!found) {
      found = remember(path, run);
      cache.set(path, found);
    }
    return found;
  };
  const LOOSE = /^(.*\/objects)\/([0-9a-f]{2})\/[0-9a-f]{38}$/;
  const readFile = async (path: string, opts?: unknown) => {
    // isomorphic-git tries the loose object before the packs: skip the doomed open when objects/xx/ does not exist.
    const loose = LOOSE.exec(path);
    if (loose) {
      const fanout = await memo(dirs, loose[1]!, () => p.readdir(loose[1]!)).catch(() => [] as string[]);
      if (!fanout.includes(loose[2]!)) throw notFound(path);
    }
    return remember(path, () => p.readFile(path, opts));
  };
  return {
    promises: {
      // isomorphic-git probes every fs with a bare readFile() on each API call; answer that without I/O.
      readFile: (path, opts) => (typeof path === 'string' ? readFile(path, opts) : Promise.reject(notFound(String(path)))),
      readdir: (path) => memo(dirs, path, () => p.readdir(path)),
      stat: (path) => memo(stats, path, () => p.stat(path)),
      lstat: (path) => remember(path, () => p.lstat(path)),
      // isomorphic-git binds every fs command up front, so all must exist.
      readlink: (path: string) => (p.readlink ? remember(path, () => p.readlink!(path)) : Promise.reject(notFound(path))),
      symlink: refuse,
      writeFile: refuse,
      unlink: refuse,
      mkdir: refuse,
      rmdir: refuse,
    },
  };
}

/**
 * How many tree entries a session keeps parsed. Blame walks every commit between a revision and the lines'
 * origins, and a busy directory has a new tree in most of them: Closure's jscomp/ (1,500 entries) over
 * 9,000 commits held 1.4 M entries and 1.6 GB, and blame at closure-compiler's HEAD ran out of memory.
 * Commits stay memoised whole (one small record each); trees are kept least recently used first.
 */
export const TREE_CACHE_ENTRIES = 200_000;

/** Least-recently-used tree listings, bounded by their total number of entries. */
class TreeCache {
  /** in use order, oldest first; `size` is set once the listing has been read */
  private readonly trees = new Map<string, { listing: Promise<TreeEntry[]>; size?: number }>();
  private entries = 0;

  constructor(private readonly budget: number) {}

  get(oid: string): Promise<TreeEntry[]> | undefined {
    const found = this.trees.get(oid);
    if (!found) return undefined;
    this.trees.delete(oid);
    this.trees.set(oid, found);
    return found.listing;
  }

  set(oid: string, listing: Promise<TreeEntry[]>): void {
    const held: { listing: Promise<TreeEntry[]>; size?: number } = { listing };
    this.trees.set(oid, held);
    listing.then(
      (list) => {
        if (this.trees.get(oid) !== held) return;
        held.size = list.length;
        this.entries += list.length;
        this.evict(oid);
      },
      () => this.delete(oid),
    );
  }

  /** Entries held now (the budget's measure). */
  get size(): number {
    return this.entries;
  }

  private delete(oid: string): void {
    this.entries -= this.trees.get(oid)?.size ?? 0;
    this.trees.delete(oid);
  }

  /** Oldest first, never the listing just added (one tree larger than the budget is still served). */
  private evict(keep: string): void {
    for (const [oid, held] of this.trees) {
      if (this.entries <= this.budget) return;
      if (oid !== keep && held.size !== undefined) this.delete(oid);
    }
  }
}

export interface RepoSessionOptions {
  /** tree entries kept parsed (default TREE_CACHE_ENTRIES) */
  treeCacheEntries?: number;
}

export class RepoSession {
  /** Shared isomorphic-git cache for every call in this session. */
  readonly cache: object = {};
  private readonly commits = new Map<string, Promise<CommitInfo>>();
  private readonly trees: TreeCache;
  private packs?: Promise<PackReader | undefined>;

  readonly fs: IsoFs;

  /** `fs` is wrapped read-only with cached lookups (see readOnlyCachedFs). */
  constructor(
    readonly repoId: string,
    fs: IsoFs,
    readonly gitdir: string,
    options: RepoSessionOptions = {},
  ) {
    this.fs = readOnlyCachedFs(fs);
    this.trees = new TreeCache(options.treeCacheEntries ?? TREE_CACHE_ENTRIES);
  }

  /** Tree entries the session holds parsed now (bounded by `treeCacheEntries`). */
  get cachedTreeEntries(): number {
    return this.trees.size;
  }

  private get base() {
    return { fs: this.fs as never, gitdir: this.gitdir, cache: this.cache };
  }

  /**
   * A commit oid for a revision: full or abbreviated oid, ref name (HEAD, main, refs/tags/v1),
   * optionally followed by git's ~N and ^N suffixes (e.g. `abc123~1`, `HEAD^2`).
   */
  async resolveRef(rev: string): Promise<string> {
    const match = /^(.*?)((?:[~^]\d*)*)$/.exec(rev.trim());
    const baseRev = match?.[1] ?? rev;
    const suffix = match?.[2] ?? '';
    if (!baseRev) throw new RepoError(`Revision ${JSON.stringify(rev)} is empty: name a commit, branch or tag.`);
    let oid = await this.resolveBase(baseRev, rev);
    for (const step of suffix.matchAll(/([~^])(\d*)/g)) {
      const n = step[2] === '' ? 1 : Number(step[2]);
      if (step[1] === '~') {
        for (let i = 0; i < n; i++) oid = await this.parentOf(oid, 0, rev);
      } else if (n > 0) {
        oid = await this.parentOf(oid, n - 1, rev);
      }
    }
    return oid;
  }

  private async parentOf(oid: string, index: number, rev: string): Promise<string> {
    const parent = (await this.readCommit(oid)).parents[index];
    if (!parent) throw new RepoError(`Revision ${JSON.stringify(rev)} goes past the history: ${oid.slice(0, 12)} has no parent #${index + 1}.`);
    return parent;
  }

  private async resolveBase(baseRev: string, rev: string): Promise<string> {
    let oid: string | undefined;
    if (/^[0-9a-f]{40}$/.test(baseRev)) oid = baseRev;
    else {
      for (const candidate of [baseRev, `refs/heads/${baseRev}`, `refs/tags/${baseRev}`]) {
        try {
          oid = await git.resolveRef({ fs: this.fs as never, gitdir: this.gitdir, ref: candidate });
          break;
        } catch {
          /* try the next spelling */
        }
      }
      if (!oid && /^[0-9a-f]{4,39}$/.test(baseRev)) {
        try {
          oid = await git.expandOid({ ...this.base, oid: baseRev });
        } catch {
          /* reported below */
        }
      }
    }
    if (!oid) throw new RepoError(`Revision ${JSON.stringify(rev)} not found in repository ${this.repoId}: use a commit id, branch or tag that exists.`);
    // Peel annotated tags down to the commit.
    for (let i = 0; i < 10; i++) {
      const current: string = oid;
      // A packed commit needs no peeling; asking isomorphic-git would load the pack a second time (its own copy).
      if (await this.packed(current, 'commit')) return current;
      const read: { type: string; object: unknown } = await git.readObject({ ...this.base, oid: current, format: 'parsed' }).catch(() => {
        throw new RepoError(`Revision ${JSON.stringify(rev)} (${current}) is not in repository ${this.repoId}.`);
      });
      if (read.type === 'commit') return current;
      if (read.type !== 'tag') throw new RepoError(`Revision ${JSON.stringify(rev)} names a ${read.type}, not a commit.`);
      oid = (read.object as { object: string }).object;
    }
    throw new RepoError(`Revision ${JSON.stringify(rev)}: tag chain too deep.`);
  }

  /** The object from the packs when it is there with the expected type (undefined: ask isomorphic-git). */
  private async packed(oid: string, type: 'commit' | 'tree' | 'blob'): Promise<Uint8Array | undefined> {
    this.packs ??= PackReader.open(this.fs, this.gitdir).catch(() => undefined);
    const found = (await this.packs)?.read(oid);
    return found?.type === type ? found.data : undefined;
  }

  readCommit(oid: string): Promise<CommitInfo> {
    let found = this.commits.get(oid);
    if (!found) {
      found = this.readCommitUncached(oid);
      found.catch(() => this.commits.delete(oid));
      this.commits.set(oid, found);
    }
    return found;
  }

  private async readCommitUncached(oid: string): Promise<CommitInfo> {
    const data = await this.packed(oid, 'commit');
    if (data) {
      const c = parseCommit(data);
      return { oid, tree: c.tree, parents: c.parents, message: c.message, author: c.author, committer: c.committer };
    }
    return git.readCommit({ ...this.base, oid }).then(({ commit }) => ({
        oid,
        tree: commit.tree,
        parents: commit.parent,
        message: commit.message,
        author: commit.author,
        committer: commit.committer,
      }));
  }

  readTreeEntries(treeOid: string): Promise<TreeEntry[]> {
    let found = this.trees.get(treeOid);
    if (!found) {
      found = this.packed(treeOid, 'tree').then(
        (data) =>
          data
            ? parseTree(data)
            : git.readTree({ ...this.base, oid: treeOid }).then(({ tree }) => tree.map((e) => ({ mode: e.mode, name: e.path, oid: e.oid, type: e.type }))),
      );
      this.trees.set(treeOid, found);
    }
    return found;
  }

  /** The tree entry at a repo-relative path inside a tree, or undefined. '' is the tree itself. */
  async entryInTree(treeOid: string, path: string): Promise<TreeEntry | undefined> {
    const parts = path.split('/').filter(Boolean);
    let entry: TreeEntry = { mode: '040000', name: '', oid: treeOid, type: 'tree' };
    for (const part of parts) {
      if (entry.type !== 'tree') return undefined;
      const next = await this.entryNamed(entry.oid, part);
      if (!next) return undefined;
      entry = next;
    }
    return entry;
  }

  /** One entry of a tree: from its listing when cached, else found in the packed tree without listing it. */
  private async entryNamed(treeOid: string, name: string): Promise<TreeEntry | undefined> {
    const listed = this.trees.get(treeOid);
    if (listed) return (await listed).find((e) => e.name === name);
    // A name that is not valid UTF-8 was decoded lossily (U+FFFD): only the listing compares it the same way.
    const data = name.includes('\uFFFD') ? undefined : await this.packed(treeOid, 'tree');
    if (!data) return (await this.readTreeEntries(treeOid)).find((e) => e.name === name);
    return findTreeEntry(data, nameEncoder.encode(name));
  }

  async entryAt(commit: string, path: string): Promise<TreeEntry | undefined> {
    return this.entryInTree((await this.readCommit(commit)).tree, path);
  }

  /** Every blob under a tree (recursively), sorted by path; submodule entries are skipped. */
  async listTreeFiles(treeOid: string, prefix = ''): Promise<(TreeFile & { mode: string })[]> {
    const out: (TreeFile & { mode: string })[] = [];
    const walk = async (oid: string, dir: string) => {
      for (const e of await this.readTreeEntries(oid)) {
        const path = dir ? `${dir}/${e.name}` : e.name;
        if (e.type === 'tree') await walk(e.oid, path);
        else if (e.type === 'blob') out.push({ path, oid: e.oid, mode: e.mode });
      }
    };
    await walk(treeOid, prefix);
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async listTree(commit: string): Promise<(TreeFile & { mode: string })[]> {
    return this.listTreeFiles((await this.readCommit(commit)).tree);
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    const data = await this.packed(oid, 'blob');
    if (data) return data;
    const { blob } = await git.readBlob({ ...this.base, oid });
    return blob;
  }

  /** Bytes of a file at a commit, or undefined if the path is not a file there. */
  async readFileAt(commit: string, path: string): Promise<Uint8Array | undefined> {
    const entry = await this.entryAt(commit, path);
    return entry?.type === 'blob' ? this.readBlob(entry.oid) : undefined;
  }
}
