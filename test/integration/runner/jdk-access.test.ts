// What of the JDK code under test may reach while the guard watches (both paths): every module a class-path
// application has (java.xml, java.sql, jdk.unsupported — the harness runs as a named module), the JDK's annotation
// types (reading a JDK method's annotations loads them — ByteBuddy does so for every type Mockito mocks) and
// jdk.unsupported's sun.reflect (Objenesis instantiates through ReflectionFactory); not sun.misc.Unsafe, even through a
// library on the class path. The library here is a jar built from source in the test.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProjectLayout } from '../../../worker/contracts/bug.ts';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import { FakeWorkspace, gitBlobOid } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { LAYOUT } from './projects.ts';

const LIBRARY = `package lib;
public class Instantiate {
  /** an instance without running a constructor, as Objenesis makes one */
  public static Object without(Class<?> type) throws Exception {
    sun.reflect.ReflectionFactory factory = sun.reflect.ReflectionFactory.getReflectionFactory();
    return factory.newConstructorForSerialization(type, Object.class.getDeclaredConstructor()).newInstance();
  }
  /** as ByteBuddy resolves the annotation types of a JDK method it reads */
  public static Class<?> jdkAnnotation() throws Exception {
    return Class.forName("jdk.internal.vm.annotation.IntrinsicCandidate");
  }
  public static Object unsafe() throws Exception {
    java.lang.reflect.Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
    f.setAccessible(true);
    return f.get(null);
  }
}
`;

const PROJECT: Record<string, string> = {
  'src/main/java/demo/Thing.java': 'package demo;\npublic class Thing {\n  public int x = 7;\n  public Thing() { throw new IllegalStateException("no"); }\n}\n',
  'src/test/java/demo/AccessTest.java': `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class AccessTest {
  @Test public void readsTheJdksAnnotations() throws Exception {
    int annotated = 0;
    for (Class<?> c : new Class<?>[] { Object.class, String.class, Thread.class })
      for (java.lang.reflect.Method m : c.getDeclaredMethods()) annotated += m.getDeclaredAnnotations().length;
    assertTrue(annotated > 0);
    assertTrue(lib.Instantiate.jdkAnnotation().isAnnotation());
  }
  @Test public void instantiatesWithoutAConstructor() throws Exception {
    assertEquals(0, ((Thing) lib.Instantiate.without(Thing.class)).x);
  }
  @Test public void hasTheModulesAClassPathApplicationHas() throws Exception {
    assertNotNull(javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument());
    assertNotNull(java.sql.Types.class);
  }
  @Test public void neverGetsUnsafe() throws Exception {
    try {
      lib.Instantiate.unsafe();
      fail("sun.misc.Unsafe was handed out");
    } catch (SecurityException expected) {
      assertTrue(expected.getMessage(), expected.getMessage().contains("sun.misc"));
    }
  }
}
`,
};

async function buildLibrary(): Promise<Uint8Array> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-lib-'));
  try {
    await mkdir(path.join(dir, 'src', 'lib'), { recursive: true });
    const source = path.join(dir, 'src', 'lib', 'Instantiate.java');
    await writeFile(source, LIBRARY);
    const javac = spawnSync('javac', ['-nowarn', '-d', path.join(dir, 'classes'), source], { encoding: 'utf8' });
    if (javac.status !== 0) throw new Error(javac.stderr);
    const jar = spawnSync('jar', ['cf', path.join(dir, 'lib.jar'), '-C', path.join(dir, 'classes'), '.'], { encoding: 'utf8' });
    if (jar.status !== 0) throw new Error(jar.stderr);
    return new Uint8Array(await readFile(path.join(dir, 'lib.jar')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const testRunner = useTestRunner({ workers: 1 });
let jar: Uint8Array;
let layout: ProjectLayout;

beforeAll(async () => {
  jar = await buildLibrary();
  layout = { ...LAYOUT, jars: [{ name: 'instantiate.jar', oid: gitBlobOid(jar) }] };
}, 60_000);

describe.each(['cold', 'warm'] as const)('the JDK\'s internals on the %s path', (path) => {
  it('JDK annotations and sun.reflect are reachable to code under test, sun.misc.Unsafe is not', async () => {
    const client = new RunnerClient({ url: testRunner.runner.url, token: testRunner.runner.token, readJar: async () => jar });
    const r = await client.validate(new FakeWorkspace(PROJECT), layout, { mode: 'all' }, { path });
    expect(r.compiled).toBe(true);
    expect(r.tests.map((t) => `${t.id.split('::')[1]} ${t.status}`).sort()).toEqual([
      'hasTheModulesAClassPathApplicationHas pass', 'instantiatesWithoutAConstructor pass', 'neverGetsUnsafe pass', 'readsTheJdksAnnotations pass',
    ]);
    expect(r.plausible).toBe(true);
  });
});
