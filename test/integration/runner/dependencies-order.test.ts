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

// The runner's own libraries stay out of the project's way: JaCoCo's ASM 9 on the test JVM's class path shadowed a
// project's ASM (commons-lang's tests run cglib over lib/asm.jar, ASM 3: "DebuggingClassWriter overrides final method
// ClassWriter.visit"). The project's "ASM" here is a jar built from source with a ClassWriter ASM 9 does not have;
// coverage (JaCoCo, with its own ASM) still works beside it.
const PROJECT_ASM = 'package org.objectweb.asm;\npublic class ClassWriter {\n  public static String origin() { return "the project\'s asm"; }\n}\n';
const ASM_PROJECT: Record<string, string> = {
  'src/main/java/demo/Origin.java': 'package demo;\npublic class Origin {\n  public static String of() { return org.objectweb.asm.ClassWriter.origin(); }\n}\n',
  'src/test/java/demo/OriginTest.java': `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class OriginTest {
  @Test public void seesTheProjectsAsm() { assertEquals("the project's asm", Origin.of()); }
  @Test public void seesNoJacoco() {
    try {
      Class.forName("org.jacoco.core.instr.Instrumenter");
      fail("the runner's JaCoCo is on the project's class path");
    } catch (ClassNotFoundException expected) {
    }
  }
}
`,
};

describe.each(['cold', 'warm'] as const)('the runner\'s own libraries on the %s path', (path) => {
  it('never shadow the project\'s jars (JaCoCo\'s ASM), with and without coverage', async () => {
    const asmJar = await buildJar({ 'org/objectweb/asm/ClassWriter.java': PROJECT_ASM });
    const client = new RunnerClient({ url: testRunner.runner.url, token: testRunner.runner.token, readJar: async () => asmJar });
    const asmLayout: ProjectLayout = { ...LAYOUT, jars: [{ name: 'asm.jar', oid: gitBlobOid(asmJar) }] };
    for (const coverage of [false, true]) {
      const r = await client.validate(new FakeWorkspace(ASM_PROJECT), asmLayout, { mode: 'all' }, { path, coverage });
      const failures = r.tests.filter((t) => t.status !== 'pass').map((t) => `${t.id} ${t.status}: ${t.failure?.exception}: ${t.failure?.message}`);
      expect(failures, `coverage ${coverage}`).toEqual([]);
      expect(r.plausible).toBe(true);
      if (coverage) {
        const seen = r.coverage?.find((c) => c.test === 'demo.OriginTest::seesTheProjectsAsm');
        expect(seen?.lines['src/main/java/demo/Origin.java']).toEqual([3]); // the static method's line (no instance was made)
      }
    }
  });
});
