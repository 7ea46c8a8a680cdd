// A patch that applies only at another line than its header says, or only with fuzz, is reported hunk by hunk
// (the CLI shows it with the verdict); an exact patch reports nothing.
import { describe, expect, it } from 'vitest';
import { applyUnifiedDiff, describeInexact } from '../../../worker/diff/apply-diff.ts';
import { demoWorkspace, GOOD_DIFF, SRC } from './fixtures.ts';

describe('applyUnifiedDiff: inexact hunks', () => {
  it('reports nothing for a hunk that applies where its header says', async () => {
    const applied = await applyUnifiedDiff(demoWorkspace(), GOOD_DIFF);
    expect(applied.inexact).toEqual([]);
  });

  it('reports a hunk applied at an offset, with its direction and size', async () => {
    const ws = demoWorkspace();
    const applied = await applyUnifiedDiff(ws, GOOD_DIFF.replace('@@ -12,3 +12,3 @@', '@@ -10,3 +10,3 @@'));
    expect(applied.inexact).toEqual([{ path: SRC, hunk: 1, kind: 'offset', offset: 2 }]);
    expect(describeInexact(applied.inexact[0]!)).toBe(`${SRC}: hunk 1 applied 2 lines below where its header says (offset +2)`);
    expect(await ws.read(SRC)).toContain('            return hi;\n');
  });

  it('reports a hunk applied with fuzz (a context line that is not in the file)', async () => {
    const ws = demoWorkspace();
    const wide = [
      `--- a/${SRC}`,
      `+++ b/${SRC}`,
      '@@ -9,7 +9,7 @@',
      '         if (value < lo) { // not so in the file',
      '             return lo;',
      '         }',
      '         if (value >= hi) {',
      '-            return hi - 1;',
      '+            return hi;',
      '         }',
      '         return value;',
      '',
    ].join('\n');
    const applied = await applyUnifiedDiff(ws, wide);
    expect(applied.inexact).toEqual([{ path: SRC, hunk: 1, kind: 'fuzz' }]);
    expect(describeInexact(applied.inexact[0]!)).toContain('hunk 1 applied with fuzz');
    expect(await ws.read(SRC)).toContain('            return hi;\n');
  });
});
