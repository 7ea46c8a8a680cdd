// git for the Defects4J importer: isolated from the user's configuration (so commit ids depend only on the inputs),
// never echoing git's stderr to the terminal (an error is reported once, by the importer, with the bug it concerns).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class Defects4jImportError extends Error {
  constructor(
    message: string,
    /** the input at fault: a file of the Defects4J checkout, a revision, a flag */
    readonly input?: string,
    /** the git command that failed, if one did */
    readonly command?: string,
    /**
     * set when the data lacks what the bug needs (a blob of an incomplete clone, a Subversion revision the history does
     * not have, a jar of Defects4J's lib/), saying what lacks what ("the repository lacks …"). Data, not a failure of
     * the import.
     */
    readonly missingData?: string,
  ) {
    super(message);
    this.name = 'Defects4jImportError';
  }
}

/** git's words for an object the repository does not hold (a partial or damaged clone). */
const MISSING_OBJECT = /(?:invalid object \d+ ([0-9a-f]{40}) for '([^']+)')|(?:(?:cannot read|unable to read|bad object|missing blob) '?([0-9a-f]{40}))/;

/** What git's stderr says the repository lacks, when it says so. */
export function missingObject(stderr: string): string | undefined {
  const m = MISSING_OBJECT.exec(stderr);
  if (!m) return undefined;
  return m[1] ? `object ${m[1]} (${m[2]})` : `object ${m[3]}`;
}

function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: tmpdir(),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    LC_ALL: 'C',
    TZ: 'UTC',
    ...extra,
  };
}

const PINNED = ['-c', 'core.autocrlf=false', '-c', 'commit.gpgSign=false', '-c', 'pack.threads=1', '-c', 'diff.renames=false', '-c', 'diff.algorithm=myers', '-c', 'core.quotePath=false'];

const MAX_BUFFER = 1024 * 1024 * 1024;

function failure(args: string[], error: unknown): Defects4jImportError {
  const e = error as { stderr?: string | Buffer; message: string };
  const command = `git ${args.join(' ')}`;
  const detail = (e.stderr && e.stderr.length ? e.stderr.toString() : e.message).trim();
  // a repository that lacks an object: data (an incomplete clone), which every git command reports alike
  const missing = missingObject(detail);
  return new Defects4jImportError(`${command} failed: ${detail}`, undefined, command, missing && `the repository lacks ${missing}`);
}

export interface GitOptions {
  gitDir?: string;
  cwd?: string;
  input?: string | Buffer;
  env?: Record<string, string>;
}

export function git(args: string[], opts: GitOptions = {}): string {
  const full = [...PINNED, ...(opts.gitDir ? ['--git-dir', opts.gitDir] : []), ...args];
  try {
    return execFileSync('git', full, { cwd: opts.cwd, input: opts.input, env: gitEnv(opts.env), encoding: 'utf8', maxBuffer: MAX_BUFFER, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    throw failure(args, error);
  }
}

/**
 * A git command whose exit status is the answer: true on 0, false on 1 (`git grep` that matched nothing), an error
 * otherwise.
 */
export function gitMatches(args: string[], opts: GitOptions = {}): boolean {
  const full = [...PINNED, ...(opts.gitDir ? ['--git-dir', opts.gitDir] : []), ...args];
  try {
    execFileSync('git', full, { cwd: opts.cwd, env: gitEnv(opts.env), stdio: ['ignore', 'ignore', 'pipe'] });
    return true;
  } catch (error) {
    if ((error as { status?: number }).status === 1) return false;
    throw failure(args, error);
  }
}

export function resolveGitDir(projectRepo: string): string {
  if (!existsSync(projectRepo)) throw new Defects4jImportError(`--project-repo ${projectRepo} does not exist`, projectRepo);
  try {
    return git(['rev-parse', '--absolute-git-dir'], { cwd: projectRepo }).trim();
  } catch {
    throw new Defects4jImportError(`--project-repo ${projectRepo} is not a git repository (Defects4J keeps them in project_repos/)`, projectRepo);
  }
}

export function hasCommit(gitDir: string, revision: string): boolean {
  try {
    git(['cat-file', '-e', `${revision}^{commit}`], { gitDir });
    return true;
  } catch {
    return false;
  }
}

/** The tree of `revision`, written out under `dir`. */
export function extractTree(gitDir: string, revision: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const args = ['archive', '--format=tar', revision];
  let tar: Buffer;
  try {
    tar = execFileSync('git', ['--git-dir', gitDir, ...args], { env: gitEnv(), maxBuffer: MAX_BUFFER, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const plain = failure(args, error);
    if (!plain.missingData) throw plain;
    throw new Defects4jImportError(
      `${plain.missingData} of revision ${revision}: an incomplete clone (fetch the whole history, e.g. git clone --mirror) — ${plain.message}`,
      revision,
      plain.command,
      plain.missingData,
    );
  }
  try {
    execFileSync('tar', ['-x', '-C', dir], { input: tar, maxBuffer: MAX_BUFFER, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as { stderr?: Buffer; message: string };
    throw new Defects4jImportError(`unpacking the tree of ${revision} failed: ${(e.stderr?.toString() || e.message).trim()}`, revision, `tar -x -C ${dir}`);
  }
}

/** Writes a directory as a tree object (every file, ignore rules disabled). */
export function writeTree(gitDir: string, dir: string): string {
  const index = join(mkdtempSync(join(tmpdir(), 'repairlab-d4j-index-')), 'index');
  try {
    git(['--work-tree', dir, 'add', '--all', '--force', '.'], { gitDir, cwd: dir, env: { GIT_INDEX_FILE: index } });
    return git(['write-tree'], { gitDir, env: { GIT_INDEX_FILE: index } }).trim();
  } finally {
    rmSync(join(index, '..'), { recursive: true, force: true });
  }
}

export function commitTree(gitDir: string, tree: string, parent: string, message: string, when: string): string {
  const ident = {
    GIT_AUTHOR_NAME: 'RepairLab Defects4J import',
    GIT_AUTHOR_EMAIL: 'defects4j-import@repairlab.invalid',
    GIT_COMMITTER_NAME: 'RepairLab Defects4J import',
    GIT_COMMITTER_EMAIL: 'defects4j-import@repairlab.invalid',
    GIT_AUTHOR_DATE: when,
    GIT_COMMITTER_DATE: when,
  };
  return git(['commit-tree', tree, '-p', parent], { gitDir, input: message, env: ident }).trim();
}

/** The commit of a git checkout whose top folder is `dir`; undefined for a plain folder (or a folder inside another repository). */
export function checkoutCommit(dir: string): string | undefined {
  try {
    const top = git(['rev-parse', '--show-toplevel'], { cwd: dir }).trim();
    return realpathSync(top) === realpathSync(dir) ? git(['rev-parse', 'HEAD'], { cwd: dir }).trim() : undefined;
  } catch {
    return undefined;
  }
}
