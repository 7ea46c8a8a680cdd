// Cloning from a host whose name does not resolve: the runner's git proxy answers 502 `unreachable-host` naming the
// host and what to check (a typo, the machine's DNS) — before its allow-list, whose "add --git-host" is the wrong
// advice for a name that does not exist — and the clone surfaces that reason instead of isomorphic-git's bare
// "HTTP 403". `.invalid` names never resolve (RFC 6761), so the test needs no network.
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner, type RunningRunner } from '../../../runner/src/index.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RepoStore } from '../../../worker/repo/repo-store.ts';
import { ALLOWED_ORIGIN } from './helpers.ts';

const UNLISTED = 'no-such-host.invalid';
const LISTED = 'listed-but-missing.invalid';

function get(base: string, rawPath: string): Promise<{ status: number; body: { code?: string; error?: string } }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: 'GET', path: rawPath, headers: { origin: ALLOWED_ORIGIN } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { code?: string; error?: string } }));
    });
    req.on('error', reject);
    req.end();
  });
}

let dataDir: string;
let home: string;
let runner: RunningRunner;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-proxy-dns-'));
  home = await mkdtemp(path.join(os.tmpdir(), 'repairlab-proxy-dns-store-'));
  runner = await startRunner({ port: 0, dataDir, allowedOrigins: [ALLOWED_ORIGIN], sandbox: 'bwrap', workers: 1, gitHosts: ['github.com', LISTED], log: () => undefined });
});
afterAll(async () => {
  await runner?.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

describe('git CORS proxy: a host name that does not resolve', () => {
  it('is answered 502 unreachable-host naming the host and what to check, not 403 "not allowed"', async () => {
    const res = await get(runner.url, `/cors-proxy/${UNLISTED}/owner/repo.git/info/refs?service=git-upload-pack`);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('unreachable-host');
    expect(res.body.error).toContain(`could not resolve ${UNLISTED}`);
    expect(res.body.error).toContain('check the host in the clone URL');
    expect(res.body.error).not.toContain('--git-host');
  });

  it('says the same for a host on the allow-list (the resolver, not the proxy library, names the reason)', async () => {
    const res = await get(runner.url, `/cors-proxy/${LISTED}/owner/repo.git/info/refs?service=git-upload-pack`);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('unreachable-host');
    expect(res.body.error).toContain(`could not resolve ${LISTED}`);
    expect(res.body.error).toMatch(/DNS (ENOTFOUND|EAI_AGAIN)/);
  });

  it('reaches the person cloning through the proxy: the reason and the host, not "HTTP 403"; nothing is stored', async () => {
    const store = new RepoStore(createNodePlatform({ root: home }));
    const url = `https://${UNLISTED}/owner/repo.git`;
    const failure = await store.cloneUrl('repo', url, { corsProxy: `${runner.url}/cors-proxy` }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(failure?.message).toContain(`Cloning ${url} failed: the runner's git proxy answered 502 (unreachable-host): could not resolve ${UNLISTED}`);
    expect(failure?.message).toContain('typo');
    expect(failure?.message).not.toMatch(/HTTP 403/);
    expect(await store.listRepos()).toEqual([]);
  });
});
