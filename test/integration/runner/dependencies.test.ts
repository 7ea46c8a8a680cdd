// Jars by content (ProjectLayout.jars): a project whose code and tests need a jar the runner does not ship. The jar is
// built here from Java source, uploaded by oid when the runner asks for it (409 missing-jars), and kept: a second
// validation does not upload it again. Both paths put it on the compile and the test class path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectLayout } from '../../../worker/contracts/bug.ts';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import { FakeWorkspace, gitBlobOid } from './fake-workspace.ts';
import { buildJar } from './jar.ts';
import { startTestRunner, type TestRunner } from './helpers.ts';
import { LAYOUT } from './projects.ts';

const GREETER = `package greet;
public class Greeter {
  public static String hello(String name) { return "hello " + name; }
}
`;

const PROJECT: Record<string, string> = {
  'src/main/java/demo/Welcome.java': `package demo;
public class Welcome {
  public static String to(String name) { return greet.Greeter.hello(name).toUpperCase(); }
}
`,
  'src/test/java/demo/WelcomeTest.java': `package demo;
import static org.junit.Assert.assertEquals;
import org.junit.Test;
public class WelcomeTest {
  @Test public void greets() { assertEquals("HELLO ADA", Welcome.to("ada")); }
  @Test public void usesTheJarInTests() { assertEquals("hello bob", greet.Greeter.hello("bob")); }
}
`,
};

let runner: TestRunner;
let jarBytes: Uint8Array;
let layout: ProjectLayout;
/** oids of the blobs each POST /v1/blobs carried, in order */
const uploads: string[][] = [];
let client: RunnerClient;

beforeAll(async () => {
  runner = await startTestRunner({ workers: 1 });
  jarBytes = await buildJar({ 'greet/Greeter.java': GREETER });
  layout = { ...LAYOUT, jars: [{ name: 'greeter.jar', oid: gitBlobOid(jarBytes) }] };
  const counting: typeof fetch = async (input, init) => {
    if (String(input).endsWith('/v1/blobs') && typeof init?.body === 'string') uploads.push(Object.keys((JSON.parse(init.body) as { blobs: object }).blobs));
    return fetch(input, init);
  };
  client = new RunnerClient({ url: runner.url, token: runner.token, fetch: counting, readJar: async () => jarBytes });
}, 60_000);
afterAll(async () => {
  await runner?.stop();
});

describe('a project that needs a jar by content', () => {
  it('does not compile without the jar', async () => {
    const r = await client.validate(new FakeWorkspace(PROJECT), LAYOUT, { mode: 'all' }, { path: 'cold' });
    expect(r.compiled).toBe(false);
    expect(r.diagnostics.some((d) => d.file === 'src/main/java/demo/Welcome.java' && /greet/.test(d.message))).toBe(true);
  });

  it('uploads the jar once and compiles and tests against it on the cold and the warm path', async () => {
    const jarOid = layout.jars![0]!.oid;
    const uploadsOfJar = () => uploads.filter((u) => u.includes(jarOid)).length;
    const cold = await client.validate(new FakeWorkspace(PROJECT), layout, { mode: 'all' }, { path: 'cold' });
    expect(cold.diagnostics).toEqual([]);
    expect(cold.plausible).toBe(true);
    expect(cold.tests.map((t) => t.status)).toEqual(['pass', 'pass']);
    expect(uploadsOfJar()).toBe(1);

    const warm = await client.validate(new FakeWorkspace(PROJECT), layout, { mode: 'all' }, { path: 'warm' });
    expect(warm.path).toBe('warm');
    expect(warm.plausible).toBe(true);
    // a patch on the warm path compiles against the jar too
    const ws = new FakeWorkspace(PROJECT);
    await ws.write('src/main/java/demo/Welcome.java', PROJECT['src/main/java/demo/Welcome.java']!.replace('.toUpperCase()', ''));
    const patched = await client.validate(ws, layout, { mode: 'all' }, { path: 'warm' });
    expect(patched.compiled).toBe(true);
    expect(patched.failingTests).toEqual(['demo.WelcomeTest::greets']);
    // the runner kept the jar: no second upload
    expect(uploadsOfJar()).toBe(1);
  });

  it('answers 409 missing-jars naming the oid when the client cannot supply the jar', async () => {
    const other = new Uint8Array([...jarBytes, 0]);
    const lacking = { ...LAYOUT, jars: [{ name: 'absent.jar', oid: gitBlobOid(other) }] };
    const bare = new RunnerClient({ url: runner.url, token: runner.token, readJar: async () => Promise.reject(new Error('not stored here')) });
    await expect(bare.validate(new FakeWorkspace(PROJECT), lacking, { mode: 'all' }, { path: 'cold' })).rejects.toThrow(/absent\.jar .*could not be read for upload: not stored here/);
  });
});
