// The runner's HTTP surface against hostile or broken input, over real HTTP with real javac/JUnit in bubblewrap:
// CORS preflights asking for more headers than the app sends, oversized bodies and overlays, overlay and snapshot
// path conflicts, half-bad blob batches, a full disk (a real tmpfs), leftovers of earlier runs and a data directory
// the sandbox user cannot enter.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner, type RunningRunner } from '../../../runner/src/index.ts';
import { MAX_OVERLAY_BYTES, MAX_OVERLAY_FILE_BYTES } from '../../../worker/contracts/overlay-limits.ts';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import { FakeWorkspace, gitBlobOid } from './fake-workspace.ts';
import { ALLOWED_ORIGIN } from './helpers.ts';
import { CALC, FIXED_CALC, JUNIT4_PROJECT, LAYOUT } from './projects.ts';

const MB = 1024 * 1024;

async function start(dataDir: string): Promise<RunningRunner> {
  return startRunner({ port: 0, dataDir, allowedOrigins: [ALLOWED_ORIGIN], sandbox: 'bwrap', workers: 1, log: () => undefined });
}

async function api(r: RunningRunner, method: string, route: string, body: unknown): Promise<{ status: number; body: { code?: string; error?: string; [k: string]: unknown } }> {
  const res = await fetch(`${r.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${r.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code?: string; error?: string } };
}

/**
 * Streams `total` bytes of body to a route, 1 MB at a time, and stops writing as soon as an answer arrives.
 * Resolves with the answer and how many bytes had been written by then.
 */
function streamBody(r: RunningRunner, route: string, total: number, declareLength: boolean): Promise<{ status: number; body: { code?: string; error?: string }; sent: number }> {
  const u = new URL(r.url);
  const headers: Record<string, string | number> = { authorization: `Bearer ${r.token}`, 'content-type': 'application/json' };
  if (declareLength) headers['content-length'] = total;
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request({ host: u.hostname, port: u.port, method: 'POST', path: route, headers }, (res) => {
      answered = true;
      const sentAtAnswer = sent;
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { code?: string }, sent: sentAtAnswer });
      });
    });
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    const chunk = Buffer.alloc(MB, 0x20);
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

let dataDir: string;
let runner: RunningRunner;
let client: RunnerClient;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-http-hardening-'));
  runner = await start(dataDir);
  client = new RunnerClient({ url: runner.url, token: runner.token });
});
afterAll(async () => {
  await runner?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('body size limits', () => {
  it('answers 413 to a declared 200 MB /v1/validate body before reading it', async () => {
    const r = await streamBody(runner, '/v1/validate', 200 * MB, true);
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('too-large');
    expect(r.body.error).toContain('16 MB');
    expect(r.sent).toBeLessThan(200 * MB);
  });

  it('answers 413 to a chunked 200 MB /v1/validate-batch body once it passes the limit, without buffering the rest', async () => {
    const r = await streamBody(runner, '/v1/validate-batch', 200 * MB, false);
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('too-large');
    expect(r.body.error).toContain('32 MB');
    // the answer came while the client was still sending: the rest was never read into memory
    expect(r.sent).toBeLessThan(200 * MB);
  });

  it('still answers on the same runner afterwards', async () => {
    expect((await client.health()).ok).toBe(true);
  });
});

describe('CORS preflights', () => {
  async function preflight(route: string, requestHeaders: string): Promise<{ status: number; allowed: string[] }> {
    const res = await fetch(`${runner.url}${route}`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': requestHeaders },
    });
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
    return { status: res.status, allowed };
  }

  it('allows a fixed list of headers, never what the preflight asks for', async () => {
    const api = await preflight('/v1/validate', 'x-evil, authorization');
    expect(api.status).toBe(204);
    expect(api.allowed).not.toContain('x-evil');
    expect(api.allowed).toEqual(['authorization', 'content-type']);
    // the git CORS proxy: what isomorphic-git sends (and the proxy forwards), nothing else
    const proxy = await preflight('/cors-proxy/github.com/o/r.git/git-upload-pack', 'x-evil,content-type,git-protocol');
    expect(proxy.status).toBe(204);
    expect(proxy.allowed).not.toContain('x-evil');
    expect(proxy.allowed).toEqual(['authorization', 'content-type', 'git-protocol']);
  });

  it("allows every header of the app's own requests, which then go through", async () => {
    // the runner client as a page of the allowed origin runs it: each request's header names are what the
    // browser's preflight would ask for
    const sent: Array<{ headers: string[]; allowOrigin: string | null; status: number }> = [];
    const pageClient = new RunnerClient({
      url: runner.url,
      token: runner.token,
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('origin', ALLOWED_ORIGIN);
        const res = await fetch(input, { ...init, headers });
        sent.push({ headers: [...new Headers(init?.headers).keys()], allowOrigin: res.headers.get('access-control-allow-origin'), status: res.status });
        return res;
      },
    });
    const ws = new FakeWorkspace({ ...JUNIT4_PROJECT, 'README.md': 'cors\n' });
    await ws.write(CALC, FIXED_CALC);
    expect((await pageClient.health()).ok).toBe(true);
    expect((await pageClient.validate(ws, LAYOUT, { mode: 'all' }, { path: 'cold' })).plausible).toBe(true);
    expect(sent.length).toBeGreaterThanOrEqual(4); // health, snapshot, blobs, validate
    for (const r of sent) {
      expect(r.status).toBe(200);
      expect(r.allowOrigin).toBe(ALLOWED_ORIGIN);
      const { allowed } = await preflight('/v1/validate', r.headers.join(','));
      expect(allowed).toEqual(expect.arrayContaining(r.headers));
    }
  });
});

describe('overlay size limits: 413 before anything is compiled', () => {
  const ws = new FakeWorkspace({ ...JUNIT4_PROJECT, 'README.md': 'overlay sizes\n' });
  const tests = { mode: 'all' as const };
  /** Calc.java, fixed, padded with comment lines to `bytes` (it compiles quickly whatever its size) */
  const padded = (bytes: number) => FIXED_CALC + `// ${'x'.repeat(97)}\n`.repeat(Math.ceil((bytes - FIXED_CALC.length) / 101));

  it('refuses a 12 MB changed file, naming the limit, the size seen and what to do', async () => {
    await client.ensureSnapshot(ws);
    const res = await api(runner, 'POST', '/v1/validate', { treeId: ws.treeId, overlay: { [CALC]: padded(12 * MB) }, layout: LAYOUT, tests, path: 'cold' });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('too-large');
    expect(res.body.error).toMatch(new RegExp(`overlay's file "${CALC}" is 12\\.0 MB \\(\\d+ bytes\\), over the limit of 2 MB per changed file`));
    expect(res.body.error).toContain('Send only the files the patch changes');
    expect(res.body.detail).toMatchObject({ limitBytes: MAX_OVERLAY_FILE_BYTES, file: CALC });
    expect(await readdir(path.join(dataDir, 'work'))).toEqual([]);
  });

  it('refuses an overlay whose files add up to more than the per-validation limit, and names the overlay of a batch', async () => {
    const files = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`src/main/java/demo/Big${i}.java`, `class Big${i} {}\n${padded(MAX_OVERLAY_FILE_BYTES - 1000)}`]));
    const res = await api(runner, 'POST', '/v1/validate', { treeId: ws.treeId, overlay: files, layout: LAYOUT, tests });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/changed files add up to \d+\.\d MB \(\d+ bytes\), over the limit of 8 MB per validation/);
    expect(res.body.detail).toMatchObject({ limitBytes: MAX_OVERLAY_BYTES });
    const batch = await api(runner, 'POST', '/v1/validate-batch', { treeId: ws.treeId, overlays: [{}, { [CALC]: padded(3 * MB) }], layout: LAYOUT, tests });
    expect(batch.status).toBe(413);
    expect(batch.body.error).toMatch(/^overlays\[1\]: .* is 3\.0 MB/);
  });

  it('validates a changed file as large as real projects have (400 KB)', async () => {
    const big = new FakeWorkspace({ ...JUNIT4_PROJECT, 'README.md': 'overlay sizes\n' });
    await big.write(CALC, padded(400 * 1024));
    expect((await client.validate(big, LAYOUT, tests, { path: 'cold' })).plausible).toBe(true);
  });
});

