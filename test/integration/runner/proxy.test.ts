// The git CORS proxy against the tricks a hostile page would try: encoded dot segments that move the connection to
// another host, pushes, and truthful answers for refused hosts and hosts that cannot be reached. A real TCP listener
// on 127.0.0.1 records every connection the proxy makes to it.
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkProxyRequest } from '../../../runner/src/cors-proxy.ts';
import { startRunner, type RunningRunner } from '../../../runner/src/index.ts';
import { ALLOWED_ORIGIN } from './helpers.ts';

/** A TCP listener that counts the connections made to it (and drops them: it speaks neither HTTP nor TLS). */
class RecordingListener {
  connections = 0;
  private server: Server = createServer((socket) => {
    this.connections++;
    socket.destroy();
  });
  port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Sends the path exactly as written (fetch would resolve dot segments before sending). */
function rawRequest(base: string, method: string, rawPath: string, headers: Record<string, string> = {}): Promise<{ status: number; body: { code?: string; error?: string } }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path: rawPath, headers: { origin: ALLOWED_ORIGIN, ...headers } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        let body = {};
        try {
          body = JSON.parse(text) as object;
        } catch {
          // non-JSON answers carry no code
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '0000' : undefined);
  });
}

let dataDir: string;
let runner: RunningRunner;
const target = new RecordingListener();
let allowedTarget: string;
let deadHost: string;

