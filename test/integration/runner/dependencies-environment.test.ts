// The environment Defects4J's harness gives tests, on both paths: TZ=America/Los_Angeles and an en-US locale by
// default, a writable user.home, --add-opens where the layout asks (never java.io, where the result channel lives),
// and the layout's broken tests left out of suite runs.
import { describe, expect, it } from 'vitest';
import type { ProjectLayout } from '../../../worker/contracts/bug.ts';
import { DEFECTS4J_ADD_OPENS } from '../../../worker/contracts/bug.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { LAYOUT } from './projects.ts';

const MAIN = { 'src/main/java/demo/Nothing.java': 'package demo;\npublic class Nothing {}\n' };

const ENVIRONMENT_PROJECT: Record<string, string> = {
  ...MAIN,
  'src/test/java/demo/EnvironmentTest.java': `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class EnvironmentTest {
  @Test public void losAngelesTime() {
    assertEquals("America/Los_Angeles", java.util.TimeZone.getDefault().getID());
    assertEquals("America/Los_Angeles", System.getenv("TZ"));
  }
  @Test public void usEnglish() { assertEquals(java.util.Locale.US, java.util.Locale.getDefault()); }
  @Test public void writableHome() throws Exception {
    java.io.File f = new java.io.File(System.getProperty("user.home"), ".settings");
    java.nio.file.Files.write(f.toPath(), "x".getBytes());
    assertTrue(f.isFile());
  }
}
`,
};

const REFLECTION_PROJECT: Record<string, string> = {
  ...MAIN,
  'src/test/java/demo/ReflectionTest.java': `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class ReflectionTest {
  @Test public void readsStringInternals() throws Exception {
    java.lang.reflect.Field value = String.class.getDeclaredField("value");
    value.setAccessible(true); // InaccessibleObjectException unless java.base/java.lang is opened
    assertNotNull(value.get("abc"));
  }
}
`,
};

// JDK 17 generates bytecode accessors after 15 reflective calls of one constructor, and always for serialization:
// they are defined over the project's loader and extend jdk.internal.reflect classes (commons-lang's
// SerializationUtils, JUnit 3's TestSuite)
const ACCESSOR_PROJECT: Record<string, string> = {
  'src/main/java/demo/Point.java': `package demo;
public class Point implements java.io.Serializable {
  public int x;
  public Point() {}
}
`,
  'src/test/java/demo/AccessorTest.java': `package demo;
import static org.junit.Assert.*;
import java.io.*;
import org.junit.Test;
public class AccessorTest {
  @Test public void reflectsOften() throws Exception {
    for (int i = 0; i < 40; i++) assertNotNull(Point.class.getConstructor().newInstance());
  }
  @Test public void serializes() throws Exception {
    Point p = new Point();
    p.x = 7;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new ObjectOutputStream(bytes).writeObject(p);
    Point back = (Point) new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())).readObject();
    assertEquals(7, back.x);
  }
}
`,
};

const BROKEN_PROJECT: Record<string, string> = {
  ...MAIN,
  'src/test/java/demo/MixedTest.java': `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class MixedTest {
  @Test public void works() { assertEquals(2, 1 + 1); }
  @Test public void brokenUpstream() { fail("broken in the project's history"); }
}
`,
  'src/test/java/demo/BrokenTest.java': `package demo;
import org.junit.Test;
public class BrokenTest {
  static { if (true) throw new IllegalStateException("never loads"); }
  @Test public void anything() {}
}
`,
};

// the JDK's sun.* classes look absent to code under test, as on a JVM without them (Joda-Time's TestCalendarConverter
// skips the Buddhist calendar on ClassNotFoundException; the guard's SecurityException failed it)
const INTERNALS_PROJECT: Record<string, string> = {
  ...MAIN,
  'src/test/java/demo/InternalsTest.java': `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class InternalsTest {
  @Test public void sunClassesAreMissing() throws Exception {
    for (String name : new String[] { "sun.util.BuddhistCalendar", "sun.misc.Unsafe", "sun.reflect.ReflectionFactory" }) {
      try {
        Class.forName(name);
        fail(name + " was handed out");
      } catch (ClassNotFoundException expected) {
        // as on a JVM without it
      }
    }
  }
}
`,
};

// layout.suiteFiles: only the test sources the suite's patterns name run (Defects4J's all.manual.tests fileset)
const failingTest = (pkg: string, name: string) => `package ${pkg};
import org.junit.Test;
public class ${name} {
  @Test public void fails() { org.junit.Assert.fail("${name} ran"); }
}
`;
const SUITE_PROJECT: Record<string, string> = {
  ...MAIN,
  'src/test/java/demo/CalcTest.java': 'package demo;\nimport org.junit.Test;\npublic class CalcTest {\n  @Test public void passes() {}\n}\n',
  'src/test/java/demo/slow/PerfTest.java': failingTest('demo.slow', 'PerfTest'),
  'src/test/java/demo/Helper.java': failingTest('demo', 'Helper'),
};
const SUITE_LAYOUT: ProjectLayout = { ...LAYOUT, suiteFiles: { include: ['**/*Test.java'], exclude: ['**/slow/*.java'] } };

const testRunner = useTestRunner({ workers: 1 });

