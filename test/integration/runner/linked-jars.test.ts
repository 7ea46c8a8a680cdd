// A project's jar whose code names the project's own classes (Closure's lib/caja-r4314.jar was built against Closure's
// jsonml package): on ant's single class path it sees them. The runner keeps jars on the application class path,
// whose loader does not see the project's classes, so every Closure bug failed JsonMLConversionTest's 33 tests on the
// fix with NoClassDefFoundError: com/google/javascript/jscomp/jsonml/TagType. Here the "plugin" jar calls demo.Calc;
// it must see the patched Calc of each validation (on the warm path one JVM serves them all), while a jar that names
// no project class stays the parent's (trusted, loaded once).
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProjectLayout } from '../../../worker/contracts/bug.ts';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import { FakeWorkspace, gitBlobOid } from './fake-workspace.ts';
import { buildJar } from './jar.ts';
import { useTestRunner } from './helpers.ts';
import { BUGGY_CALC, CALC, FIXED_CALC, LAYOUT } from './projects.ts';

const PLUGIN = `package plugin;
public class Adder {
  public static int add(int a, int b) { return demo.Calc.add(a, b); }
  public static Class<?> calc() { return demo.Calc.class; }
}
`;
// names no project class: it resolves names through the application class loader, which has no demo.Calc
const PLAIN = `package plain;
public class Finder {
  public static boolean seesCalc() {
    try {
      Class.forName("demo.Calc");
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
  /** what PowerMock's MockClassLoader does: read a class's bytes as a resource through the loader it came from */
  public static boolean readsCalcAsResource() {
    return Finder.class.getClassLoader().getResource("demo/Calc.class") != null;
  }
  /**
   * PowerMock and Objenesis together: a loader of the library's own defines its copy of a project class from the
   * bytes its home loader reads, and Objenesis makes an instance through sun.reflect.ReflectionFactory's
   * serialization constructor (the JDK generates an accessor class whose loader delegates to the library's loader).
   */
  public static String mocksCalc() throws Exception {
    final ClassLoader home = Finder.class.getClassLoader();
    ClassLoader mock = new ClassLoader(home) {
      @Override protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.equals("demo.Calc")) return super.loadClass(name, resolve);
        synchronized (getClassLoadingLock(name)) {
          Class<?> c = findLoadedClass(name);
          if (c != null) return c;
          try (java.io.InputStream in = home.getResourceAsStream("demo/Calc.class")) {
            if (in == null) throw new ClassNotFoundException(name + ": no class file in sight of " + home);
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            byte[] chunk = new byte[4096];
            for (int n; (n = in.read(chunk)) > 0;) bytes.write(chunk, 0, n);
            byte[] b = bytes.toByteArray();
            return defineClass(name, b, 0, b.length);
          } catch (java.io.IOException e) {
            throw new ClassNotFoundException(name, e);
          }
        }
      }
    };
    Class<?> copy = mock.loadClass("demo.Calc");
    Class<?> factory = Class.forName("sun.reflect.ReflectionFactory");
    Object f = factory.getMethod("getReflectionFactory").invoke(null);
    java.lang.reflect.Constructor<?> make = (java.lang.reflect.Constructor<?>) factory
        .getMethod("newConstructorForSerialization", Class.class, java.lang.reflect.Constructor.class)
        .invoke(f, copy, Object.class.getConstructor());
    Object made = make.newInstance();
    return made.getClass() == copy && copy.getClassLoader() == mock ? "mocked" : "not mocked: " + made.getClass().getClassLoader();
  }
}
`;

const PROJECT: Record<string, string> = {
  [CALC]: BUGGY_CALC,
  'src/test/java/demo/PluginTest.java': `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class PluginTest {
  @Test public void addsThroughTheJar() { assertEquals(5, plugin.Adder.add(2, 3)); }
  @Test public void theJarSeesTheProjectsCalc() { assertSame(Calc.class, plugin.Adder.calc()); }
  @Test public void aJarNamingNoProjectClassStaysTheParents() { assertFalse(plain.Finder.seesCalc()); }
}
`,
};

const testRunner = useTestRunner({ workers: 1 });
let jars: { plugin: Uint8Array; plain: Uint8Array };
let layout: ProjectLayout;

beforeAll(async () => {
  // the stand-in Calc compiles the plugin and is left out of its jar, as caja's jar holds none of Closure's classes
  jars = {
    plugin: await buildJar({ 'plugin/Adder.java': PLUGIN, 'demo/Calc.java': BUGGY_CALC }, ['--release', '8'], ['demo/Calc.class']),
    plain: await buildJar({ 'plain/Finder.java': PLAIN }),
  };
  layout = { ...LAYOUT, jars: [{ name: 'plugin.jar', oid: gitBlobOid(jars.plugin) }, { name: 'plain.jar', oid: gitBlobOid(jars.plain) }] };
}, 60_000);

