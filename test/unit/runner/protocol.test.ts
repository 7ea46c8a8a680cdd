import { describe, expect, it } from 'vitest';
import { MARKER, newKey, ProtocolReader, protocolLine } from '../../../runner/src/proc.ts';

describe('ProtocolReader', () => {
  const key = newKey();

  it('finds authenticated protocol lines across chunk boundaries among test output', () => {
    const got: unknown[] = [];
    const r = new ProtocolReader((m) => got.push(m), key);
    const text = `noise\n${protocolLine(key, '{"a":1}')}\nmore\n${protocolLine(key, '{"b":[2,3]}')}\n`;
    for (let i = 0; i < text.length; i += 5) r.push(Buffer.from(text.slice(i, i + 5)));
    expect(got).toEqual([{ a: 1 }, { b: [2, 3] }]);
    expect(r.text).toContain('noise');
  });

  it('survives a huge line without a newline and still reads the next message', () => {
    const got: unknown[] = [];
    const r = new ProtocolReader((m) => got.push(m), key);
    const junk = Buffer.alloc(8 * 1024 * 1024, 'x');
    for (let i = 0; i < 10; i++) r.push(junk); // 80 MB, over the line cap
    r.push(Buffer.from(`\n${protocolLine(key, '{"ok":true}')}\n`));
    expect(got).toEqual([{ ok: true }]);
    expect(r.text.length).toBeLessThanOrEqual(64 * 1024 + 1);
  });

  it('keeps a malformed protocol line as text', () => {
    const got: unknown[] = [];
    const r = new ProtocolReader((m) => got.push(m), key);
    r.push(Buffer.from(`${MARKER}{broken\n`));
    expect(got).toEqual([]);
    expect(r.text).toContain('{broken');
  });

  it('ignores marker lines that are not authenticated with the expected key (forgeries, earlier validations)', () => {
    const got: unknown[] = [];
    const r = new ProtocolReader((m) => got.push(m), key);
    const forged = '{"tests":[],"stopped":"none","compiled":true}';
    r.push(Buffer.from(`${MARKER}${forged}\n`)); // the old, unauthenticated format
    r.push(Buffer.from(`${MARKER}${'0'.repeat(64)} ${forged}\n`)); // a made-up MAC
    r.push(Buffer.from(`${protocolLine(newKey(), forged)}\n`)); // another key's MAC
    const tampered = protocolLine(key, '{"tests":[{"id":"a::b","status":"fail"}]}').replace('fail', 'pass');
    r.push(Buffer.from(`${tampered}\n`)); // an authentic line with its JSON changed
    expect(got).toEqual([]);
    expect(r.rejected).toBe(4);
    r.key = undefined; // between validations nothing is accepted, not even under the old key
    r.push(Buffer.from(`${protocolLine(key, '{"late":true}')}\n`));
    expect(got).toEqual([]);
  });
});