describe('path conflicts are 400 before anything is written', () => {
  const ws = new FakeWorkspace({ ...JUNIT4_PROJECT, 'README.md': 'conflicts\n' });
  const tests = { mode: 'all' as const };

  it('refuses overlays that put a file inside a file, a file over a directory, or both', async () => {
    await client.ensureSnapshot(ws);
    const cases: Array<[Record<string, string>, string]> = [
      [{ [`${CALC}/x.txt`]: 'x' }, `"${CALC}" is a file`],
      [{ 'src/main/java/demo': 'x' }, '"src/main/java/demo" is a directory'],
      [{ 'extra/a': 'x', 'extra/a/b.txt': 'y' }, 'both the file "extra/a"'],
    ];
    for (const [overlay, says] of cases) {
      for (const p of ['warm', 'cold'] as const) {
        const res = await api(runner, 'POST', '/v1/validate', { treeId: ws.treeId, overlay, layout: LAYOUT, tests, path: p });
        expect(res.status, JSON.stringify(overlay)).toBe(400);
        expect(res.body.code).toBe('bad-request');
        expect(res.body.error).toContain(says);
        expect(res.body.error).not.toContain(dataDir);
      }
    }
    const batch = await api(runner, 'POST', '/v1/validate-batch', { treeId: ws.treeId, overlays: [{}, { [`${CALC}/x.txt`]: 'x' }], layout: LAYOUT, tests });
    expect(batch.status).toBe(400);
    expect(batch.body.error).toContain('overlays[1]');
    expect(await readdir(path.join(dataDir, 'work'))).toEqual([]);
  });

  it('validates ordinary patches right afterwards', async () => {
    const fixed = new FakeWorkspace({ ...JUNIT4_PROJECT, 'README.md': 'conflicts\n' });
    await fixed.write(CALC, FIXED_CALC);
    const r = await client.validate(fixed, LAYOUT, tests, { path: 'cold' });
    expect(r.plausible).toBe(true);
  });

  it('refuses a snapshot listing both a file and a path inside it, and keeps nothing of it', async () => {
    const a = Buffer.from('a\n');
    const treeId = '1'.repeat(40);
    const res = await api(runner, 'PUT', '/v1/snapshots', {
      treeId,
      files: [
        { path: 'a', oid: gitBlobOid(a) },
        { path: 'a/b', oid: gitBlobOid(a) },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('both the file "a" and "a/b"');
    // not stored: validating it is an unknown snapshot (not a 500), and no half-built tree is left
    const blobs = await api(runner, 'POST', '/v1/blobs', { blobs: { [gitBlobOid(a)]: a.toString('base64') } });
    expect(blobs.status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const v = await api(runner, 'POST', '/v1/validate', { treeId, overlay: {}, layout: LAYOUT, tests });
      expect(v.status).toBe(404);
      expect(v.body.code).toBe('unknown-snapshot');
    }
    expect((await readdir(path.join(dataDir, 'trees'))).filter((n) => n.startsWith('.'))).toEqual([]);
  });
});

describe('blob batches', () => {
  it('stores nothing of a batch with one bad hash', async () => {
    const good = Buffer.from(`good blob ${process.pid}\n`);
    const res = await api(runner, 'POST', '/v1/blobs', {
      blobs: { [gitBlobOid(good)]: good.toString('base64'), [gitBlobOid('claimed')]: Buffer.from('actual').toString('base64') },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('does not match');
    const status = await api(runner, 'PUT', '/v1/snapshots', { treeId: '2'.repeat(40), files: [{ path: 'good.txt', oid: gitBlobOid(good) }] });
    expect(status.body.missingBlobs).toEqual([gitBlobOid(good)]);
  });
});

describe('a full disk', () => {
  const mountPoint = path.join(os.tmpdir(), `repairlab-tmpfs-${process.pid}`);
  let mounted = false;
  let small: RunningRunner | undefined;

  beforeAll(async () => {
    await mkdir(mountPoint, { recursive: true });
    mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64m,mode=0755', 'tmpfs', mountPoint]).status === 0;
  });
  afterAll(async () => {
    await small?.close();
    if (mounted) spawnSync('umount', [mountPoint]);
    await rm(mountPoint, { recursive: true, force: true });
  });

  it('answers 507 naming the data directory, leaves no temporary file, and recovers once space is free', async (ctx) => {
    if (!mounted) ctx.skip('mounting a tmpfs needs root (mount -t tmpfs): the full-disk case is not exercised here');
    const smallDir = path.join(mountPoint, 'data');
    small = await start(smallDir);
    // fill the tmpfs to the last byte
    const filler = path.join(mountPoint, 'filler');
    const fd = openSync(filler, 'w');
    try {
      const chunk = Buffer.alloc(64 * 1024);
      for (;;) writeSync(fd, chunk);
    } catch (e) {
      expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      closeSync(fd);
    }
    const blob = Buffer.alloc(MB, 0x61);
    const res = await api(small, 'POST', '/v1/blobs', { blobs: { [gitBlobOid(blob)]: blob.toString('base64') } });
    expect(res.status).toBe(507);
    expect(res.body.code).toBe('disk-full');
    expect(res.body.error).toContain(smallDir);
    const fans = await readdir(path.join(smallDir, 'blobs'));
    for (const fan of fans) expect(await readdir(path.join(smallDir, 'blobs', fan))).toEqual([]);

    await rm(filler);
    const again = await api(small, 'POST', '/v1/blobs', { blobs: { [gitBlobOid(blob)]: blob.toString('base64') } });
    expect(again.status).toBe(200);
  });
});

describe('start-up', () => {
  it('sweeps temporary files and dead workers\' directories left by an earlier run', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-sweep-'));
    const dead = spawnSync('true').pid!; // a pid that has exited
    const leftovers = [
      path.join(dir, 'blobs', 'ab', `${'c'.repeat(38)}.0000.tmp`),
      path.join(dir, 'snapshots', `${'3'.repeat(40)}.json.0000.tmp`),
      path.join(dir, 'trees', `.${'4'.repeat(40)}.0000`, 'A.java'),
      path.join(dir, 'work', 'cold-dead', 'project', 'A.java'),
      path.join(dir, 'work', 'warm-dead', 'config.txt'),
      path.join(dir, 'runners', `${dead}-0000`),
    ];
    const kept = path.join(dir, 'blobs', 'ab', 'c'.repeat(38));
    for (const f of [...leftovers, kept]) {
      await mkdir(path.dirname(f), { recursive: true });
      await writeFile(f, 'x');
    }
    const r = await start(dir);
    try {
      for (const f of leftovers) await expect(stat(f), f).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await readdir(path.join(dir, 'work'))).toEqual([]);
      expect((await readdir(path.join(dir, 'trees'))).filter((n) => n.startsWith('.'))).toEqual([]);
      await expect(stat(kept)).resolves.toBeTruthy();
    } finally {
      await r.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a data directory inside a directory the sandbox user cannot enter, naming it and what to do', async (ctx) => {
    if (process.getuid?.() !== 0) ctx.skip('only a root runner runs sandboxed code as another user (nobody)');
    const closed = await mkdtemp(path.join(os.tmpdir(), 'repairlab-closed-')); // mode 0700, like mktemp -d
    try {
      const err = (await start(path.join(closed, 'data')).catch((e: unknown) => e)) as Error;
      expect(err).toBeInstanceOf(Error);
      expect(err.message).toContain(`inside ${closed} (mode 0700)`);
      expect(err.message).toContain(`chmod o+x ${closed}`);
    } finally {
      await rm(closed, { recursive: true, force: true });
    }
  });
});