const clientOf = () =>
  new RunnerClient({ url: testRunner.runner.url, token: testRunner.runner.token, readJar: async (jar) => (jar.name === 'plugin.jar' ? jars.plugin : jars.plain) });

describe.each(['cold', 'warm'] as const)('a jar that names the project\'s classes, on the %s path', (path) => {
  it('sees the classes of each validation: the buggy Calc, then the fixed one', async () => {
    const client = clientOf();
    const outcome = async (calc: string) => {
      const ws = new FakeWorkspace(PROJECT);
      if (calc !== BUGGY_CALC) await ws.write(CALC, calc);
      const r = await client.validate(ws, layout, { mode: 'all' }, { path });
      expect(r.compiled).toBe(true);
      return r.tests.map((t) => `${t.id} ${t.status}${t.failure ? ` ${t.failure.exception}` : ''}`).sort();
    };
    expect(await outcome(BUGGY_CALC)).toEqual([
      'demo.PluginTest::aJarNamingNoProjectClassStaysTheParents pass',
      'demo.PluginTest::addsThroughTheJar fail java.lang.AssertionError',
      'demo.PluginTest::theJarSeesTheProjectsCalc pass',
    ]);
    expect(await outcome(FIXED_CALC)).toEqual([
      'demo.PluginTest::aJarNamingNoProjectClassStaysTheParents pass',
      'demo.PluginTest::addsThroughTheJar pass',
      'demo.PluginTest::theJarSeesTheProjectsCalc pass',
    ]);
  });
  it('never takes the runner\'s JUnit into the project\'s loader, even when the project defines a class JUnit names', async () => {
    // JUnit's jar names org.hamcrest.Matcher and defines none: were it linked, the tests' @Test would be another class
    // than the one the harness's JUnit looks for
    const client = clientOf();
    const ws = new FakeWorkspace({ ...PROJECT, [CALC]: FIXED_CALC, 'src/main/java/org/hamcrest/Matcher.java': 'package org.hamcrest;\npublic interface Matcher<T> {\n}\n' });
    const r = await client.validate(ws, layout, { mode: 'all' }, { path });
    expect(r.tests.map((t) => `${t.id} ${t.status}`).sort()).toEqual([
      'demo.PluginTest::aJarNamingNoProjectClassStaysTheParents pass',
      'demo.PluginTest::addsThroughTheJar pass',
      'demo.PluginTest::theJarSeesTheProjectsCalc pass',
    ]);
  });
});

// layout.singleClassPath: Ant's one class path, where every jar sees the project's classes (JacksonDatabind's PowerMock
// tests read the test's classes as resources through PowerMock's own loader; 87 bugs failed TestTypeFactoryWithClassLoader)
const SINGLE_PATH_TEST = `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class SinglePathTest {
  @Test public void aLibraryFindsTheProjectsClasses() { assertTrue(plain.Finder.seesCalc()); }
  @Test public void aLibraryReadsThemAsResources() { assertTrue(plain.Finder.readsCalcAsResource()); }
  @Test public void aMockingLibraryMakesItsCopyOfThem() throws Exception { assertEquals("mocked", plain.Finder.mocksCalc()); }
  // the JDK's accessor superclasses resolve for the accessors the JDK generates, never for code under test that asks
  @Test public void theJdksAccessorClassesStayOutOfReach() {
    ClassLoader own = new ClassLoader(SinglePathTest.class.getClassLoader()) {};
    for (String name : new String[] {"jdk.internal.reflect.MagicAccessorImpl", "jdk.internal.reflect.SerializationConstructorAccessorImpl"}) {
      try {
        Class.forName(name, false, own);
        fail(name + " was handed to code under test");
      } catch (ClassNotFoundException | SecurityException refused) {
        // as wanted
      }
    }
  }
}
`;

describe.each(['cold', 'warm'] as const)('the project\'s jars on one class path with its classes, on the %s path', (path) => {
  it.each([
    ['split (default): a jar naming no project class does not see them', false, 'fail'],
    ['single (layout.singleClassPath): every jar sees them', true, 'pass'],
  ])('%s', async (_name, singleClassPath, expected) => {
    const ws = new FakeWorkspace({ [CALC]: FIXED_CALC, 'src/test/java/demo/SinglePathTest.java': SINGLE_PATH_TEST });
    const r = await clientOf().validate(ws, { ...layout, ...(singleClassPath ? { singleClassPath } : {}) }, { mode: 'all' }, { path });
    expect(r.compiled, JSON.stringify(r.diagnostics)).toBe(true);
    expect(r.tests.map((t) => `${t.id} ${t.status}`).sort()).toEqual([
      `demo.SinglePathTest::aLibraryFindsTheProjectsClasses ${expected}`,
      `demo.SinglePathTest::aLibraryReadsThemAsResources ${expected}`,
      `demo.SinglePathTest::aMockingLibraryMakesItsCopyOfThem ${expected === 'pass' ? 'pass' : 'error'}`,
      'demo.SinglePathTest::theJdksAccessorClassesStayOutOfReach pass',
    ]);
  });
});
