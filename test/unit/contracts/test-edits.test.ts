// The test-edit rule the runner, the tools and the CLI share (worker/contracts/test-edits.ts).
import { describe, expect, it } from 'vitest';
import { isTestFile, refusedTestEdits } from '../../../worker/contracts/test-edits.ts';

const LAYOUT = { sourceDirs: ['src/main/java'], testDirs: ['src/test/java/'], resourceDirs: ['src/main/resources'], testResourceDirs: ['./src/test/resources'] };
const BASE = new Set([
  'src/main/java/demo/Calc.java',
  'src/main/resources/demo/names.txt',
  'src/test/java/demo/CalcTest.java',
  'src/test/resources/demo/expected.txt',
  'README.md',
]);

describe('refusedTestEdits', () => {
  it('tells test files by the test source and test resource roots', () => {
    expect(isTestFile(LAYOUT, 'src/test/java/demo/CalcTest.java')).toBe(true);
    expect(isTestFile(LAYOUT, 'src/test/resources/demo/expected.txt')).toBe(true);
    expect(isTestFile(LAYOUT, 'src/test/javaX/demo/CalcTest.java')).toBe(false);
    expect(isTestFile(LAYOUT, 'src/main/java/demo/Calc.java')).toBe(false);
  });

  it("under 'none' refuses every edit, deletion and new file among the tests, and allows program changes", () => {
    const overlay = {
      'src/test/java/demo/CalcTest.java': '// @Ignore',
      'src/test/resources/demo/expected.txt': null,
      'src/test/java/demo/ReproTest.java': 'class ReproTest {}',
      'src/main/java/demo/Calc.java': '// fixed',
      'src/main/java/demo/Helper.java': '// new',
      'README.md': null,
    };
    expect(refusedTestEdits(overlay, LAYOUT, BASE, 'none')).toEqual([
      { path: 'src/test/java/demo/CalcTest.java', kind: 'edit' },
      { path: 'src/test/java/demo/ReproTest.java', kind: 'add' },
      { path: 'src/test/resources/demo/expected.txt', kind: 'delete' },
    ]);
  });

  it("under 'add' allows new test files of their own name only, and still refuses edits and deletions", () => {
    const overlay = {
      'src/test/java/demo/CalcTest.java': null,
      'src/test/java/demo/ReproTest.java': 'class ReproTest {}',
      'src/test/java/demo/Calc.java': 'class Calc {}', // would stand in for the program class
      'src/test/resources/demo/names.txt': 'x', // would hide the program resource
      'src/test/resources/demo/CalcTest.class': 'x', // a class file named like the test
    };
    expect(refusedTestEdits(overlay, LAYOUT, BASE, 'add')).toEqual([
      { path: 'src/test/java/demo/Calc.java', kind: 'shadow', shadows: 'src/main/java/demo/Calc.java' },
      { path: 'src/test/java/demo/CalcTest.java', kind: 'delete' },
      { path: 'src/test/resources/demo/CalcTest.class', kind: 'shadow', shadows: 'src/test/java/demo/CalcTest.java' },
      { path: 'src/test/resources/demo/names.txt', kind: 'shadow', shadows: 'src/main/resources/demo/names.txt' },
    ]);
  });

  it('refuses a new program file that takes the name of a test class under any policy but any', () => {
    const overlay = { 'src/main/java/demo/CalcTest.java': 'public class CalcTest { /* always passes */ }' };
    for (const policy of ['none', 'add'] as const) {
      expect(refusedTestEdits(overlay, LAYOUT, BASE, policy)).toEqual([{ path: 'src/main/java/demo/CalcTest.java', kind: 'shadow', shadows: 'src/test/java/demo/CalcTest.java' }]);
    }
    expect(refusedTestEdits({ ...overlay, 'src/test/java/demo/CalcTest.java': null }, LAYOUT, BASE, 'any')).toEqual([]);
  });
});
