// The runner's HTTP surface against hostile or broken input, over real HTTP with real javac/JUnit in bubblewrap:
// oversized bodies, overlay and snapshot path conflicts, half-bad blob batches, a full disk (a real tmpfs), leftovers
// of earlier runs and a data directory the sandbox user cannot enter.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner, type RunningRunner } from '../../../runner/src/index.ts';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import { FakeWorkspace, gitBlobOid } from './fake-workspace.ts';
import { CALC, FIXED_CALC, JUNIT4_PROJECT, LAYOUT } from './projects.ts';

const MB = 1024 * 1024;

async function start(dataDir: string): Promise<RunningRunner> {
  return startRunner({ port: 0, dataDir, sandbox: 'bwrap', workers: 1, log: () => undefined });
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
