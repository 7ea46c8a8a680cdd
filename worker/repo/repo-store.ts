// RepoStore: the repositories kept on a Platform (IndexedDB via lightning-fs in the browser, a directory
// in Node). One bare git dir per repository id under platform.reposRoot.
// Imports are built in a hidden temporary git dir and swapped in only when complete, so a failed or
// corrupt import leaves whatever was stored before untouched.
import { unzipSync } from 'fflate';
import git from 'isomorphic-git';
import type { Platform } from '../contracts/platform.ts';
import type { ImportProgress, RepoInfo } from '../contracts/repository.ts';
import { GitBundleError, parseBundleHeader, verifyPack, type BundleRef } from './git-bundle.ts';
import { directorySize, mkdirp, pathExists, removeRecursive } from './fs-util.ts';
import { RepoError, RepoSession } from './session.ts';

export interface ImportOptions {
  onProgress?: (progress: ImportProgress) => void;
  /** Label for error messages (e.g. the file name); default "the bundle". */
  label?: string;
}

export interface ImportResult {
  repoId: string;
  refs: BundleRef[];
  head: string;
  objects: number;
  bytes: number;
}

const REPO_ID = /^[A-Za-z0-9][\w.-]*$/;

/**
 * What a failed clone tells the person. The runner's git proxy answers its refusals as JSON `{ error, code }` naming
 * the host and what to do (runner/src/cors-proxy.ts); isomorphic-git keeps that body in its HttpError's
 * `data.response`, and only the status in its message — "HTTP 403" was all anyone saw of "host not allowed".
 */
export function cloneFailure(err: unknown, url: string, host: string, corsProxy: string | undefined): RepoError {
  const e = err as { code?: string; data?: { statusCode?: number; response?: string }; message?: string; cause?: { code?: string } };
  if (e.code === 'HttpError') {
    const status = e.data?.statusCode ?? '?';
    const reason = proxyReason(e.data?.response);
    if (reason) return new RepoError(`Cloning ${url} failed: the runner's git proxy answered ${status} (${reason.code}): ${reason.error}`);
    return new RepoError(`Cloning ${url} failed with HTTP ${status}: check the URL (and that the repository is public).`);
  }
  // without a proxy (Node), fetch names the resolver's failure only in its cause
  const dns = e.cause?.code;
  if (dns === 'ENOTFOUND' || dns === 'EAI_AGAIN') {
    return new RepoError(`Could not clone ${url}: the host ${host} does not resolve (DNS ${dns}). Check the host in the URL for a typo, and this machine's connection.`);
  }
  return new RepoError(
    `Could not reach ${url}${corsProxy ? ` through the proxy ${corsProxy}` : ''} (${e.message ?? String(err)}): check the URL and your connection, and that the runner (its CORS proxy) is running.`,
  );
}

/** The runner's JSON error body, when the answer is one (a git host's own error pages are not). */
function proxyReason(body: string | undefined): { error: string; code: string } | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: unknown; code?: unknown };
    return typeof parsed.error === 'string' && typeof parsed.code === 'string' ? { error: parsed.error, code: parsed.code } : undefined;
  } catch {
    return undefined;
  }
}

export class RepoStore {
  constructor(readonly platform: Platform) {}

  private get fs() {
    return this.platform.fs;
  }

  gitdirOf(repoId: string): string {
    if (!REPO_ID.test(repoId)) {
      throw new RepoError(`Repository id ${JSON.stringify(repoId)} is not valid: use letters, digits, '.', '_' and '-', starting with a letter or digit.`);
    }
    return `${this.platform.reposRoot}/${repoId}`;
  }

  async has(repoId: string): Promise<boolean> {
    return pathExists(this.fs, `${this.gitdirOf(repoId)}/HEAD`);
  }

  async listRepos(): Promise<RepoInfo[]> {
    await mkdirp(this.fs, this.platform.reposRoot);
    const names = (await this.fs.promises.readdir(this.platform.reposRoot)).filter((n) => REPO_ID.test(n)).sort();
    const out: RepoInfo[] = [];
    for (const repoId of names) {
      if (!(await this.has(repoId))) continue;
      out.push({ repoId, bytes: await directorySize(this.fs, this.gitdirOf(repoId)) });
    }
    return out;
  }

  async deleteRepo(repoId: string): Promise<void> {
    const gitdir = this.gitdirOf(repoId);
    if (!(await pathExists(this.fs, gitdir))) throw new RepoError(`Repository ${repoId} is not stored; nothing to delete.`);
    await removeRecursive(this.fs, gitdir);
    await this.fs.promises.flush?.();
  }

