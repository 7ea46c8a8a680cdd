// RepoStore: the repositories kept on a Platform (IndexedDB via lightning-fs in the browser, a directory
// in Node). One bare git dir per repository id under platform.reposRoot.
// Imports are built in a hidden temporary git dir and swapped in only when complete, so a failed or
// corrupt import leaves whatever was stored before untouched.
import git from 'isomorphic-git';
import type { Platform } from '../contracts/platform.ts';
import type { ImportProgress, RepoInfo } from '../engine-api.ts';
import { BundleError, parseBundleHeader, verifyPack, type BundleRef } from './bundle.ts';
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
    const finalDir = this.gitdirOf(repoId);
    const header = parseBundleHeader(bytes, label);
    const pack = bytes.subarray(header.packOffset);
    options.onProgress?.({ phase: 'Verifying pack', loaded: 0, total: pack.length });
    const { objects, checksum } = await verifyPack(pack, `the pack inside ${label}`);
    await this.checkQuota(pack.length, label);

    const tmpDir = `${this.platform.reposRoot}/.import-${repoId}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    try {
      await mkdirp(this.fs, this.platform.reposRoot);
      await git.init({ fs: this.fs as never, dir: tmpDir, gitdir: tmpDir, bare: true });
      await mkdirp(this.fs, `${tmpDir}/objects/pack`);
      const packPath = `objects/pack/pack-${checksum}.pack`;
      await this.fs.promises.writeFile(`${tmpDir}/${packPath}`, pack);
      const cache = {};
      const { oids } = await git.indexPack({
        fs: this.fs as never,
        dir: tmpDir,
        gitdir: tmpDir,
        filepath: packPath,
        cache,
        onProgress: (p) => options.onProgress?.({ phase: p.phase, loaded: p.loaded, total: p.total }),
      });
      if (oids.length !== objects) throw new BundleError(`the pack inside ${label} lists ${objects} objects but ${oids.length} were indexed: the file is corrupt.`);
      const present = new Set(oids);
      for (const ref of header.refs) {
        if (!present.has(ref.oid)) throw new BundleError(`${label} names ${ref.name} = ${ref.oid}, which its pack does not contain: the file is corrupt.`);
      }
      const head = await this.writeRefs(tmpDir, header.refs);
      await this.swapIn(tmpDir, finalDir);
      options.onProgress?.({ phase: 'Done', loaded: objects, total: objects });
      return { repoId, refs: header.refs, head, objects, bytes: pack.length };
    } catch (err) {
      await removeRecursive(this.fs, tmpDir).catch(() => undefined);
      if (err instanceof BundleError || err instanceof RepoError) throw err;
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
    if (!detached) throw new BundleError('the bundle has no usable refs.');
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
  }
}
