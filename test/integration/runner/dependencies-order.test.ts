// Class path order: a project compiles against its own jars first (Mockito's and Closure's sources implement hamcrest
// 1.1's Matcher, which the runner's hamcrest 1.3 would shadow), while its tests run with the runner's JUnit and
// hamcrest first, as Defects4J runs them with junit-4.12-hamcrest-1.3 first. The project's "hamcrest 1.1" here is a jar
// built from source: an org.hamcrest.Matcher with matches() alone.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProjectLayout } from '../../../worker/contracts/bug.ts';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import { FakeWorkspace, gitBlobOid } from './fake-workspace.ts';
import { buildJar } from './jar.ts';
import { useTestRunner } from './helpers.ts';
import { LAYOUT } from './projects.ts';

const OLD_MATCHER = 'package org.hamcrest;\npublic interface Matcher<T> {\n  boolean matches(Object item);\n}\n';

const PROJECT: Record<string, string> = {
  // compiles against the old Matcher only: hamcrest 1.3's also asks for describeTo and describeMismatch
  'src/main/java/demo/Always.java': 'package demo;\npublic class Always implements org.hamcrest.Matcher<Object> {\n  public boolean matches(Object item) { return true; }\n}\n',
  'src/test/java/demo/AlwaysTest.java': `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class AlwaysTest {
  @Test public void matches() { assertTrue(new Always().matches(1)); }
  @Test public void runsWithTheRunnersHamcrest() throws Exception {
    assertNotNull(Class.forName("org.hamcrest.Matcher").getMethod("describeMismatch", Object.class, Class.forName("org.hamcrest.Description")));
  }
}
`,
};

const testRunner = useTestRunner({ workers: 1 });
let jar: Uint8Array;
let layout: ProjectLayout;

beforeAll(async () => {
  jar = await buildJar({ 'org/hamcrest/Matcher.java': OLD_MATCHER });
  layout = { ...LAYOUT, classpath: ['junit4', 'hamcrest'], jars: [{ name: 'hamcrest-core-1.1.jar', oid: gitBlobOid(jar) }] };
}, 60_000);

describe.each(['cold', 'warm'] as const)('the class path on the %s path', (path) => {
  it('compiles against the project\'s jars first and runs the tests with the runner\'s hamcrest first', async () => {
    const client = new RunnerClient({ url: testRunner.runner.url, token: testRunner.runner.token, readJar: async () => jar });
    const without = await client.validate(new FakeWorkspace(PROJECT), { ...LAYOUT, classpath: ['junit4', 'hamcrest'] }, { mode: 'all' }, { path });
    expect(without.compiled).toBe(false);
    expect(without.diagnostics.some((d) => d.file === 'src/main/java/demo/Always.java')).toBe(true);
    const r = await client.validate(new FakeWorkspace(PROJECT), layout, { mode: 'all' }, { path });
    expect(r.diagnostics.filter((d) => d.kind === 'error')).toEqual([]);
    expect(r.tests.map((t) => `${t.id} ${t.status}`).sort()).toEqual(['demo.AlwaysTest::matches pass', 'demo.AlwaysTest::runsWithTheRunnersHamcrest pass']);
    expect(r.plausible).toBe(true);
  });
});
