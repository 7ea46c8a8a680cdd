import { describe, expect, it } from 'vitest';
import { GitBundleError as BundleError, parseBundleHeader, verifyPack } from '../../../worker/repo/git-bundle.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('git bundle headers', () => {
  it('reads v2 refs and where the pack starts', () => {
    const bytes = enc(`# v2 git bundle\n${A} refs/heads/main\n${B} HEAD\n\nPACK...`);
    const parsed = parseBundleHeader(bytes);
    expect(parsed.version).toBe(2);
    expect(parsed.refs).toEqual([{ name: 'refs/heads/main', oid: A }, { name: 'HEAD', oid: B }]);
    expect(new TextDecoder().decode(bytes.subarray(parsed.packOffset))).toBe('PACK...');
  });

  it('accepts v3 with sha1 and refuses sha256 and filtered bundles', () => {
    expect(parseBundleHeader(enc(`# v3 git bundle\n@object-format=sha1\n${A} refs/heads/main\n\n`)).version).toBe(3);
    expect(() => parseBundleHeader(enc(`# v3 git bundle\n@object-format=sha256\n${'c'.repeat(64)} refs/heads/main\n\n`), 'x.bundle')).toThrow(
      /x\.bundle uses object format sha256/,
    );
    expect(() => parseBundleHeader(enc(`# v3 git bundle\n@filter=blob:none\n${A} refs/heads/main\n\n`))).toThrow(/filtered/);
  });

  it('refuses prerequisites, bare packs, garbage and truncation with advice', () => {
    expect(() => parseBundleHeader(enc(`# v2 git bundle\n-${A} base\n${B} refs/heads/main\n\n`))).toThrow(/prerequisite.*--all/);
    expect(() => parseBundleHeader(enc('PACK\0\0\0\x02'))).toThrow(/bare packfile/);
    expect(() => parseBundleHeader(enc('hello'))).toThrow(BundleError);
    expect(() => parseBundleHeader(enc(`# v2 git bundle\n${A} refs/heads/main`))).toThrow(/truncated/);
    expect(() => parseBundleHeader(enc(`# v2 git bundle\nnot-an-oid refs/heads/main\n\n`))).toThrow(/malformed ref line/);
    expect(() => parseBundleHeader(enc('# v2 git bundle\n\n'))).toThrow(/no refs/);
  });

  it('checks the pack magic and trailing checksum', async () => {
    const body = new Uint8Array([...enc('PACK'), 0, 0, 0, 2, 0, 0, 0, 0]);
    const sum = new Uint8Array(await crypto.subtle.digest('SHA-1', body));
    const pack = new Uint8Array([...body, ...sum]);
    expect(await verifyPack(pack)).toMatchObject({ objects: 0 });
    const broken = pack.slice();
    broken[9] = 1;
    await expect(verifyPack(broken)).rejects.toThrow(/checksum/);
    await expect(verifyPack(enc('JUNK'.repeat(10)))).rejects.toThrow(/does not start with a packfile/);
  });
});
