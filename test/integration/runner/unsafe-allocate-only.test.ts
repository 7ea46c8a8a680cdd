// layout.sunMiscUnsafe "allocate-only" (issue 14, Gson): Gson's UnsafeAllocator builds objects of classes without a
// no-args constructor through sun.misc.Unsafe's allocateInstance, found by reflection; the guard refuses the real
// Unsafe (raw memory would let a patch forge the verdict), so 17 of Gson's 18 bugs excluded 31–42 tests and four did
// not reproduce. With the field, code under test finds an Unsafe whose only method is allocateInstance; the real one
// stays refused, and without the field there is none.
import { describe, expect, it } from 'vitest';
import type { ProjectLayout } from '../../../worker/contracts/bug.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { testStatuses, useTestRunner } from './helpers.ts';
import { LAYOUT } from './projects.ts';

const PROJECT: Record<string, string> = {
  // as Gson's UnsafeAllocator.create()
  'src/main/java/demo/Allocator.java': `package demo;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
public final class Allocator {
  public static Object allocate(Class<?> type) throws Exception {
    Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
    Field f = unsafeClass.getDeclaredField("theUnsafe");
    f.setAccessible(true);
    Object unsafe = f.get(null);
    Method allocateInstance = unsafeClass.getMethod("allocateInstance", Class.class);
    return allocateInstance.invoke(unsafe, type);
  }
}
`,
  'src/main/java/demo/Point.java': `package demo;
public class Point {
  public int x = 7;
  public Point(int x) { throw new IllegalStateException("a constructor ran"); }
}
`,
  'src/test/java/demo/AllocatorTest.java': `package demo;
import static org.junit.Assert.*;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.junit.Test;
public class AllocatorTest {
  @Test public void allocatesWithoutRunningAConstructor() throws Exception {
    Point p = (Point) Allocator.allocate(Point.class);
    assertEquals(0, p.x);
  }
  @Test public void refusesInterfacesAndAbstractClassesAsUnsafeDoes() throws Exception {
    for (Class<?> type : new Class<?>[] { Runnable.class, Number.class }) {
      try {
        Allocator.allocate(type);
        fail(type + " was allocated");
      } catch (InvocationTargetException e) {
        assertEquals(InstantiationException.class, e.getCause().getClass());
      }
    }
  }
  @Test public void hasNoMethodButAllocateInstance() throws Exception {
    Class<?> unsafe = Class.forName("sun.misc.Unsafe");
    Set<String> names = new TreeSet<String>();
    for (Method m : unsafe.getDeclaredMethods()) names.add(m.getName());
    assertEquals(new TreeSet<String>(Arrays.asList("allocateInstance", "getUnsafe")), names);
    try {
      unsafe.getMethod("getLong", Object.class, long.class);
      fail("getLong exists");
    } catch (NoSuchMethodException expected) {
    }
  }
  @Test public void getUnsafeRefusesAsJava8DidOutsideTheJdk() throws Exception {
    try {
      Class.forName("sun.misc.Unsafe").getMethod("getUnsafe").invoke(null);
      fail("getUnsafe answered");
    } catch (InvocationTargetException e) {
      assertEquals(SecurityException.class, e.getCause().getClass());
    }
  }
  @Test public void theRealUnsafeStaysRefused() throws Exception {
    try {
      Class.forName("sun.misc.Unsafe", false, null).getDeclaredField("theUnsafe");
      fail("the real sun.misc.Unsafe was handed out through the boot loader");
    } catch (SecurityException expected) {
      assertTrue(expected.getMessage(), expected.getMessage().contains("sun.misc"));
    }
  }
}
`,
};

const ALLOCATE_ONLY: ProjectLayout = { ...LAYOUT, sunMiscUnsafe: 'allocate-only' };
const testRunner = useTestRunner({ workers: 1 });

describe.each(['cold', 'warm'] as const)('sun.misc.Unsafe on the %s path', (path) => {
  it('allocate-only: allocateInstance works as Unsafe\'s, nothing else exists, the real one stays refused', async () => {
    const r = await testRunner.client.validate(new FakeWorkspace(PROJECT), ALLOCATE_ONLY, { mode: 'all' }, { path });
    expect(r.path).toBe(path);
    expect(testStatuses(r.tests)).toEqual([
      'allocatesWithoutRunningAConstructor pass',
      'getUnsafeRefusesAsJava8DidOutsideTheJdk pass',
      'hasNoMethodButAllocateInstance pass',
      'refusesInterfacesAndAbstractClassesAsUnsafeDoes pass',
      'theRealUnsafeStaysRefused pass',
    ]);
  });

  it('absent (the default): code under test finds no sun.misc.Unsafe', async () => {
    const r = await testRunner.client.validate(new FakeWorkspace(PROJECT), LAYOUT, { mode: 'all' }, { path });
    expect(testStatuses(r.tests)).toEqual([
      'allocatesWithoutRunningAConstructor error java.lang.ClassNotFoundException',
      'getUnsafeRefusesAsJava8DidOutsideTheJdk error java.lang.ClassNotFoundException',
      'hasNoMethodButAllocateInstance error java.lang.ClassNotFoundException',
      'refusesInterfacesAndAbstractClassesAsUnsafeDoes error java.lang.ClassNotFoundException',
      'theRealUnsafeStaysRefused pass',
    ]);
  });
});
