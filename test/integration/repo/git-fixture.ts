// Real git repositories for tests, built with the git CLI in a temp dir with fixed identities and dates.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `repairlab-${prefix}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export class GitFixture {
  private tick = 0;

  constructor(
    readonly dir: string,
    private readonly baseTime = 1_700_000_000,
    initArgs: string[] = [],
  ) {
    mkdirSync(dir, { recursive: true });
    this.git('init', '-q', '-b', 'main', ...initArgs);
  }

  private env(): NodeJS.ProcessEnv {
    const date = `${this.baseTime + this.tick * 3600} +0000`;
    return {
      ...process.env,
      GIT_AUTHOR_NAME: 'Ada Tester',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada Tester',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
    };
  }

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.dir, env: this.env(), encoding: 'utf8', maxBuffer: 1 << 28 });
  }

  write(path: string, content: string): void {
    const full = join(this.dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }

  /** Stages everything and commits; returns the new commit id. */
  commit(message: string): string {
    this.tick++;
    this.git('add', '-A');
    this.git('commit', '-q', '--allow-empty', '-m', message);
    return this.git('rev-parse', 'HEAD').trim();
  }

  bundle(file: string): string {
    this.git('bundle', 'create', '-q', file, '--all');
    return file;
  }
}
