// What of the JDK code under test may reach while the guard watches (both paths): every module a class-path
// application has (java.xml, java.sql, jdk.unsupported — the harness runs as a named module), the JDK's annotation
// types (reading a JDK method's annotations loads them — ByteBuddy does so for every type Mockito mocks) and
// jdk.unsupported's sun.reflect (Objenesis instantiates through ReflectionFactory); not sun.misc.Unsafe, even through a
// library on the class path. The library here is a jar built from source in the test.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProjectLayout } from '../../../worker/contracts/bug.ts';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import { FakeWorkspace, gitBlobOid } from './fake-workspace.ts';
import { buildJar } from './jar.ts';
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

const testRunner = useTestRunner({ workers: 1 });
let jar: Uint8Array;
let layout: ProjectLayout;

beforeAll(async () => {
  jar = await buildJar({ 'lib/Instantiate.java': LIBRARY }, ['-nowarn']);
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
