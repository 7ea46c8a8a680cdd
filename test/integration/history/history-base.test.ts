// The rule that maps a reconstructed buggy version's lines onto the original revision (worker/history/history-base.ts).
import { describe, expect, it } from 'vitest';
import { mapLinesToOriginal } from '../../../worker/history/history-base.ts';

const text = (...lines: string[]) => lines.map((l) => `${l}\n`).join('');

describe('mapLinesToOriginal', () => {
  it('maps unchanged lines to themselves, across lines added or removed elsewhere', () => {
    expect(mapLinesToOriginal(text('a', 'b', 'c'), text('a', 'x', 'b', 'c'))).toEqual([1, undefined, 2, 3]);
    expect(mapLinesToOriginal(text('a', 'b', 'c'), text('a', 'c'))).toEqual([1, 3]);
  });

  it('maps a changed line to the original line at the same offset, from the nearer end of the replaced block', () => {
    // original: of(int v) / return v…; reconstruction: javadoc / of(int value) / return value…
    const original = text('class S {', 'int of(int v) {', 'return v;', '}', '}');
    const rebuilt = text('class S {', '/** doc */', 'int of(int value) {', 'return value;', '}', '}');
    expect(mapLinesToOriginal(original, rebuilt)).toEqual([1, 2, 2, 3, 4, 5]);
  });

  it('prefers the replaced line sharing the most words over the positional one', () => {
    const original = text('{', '// compute', 'return total;', '}');
    const rebuilt = text('{', 'return sum + total;', '// compute it', '}');
    expect(mapLinesToOriginal(original, rebuilt)).toEqual([1, 3, 2, 4]);
  });

  it('maps an inserted line to a nearby original line sharing most of its words (an expression hoisted into a variable)', () => {
    // Defects4J Lang-61's shape: the buggy version hoists the loop bound into `len`
    const original = text('char[] thisBuf = buffer;', 'outer:', 'for (int i = start; i < thisBuf.length - strLen; i++) {', '}');
    const rebuilt = text('char[] thisBuf = buffer;', 'int len = thisBuf.length - strLen;', 'outer:', 'for (int i = start; i < len; i++) {', '}');
    expect(mapLinesToOriginal(original, rebuilt)).toEqual([1, 3, 2, 3, 4]);
  });

  it('gives no counterpart to a line the reconstruction inserted where nothing was replaced', () => {
    expect(mapLinesToOriginal(text('a', 'b'), text('a', 'new', 'b'))[1]).toBeUndefined();
    expect(mapLinesToOriginal(text('a'), text('a', 'tail'))[1]).toBeUndefined();
  });

  it('maps a replaced last line without a newline', () => {
    expect(mapLinesToOriginal('a\nb', 'a\nc')).toEqual([1, 2]);
  });
});