describe.each(['cold', 'warm'] as const)('the tests\' environment on the %s path', (path) => {
  it('is Los Angeles time, US English and a writable home by default', async () => {
    const r = await testRunner.client.validate(new FakeWorkspace(ENVIRONMENT_PROJECT), LAYOUT, { mode: 'all' }, { path });
    expect(r.tests.filter((t) => t.status !== 'pass')).toEqual([]);
    expect(r.plausible).toBe(true);
  });

  it('follows the layout\'s time zone', async () => {
    const r = await testRunner.client.validate(new FakeWorkspace(ENVIRONMENT_PROJECT), { ...LAYOUT, timeZone: 'UTC' }, { mode: 'all' }, { path });
    expect(r.failingTests).toEqual(['demo.EnvironmentTest::losAngelesTime']);
  });

  it('opens java.base/java.lang to reflection only where the layout asks', async () => {
    const closed = await testRunner.client.validate(new FakeWorkspace(REFLECTION_PROJECT), LAYOUT, { mode: 'all' }, { path });
    expect(closed.failingTests).toEqual(['demo.ReflectionTest::readsStringInternals']);
    expect(closed.tests[0]!.failure?.exception).toMatch(/InaccessibleObjectException/);
    const opened = await testRunner.client.validate(new FakeWorkspace(REFLECTION_PROJECT), { ...LAYOUT, addOpens: [...DEFECTS4J_ADD_OPENS] }, { mode: 'all' }, { path });
    expect(opened.plausible).toBe(true);
  });

  it('leaves excluded tests and classes out of suite runs', async () => {
    const all = await testRunner.client.validate(new FakeWorkspace(BROKEN_PROJECT), LAYOUT, { mode: 'all' }, { path });
    expect(all.failingTests.sort()).toEqual(['demo.BrokenTest::anything', 'demo.MixedTest::brokenUpstream']);
    const layout: ProjectLayout = { ...LAYOUT, excludedTests: ['demo.MixedTest::brokenUpstream', 'demo.BrokenTest'] };
    const r = await testRunner.client.validate(new FakeWorkspace(BROKEN_PROJECT), layout, { mode: 'all' }, { path });
    expect(r.tests.map((t) => `${t.id} ${t.status}`)).toEqual(['demo.MixedTest::works pass']);
    expect(r.plausible).toBe(true);
  });
});

describe.each(['cold', 'warm'] as const)('the suite\'s files on the %s path', (path) => {
  it('run only the test classes the layout\'s patterns name, overlay-added ones included', async () => {
    const ws = new FakeWorkspace(SUITE_PROJECT);
    const everything = await testRunner.client.validate(ws, LAYOUT, { mode: 'all' }, { path });
    expect(everything.failingTests.sort()).toEqual(['demo.Helper::fails', 'demo.slow.PerfTest::fails']);
    const suite = await testRunner.client.validate(ws, SUITE_LAYOUT, { mode: 'all' }, { path });
    expect(suite.tests.map((t) => `${t.id} ${t.status}`)).toEqual(['demo.CalcTest::passes pass']);
    expect(suite.plausible).toBe(true);
    // a test the patterns leave out stays out; one they name runs
    await ws.write('src/test/java/demo/slow/NewPerfTest.java', failingTest('demo.slow', 'NewPerfTest'));
    expect((await testRunner.client.validate(ws, SUITE_LAYOUT, { mode: 'all' }, { path, testEdits: 'add' })).plausible).toBe(true);
    await ws.write('src/test/java/demo/AddedTest.java', failingTest('demo', 'AddedTest'));
    const added = await testRunner.client.validate(ws, SUITE_LAYOUT, { mode: 'all' }, { path, testEdits: 'add' });
    expect(added.failingTests).toEqual(['demo.AddedTest::fails']);
    // a listed test runs whatever the patterns say
    const listed = await testRunner.client.validate(ws, SUITE_LAYOUT, { mode: 'listed', tests: ['demo.slow.PerfTest::fails'] }, { path, testEdits: 'add' });
    expect(listed.failingTests).toEqual(['demo.slow.PerfTest::fails']);
  });
});

describe.each(['cold', 'warm'] as const)('the JDK\'s internals on the %s path', (path) => {
  it('are missing classes to code under test', async () => {
    const r = await testRunner.client.validate(new FakeWorkspace(INTERNALS_PROJECT), LAYOUT, { mode: 'all' }, { path });
    expect(r.tests.filter((t) => t.status !== 'pass')).toEqual([]);
    expect(r.plausible).toBe(true);
  });
});

describe.each(['cold', 'warm'] as const)('the JDK\'s generated accessors on the %s path', (path) => {
  it('serve reflection and serialization of project classes', async () => {
    const r = await testRunner.client.validate(new FakeWorkspace(ACCESSOR_PROJECT), LAYOUT, { mode: 'all' }, { path });
    expect(r.tests.filter((t) => t.status !== 'pass')).toEqual([]);
    expect(r.plausible).toBe(true);
  });
});

describe('opening java.io', () => {
  it('is refused: the result channel\'s file descriptors live there', async () => {
    await expect(
      testRunner.client.validate(new FakeWorkspace(REFLECTION_PROJECT), { ...LAYOUT, addOpens: ['java.base/java.io'] }, { mode: 'all' }),
    ).rejects.toThrow(/java\.base\/java\.io, which the runner never opens/);
  });
});
