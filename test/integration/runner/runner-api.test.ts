// The runner end to end over real HTTP: auth, CORS, snapshots, validation with real javac/JUnit inside bubblewrap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunnerClient, RunnerError, runnerValidator } from '../../../worker/runner-client/client.ts';
import { FakeWorkspace, gitBlobOid } from './fake-workspace.ts';
import { ALLOWED_ORIGIN, startTestRunner, type TestRunner, distinctJava } from './helpers.ts';
import { BUGGY_CALC, CALC, FIXED_CALC, JUNIT4_PROJECT, LAYOUT } from './projects.ts';

let runner: TestRunner;
let client: RunnerClient;

beforeAll(async () => {
  runner = await startTestRunner();
  client = new RunnerClient({ url: runner.url, token: runner.token });
});
afterAll(async () => {
  await runner?.stop();
});

describe('auth and CORS', () => {
  it('reports health and the isolation it obtained', async () => {
    const health = await client.health();
    expect(health.isolation.backend).toBe('bwrap');
    expect(health.isolation.network).toBe(true);
    expect(health.isolation.readOnlySystem).toBe(true);
    expect(health.jdk).toMatch(/javac/);
  });

  it('refuses requests without a token', async () => {
    const res = await fetch(`${runner.url}/v1/health`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('refuses a wrong token with an actionable error in the client', async () => {
    const bad = new RunnerClient({ url: runner.url, token: 'wrong-token' });
    const err = await bad.health().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunnerError);
    expect((err as RunnerError).code).toBe('unauthorized');
    expect((err as RunnerError).message).toContain('Settings → Runner');
  });

  it('refuses a disallowed origin, even with the right token', async () => {
    const res = await fetch(`${runner.url}/v1/health`, { headers: { origin: 'http://evil.example', authorization: `Bearer ${runner.token}` } });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { code: string; error: string };
    expect(body.code).toBe('forbidden-origin');
    expect(body.error).toContain('--allow-origin http://evil.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers the preflight of an allowed origin', async () => {
    const res = await fetch(`${runner.url}/v1/validate`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    const ok = await fetch(`${runner.url}/v1/health`, { headers: { origin: ALLOWED_ORIGIN, authorization: `Bearer ${runner.token}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
  });

  it('reports an unreachable runner with what to do', async () => {
    const gone = new RunnerClient({ url: 'http://127.0.0.1:9', token: 't', retries: 1, backoffMs: 10 });
    const err = (await gone.health().catch((e: unknown) => e)) as RunnerError;
    expect(err.code).toBe('unreachable');
    expect(err.message).toContain('npm start');
  });
});

describe('git CORS proxy', () => {
  it('refuses hosts outside the allow-list', async () => {
    // a name that resolves without network (/etc/hosts): one that does not resolve is answered 502 unreachable-host
    // before the allow-list (proxy-unresolvable-host.test.ts)
    const res = await fetch(`${runner.url}/cors-proxy/localhost/repo.git/info/refs?service=git-upload-pack`, { headers: { origin: ALLOWED_ORIGIN } });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { code: string; error: string };
    expect(body.code).toBe('forbidden-host');
    expect(body.error).toContain('--git-host localhost');
  });

  it('refuses requests that are not git smart-HTTP', async () => {
    const res = await fetch(`${runner.url}/cors-proxy/github.com/some/file.txt`, { headers: { origin: ALLOWED_ORIGIN } });
    expect(res.status).toBe(403);
  });

  it('refuses a disallowed page origin', async () => {
    const res = await fetch(`${runner.url}/cors-proxy/github.com/o/r.git/info/refs?service=git-upload-pack`, { headers: { origin: 'http://evil.example' } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('forbidden-origin');
  });
});

describe('snapshots', () => {
  it('uploads only the blobs the runner lacks', async () => {
    const posts: string[] = [];
    const counting: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/v1/blobs')) posts.push(String(init?.body));
      return fetch(input, init);
    };
    const base = { ...JUNIT4_PROJECT, 'README.md': `snapshot test ${Date.now()}\n` };
    const first = new RunnerClient({ url: runner.url, token: runner.token, fetch: counting });
    await first.ensureSnapshot(new FakeWorkspace(base));
    expect(posts).toHaveLength(1);
    const uploaded = Object.keys((JSON.parse(posts[0]!) as { blobs: Record<string, string> }).blobs);
    expect(uploaded).toHaveLength(Object.keys(base).length);

    // a new tree sharing all blobs but one: only that blob travels
    const next = { ...base, 'README.md': `changed ${Date.now()}\n` };
    const second = new RunnerClient({ url: runner.url, token: runner.token, fetch: counting });
    await second.ensureSnapshot(new FakeWorkspace(next));
    expect(posts).toHaveLength(2);
    expect(Object.keys((JSON.parse(posts[1]!) as { blobs: Record<string, string> }).blobs)).toEqual([gitBlobOid(next['README.md']!)]);
  });

  it('rejects a blob whose content does not match its oid', async () => {
    const res = await fetch(`${runner.url}/v1/blobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${runner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ blobs: { [gitBlobOid('one')]: Buffer.from('two').toString('base64') } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('does not match');
  });

  it('names the problem in a malformed validate request', async () => {
    const res = await fetch(`${runner.url}/v1/validate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${runner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ treeId: 'not-a-tree', layout: LAYOUT, tests: { mode: 'all' } }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; error: string };
    expect(body.code).toBe('bad-request');
    expect(body.error).toContain('treeId');
  });
});

describe('validation (JUnit 4, bubblewrap)', () => {
  const failing = { mode: 'failing-first' as const, tests: ['demo.CalcTest::add'] };

  it('reports the failing test of the buggy version and stops at it', async () => {
    const ws = new FakeWorkspace(JUNIT4_PROJECT);
    const r = await client.validate(ws, LAYOUT, failing);
    expect(r.compiled).toBe(true);
    expect(r.plausible).toBe(false);
    expect(r.failingTests).toEqual(['demo.CalcTest::add']);
    expect(r.stopped).toBe('first-failure');
    // failing-first: the rest of the suite did not run
    expect(r.tests.map((t) => t.id)).toEqual(['demo.CalcTest::add']);
    const failure = r.tests[0]!.failure!;
    expect(failure.exception).toBe('java.lang.AssertionError');
    expect(failure.message).toContain('expected:<5> but was:<-1>');
    expect(failure.frames.some((f) => f.includes('demo.CalcTest.add(CalcTest.java:'))).toBe(true);
    expect(failure.frames.every((f) => f.includes('demo.') || f.startsWith('...') || f.startsWith('Caused by'))).toBe(true);
    expect(failure.omittedFrames).toBeGreaterThan(0);
    expect(r.report).toBe('Failing tests: 1\n  - demo.CalcTest::add\n');
  });

  it('accepts the fix as plausible after running the whole suite (warm and cold agree)', async () => {
    const ws = new FakeWorkspace(JUNIT4_PROJECT);
    await ws.write(CALC, FIXED_CALC);
    const warm = await client.validate(ws, LAYOUT, failing, { path: 'warm' });
    const cold = await client.validate(ws, LAYOUT, failing, { path: 'cold' });
    for (const r of [warm, cold]) {
      expect(r.plausible).toBe(true);
      expect(r.stopped).toBe('none');
      expect(r.tests.map((t) => `${t.id}:${t.status}`).sort()).toEqual(['demo.CalcTest::add:pass', 'demo.CalcTest::mul:pass', 'demo.MoreTest::mulByZero:pass']);
      expect(r.report).toBe('Failing tests: 0\n');
    }
    expect(warm.path).toBe('warm');
    expect(cold.path).toBe('cold');
  });

  it('reports compile errors with file, line and message', async () => {
    const ws = new FakeWorkspace(JUNIT4_PROJECT);
    await ws.write(CALC, BUGGY_CALC.replace('return a * b;', 'return a * c;'));
    for (const path of ['warm', 'cold'] as const) {
      const r = await client.validate(ws, LAYOUT, failing, { path });
      expect(r.compiled).toBe(false);
      expect(r.plausible).toBe(false);
      expect(r.stopped).toBe('compile-error');
      expect(r.tests).toEqual([]);
      const d = r.diagnostics.find((x) => x.kind === 'error')!;
      expect(d.file).toBe(CALC);
      expect(d.line).toBe(9);
      expect(d.message).toContain('cannot find symbol');
    }
  });

  it('runs listed tests only, and all tests without stopping', async () => {
    const ws = new FakeWorkspace(JUNIT4_PROJECT);
    const listed = await client.validate(ws, LAYOUT, { mode: 'listed', tests: ['demo.CalcTest::mul'] });
    expect(listed.tests.map((t) => t.id)).toEqual(['demo.CalcTest::mul']);
    expect(listed.plausible).toBe(false); // the whole suite did not run
    const all = await client.validate(ws, LAYOUT, { mode: 'all' });
    expect(all.tests).toHaveLength(3);
    expect(all.failingTests).toEqual(['demo.CalcTest::add']);
    expect(all.stopped).toBe('none');
  });

  it('serves a repeated validation from the cache', async () => {
    const ws = new FakeWorkspace(JUNIT4_PROJECT);
    await ws.write(CALC, distinctJava(FIXED_CALC.replace('public class', '// cache probe\npublic class')));
    const first = await client.validate(ws, LAYOUT, failing);
    const again = await client.validate(ws, LAYOUT, failing);
    expect(first.cached).toBe(false);
    expect(again.cached).toBe(true);
    expect(again.plausible).toBe(first.plausible);
  });

  it('works behind the Validator interface', async () => {
    const ws = new FakeWorkspace(JUNIT4_PROJECT);
    const validator = runnerValidator(client, LAYOUT);
    const r = await validator.validate(ws, { mode: 'listed', tests: ['demo.MoreTest::mulByZero'] });
    expect(r.tests[0]!.status).toBe('pass');
  });
});
