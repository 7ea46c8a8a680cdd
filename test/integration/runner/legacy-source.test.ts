// Old sources (issue 14): commons-lang's early revisions use `enum` as an identifier, which javac 17 rejects at any
// --release, and compile against the Java 8 library (ecj gets it as -bootclasspath, from the JDK's ct.sym). At sourceLevel 1.4 the runner compiles with ecj, on the cold path (a fresh ecj per source set) and on
// the warm path (ecj inside the worker, rebuilding the project per patch).
import { describe, expect, it } from 'vitest';
import type { ProjectLayout } from '../../../worker/contracts/bug.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { LAYOUT } from './projects.ts';

const COUNTER = 'src/main/java/old/Counter.java';
const BUGGY = `package old;
import java.util.Enumeration;
import java.util.Vector;
public class Counter {
  public static int count(Vector v) {
    Enumeration enum = v.elements();
    int n = 1;
    while (enum.hasMoreElements()) { enum.nextElement(); n++; }
    return n;
  }
}
`;
const FIXED = BUGGY.replace('int n = 1;', 'int n = 0;');

const PROJECT: Record<string, string> = {
  [COUNTER]: BUGGY,
  // compiles against the Java 8 library only: JDK 17's Random has RandomGenerator's instance nextLong(long), which a
  // static method may not hide (commons-lang's JVMRandom)
  'src/main/java/old/OldRandom.java': `package old;
public class OldRandom extends java.util.Random {
  public static long nextLong(long n) { return n - 1; }
}
`,
  'src/test/java/old/CounterTest.java': `package old;
import java.util.Vector;
import junit.framework.TestCase;
public class CounterTest extends TestCase {
  public void testCount() {
    Vector v = new Vector();
    v.add("a");
    v.add("b");
    assertEquals(2, Counter.count(v));
  }
  public void testEmpty() { assertEquals(0, Counter.count(new Vector())); }
}
`,
};

const OLD: ProjectLayout = { ...LAYOUT, junit: 'junit3', javaRelease: 8, sourceLevel: '1.4' };
const FAILING = { mode: 'failing-first' as const, tests: ['old.CounterTest::testCount'] };

const testRunner = useTestRunner({ workers: 1 });

describe('the same tree with javac', () => {
  it('does not compile with javac', async () => {
    const r = await testRunner.client.validate(new FakeWorkspace(PROJECT), { ...OLD, compiler: 'javac' }, FAILING, { path: 'cold' });
    expect(r.compiled).toBe(false);
    expect(r.diagnostics.some((d) => d.file === COUNTER && d.line === 6)).toBe(true);
  });

});

describe.each(['cold', 'warm'] as const)('a source tree that uses enum as an identifier, on the %s path', (path) => {
  it('compiles with ecj at source 1.4: the bug fails its trigger test and the fix passes', async () => {
    const buggy = await testRunner.client.validate(new FakeWorkspace(PROJECT), OLD, FAILING, { path });
    expect(buggy.path).toBe(path);
    expect(buggy.diagnostics.filter((d) => d.kind === 'error')).toEqual([]);
    expect(buggy.compiled).toBe(true);
    expect(buggy.failingTests).toEqual(['old.CounterTest::testCount']);
    const ws = new FakeWorkspace(PROJECT);
    await ws.write(COUNTER, FIXED);
    const fixed = await testRunner.client.validate(ws, OLD, FAILING, { path });
    expect(fixed.path).toBe(path);
    expect(fixed.plausible).toBe(true);
    expect(fixed.tests.map((t) => t.status)).toEqual(['pass', 'pass']);
  });

  it('reports ecj\'s errors in a patch by repo path and line', async () => {
    const ws = new FakeWorkspace(PROJECT);
    await ws.write(COUNTER, FIXED.replace('n++;', 'n++'));
    const r = await testRunner.client.validate(ws, OLD, FAILING, { path });
    expect(r.compiled).toBe(false);
    expect(r.diagnostics).toEqual(expect.arrayContaining([expect.objectContaining({ file: COUNTER, line: 8, kind: 'error' })]));
    // ecj accepts the enum identifier on line 6: the patch's own error is the only one
    expect(r.diagnostics.filter((d) => d.kind === 'error').map((d) => d.line)).not.toContain(6);
  });
});
