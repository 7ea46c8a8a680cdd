import { describe, expect, it } from 'vitest';
import { MARKER, ProtocolReader } from '../../../runner/src/proc.ts';

describe('ProtocolReader', () => {
  it('finds protocol lines across chunk boundaries among test output', () => {
    const got: unknown[] = [];
    const r = new ProtocolReader((m) => got.push(m));
    const text = `noise\n${MARKER}{"a":1}\nmore\n${MARKER}{"b":[2,3]}\n`;
    for (let i = 0; i < text.length; i += 5) r.push(Buffer.from(text.slice(i, i + 5)));
    expect(got).toEqual([{ a: 1 }, { b: [2, 3] }]);
    expect(r.text).toContain('noise');
  });

  it('survives a huge line without a newline and still reads the next message', () => {
    const got: unknown[] = [];
    const r = new ProtocolReader((m) => got.push(m));
    const junk = Buffer.alloc(8 * 1024 * 1024, 'x');
    for (let i = 0; i < 10; i++) r.push(junk); // 80 MB, over the line cap
    r.push(Buffer.from(`\n${MARKER}{"ok":true}\n`));
    expect(got).toEqual([{ ok: true }]);
    expect(r.text.length).toBeLessThanOrEqual(64 * 1024 + 1);
  });

  it('keeps a malformed protocol line as text', () => {
    const got: unknown[] = [];
    const r = new ProtocolReader((m) => got.push(m));
    r.push(Buffer.from(`${MARKER}{broken\n`));
    expect(got).toEqual([]);
    expect(r.text).toContain('{broken');
  });
});
