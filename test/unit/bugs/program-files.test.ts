// A bug's ground truth from a fixing commit takes the fix's program files only. Where the layout nests the tests inside
// the program's source folder (sourceDirs ['src'], testDirs ['src/test']), a "program file" is one under the source
// folder and outside the tests — the fix's test changes stay out (the tests define the bug, and the test-edit check
// would refuse the overlay).
import { describe, expect, it } from 'vitest';
import { applyProgramFilesOf } from '../../../worker/bugs/engine.ts';
import { isProgramSource } from '../../../worker/contracts/test-edits.ts';
import { FakeWorkspace } from '../../helpers/fake-workspace.ts';

const layout = { sourceDirs: ['src'], testDirs: ['src/test'], resourceDirs: [], testResourceDirs: [] };

describe('program files of a fixing commit', () => {
  it('a file under the source folder but inside the test folder is not a program file', () => {
    expect(isProgramSource(layout, 'src/org/a/Calc.java')).toBe(true);
    expect(isProgramSource(layout, 'src/test/org/a/CalcTest.java')).toBe(false);
    expect(isProgramSource(layout, 'README.md')).toBe(false);
    expect(isProgramSource({ sourceDirs: ['src/main/java/'], testDirs: ['src/test/java'] }, 'src/main/java/A.java')).toBe(true);
  });

  it('applies the fix to program files and leaves nested test files as the buggy commit has them', async () => {
    const buggy = new FakeWorkspace({
      'src/org/a/Calc.java': 'class Calc { int f() { return 1; } }\n',
      'src/org/a/Old.java': 'class Old {}\n',
      'src/test/org/a/CalcTest.java': 'class CalcTest { /* buggy expectation */ }\n',
    });
    const fixed = new FakeWorkspace({
      'src/org/a/Calc.java': 'class Calc { int f() { return 2; } }\n',
      'src/test/org/a/CalcTest.java': 'class CalcTest { /* the fix\'s new expectation */ }\n',
      'src/test/org/a/NewTest.java': 'class NewTest {}\n',
    });
    await applyProgramFilesOf(buggy, fixed, layout);
    expect(buggy.overlay()).toEqual({ 'src/org/a/Calc.java': 'class Calc { int f() { return 2; } }\n', 'src/org/a/Old.java': null });
  });
});