  async openRepo(repoId: string): Promise<RepoSession> {
    if (!(await this.has(repoId))) {
      throw new RepoError(`Repository ${repoId} is not in the local store: import it first (its bundle, a pack, or a clone).`);
    }
    return new RepoSession(repoId, this.fs, this.gitdirOf(repoId));
  }

  /** Imports a git bundle (v2/v3, SHA-1, full history) as repository `repoId`, replacing any previous copy only on success. */
  async importBundle(repoId: string, bytes: Uint8Array, options: ImportOptions = {}): Promise<ImportResult> {
    const label = options.label ?? 'the bundle';
    const header = parseBundleHeader(bytes, label);
    const pack = bytes.subarray(header.packOffset);
    options.onProgress?.({ phase: 'Verifying pack', loaded: 0, total: pack.length });
    const { objects, checksum } = await verifyPack(pack, `the pack inside ${label}`);
    await this.checkQuota(pack.length, label);
    return this.buildAndSwap(repoId, label, async (tmpDir) => {
      const oids = await this.writePack(tmpDir, pack, checksum, objects, label, options);
      for (const ref of header.refs) {
        if (!oids.has(ref.oid)) throw new GitBundleError(`${label} names ${ref.name} = ${ref.oid}, which its pack does not contain: the file is corrupt.`);
      }
      const head = await this.writeRefs(tmpDir, header.refs);
      options.onProgress?.({ phase: 'Done', loaded: objects, total: objects });
      return { repoId, refs: header.refs, head, objects, bytes: pack.length };
    });
  }

  /**
   * Imports a bare packfile (what `git pack-objects` / `git repack` write). A pack has no refs: every commit
   * that no other commit in the pack has as parent becomes a branch — the newest one `main` (HEAD), the others
   * `tip-<short oid>`. Refs of a real repository are kept better by a bundle.
   */
  async importPack(repoId: string, pack: Uint8Array, options: ImportOptions = {}): Promise<ImportResult> {
    const label = options.label ?? 'the pack';
    options.onProgress?.({ phase: 'Verifying pack', loaded: 0, total: pack.length });
    const { objects, checksum } = await verifyPack(pack, label);
    await this.checkQuota(pack.length, label);
    return this.buildAndSwap(repoId, label, async (tmpDir) => {
      const oids = await this.writePack(tmpDir, pack, checksum, objects, label, options);
      const session = new RepoSession(repoId, this.fs, tmpDir);
      const commits: { oid: string; time: number; parents: string[] }[] = [];
      for (const oid of oids) {
        const { type } = await git.readObject({ fs: this.fs as never, gitdir: tmpDir, oid, cache: session.cache, format: 'deflated' });
        if (type !== 'commit') continue;
        const info = await session.readCommit(oid);
        commits.push({ oid, time: info.committer.timestamp, parents: info.parents });
      }
      const parents = new Set(commits.flatMap((c) => c.parents));
      const tips = commits.filter((c) => !parents.has(c.oid)).sort((a, b) => b.time - a.time || (a.oid < b.oid ? -1 : 1));
      if (!tips.length) throw new GitBundleError(`${label} contains no commits: it cannot be browsed as a repository.`);
      const refs = tips.map((t, i) => ({ name: i === 0 ? 'refs/heads/main' : `refs/heads/tip-${t.oid.slice(0, 12)}`, oid: t.oid }));
      const head = await this.writeRefs(tmpDir, refs);
      return { repoId, refs, head, objects, bytes: pack.length };
    });
  }

