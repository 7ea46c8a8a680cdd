// Failing-first runs the test classes that reach a changed class (through the classes they name, transitively)
// before the rest (runner/java/.../TestOrder.java), so a failing candidate stops without running unrelated classes;
// the verdict stays the whole suite's.
import { describe, expect, it } from 'vitest';
import type { TestSelection } from '../../../worker/contracts/runner-api.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { LAYOUT } from './projects.ts';

const CALC = 'src/main/java/demo/Calc.java';
const calc = (mul: string) => `package demo;

public class Calc {
  public static int add(int a, int b) {
    return a + b;
  }

  public static int mul(int a, int b) {
    return ${mul};
  }
}
`;

const unrelatedTest = (name: string) => `package demo;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class ${name} {
  @Test
  public void one() {
    assertEquals("ab", Other.join("a", "b"));
  }

  @Test
  public void two() {
    assertEquals("", Other.join("", ""));
  }
}
`;

const BASE = {
  [CALC]: calc('a * b'),
  'src/main/java/demo/Other.java': `package demo;

public class Other {
  public static String join(String a, String b) {
    return a + b;
  }
}
`,
  // reaches Calc only through a nested class of its own: its class file names Helper$Impl, which names Calc
  'src/main/java/demo/Helper.java': `package demo;

public class Helper {
  static final class Impl {
    static int square(int x) {
      return Calc.mul(x, x);
    }
  }

  public static int square(int x) {
    return Impl.square(x);
  }
}
`,
  'src/test/java/demo/AOtherTest.java': unrelatedTest('AOtherTest'),
  'src/test/java/demo/MOtherTest.java': unrelatedTest('MOtherTest'),
  'src/test/java/demo/CalcTest.java': `package demo;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class CalcTest {
  @Test
  public void add() {
    assertEquals(5, Calc.add(2, 3));
  }
}
`,
  'src/test/java/demo/ZHelperTest.java': `package demo;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class ZHelperTest {
  @Test
  public void square() {
    assertEquals(9, Helper.square(3));
  }
}
`,
};

const FAILING_FIRST: TestSelection = { mode: 'failing-first', tests: ['demo.CalcTest::add'] };

describe('failing-first test order (relevant classes first)', () => {
  const ctx = useTestRunner();

  for (const path of ['warm', 'cold'] as const) {
    it(`stops at a failing class that reaches the changed class before running unrelated ones (${path})`, async () => {
      const ws = new FakeWorkspace(BASE);
      await ws.write(CALC, calc('a + b')); // mul broken; the trigger test (add) still passes
      const fast = await ctx.client.validate(ws, LAYOUT, FAILING_FIRST, { path });
      const ids = fast.tests.map((t) => t.id);
      expect(fast.plausible).toBe(false);
      expect(fast.tests.find((t) => t.id === 'demo.ZHelperTest::square')?.status).toBe('fail');
      // the classes sorted before ZHelperTest that do not reach Calc were not run
      expect(ids.filter((id) => id.includes('OtherTest'))).toEqual([]);
      // the whole suite's verdict is the same
      const whole = await ctx.client.validate(ws, LAYOUT, { mode: 'all' }, { path });
      expect(whole.plausible).toBe(fast.plausible);
      expect(whole.tests.filter((t) => t.status !== 'pass').map((t) => t.id)).toEqual(['demo.ZHelperTest::square']);
    });
  }

  it('still runs every class for a candidate that passes (the whole suite answers for a pass)', async () => {
    const ws = new FakeWorkspace(BASE);
    await ws.write(CALC, calc('b * a'));
    const r = await ctx.client.validate(ws, LAYOUT, FAILING_FIRST, { path: 'warm' });
    expect(r.plausible).toBe(true);
    expect(r.tests.map((t) => t.id).sort()).toEqual([
      'demo.AOtherTest::one',
      'demo.AOtherTest::two',
      'demo.CalcTest::add',
      'demo.MOtherTest::one',
      'demo.MOtherTest::two',
      'demo.ZHelperTest::square',
    ]);
  });
});