beforeAll(async () => {
  await target.start();
  allowedTarget = `127.0.0.1:${target.port}`;
  deadHost = `127.0.0.1:${await closedPort()}`;
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-proxy-test-'));
  runner = await startRunner({
    port: 0,
    dataDir,
    allowedOrigins: [ALLOWED_ORIGIN],
    sandbox: 'bwrap',
    workers: 1,
    gitHosts: ['github.com', allowedTarget, deadHost],
    log: () => undefined,
  });
});
afterAll(async () => {
  await runner?.close();
  await target.close();
  await rm(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  target.connections = 0;
});

describe('git CORS proxy: the checked host is the connected host', () => {
  it('refuses encoded dot segments that would move the request to another host, without connecting', async () => {
    // the listener is NOT reachable through github.com's allow-list entry: each of these tried to get there
    const other = new RecordingListener();
    await other.start();
    try {
      for (const trick of [
        `/cors-proxy/github.com/%2e%2e/127.0.0.1:${other.port}/x/info/refs?service=git-upload-pack`,
        `/cors-proxy/github.com/%2E%2E/127.0.0.1:${other.port}/x/info/refs?service=git-upload-pack`,
        `/cors-proxy/github.com/.%2e/127.0.0.1:${other.port}/x/info/refs?service=git-upload-pack`,
        `/cors-proxy/github.com/../127.0.0.1:${other.port}/x/info/refs?service=git-upload-pack`,
        `/cors-proxy/github.com/%2e%2e%2f127.0.0.1:${other.port}/x/info/refs?service=git-upload-pack`,
        `/cors-proxy/github.com/..%5c127.0.0.1:${other.port}/x/info/refs?service=git-upload-pack`,
        `/cors-proxy/github.com%2f..%2f127.0.0.1:${other.port}/x/info/refs?service=git-upload-pack`,
        `/cors-proxy/github.com/x/%2e%2e/%2e%2e/127.0.0.1:${other.port}/x/info/refs?service=git-upload-pack`,
      ]) {
        const res = await rawRequest(runner.url, 'GET', trick);
        expect(res.status, trick).toBeGreaterThanOrEqual(400);
        expect(res.status, trick).toBeLessThan(500);
      }
      expect(other.connections).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('answers "refused: host not allowed" (403) for a host outside the allow-list', async () => {
    // a name that resolves (from /etc/hosts, no network needed): one that does not is answered 502 before the
    // allow-list (proxy-unresolvable-host.test.ts)
    // (the listener's own port, under a name the allow-list does not hold: the refusal must not connect to it)
    const res = await rawRequest(runner.url, 'GET', `/cors-proxy/localhost:${target.port}/o/r.git/info/refs?service=git-upload-pack`);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden-host');
    expect(res.body.error).toContain('refused: host not allowed');
    expect(res.body.error).toContain(`--git-host localhost:${target.port}`);
    expect(target.connections).toBe(0);
  });
});

describe('git CORS proxy: clone and fetch only', () => {
  it('forwards info/refs?service=git-upload-pack to an allowed host (the listener is connected to)', async () => {
    const res = await rawRequest(runner.url, 'GET', `/cors-proxy/${allowedTarget}/o/r.git/info/refs?service=git-upload-pack`);
    expect(target.connections).toBeGreaterThan(0);
    // the listener hangs up at once: the proxy says so instead of blaming the request
    expect(res.status).toBe(502);
  });

  it('forwards POST git-upload-pack to an allowed host', async () => {
    await rawRequest(runner.url, 'POST', `/cors-proxy/${allowedTarget}/o/r.git/git-upload-pack`, { 'content-type': 'application/x-git-upload-pack-request' });
    expect(target.connections).toBeGreaterThan(0);
  });

  it('refuses pushes (receive-pack) to an allowed host without connecting', async () => {
    const info = await rawRequest(runner.url, 'GET', `/cors-proxy/${allowedTarget}/o/r.git/info/refs?service=git-receive-pack`);
    const push = await rawRequest(runner.url, 'POST', `/cors-proxy/${allowedTarget}/o/r.git/git-receive-pack`, { 'content-type': 'application/x-git-receive-pack-request' });
    for (const res of [info, push]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toContain('git-receive-pack');
    }
    expect(target.connections).toBe(0);
  });

  it('refuses what is not clone or fetch without connecting', async () => {
    for (const [method, p] of [
      ['GET', `/cors-proxy/${allowedTarget}/o/r.git/HEAD`],
      ['GET', `/cors-proxy/${allowedTarget}/o/r.git/info/refs`],
      ['GET', `/cors-proxy/${allowedTarget}/o/r.git/info/refs?service=git-upload-pack&x=1`],
      ['POST', `/cors-proxy/${allowedTarget}/o/r.git/git-upload-pack`],
      ['GET', `/cors-proxy/${allowedTarget}/o/r.git/git-upload-pack`],
    ] as const) {
      const res = await rawRequest(runner.url, method, p);
      expect(res.status, `${method} ${p}`).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect(target.connections).toBe(0);
  });

  it('answers "could not connect" (502) when an allowed host refuses the connection', async () => {
    const res = await rawRequest(runner.url, 'GET', `/cors-proxy/${deadHost}/o/r.git/info/refs?service=git-upload-pack`);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('unreachable-host');
    expect(res.body.error).toContain(`could not connect to ${deadHost}`);
  });
});

describe('checkProxyRequest', () => {
  const hosts = ['github.com'];
  it('rebuilds an accepted request into a canonical URL', () => {
    expect(checkProxyRequest('GET', '/cors-proxy/GitHub.com/o/r.git/info/refs?service=git-upload-pack', undefined, hosts)).toEqual({
      ok: true,
      host: 'github.com',
      url: '/github.com/o/r.git/info/refs?service=git-upload-pack',
    });
    expect(checkProxyRequest('POST', '/cors-proxy/github.com/o/r%2Dx.git/git-upload-pack', 'application/x-git-upload-pack-request', hosts)).toMatchObject({
      ok: true,
      url: '/github.com/o/r-x.git/git-upload-pack',
    });
  });

  it('refuses malformed percent-encoding and empty segments', () => {
    expect(checkProxyRequest('GET', '/cors-proxy/github.com/o/%zz/info/refs?service=git-upload-pack', undefined, hosts)).toMatchObject({ ok: false, status: 400 });
    expect(checkProxyRequest('GET', '/cors-proxy/github.com//o/info/refs?service=git-upload-pack', undefined, hosts)).toMatchObject({ ok: false, status: 400 });
    expect(checkProxyRequest('GET', '/cors-proxy/github.com/o/r@127.0.0.1/info/refs?service=git-upload-pack', undefined, hosts)).toMatchObject({ ok: false, status: 400 });
  });
});
