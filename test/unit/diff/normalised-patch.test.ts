// One label for every occurrence of a patch: the normalised form ignores context width, hunk splits, whitespace and
// test files, and keeps where the change is and what it removes and adds.
import { describe, expect, it } from 'vitest';
import { normalisePatch, patchKey } from '../../../worker/diff/normalised-patch.ts';

const F = 'src/main/java/A.java';
const oneContext = `--- a/${F}\n+++ b/${F}\n@@ -4,3 +4,3 @@\n   int a;\n-  return x;\n+  return  y ;\n   }\n`;
const threeContext = `--- a/${F}\n+++ b/${F}\n@@ -2,7 +2,7 @@\n // 2\n // 3\n   int a;\n-  return x;\n+  return y ;\n   }\n // 7\n // 8\n`;
const testEdit = `--- a/src/test/java/ATest.java\n+++ b/src/test/java/ATest.java\n@@ -1,1 +1,1 @@\n-old\n+new\n`;

describe('normalised patch', () => {
  it('the same change with other context and whitespace is one patch; test files are left out', () => {
    expect(normalisePatch(oneContext)).toEqual([{ from: F, to: F, blocks: [{ at: 5, removed: ['return x;'], added: ['return y ;'] }] }]);
    expect(patchKey(threeContext)).toBe(patchKey(oneContext));
    expect(patchKey(oneContext + testEdit, ['src/test/java'])).toBe(patchKey(oneContext));
    expect(patchKey(oneContext)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('another line or another change is another patch', () => {
    expect(patchKey(oneContext.replace('@@ -4,3 +4,3 @@', '@@ -5,3 +5,3 @@'))).not.toBe(patchKey(oneContext));
    expect(patchKey(oneContext.replace('return  y', 'return z'))).not.toBe(patchKey(oneContext));
  });

  it('a re-indentation alone changes nothing', () => {
    const reindent = `--- a/${F}\n+++ b/${F}\n@@ -4,1 +4,1 @@\n-  int a;\n+      int a;\n`;
    expect(normalisePatch(reindent)).toEqual([]);
  });
});
