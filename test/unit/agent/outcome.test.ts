// Exact match against the ground truth ignores whitespace and comments, and nothing else; the final patch
// leaves test edits out.
import { describe, expect, it } from 'vitest';
import { exactMatch, normalizeJava, programPatch, splitDiffByFile } from '../../../worker/agent/outcome.ts';
import { demoBug, demoWorkspace, GOOD_DIFF, SRC, SRC_TEXT, TEST } from './fixtures.ts';

describe('exact match', () => {
  it('normalizes whitespace and comments but keeps strings', () => {
    expect(normalizeJava('int  a = 1; // one\n/* two */ String s = "a // b";')).toBe('inta=1;Strings="a // b";');
  });

  it('is true for the same fix written with other spacing and a comment', async () => {
    const ws = demoWorkspace();
    await ws.write(SRC, SRC_TEXT.replace('            return hi - 1;', '            return   hi;   // fixed bound'));
    expect(await exactMatch(ws, demoBug, GOOD_DIFF)).toBe(true);
  });

  it('is false for a different fix, even a semantically equal one', async () => {
    const ws = demoWorkspace();
    await ws.write(SRC, SRC_TEXT.replace('            return hi - 1;', '            return hi + 0;'));
    expect(await exactMatch(ws, demoBug, GOOD_DIFF)).toBe(false);
  });

  it('ignores edits to test files', async () => {
    const ws = demoWorkspace();
    await ws.write(SRC, SRC_TEXT.replace('            return hi - 1;', '            return hi;'));
    await ws.write(TEST, '// changed test\n');
    expect(await exactMatch(ws, demoBug, GOOD_DIFF)).toBe(true);
    const patch = await programPatch(ws, demoBug);
    expect(splitDiffByFile(patch).map((s) => s.path)).toEqual([SRC]);
    expect(patch).not.toContain('changed test');
  });
});
