// The environment a project's own build gives its tests, before anything is excluded for the environment (issue 33):
// - the build's output directories where tests read them by path (Cli's JDependTest reads target/classes): Maven's
//   by default, a build.xml's classes.dir through layout.outputDirs; the validation's classes, and read-only;
// - writable project directories (layout.writableDirs: Cli's FileValidatorTest needs src/test/data/writable.txt
//   writable), a fresh copy per validation: what a test wrote is gone in the next validation, on the warm path too,
//   where the JVM is reused; the sources stay read-only;
// - host names the tests resolve without connecting (layout.resolvableHosts: JacksonDatabind resolves google.com),
//   answered inside the sandbox, while a connection still fails.
import { describe, expect, it } from 'vitest';
import type { ProjectLayout } from '../../../worker/contracts/bug.ts';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { LAYOUT } from './projects.ts';

const CALC = (value: number) => `package demo;\npublic class Calc {\n  public static int value() { return ${value}; }\n}\n`;

/** A project whose tests check the build's output directories `classes` and `testClasses`, and write src/test/data. */
function project(classes: string, testClasses: string): Record<string, string> {
  return {
    'src/main/java/demo/Calc.java': CALC(1),
    'src/test/data/writable.txt': 'pristine\n',
    'src/test/java/demo/OutputDirsTest.java': `package demo;
import static org.junit.Assert.*;
import java.io.File;
import java.net.URLClassLoader;
import java.nio.file.*;
import org.junit.Test;
public class OutputDirsTest {
  @Test public void classesWhereTheBuildPutsThem() throws Exception {
    assertTrue(new File("${classes}/demo/Calc.class").isFile());
    assertTrue(new File("${testClasses}/demo/OutputDirsTest.class").isFile());
    // program and test classes apart, as the build compiles them
    assertFalse(new File("${classes}/demo/OutputDirsTest.class").exists());
    // JDepend lists the directory
    assertTrue(java.util.Arrays.asList(new File("${classes}/demo").list()).contains("Calc.class"));
    // the classes of this validation, the patched ones, not the snapshot's
    try (URLClassLoader l = new URLClassLoader(new java.net.URL[] { new File("${classes}").toURI().toURL() }, null)) {
      assertEquals(Calc.value(), l.loadClass("demo.Calc").getMethod("value").invoke(null));
    }
  }
  @Test public void classesAreReadOnly() throws Exception {
    Path calc = Paths.get("${classes}/demo/Calc.class");
    byte[] before = Files.readAllBytes(calc);
    try {
      Files.write(calc, new byte[] { 1, 2, 3 });
      fail("the compiled classes were written");
    } catch (SecurityException | java.io.IOException expected) {
      // the harness's files
    }
    assertArrayEquals(before, Files.readAllBytes(calc));
  }
}
`,
    'src/test/java/demo/WritableTest.java': `package demo;
import static org.junit.Assert.*;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import org.junit.Test;
public class WritableTest {
  @Test public void writesTheProjectsDataAndFindsItPristine() throws Exception {
    Path data = Paths.get("src/test/data/writable.txt");
    // what an earlier validation wrote is gone
    assertEquals("pristine\\n", new String(Files.readAllBytes(data), StandardCharsets.UTF_8));
    assertFalse(new File("src/test/data/left-behind.txt").exists());
    assertFalse(new File("src/test/data/made/deeper").exists());
    // Cli's FileValidatorTest: the file is writable, and setReadOnly works
    assertTrue(data.toFile().canWrite());
    Files.write(data, "changed\\n".getBytes(StandardCharsets.UTF_8));
    assertTrue(data.toFile().setReadOnly());
    assertFalse(data.toFile().canWrite());
    Files.write(Paths.get("src/test/data/left-behind.txt"), "x".getBytes(StandardCharsets.UTF_8));
    File deeper = new File("src/test/data/made/deeper");
    assertTrue(deeper.mkdirs());
    // a directory a test locks itself out of is still cleaned up
    assertTrue(deeper.getParentFile().setReadable(false));
  }
  @Test public void theSourcesStayReadOnly() throws Exception {
    try {
      Files.write(Paths.get("src/main/java/demo/Calc.java"), "class Calc {}".getBytes(StandardCharsets.UTF_8));
      fail("a source was written");
    } catch (SecurityException | java.io.IOException expected) {
      // only the layout's writable directories are the tests'
    }
    try {
      Files.write(Paths.get("src/test/elsewhere.txt"), "x".getBytes(StandardCharsets.UTF_8));
      fail("a file outside the writable directories was written");
    } catch (SecurityException | java.io.IOException expected) {
      // likewise
    }
  }
}
`,
    'src/test/java/demo/HostsTest.java': `package demo;
import static org.junit.Assert.*;
import java.net.*;
import org.junit.Test;
public class HostsTest {
  @Test public void resolvesTheListedNames() throws Exception {
    assertEquals("google.com", InetAddress.getByName("google.com").getHostName());
    assertNotNull(InetAddress.getByName("ning.com").getHostAddress());
  }
  @Test public void otherNamesStayUnknown() {
    try {
      InetAddress.getByName("example.org");
      fail("example.org resolved");
    } catch (UnknownHostException expected) {
      // no network, no DNS
    }
  }
  @Test public void connectingStillFails() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("google.com", 80), 2000);
      fail("connected to google.com");
    } catch (Exception expected) {
      // no route out of the sandbox (or the guard refuses the connection)
    }
  }
}
`,
  };
}

