import { describe, expect, it } from 'vitest';
import { classifyFix } from '../../../worker/diff/fix-classification.ts';
import { faultLocalizationFromDiff, enclosingJavaMember } from '../../../worker/diff/fix-locations.ts';
import { changeBlocks, parseUnifiedDiff } from '../../../worker/diff/unified-diff-parse.ts';

const header = (path: string) => `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n`;
const A = 'src/main/java/p/A.java';
const B = 'src/main/java/p/B.java';
const T = 'src/test/java/p/ATest.java';

const oneLine = header(A) + '@@ -3,3 +3,3 @@ class A {\n a\n-        if (x < y) {\n+        if (x <= y) {\n b\n';
const insertOnly = header(A) + '@@ -10,2 +10,3 @@\n a\n+        if (s == null) return 0;\n b\n';
const twoLines = header(A) + '@@ -3,4 +3,4 @@\n a\n-x1\n-x2\n+y1\n+y2\n b\n';
const twoHunks = header(A) + '@@ -3,3 +3,3 @@\n a\n-x1\n+y1\n b\n@@ -20,3 +20,4 @@\n c\n+z\n d\n e\n';
const gapInsideHunk = header(A) + '@@ -3,5 +3,5 @@\n a\n-x1\n+y1\n b\n-x2\n+y2\n';
const twoFiles = oneLine + header(B) + '@@ -7,2 +7,3 @@\n k\n+added\n l\n';
const testOnly = header(T) + '@@ -1,2 +1,3 @@\n a\n+b\n c\n';

describe('classifyFix (HAFixAgent categories)', () => {
  it('SL: one edited line', () => {
    expect(classifyFix(oneLine)).toMatchObject({ category: 'SL', blameable: true, hunks: 1 });
  });
  it('SL and blameless: one inserted line', () => {
    expect(classifyFix(insertOnly)).toMatchObject({ category: 'SL', blameable: false });
  });
  it('SH: one hunk with two edited lines', () => {
    expect(classifyFix(twoLines)).toMatchObject({ category: 'SH', blameable: true, lineChanges: [2] });
  });
  it('SFMH: two hunks in one file, also when git puts them in one @@ hunk', () => {
    expect(classifyFix(twoHunks)).toMatchObject({ category: 'SFMH', hunks: 2 });
    expect(classifyFix(gapInsideHunk)).toMatchObject({ category: 'SFMH', hunks: 2 });
  });
  it('MFMH: hunks in two files; test files do not count', () => {
    expect(classifyFix(twoFiles)).toMatchObject({ category: 'MFMH', files: [A, B] });
    expect(classifyFix(oneLine + testOnly).category).toBe('SL');
  });
  it('refuses a diff that touches no program file', () => {
    expect(() => classifyFix(testOnly)).toThrow(/no program file/);
  });
});

describe('faultLocalizationFromDiff', () => {
  it('lists modified lines in buggy numbering and the line before an insertion', () => {
    expect(faultLocalizationFromDiff(twoHunks)).toEqual([
      { file: A, lines: [4], kind: 'modify' },
      { file: A, lines: [20], kind: 'insert' },
    ]);
    expect(faultLocalizationFromDiff(twoLines)).toEqual([{ file: A, lines: [4, 5], kind: 'modify' }]);
    expect(faultLocalizationFromDiff(header(A) + '@@ -5,3 +5,2 @@\n a\n-gone\n b\n')).toEqual([{ file: A, lines: [6], kind: 'delete' }]);
  });
  it('names the enclosing class and method', () => {
    const src = 'package p;\n\npublic class A {\n    private int f = 1;\n\n    public int size(String s) {\n        if (s.isEmpty()) {\n            return 0;\n        }\n        return 1;\n    }\n}\n';
    expect(enclosingJavaMember(src, 8)).toEqual({ className: 'A', method: 'size' });
    expect(enclosingJavaMember(src, 4)).toEqual({ className: 'A' });
  });
});

describe('parseUnifiedDiff', () => {
  it('reads new files and zero-length hunks', () => {
    const created = 'diff --git a/x.java b/x.java\nnew file mode 100644\n--- /dev/null\n+++ b/x.java\n@@ -0,0 +1,2 @@\n+a\n+b\n';
    const [file] = parseUnifiedDiff(created);
    expect(file).toMatchObject({ oldPath: null, newPath: 'x.java' });
    expect(changeBlocks(file!)).toHaveLength(1);
  });
  it('reports a truncated hunk with its line number', () => {
    expect(() => parseUnifiedDiff(header(A) + '@@ -1,3 +1,3 @@\n a\n')).toThrow(/line 7/);
  });
});
