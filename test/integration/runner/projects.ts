// Small Java projects the runner tests write themselves (JUnit 3, 4 and 5), each with a known bug.
import type { ProjectLayout } from '../../../worker/contracts/bug.ts';

export const LAYOUT: ProjectLayout = {
  sourceDirs: ['src/main/java'],
  testDirs: ['src/test/java'],
  resourceDirs: [],
  testResourceDirs: [],
  javaRelease: 11,
  junit: 'junit4',
  classpath: [],
};

export const CALC = 'src/main/java/demo/Calc.java';
export const BUGGY_CALC = `package demo;

public class Calc {
  public static int add(int a, int b) {
    return a - b;
  }

  public static int mul(int a, int b) {
    return a * b;
  }
}
`;
export const FIXED_CALC = BUGGY_CALC.replace('a - b', 'a + b');

/** JUnit 4: CalcTest.add fails on the buggy version; mul passes. Plus a second class that always passes. */
export const JUNIT4_PROJECT: Record<string, string> = {
  [CALC]: BUGGY_CALC,
  'src/test/java/demo/CalcTest.java': `package demo;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class CalcTest {
  @Test
  public void add() {
    assertEquals(5, Calc.add(2, 3));
  }

  @Test
  public void mul() {
    assertEquals(6, Calc.mul(2, 3));
  }
}
`,
  'src/test/java/demo/MoreTest.java': `package demo;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class MoreTest {
  @Test
  public void mulByZero() {
    assertEquals(0, Calc.mul(7, 0));
  }
}
`,
};

export const JUNIT3_PROJECT: Record<string, string> = {
  [CALC]: BUGGY_CALC,
  'src/test/java/demo/CalcTest.java': `package demo;

import junit.framework.TestCase;

public class CalcTest extends TestCase {
  public void testAdd() {
    assertEquals(5, Calc.add(2, 3));
  }

  public void testMul() {
    assertEquals(6, Calc.mul(2, 3));
  }
}
`,
};

export const JUNIT5_PROJECT: Record<string, string> = {
  [CALC]: BUGGY_CALC,
  'src/test/java/demo/CalcTest.java': `package demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CalcTest {
  @Test
  void add() {
    assertEquals(5, Calc.add(2, 3));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void mulByOne(int x) {
    assertEquals(x, Calc.mul(x, 1));
  }
}
`,
  // a JUnit 4 class in the same project runs through the vintage engine
  'src/test/java/demo/LegacyTest.java': `package demo;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class LegacyTest {
  @Test
  public void mul() {
    assertEquals(6, Calc.mul(2, 3));
  }
}
`,
};