  /**
   * Imports a git repository given as files (a dropped folder, or the entries of a .zip): a work tree with
   * `.git/`, or a bare repository. Objects (loose and packed) and refs are copied; the work tree is ignored.
   */
  async importGitFiles(repoId: string, files: { path: string; bytes: Uint8Array }[], options: ImportOptions = {}): Promise<ImportResult> {
    const label = options.label ?? 'the folder';
    const byPath = new Map(files.map((f) => [f.path.replace(/\\/g, '/').replace(/^\.?\//, ''), f.bytes] as const));
    // The git dir is where HEAD sits next to objects/: '<something>/.git/' first, else a bare layout.
    const candidates = [...byPath.keys()]
      .filter((p) => p === 'HEAD' || p.endsWith('/HEAD'))
      .map((p) => p.slice(0, p.length - 'HEAD'.length))
      .filter((prefix) => [...byPath.keys()].some((k) => k.startsWith(`${prefix}objects/`)))
      .sort((a, b) => Number(b.endsWith('.git/')) - Number(a.endsWith('.git/')) || a.length - b.length);
    const prefix = candidates[0];
    if (prefix === undefined) {
      throw new RepoError(`${label} is not a git repository (no .git directory with HEAD and objects/): choose the repository's top folder, the one that contains .git.`);
    }
    const text = (name: string) => (byPath.has(prefix + name) ? new TextDecoder().decode(byPath.get(prefix + name)) : undefined);
    if (byPath.has(`${prefix}shallow`)) {
      throw new RepoError(`${label} is a shallow clone: blame needs full history. Run \`git fetch --unshallow\` in it first.`);
    }
    if (/objectformat\s*=\s*sha256/i.test(text('config') ?? '')) {
      throw new RepoError(`${label} is a SHA-256 repository: RepairLab (isomorphic-git) stores SHA-1 repositories only.`);
    }
    const wanted = [...byPath.entries()].filter(([p]) => {
      if (!p.startsWith(prefix)) return false;
      const rel = p.slice(prefix.length);
      return rel === 'HEAD' || rel === 'packed-refs' || rel.startsWith('refs/') || rel.startsWith('objects/');
    });
    const total = wanted.reduce((n, [, b]) => n + b.length, 0);
    await this.checkQuota(total, label);
    return this.buildAndSwap(repoId, label, async (tmpDir) => {
      let loaded = 0;
      for (const [p, bytes] of wanted) {
        const rel = p.slice(prefix.length);
        const dir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
        if (rel.split('/').some((part) => part === '..' || part === '')) continue;
        if (dir) await mkdirp(this.fs, `${tmpDir}/${dir}`);
        await this.fs.promises.writeFile(`${tmpDir}/${rel}`, bytes);
        loaded += bytes.length;
        options.onProgress?.({ phase: 'Copying objects', loaded, total });
      }
      const session = new RepoSession(repoId, this.fs, tmpDir);
      let head: string;
      try {
        head = await session.resolveRef('HEAD');
        await session.listTree(head);
      } catch (err) {
        throw new RepoError(`${label} has a HEAD that cannot be read (${(err as Error).message}): the repository is incomplete or corrupt.`);
      }
      const refs = (await git.listBranches({ fs: this.fs as never, gitdir: tmpDir })).map((b) => ({ name: `refs/heads/${b}`, oid: '' }));
      for (const ref of refs) ref.oid = await session.resolveRef(ref.name);
      return { repoId, refs, head, objects: 0, bytes: total };
    });
  }

  /** A .zip of a git repository (work tree with .git/, or bare). */
  async importZip(repoId: string, zip: Uint8Array, options: ImportOptions = {}): Promise<ImportResult> {
    const label = options.label ?? 'the zip';
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(zip);
    } catch (err) {
      throw new RepoError(`${label} is not a readable zip file (${(err as Error).message}).`);
    }
    const files = Object.entries(entries)
      .filter(([p]) => !p.endsWith('/'))
      .map(([path, bytes]) => ({ path, bytes }));
    return this.importGitFiles(repoId, files, { ...options, label });
  }

  /**
   * Clones a repository over git's smart HTTP protocol (full history, never shallow), in the browser
   * through a CORS proxy (the runner's). No checkout is written; remote branches become local branches.
   */
  async cloneUrl(repoId: string, url: string, options: ImportOptions & { corsProxy?: string } = {}): Promise<ImportResult> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new RepoError(`${JSON.stringify(url)} is not a URL: give the repository's https:// clone URL.`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw new RepoError(`${url}: only http(s) clone URLs work here (git smart HTTP); for ssh or file URLs create a bundle with \`git bundle create repo.bundle --all\`.`);
    }
    const label = options.label ?? url;
    return this.buildAndSwap(repoId, label, async (tmpDir) => {
      const { default: http } = await import('isomorphic-git/http/web');
      const cache = {};
      try {
        await git.clone({
          fs: this.fs as never,
          http,
          dir: tmpDir,
          gitdir: tmpDir,
          url,
          corsProxy: options.corsProxy,
          noCheckout: true,
          cache,
          onProgress: (p) => options.onProgress?.({ phase: p.phase, loaded: p.loaded, total: p.total }),
        });
      } catch (err) {
        throw cloneFailure(err, url, parsed.host, options.corsProxy);
      }
      const session = new RepoSession(repoId, this.fs, tmpDir);
      const refs: BundleRef[] = [];
      for (const branch of await git.listBranches({ fs: this.fs as never, gitdir: tmpDir, remote: 'origin' })) {
        if (branch === 'HEAD') continue;
        const oid = await git.resolveRef({ fs: this.fs as never, gitdir: tmpDir, ref: `refs/remotes/origin/${branch}` });
        await git.writeRef({ fs: this.fs as never, gitdir: tmpDir, ref: `refs/heads/${branch}`, value: oid, force: true });
        refs.push({ name: `refs/heads/${branch}`, oid });
      }
      const head = await session.resolveRef('HEAD');
      return { repoId, refs, head, objects: 0, bytes: await directorySize(this.fs, tmpDir) };
    });
  }

  private async writePack(tmpDir: string, pack: Uint8Array, checksum: string, objects: number, label: string, options: ImportOptions): Promise<Set<string>> {
    await mkdirp(this.fs, `${tmpDir}/objects/pack`);
    const packPath = `objects/pack/pack-${checksum}.pack`;
    await this.fs.promises.writeFile(`${tmpDir}/${packPath}`, pack);
    const oids = this.platform.indexPack
      ? await this.platform.indexPack(tmpDir, packPath)
      : (
          await git.indexPack({
            fs: this.fs as never,
            dir: tmpDir,
            gitdir: tmpDir,
            filepath: packPath,
            cache: {},
            onProgress: (p) => options.onProgress?.({ phase: p.phase, loaded: p.loaded, total: p.total }),
          })
        ).oids;
    if (oids.length !== objects) throw new GitBundleError(`${label}: the pack lists ${objects} objects but ${oids.length} were indexed: the file is corrupt.`);
    return new Set(oids);
  }

  /** Builds a repository in a hidden temporary git dir and swaps it in only when `build` succeeds. */
  private async buildAndSwap(repoId: string, label: string, build: (tmpDir: string) => Promise<ImportResult>): Promise<ImportResult> {
    const finalDir = this.gitdirOf(repoId);
    const tmpDir = `${this.platform.reposRoot}/.import-${repoId}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    try {
      await mkdirp(this.fs, this.platform.reposRoot);
      await git.init({ fs: this.fs as never, dir: tmpDir, gitdir: tmpDir, bare: true });
      const result = await build(tmpDir);
      await this.swapIn(tmpDir, finalDir);
      return result;
    } catch (err) {
      await removeRecursive(this.fs, tmpDir).catch(() => undefined);
      if (err instanceof GitBundleError || err instanceof RepoError) throw err;
      throw new RepoError(`Importing ${label} as ${repoId} failed: ${(err as Error).message}. Nothing stored was changed.`);
    }
  }

  private async checkQuota(needed: number, label: string): Promise<void> {
    const estimate = await this.platform.storageEstimate();
    // The pack plus its index take a little more than the pack itself.
    if (estimate && estimate.quota - estimate.usage < needed * 1.2) {
      const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
      throw new RepoError(
        `Not enough browser storage for ${label}: it needs about ${mb(needed * 1.2)}, ${mb(estimate.quota - estimate.usage)} is free. ` +
          'Delete repositories you no longer need, or allow this site more storage.',
      );
    }
  }

  /** Writes refs as loose ref files and points HEAD at a branch (symbolically) when the bundle says which. */
  private async writeRefs(gitdir: string, refs: BundleRef[]): Promise<string> {
    const named = refs.filter((r) => r.name.startsWith('refs/'));
    for (const ref of named) {
      if (ref.name.split('/').some((p) => p === '' || p === '.' || p === '..')) continue;
      const dir = ref.name.slice(0, ref.name.lastIndexOf('/'));
      await mkdirp(this.fs, `${gitdir}/${dir}`);
      await this.fs.promises.writeFile(`${gitdir}/${ref.name}`, `${ref.oid}\n`);
    }
    const headRef = refs.find((r) => r.name === 'HEAD');
    const branches = named.filter((r) => r.name.startsWith('refs/heads/'));
    const preferred = ['refs/heads/main', 'refs/heads/master'];
    const pick =
      (headRef && (branches.find((b) => b.oid === headRef.oid && preferred.includes(b.name)) ?? branches.find((b) => b.oid === headRef.oid))) ??
      (!headRef ? (branches.find((b) => preferred.includes(b.name)) ?? branches[0]) : undefined);
    if (pick) {
      await this.fs.promises.writeFile(`${gitdir}/HEAD`, `ref: ${pick.name}\n`);
      return pick.oid;
    }
    const detached = headRef ?? named[0];
    if (!detached) throw new GitBundleError('the bundle has no usable refs.');
    await this.fs.promises.writeFile(`${gitdir}/HEAD`, `${detached.oid}\n`);
    return detached.oid;
  }

  /** Moves a finished import into place: old → trash, new → final, then drop the trash. */
  private async swapIn(tmpDir: string, finalDir: string): Promise<void> {
    const rename = this.fs.promises.rename?.bind(this.fs.promises);
    if (!rename) throw new RepoError('This platform\'s filesystem cannot rename directories; imports need it.');
    const hadOld = await pathExists(this.fs, finalDir);
    const trash = `${tmpDir}.old`;
    if (hadOld) await rename(finalDir, trash);
    try {
      await rename(tmpDir, finalDir);
    } catch (err) {
      if (hadOld) await rename(trash, finalDir);
      throw err;
    }
    if (hadOld) await removeRecursive(this.fs, trash);
    await this.fs.promises.flush?.();
  }
}
