// Where a runner token may be read again after a 401 (worker/runner-client/served-token.ts): only the page's own
// origin, only http(s), and only a token served for the same runner URL.
import { describe, expect, it } from 'vitest';
import { readServedToken, sameRunnerUrl, tokenSourceRefusal } from '../../../worker/runner-client/served-token.ts';

const served = (body: unknown, status = 200): typeof fetch => async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the served runner token', () => {
  it("is read only from the page's own origin, over http(s)", () => {
    expect(tokenSourceRefusal('http://127.0.0.1:5173/runtime-config.json', 'http://127.0.0.1:5173')).toBeUndefined();
    expect(tokenSourceRefusal('http://127.0.0.1:5173/runtime-config.json', undefined)).toBeUndefined();
    expect(tokenSourceRefusal('https://evil.example/runtime-config.json', 'http://127.0.0.1:5173')).toMatch(/not on this page's origin/);
    expect(tokenSourceRefusal('http://127.0.0.1:5173/runtime-config.json', 'null')).toMatch(/not on this page's origin/);
    expect(tokenSourceRefusal('file:///tmp/runtime-config.json', undefined)).toMatch(/not an http\(s\) address/);
    expect(tokenSourceRefusal('nope', undefined)).toMatch(/is not a URL/);
  });

  it('is taken only for the same runner URL, a trailing slash aside', async () => {
    const source = 'http://127.0.0.1:5173/runtime-config.json';
    expect(sameRunnerUrl('http://127.0.0.1:8765/', 'http://127.0.0.1:8765')).toBe(true);
    expect(sameRunnerUrl('http://127.0.0.1:8765', 'http://127.0.0.1:8766')).toBe(false);
    expect(await readServedToken(source, 'http://127.0.0.1:8765', served({ runner: { url: 'http://127.0.0.1:8765/', token: 'tok-new' } }))).toBe('tok-new');
    expect(await readServedToken(source, 'http://127.0.0.1:8765', served({ runner: { url: 'http://127.0.0.1:9999', token: 'tok-other' } }))).toBeUndefined();
    expect(await readServedToken(source, 'http://127.0.0.1:8765', served({ modelEndpoints: [] }))).toBeUndefined();
    expect(await readServedToken(source, 'http://127.0.0.1:8765', served({ runner: { url: 'http://127.0.0.1:8765', token: '' } }))).toBeUndefined();
    expect(await readServedToken(source, 'http://127.0.0.1:8765', served({}, 404))).toBeUndefined();
    expect(await readServedToken(source, 'http://127.0.0.1:8765', async () => Promise.reject(new TypeError('failed to fetch')))).toBeUndefined();
  });
});
