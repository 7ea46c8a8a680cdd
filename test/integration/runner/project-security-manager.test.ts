// Code under test that installs its own security manager (issue 14, JacksonDatabind-58): jackson-databind's
// AccessFixTest installs one that refuses suppressAccessChecks, to check that Jackson no longer forces access to
// Throwable.cause. The guard refused System.setSecurityManager outright, so the trigger test failed on the fix and
// every later JacksonDatabind bug excluded it. The project's calls now reach a slot of its own loader: the guard
// stays, decides first, and then asks the project's manager for the project's permission checks. The real call
// stays refused, and a manager a test leaves behind does not hide a later failure.
import { describe, expect, it } from 'vitest';
import { FakeWorkspace } from './fake-workspace.ts';
import { testStatuses, useTestRunner } from './helpers.ts';
import { LAYOUT } from './projects.ts';

const PROJECT: Record<string, string> = {
  // as Jackson's ClassUtil.checkAndFixAccess
  'src/main/java/demo/Access.java': `package demo;
import java.lang.reflect.Field;
public final class Access {
  public static Object secretOf(Object holder) throws Exception {
    Field f = holder.getClass().getDeclaredField("secret");
    f.setAccessible(true);
    return f.get(holder);
  }
}
`,
  'src/main/java/demo/Holder.java': `package demo;
public class Holder {
  private final String secret = "kept";
}
`,
  // as AccessFixTest's CauseBlockingSecurityManager
  'src/test/java/demo/BlockingManager.java': `package demo;
import java.security.Permission;
public class BlockingManager extends SecurityManager {
  public int asked;
  @Override public void checkPermission(Permission perm) {
    asked++;
    if ("suppressAccessChecks".equals(perm.getName())) throw new SecurityException("Can not force permission: " + perm);
  }
}
`,
  'src/test/java/demo/OwnManagerTest.java': `package demo;
import static org.junit.Assert.*;
import java.lang.reflect.InvocationTargetException;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class OwnManagerTest {
  @Test public void a_installsItsOwnAndItIsAsked() throws Exception {
    final SecurityManager orig = System.getSecurityManager();
    BlockingManager own = new BlockingManager();
    try {
      System.setSecurityManager(own);
      assertSame(own, System.getSecurityManager());
      try {
        Access.secretOf(new Holder());
        fail("the project's manager was not asked");
      } catch (SecurityException e) {
        assertTrue(e.getMessage(), e.getMessage().startsWith("Can not force permission"));
      }
      assertTrue(own.asked > 0);
    } finally {
      System.setSecurityManager(orig);
    }
    assertSame(orig, System.getSecurityManager());
    assertEquals("kept", Access.secretOf(new Holder()));
  }
  @Test public void b_theRealCallStaysRefused() throws Exception {
    try {
      System.class.getMethod("setSecurityManager", SecurityManager.class).invoke(null, (Object) null);
      fail("the runner's guard was replaced");
    } catch (InvocationTargetException e) {
      assertEquals(SecurityException.class, e.getCause().getClass());
      assertTrue(e.getCause().getMessage(), e.getCause().getMessage().contains("Replacing the security manager"));
    }
  }
  @Test public void c_leavesAManagerThatRefusesEverything() {
    System.setSecurityManager(new SecurityManager() {
      @Override public void checkPermission(java.security.Permission perm) {
        throw new SecurityException("refused: " + perm);
      }
    });
  }
  @Test public void d_failsAfterwards() {
    fail("a failure after a hostile manager");
  }
}
`,
};

const testRunner = useTestRunner({ workers: 1 });

describe.each(['cold', 'warm'] as const)('a security manager of the project on the %s path', (path) => {
  it('is asked after the guard; the guard stays, and a failure after a hostile one is still a failure', async () => {
    const r = await testRunner.client.validate(new FakeWorkspace(PROJECT), LAYOUT, { mode: 'all' }, { path });
    expect(r.path).toBe(path);
    expect(testStatuses(r.tests)).toEqual([
      'a_installsItsOwnAndItIsAsked pass',
      'b_theRealCallStaysRefused pass',
      'c_leavesAManagerThatRefusesEverything pass',
      'd_failsAfterwards fail java.lang.AssertionError',
    ]);
    // the next validation starts with no manager of the project's: the earlier one's slot went with its loader
    const again = await testRunner.client.validate(new FakeWorkspace(PROJECT), LAYOUT, { mode: 'all' }, { path });
    expect(testStatuses(again.tests)).toEqual(testStatuses(r.tests));
  });
});
