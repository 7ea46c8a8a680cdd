// Flag values the CLI reads from files: bytes that are not UTF-8 are counted (and reported), never decoded silently.
import { describe, expect, it } from 'vitest';
import { decodeUtf8, oneOf } from '../../../worker/cli/flags.ts';

describe('decodeUtf8', () => {
  it('decodes UTF-8 exactly, including a U+FFFD the file really holds', () => {
    expect(decodeUtf8(new TextEncoder().encode('café \uFFFD'))).toEqual({ text: 'café \uFFFD', replaced: 0 });
  });
  it('counts the byte sequences it had to replace', () => {
    const latin1 = Uint8Array.from([0x4a, 0x6f, 0x73, 0xe9, 0x0a, 0xff, 0x41]);
    const r = decodeUtf8(latin1);
    expect(r.replaced).toBe(2);
    expect(r.text).toBe('Jos\uFFFD\n\uFFFDA');
  });
});

describe('oneOf', () => {
  it('names the flag, the value and the valid values', () => {
    expect(() => oneOf('--tests', 'bogus', ['failing-first', 'all'])).toThrow('--tests bogus: use one of failing-first, all.');
  });
});
