// Clone by URL over git's real smart HTTP protocol: `git http-backend` (CGI) behind a small Node server
// on 127.0.0.1, cloned with the store's cloneUrl (isomorphic-git's fetch-based client).
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RepoStore } from '../../../worker/repo/repo-store.ts';
import { GitFixture, removeDir, tempDir } from './git-fixture.ts';

function gitHttpServer(projectRoot: string): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_NOSYSTEM: '1',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (c: Buffer) => chunks.push(c));
    cgi.on('close', () => {
      const out = Buffer.concat(chunks);
      const split = out.indexOf('\r\n\r\n');
      const head = out.subarray(0, split).toString('latin1').split('\r\n');
      let status = 200;
      for (const line of head) {
        const [name, ...rest] = line.split(':');
        const value = rest.join(':').trim();
        if (name?.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else if (name) res.setHeader(name, value);
      }
      res.statusCode = status;
      res.end(out.subarray(split + 4));
    });
  });
}

describe('clone by URL (smart HTTP)', () => {
  let work: string;
  let server: Server;
  let base: string;
  let head: string;
  let side: string;

  beforeAll(async () => {
    work = tempDir('clone');
    const fx = new GitFixture(join(work, 'served', 'project'));
    fx.write('src/A.java', 'class A {}\n');
    fx.commit('one');
    fx.git('checkout', '-q', '-b', 'side');
    fx.write('src/B.java', 'class B {}\n');
    side = fx.commit('side');
    fx.git('checkout', '-q', 'main');
    fx.write('src/A.java', 'class A { int x; }\n');
    head = fx.commit('two');
    server = gitHttpServer(join(work, 'served'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    removeDir(work);
  });

  it('clones the full history with every branch, without a checkout', async () => {
    const store = new RepoStore(createNodePlatform({ root: join(work, 'store') }));
    const phases = new Set<string>();
    const result = await store.cloneUrl('project', `${base}/project/.git`, { onProgress: (p) => phases.add(p.phase) });
    expect(result.head).toBe(head);
    expect(phases.size).toBeGreaterThan(0);
    const session = await store.openRepo('project');
    expect(await session.resolveRef('side')).toBe(side);
    expect(new TextDecoder().decode(await session.readFileAt(side, 'src/B.java'))).toBe('class B {}\n');
    expect((await store.listRepos()).map((r) => r.repoId)).toEqual(['project']);
  });

  it('explains a missing repository, an unreachable host and a non-http URL', async () => {
    const store = new RepoStore(createNodePlatform({ root: join(work, 'store2') }));
    await expect(store.cloneUrl('nope', `${base}/missing/.git`)).rejects.toThrow(/HTTP 404/);
    await expect(store.cloneUrl('down', 'http://127.0.0.1:9/x.git')).rejects.toThrow(/Could not reach http:\/\/127\.0\.0\.1:9\/x\.git/);
    await expect(store.cloneUrl('ssh', 'git@github.com:a/b.git')).rejects.toThrow(/not a URL|only http/);
    expect(await store.listRepos()).toEqual([]);
  });
});
