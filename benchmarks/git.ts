// Running real git with nothing from the machine leaking in: no user/system config, no signing,
// no hooks, fixed locale and time zone — so the same input gives the same objects everywhere.
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';

export function gitEnv(): NodeJS.ProcessEnv {
  // HOME and XDG_CONFIG_HOME away from the user's files; GIT_CONFIG_GLOBAL=/dev/null ignores ~/.gitconfig anyway
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: tmpdir(),
    XDG_CONFIG_HOME: tmpdir(),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    LANG: 'C',
    LC_ALL: 'C',
    TZ: 'UTC',
  };
}

/** Options every invocation gets: no CRLF conversion, no signing, one pack thread (stable packs). */
const PINNED_CONFIG = [
  '-c', 'core.autocrlf=false',
  '-c', 'core.safecrlf=false',
  '-c', 'core.quotePath=false',
  '-c', 'commit.gpgSign=false',
  '-c', 'tag.gpgSign=false',
  '-c', 'pack.threads=1',
  '-c', 'diff.noprefix=false',
  '-c', 'diff.mnemonicPrefix=false',
  '-c', 'diff.renames=false',
  '-c', 'diff.algorithm=myers',
  '-c', 'init.defaultBranch=main',
];

export class GitError extends Error {
  constructor(args: string[], readonly stderr: string) {
    super(`git ${args.join(' ')} failed: ${stderr.trim() || '(no output)'}`);
    this.name = 'GitError';
  }
}

export function git(gitDir: string, args: string[], input?: string | Buffer): string {
  const full = [...PINNED_CONFIG, '--git-dir', gitDir, ...args];
  try {
    return execFileSync('git', full, {
      env: gitEnv(),
      input,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (error) {
    const e = error as { stderr?: string | Buffer; message: string };
    throw new GitError(args, e.stderr ? e.stderr.toString() : e.message);
  }
}

export function initBareRepo(dir: string): void {
  execFileSync('git', [...PINNED_CONFIG, 'init', '--quiet', '--bare', '--initial-branch=main', dir], { env: gitEnv(), stdio: 'pipe' });
}

/** `refname → commit id` for every ref (HEAD excluded). */
export function listRefs(gitDir: string): Record<string, string> {
  const out = git(gitDir, ['for-each-ref', '--format=%(refname) %(objectname)']);
  const refs: Record<string, string> = {};
  for (const line of out.split('\n').filter(Boolean)) {
    const [name, oid] = line.split(' ');
    refs[name!] = oid!;
  }
  return refs;
}

/** Unpacks a bundle into a new bare repository with all of its refs (refs/heads, refs/repairlab, …). */
export function openBundle(bundlePath: string, gitDir: string): void {
  initBareRepo(gitDir);
  git(gitDir, ['fetch', '--quiet', '--no-tags', bundlePath, 'refs/*:refs/*']);
}
