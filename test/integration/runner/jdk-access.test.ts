// What of the JDK code under test may reach while the guard watches (both paths): every module a class-path
// application has (java.xml, java.sql, jdk.unsupported — the harness runs as a named module), the JDK's annotation
// types (reading a JDK method's annotations loads them — ByteBuddy does so for every type Mockito mocks) and
// jdk.unsupported's sun.reflect (Objenesis instantiates through ReflectionFactory), the members of JDK-internal classes
// it has instances of (but not their use: the module system holds); JDK classes by name through the boot
// loader and proxies of JDK interfaces (commons-lang's SerializationUtils, EasyMock); not sun.misc.Unsafe, even through
// a library on the class path or the boot loader, nor the application class loader or the harness's classes. The
// library here is a jar built from source in the test.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFECTS4J_ADD_OPENS, type ProjectLayout } from '../../../worker/contracts/bug.ts';
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
  /** as EasyMock mocks an interface of the JDK: a proxy in the interface's loader, the boot loader */
  public static Object proxyOf(Class<?> type) {
    return java.lang.reflect.Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, (p, m, a) -> "proxied");
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
  @Test public void loadsJdkClassesThroughTheBootLoader() throws Exception {
    // Class.forName(name, init, null), as commons-lang's SerializationUtils resolves a JDK type
    assertSame(java.util.HashMap.class, Class.forName("java.util.HashMap", false, null));
  }
  @Test public void makesProxiesOfJdkInterfaces() throws Exception {
    java.util.function.Supplier<?> direct = (java.util.function.Supplier<?>) java.lang.reflect.Proxy.newProxyInstance(null,
        new Class<?>[] { java.util.function.Supplier.class }, (p, m, a) -> "direct");
    assertEquals("direct", direct.get());
    assertEquals("proxied", ((java.util.concurrent.Callable<?>) lib.Instantiate.proxyOf(java.util.concurrent.Callable.class)).call());
  }
  @Test public void serializesTimeZones() throws Exception {
    // a TimeZone is a sun.util.calendar.ZoneInfo: deserializing one resolves that class through the project's loader
    // (commons-lang's FastDateParserTest::testLang303)
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(java.util.TimeZone.getTimeZone("America/New_York"));
    }
    try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      assertEquals("America/New_York", ((java.util.TimeZone) in.readObject()).getID());
    }
  }
  @Test public void introspectsJdkInternalClassesItCannotUse() throws Exception {
    // as Jackson introspects the class of a stream it serializes (JacksonXml-6: a sun.nio.ch.ChannelInputStream)
    Object fileSystem = java.nio.file.FileSystems.getDefault();
    Class<?> internal = fileSystem.getClass();
    assertTrue(internal.getName(), internal.getName().startsWith("sun.nio.fs."));
    assertTrue(internal.getDeclaredMethods().length > 0);
    java.lang.reflect.Method method = internal.getDeclaredMethods()[0];
    try {
      method.setAccessible(true);
      fail(method + " was made accessible");
    } catch (java.lang.reflect.InaccessibleObjectException expected) { // java.base opens nothing of sun.nio.fs
    }
  }
  @Test public void makesThreadsAsAMainThreadDoes() {
    // a test runs on a non-daemon thread, as under ant's JUnit task: the threads it makes are not daemons
    // (commons-lang's BasicThreadFactoryTest::testNewThreadNoDaemonFlag)
    assertFalse(new Thread().isDaemon());
  }
  @Test public void neverGetsTheApplicationLoader() throws Exception {
    try {
      ClassLoader.getSystemClassLoader();
      fail("the system class loader was handed out");
    } catch (SecurityException expected) {
      assertTrue(expected.getMessage(), expected.getMessage().contains("class loaders"));
    }
    try {
      Thing.class.getClassLoader().getParent();
      fail("the project loader's parent was handed out");
    } catch (SecurityException expected) {
      assertTrue(expected.getMessage(), expected.getMessage().contains("class loaders"));
    }
  }
  @Test public void neverGetsHarnessClassesThroughItsModule() throws Exception {
    Module harness = ModuleLayer.boot().findModule("repairlab.harness").get();
    try {
      Class.forName(harness, "repairlab.harness.Guard");
      fail("a harness class was handed out");
    } catch (SecurityException expected) {
      assertTrue(expected.getMessage(), expected.getMessage().contains("class loaders"));
    }
  }
  @Test public void neverGetsUnsafeThroughTheBootLoader() throws Exception {
    try {
      Class.forName("sun.misc.Unsafe", false, null).getDeclaredField("theUnsafe");
      fail("sun.misc.Unsafe was handed out through the boot loader");
    } catch (SecurityException expected) {
      assertTrue(expected.getMessage(), expected.getMessage().contains("sun.misc"));
    }
    try {
      Class.forName("jdk.internal.misc.Unsafe", false, null).getDeclaredField("theUnsafe").setAccessible(true);
      fail("jdk.internal.misc.Unsafe was handed out through the boot loader");
    } catch (RuntimeException expected) { // InaccessibleObjectException: java.base does not open jdk.internal.misc
      assertTrue(expected.toString(), expected.getMessage().contains("jdk.internal.misc"));
    }
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
  // with the opens every Defects4J layout has (java.lang among them), as a reachable loader would matter most there
  layout = { ...LAYOUT, jars: [{ name: 'instantiate.jar', oid: gitBlobOid(jar) }], addOpens: [...DEFECTS4J_ADD_OPENS] };
}, 60_000);

describe.each(['cold', 'warm'] as const)('the JDK\'s internals on the %s path', (path) => {
  it('JDK annotations, sun.reflect, boot-loader lookups and JDK proxies are reachable to code under test; Unsafe, the app loader and the harness are not', async () => {
    const client = new RunnerClient({ url: testRunner.runner.url, token: testRunner.runner.token, readJar: async () => jar });
    const r = await client.validate(new FakeWorkspace(PROJECT), layout, { mode: 'all' }, { path });
    expect(r.compiled).toBe(true);
    const failures = r.tests.filter((t) => t.status !== 'pass').map((t) => `${t.id} ${t.status}: ${t.failure?.exception}: ${t.failure?.message}`);
    expect(failures).toEqual([]);
    expect(r.tests.map((t) => `${t.id.split('::')[1]} ${t.status}`).sort()).toEqual([
      'hasTheModulesAClassPathApplicationHas pass', 'instantiatesWithoutAConstructor pass', 'introspectsJdkInternalClassesItCannotUse pass', 'loadsJdkClassesThroughTheBootLoader pass', 'makesProxiesOfJdkInterfaces pass',
      'makesThreadsAsAMainThreadDoes pass', 'neverGetsHarnessClassesThroughItsModule pass', 'neverGetsTheApplicationLoader pass', 'neverGetsUnsafe pass',
      'neverGetsUnsafeThroughTheBootLoader pass', 'readsTheJdksAnnotations pass', 'serializesTimeZones pass',
    ]);
    expect(r.plausible).toBe(true);
  });
});
