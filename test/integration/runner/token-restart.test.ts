// A runner restarted on the same data directory keeps its token (runner-token, 0600), so a page, a CLI's --token or
// a run waiting for it goes on without being told a new one; a token given with --token (startRunner's `token`) wins
// and is never written to disk. Real runners (bubblewrap), started and stopped in turn on one data directory.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startRunner, type RunningRunner } from '../../../runner/src/index.ts';
import { RunnerClient, RunnerError } from '../../../worker/runner-client/client.ts';
import { ALLOWED_ORIGIN } from './helpers.ts';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function start(dataDir: string, token?: string): Promise<RunningRunner> {
  return startRunner({ port: 0, dataDir, allowedOrigins: [ALLOWED_ORIGIN], sandbox: 'bwrap', workers: 1, log: () => undefined, ...(token !== undefined ? { token } : {}) });
}

/** health with `token`: 'ok' or the refusal's code */
async function ask(runner: RunningRunner, token: string): Promise<string> {
  return new RunnerClient({ url: runner.url, token, retries: 0 })
    .health()
    .then(() => 'ok')
    .catch((e: unknown) => (e instanceof RunnerError ? e.code : String(e)));
}

describe("the runner's token across restarts", () => {
  it('is the same after a restart on the same data directory, kept 0600; a given token wins and is not written', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-token-restart-'));
    dirs.push(dataDir);

    const first = await start(dataDir);
    const token = first.token;
    expect(first.tokenFile).toBe(path.join(dataDir, 'runner-token'));
    expect((await stat(first.tokenFile!)).mode & 0o777).toBe(0o600);
    expect(await ask(first, token)).toBe('ok');
    await first.close();

    // restarted on the same data directory: the old token is taken
    const second = await start(dataDir);
    expect(second.token).toBe(token);
    expect(await ask(second, token)).toBe('ok');
    await second.close();

    // --token wins: the kept one is refused while it runs, and the file still holds the kept one
    const given = 'given-token-for-this-start-only-0123456789';
    const third = await start(dataDir, given);
    expect(third.token).toBe(given);
    expect(third.tokenFile).toBeUndefined();
    expect(await ask(third, given)).toBe('ok');
    expect(await ask(third, token)).toBe('unauthorized');
    expect((await readFile(path.join(dataDir, 'runner-token'), 'utf8')).trim()).toBe(token);
    await third.close();

    // and without it again: the kept token
    const fourth = await start(dataDir);
    expect(fourth.token).toBe(token);
    await fourth.close();

    // an empty token (REPAIRLAB_RUNNER_TOKEN= in a shell) is no token: the kept one, not a token that refuses everyone
    const fifth = await start(dataDir, '');
    expect(fifth.token).toBe(token);
    expect(await ask(fifth, token)).toBe('ok');
    await fifth.close();
  });
});
