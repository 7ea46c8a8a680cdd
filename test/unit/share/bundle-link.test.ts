// Links that point to a bundle: the address a user gives is checked (what is wrong, what to give), the link keeps the
// view and the bundle reference — with the configuration while it fits, without it beyond — and a bundle fetched for
// a link that is not the one it was made with is refused by both hashes before anything is stored.
import { describe, expect, it } from 'vitest';
import { LinkError, MAX_LINK_CHARS, decodeLink } from '../../../worker/share/link-codec.ts';
import { parseBundleUrl, refuseUnexpectedBundle } from '../../../worker/share/bundle-url.ts';
import { BundleError } from '../../../worker/contracts/bundle.ts';
import { bundleLinkOf, type ViewSnapshot } from '../../../src/state/url-state.ts';

const SHA = 'ab'.repeat(32);
const OTHER = 'cd'.repeat(32);
const model = { provider: 'custom' as const, baseURL: 'http://127.0.0.1:8123/v1', model: 'demo' };

/** Text deflate cannot shrink much: a spec carrying it is too long for a link. */
function incompressible(chars: number): string {
  let x = 777;
  let out = '';
  for (let i = 0; i < chars; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out += String.fromCharCode(97 + (x % 26));
  }
  return out;
}

describe('parseBundleUrl', () => {
  it('keeps an http(s) address, without its fragment', () => {
    expect(parseBundleUrl(' https://example.org/x/e.rlbundle.json.gz ')).toBe('https://example.org/x/e.rlbundle.json.gz');
    expect(parseBundleUrl('http://127.0.0.1:8080/b.gz?v=2#top')).toBe('http://127.0.0.1:8080/b.gz?v=2');
  });

  it('refuses, saying what is wrong, an empty text, a partial address, another scheme and credentials', () => {
    expect(() => parseBundleUrl('  ')).toThrow(/give the address where you will put the bundle/);
    expect(() => parseBundleUrl('example.org/b.gz')).toThrow(/"example\.org\/b\.gz" is not a whole address: give one that starts with https:\/\//);
    expect(() => parseBundleUrl('ftp://example.org/b.gz')).toThrow(/is a ftp address: a link can only point to an https:\/\/ or http:\/\/ address/);
    expect(() => parseBundleUrl('file:///tmp/b.gz')).toThrow(LinkError);
    const withPassword = (() => {
      try {
        parseBundleUrl('https://me:hunter2@example.org/b.gz');
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(withPassword).toMatch(/carries a user name or password: a link never carries credentials/);
    expect(withPassword).not.toContain('hunter2');
  });
});

describe('bundleLinkOf', () => {
  const spec = { schemaVersion: 1, bugs: ['textkit-1'], variants: [{ name: 'a', preset: 'oneshot' }], samples: 1, model };

  it('carries the view, the spec while it fits, and the bundle reference', async () => {
    const view: ViewSnapshot = { kind: 'experiment', experiment: 'exp-1', spec };
    const state = await decodeLink(await bundleLinkOf(view, { sha256: SHA, url: 'https://example.org/b.gz' }));
    expect(state).toMatchObject({ view: { kind: 'experiment', experiment: 'exp-1' }, bundle: { sha256: SHA, url: 'https://example.org/b.gz' } });
    expect(state.experiment?.bugs).toEqual(['textkit-1']);
  });

  it('keeps the view and the bundle reference alone when the spec would make the link too long', async () => {
    const long = { ...spec, variants: [{ name: 'a', preset: 'oneshot', overrides: { prompt: { system: incompressible(MAX_LINK_CHARS * 2) } } }] };
    const fragment = await bundleLinkOf({ kind: 'experiment', experiment: 'exp-1', spec: long }, { sha256: SHA, url: 'https://example.org/b.gz' });
    expect(fragment.length).toBeLessThanOrEqual(MAX_LINK_CHARS);
    expect(await decodeLink(fragment)).toEqual({ view: { kind: 'experiment', experiment: 'exp-1' }, bundle: { sha256: SHA, url: 'https://example.org/b.gz' } });
  });
});

describe('refuseUnexpectedBundle', () => {
  it('passes the expected bundle and refuses another, naming both hashes', () => {
    expect(() => refuseUnexpectedBundle('https://example.org/b.gz', SHA, SHA)).not.toThrow();
    expect(() => refuseUnexpectedBundle('https://example.org/b.gz', SHA, OTHER)).toThrow(BundleError);
    expect(() => refuseUnexpectedBundle('https://example.org/b.gz', SHA, OTHER)).toThrow(`https://example.org/b.gz is not the bundle this link points to: the link expects sha256 ${SHA}, the file has sha256 ${OTHER}`);
  });
});