const ENVIRONMENT: Partial<ProjectLayout> = { writableDirs: ['src/test/data'], resolvableHosts: ['google.com', 'ning.com'] };
const MAVEN_LAYOUT: ProjectLayout = { ...LAYOUT, ...ENVIRONMENT };
const ANT_LAYOUT: ProjectLayout = { ...LAYOUT, ...ENVIRONMENT, outputDirs: { classes: 'build/classes', testClasses: 'build/tests' } };
/** Cli's shape: the test root src/test holds the tests' data (src/test/data) beside the test packages. */
const CLI_LAYOUT: ProjectLayout = { ...MAVEN_LAYOUT, testDirs: ['src/test'] };
const cliShaped = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([p, text]) => [p.replace(/^src\/test\/java\//, 'src/test/'), text]));

const EXPECTED = [
  'demo.HostsTest::connectingStillFails pass',
  'demo.HostsTest::otherNamesStayUnknown pass',
  'demo.HostsTest::resolvesTheListedNames pass',
  'demo.OutputDirsTest::classesAreReadOnly pass',
  'demo.OutputDirsTest::classesWhereTheBuildPutsThem pass',
  'demo.WritableTest::theSourcesStayReadOnly pass',
  'demo.WritableTest::writesTheProjectsDataAndFindsItPristine pass',
];

const testRunner = useTestRunner({ workers: 1 });

describe.each(['cold', 'warm'] as const)('the project build\'s environment on the %s path', (path) => {
  const client = () => new RunnerClient({ url: testRunner.runner.url, token: testRunner.runner.token });

  it.each([
    ['Maven\'s target/classes and target/test-classes by default', MAVEN_LAYOUT, project('target/classes', 'target/test-classes')],
    ['a build.xml\'s directories from layout.outputDirs', ANT_LAYOUT, project('build/classes', 'build/tests')],
    ['test data inside the test root (Cli: src/test/data under src/test)', CLI_LAYOUT, cliShaped(project('target/classes', 'target/test-classes'))],
  ])('%s; writable data fresh in every validation; listed host names resolve', async (_name, layout, files) => {
    // three validations of different patches (none answered from the cache) on one worker: each finds the data as
    // the snapshot has it, whatever the one before wrote, and its own classes in the output directories
    for (const value of [1, 2, 3]) {
      const ws = new FakeWorkspace(files);
      if (value !== 1) await ws.write('src/main/java/demo/Calc.java', CALC(value));
      const r = await client().validate(ws, layout, { mode: 'all' }, { path });
      expect(r.path).toBe(path);
      expect(r.cached).toBe(false);
      expect(r.compiled).toBe(true);
      expect(r.tests.map((t) => `${t.id} ${t.status}${t.failure ? ` ${t.failure.exception}: ${t.failure.message}` : ''}`).sort()).toEqual(EXPECTED);
    }
  });
});

// A patch that rewrites the data its test compares with: the writable directories are the tests', not the program's
// (the threat table's "program code rewrites … a data file a test compares with"). The buggy Calc answers 1 where the
// test expects src/test/data/expected.txt's 2, and first writes 1 there; asking whether the file is writable (Cli's
// FileValidator does) stays allowed.
const FORGERY: Record<string, string> = {
  'src/main/java/demo/Calc.java': `package demo;
public class Calc {
  public static boolean writable(String path) { return new java.io.File(path).canWrite(); }
  public static int value() {
    try {
      java.nio.file.Files.write(java.nio.file.Paths.get("src/test/data/expected.txt"), "1\\n".getBytes());
    } catch (Throwable refused) {
      // the forgery is quiet: the verdict is what tells
    }
    return 1;
  }
}
`,
  'src/test/data/expected.txt': '2\n',
  'src/test/java/demo/ExpectedDataTest.java': `package demo;
import static org.junit.Assert.*;
import java.nio.file.*;
import org.junit.Test;
public class ExpectedDataTest {
  @Test public void programMayAskWhetherTheDataIsWritable() { assertTrue(Calc.writable("src/test/data/expected.txt")); }
  @Test public void valueAsExpected() throws Exception {
    int v = Calc.value();
    assertEquals(new String(Files.readAllBytes(Paths.get("src/test/data/expected.txt"))).trim(), String.valueOf(v));
  }
}
`,
};

describe.each(['cold', 'warm'] as const)('program code and the tests\' writable data on the %s path', (path) => {
  // with a loader per test class too: each is a ProjectLoader, whose classes the guard holds to the same rules
  it.each([
    ['one loader', 'shared' as const],
    ['a loader per test class', 'per-class' as const],
  ])('cannot rewrite the data a test compares with, and may ask whether it is writable (%s)', async (_name, testClassLoaders) => {
    const client = new RunnerClient({ url: testRunner.runner.url, token: testRunner.runner.token });
    const r = await client.validate(new FakeWorkspace(FORGERY), { ...LAYOUT, writableDirs: ['src/test/data'], testClassLoaders }, { mode: 'all' }, { path });
    expect(r.path).toBe(path);
    expect(r.compiled, JSON.stringify(r.diagnostics)).toBe(true);
    expect(r.plausible).toBe(false);
    expect(r.tests.map((t) => `${t.id} ${t.status}${t.failure ? ` ${t.failure.message}` : ''}`).sort()).toEqual([
      'demo.ExpectedDataTest::programMayAskWhetherTheDataIsWritable pass',
      'demo.ExpectedDataTest::valueAsExpected fail expected:<[2]> but was:<[1]>',
    ]);
  });
});

describe('layouts whose environment directories clash', () => {
  it.each([
    ['a writable source root', { ...MAVEN_LAYOUT, writableDirs: ['src/main'] }, /layout\.writableDirs names src\/main, which overlaps the source root src\/main\/java/],
    ['output directories inside a source root', { ...LAYOUT, outputDirs: { classes: 'src/main/java/out', testClasses: 'target/t' } }, /layout\.outputDirs names src\/main\/java\/out/],
    ['a writable output directory', { ...MAVEN_LAYOUT, writableDirs: ['target'] }, /overlaps the output directory target\/classes/],
    ['a writable directory holding a test root', { ...CLI_LAYOUT, writableDirs: ['src/test'] }, /layout\.writableDirs names src\/test, which holds the test root src\/test/],
  ])('are refused with a 400 naming the directory: %s', async (_name, layout, message) => {
    const client = new RunnerClient({ url: testRunner.runner.url, token: testRunner.runner.token });
    await expect(client.validate(new FakeWorkspace(project('target/classes', 'target/test-classes')), layout as ProjectLayout, { mode: 'all' }, { path: 'cold' })).rejects.toThrow(message);
  });

  it('refuses a path that leaves the project', async () => {
    const client = new RunnerClient({ url: testRunner.runner.url, token: testRunner.runner.token });
    const layout = { ...LAYOUT, writableDirs: ['../elsewhere'] } as ProjectLayout;
    await expect(client.validate(new FakeWorkspace(project('target/classes', 'target/test-classes')), layout, { mode: 'all' }, { path: 'cold' })).rejects.toThrow(/writableDirs|relative to the project root/);
  });
});

// Static state a test class leaves behind: commons-lang's StandardToStringStyleTest sets ToStringBuilder's default
// style in tearDown instead of restoring it, and in one JVM every later ToStringBuilderTest fails. Defects4J's ant
// <junit fork="no"> reloads the project's classes for each test class; layout.testClassLoaders 'per-class' does too.
const STATIC_STATE: Record<string, string> = {
  'src/main/java/demo/Style.java': 'package demo;\npublic class Style {\n  public static String current = "default";\n}\n',
  'src/test/java/demo/ASetsStyleTest.java': `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class ASetsStyleTest {
  @Test public void leavesItsStyle() { Style.current = "custom"; assertEquals("custom", Style.current); }
}
`,
  'src/test/java/demo/BReadsStyleTest.java': `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class BReadsStyleTest {
  @Test public void findsTheDefaultStyle() { assertEquals("default", Style.current); }
  @Test public void findsItsOwnLoaderInTheThread() { assertSame(Style.class.getClassLoader(), BReadsStyleTest.class.getClassLoader()); }
}
`,
};

describe.each(['cold', 'warm'] as const)('test classes\' static state on the %s path', (path) => {
  it.each([
    ['shared (one loader for the validation): the state leaks into the next class', undefined, 'fail'],
    ['per-class (a loader per test class, as ant reloads): each class starts afresh', 'per-class' as const, 'pass'],
  ])('%s', async (_name, testClassLoaders, expected) => {
    const client = new RunnerClient({ url: testRunner.runner.url, token: testRunner.runner.token });
    const layout: ProjectLayout = { ...LAYOUT, ...(testClassLoaders ? { testClassLoaders } : {}) };
    const r = await client.validate(new FakeWorkspace(STATIC_STATE), layout, { mode: 'all' }, { path });
    expect(r.compiled, JSON.stringify(r.diagnostics)).toBe(true);
    expect(r.tests.map((t) => `${t.id} ${t.status}`).sort()).toEqual([
      'demo.ASetsStyleTest::leavesItsStyle pass',
      `demo.BReadsStyleTest::findsTheDefaultStyle ${expected}`,
      'demo.BReadsStyleTest::findsItsOwnLoaderInTheThread pass',
    ].sort());
  });
});

// A class loader per test class with the build's output directories: OutputDirsTest makes the validation's class files
// appear under target/classes; a later test class that reads a class file as a resource makes its own loader write
// them; a class after that must still find them under target/classes (the class-file directory is the validation's,
// shared by its loaders, not each loader's, which would delete the one target/classes leads to).
describe.each(['cold', 'warm'] as const)('a class loader per test class and the output directories on the %s path', (path) => {
  it('keeps the validation\'s classes where the build puts them after a later test class read one as a resource', async () => {
    const client = new RunnerClient({ url: testRunner.runner.url, token: testRunner.runner.token });
    const files = {
      ...project('target/classes', 'target/test-classes'),
      'src/test/java/demo/XReadsAClassFileTest.java': `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class XReadsAClassFileTest {
  @Test public void readsCalcAsAResource() { assertNotNull(getClass().getClassLoader().getResource("demo/Calc.class")); }
}
`,
      'src/test/java/demo/YListsTheOutputTest.java': `package demo;
import static org.junit.Assert.*;
import java.io.File;
import org.junit.Test;
public class YListsTheOutputTest {
  @Test public void stillFindsCalcWhereTheBuildPutsIt() { assertTrue(new File("target/classes/demo/Calc.class").isFile()); }
}
`,
    };
    const r = await client.validate(new FakeWorkspace(files), { ...MAVEN_LAYOUT, testClassLoaders: 'per-class' }, { mode: 'all' }, { path });
    expect(r.compiled, JSON.stringify(r.diagnostics)).toBe(true);
    expect(r.tests.map((t) => `${t.id} ${t.status}${t.failure ? ` ${t.failure.exception}: ${t.failure.message}` : ''}`).sort()).toEqual(
      ['demo.XReadsAClassFileTest::readsCalcAsAResource pass', 'demo.YListsTheOutputTest::stillFindsCalcWhereTheBuildPutsIt pass', ...EXPECTED].sort(),
    );
  });
});
