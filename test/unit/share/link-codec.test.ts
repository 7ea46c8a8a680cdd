// The link codec: every preset with a typical edit round-trips (either compression backend, and each reads the
// other's links); damaged links, unknown versions, invalid states and keys are refused by name; a link too long is
// refused with the advice to share a bundle.
import { describe, expect, it } from 'vitest';
import { decodeLink, encodeLink, LinkError, MAX_LINK_CHARS, parseLinkState } from '../../../worker/share/link-codec.ts';
import { compress, toBase64Url } from '../../../worker/share/compression.ts';
import { LinkState, type LinkView } from '../../../worker/share/link-state.ts';
import { sha256 } from '@noble/hashes/sha2.js';
import { PRESET_IDS, typicalLink } from './typical-links.ts';

const experimentLink = {
  view: { kind: 'experiment' as const, experiment: 'exp-abc' },
  experiment: {
    schemaVersion: 1 as const,
    name: 'ablations',
    bugs: { filter: { libraries: ['textkit'] }, limit: 4 },
    variants: [
      { name: 'full', preset: 'repairagent' },
      { name: 'no-search', preset: 'repairagent', variants: ['no-search-tools'] },
      { name: 'short', preset: 'oneshot', overrides: { budgets: { maxSteps: 2 } } },
    ],
    samples: 3,
    model: { provider: 'custom' as const, baseURL: 'http://127.0.0.1:8000/v1', model: 'qwen', sampling: { temperature: 0.7 }, seeds: [1, 2, 3] },
  },
};

/** A fragment built by hand, as the codec would, from any bytes (to test what decoding refuses). */
async function handmade(json: string, version = 1): Promise<string> {
  const bytes = new TextEncoder().encode(json);
  const deflated = await compress(bytes, 'deflate-raw', 'fflate');
  return `rl${version}.${toBase64Url(new Uint8Array([...sha256(bytes).subarray(0, 6), ...deflated]))}`;
}

describe('link codec', () => {
  it.each(PRESET_IDS)('%s with a typical edit: round trip, both backends, each reading the other', async (preset) => {
    const state = typicalLink(preset);
    const expected = LinkState.parse(state);
    const native = await encodeLink(state);
    const viaFflate = await encodeLink(state, { backend: 'fflate' });
    expect(native).toMatch(/^rl1\.[A-Za-z0-9_-]+$/);
    expect(native.length).toBeLessThanOrEqual(MAX_LINK_CHARS);
    for (const link of [native, viaFflate]) {
      expect(await decodeLink(link)).toEqual(expected);
      expect(await decodeLink(link, { backend: 'fflate' })).toEqual(expected);
    }
    // a whole URL or a #fragment reads the same
    expect(await decodeLink(`https://lab.example/app/#${native}`)).toEqual(expected);
    // the edited template came back byte for byte
    expect((await decodeLink(native)).config!.overrides).toEqual(state.config!.overrides);
  });

  it('an experiment view carries its spec (variants, model, seeds) and the other views round-trip', async () => {
    expect(await decodeLink(await encodeLink(experimentLink))).toEqual(LinkState.parse(experimentLink));
    const views: LinkView[] = [{ kind: 'bug', bug: 'textkit-2' }, { kind: 'compare', runs: ['run-a', 'run-b'] }];
    for (const view of views) {
      const state = { view, bundle: { sha256: 'a'.repeat(64), url: 'https://files.example/b.rlbundle.json.gz' } };
      expect(await decodeLink(await encodeLink(state))).toEqual(state);
    }
  });

  it('refuses a key anywhere, on encode and on decode, without repeating it', async () => {
    const keyed = typicalLink('oneshot');
    (keyed.config!.model as Record<string, unknown>).apiKey = 'sk-canary0123456789';
    await expect(encodeLink(keyed)).rejects.toThrow(/config\.model\.apiKey looks like a key field.*never carries a key/);
    const inValue = typicalLink('oneshot');
    inValue.config!.overrides = { prompt: { system: 'sk-proj-abcdefghijklmnop' } };
    await expect(encodeLink(inValue)).rejects.toThrow(/config\.overrides\.prompt\.system holds a value shaped like an API key/);
    const inUrl = { ...experimentLink, experiment: { ...experimentLink.experiment, model: { ...experimentLink.experiment.model, baseURL: 'http://u:pw@127.0.0.1:8000/v1' } } };
    await expect(encodeLink(inUrl)).rejects.toThrow(/experiment\.model\.baseURL has credentials in its URL/);
    // a link made elsewhere with a key in it is refused when read
    const smuggled = await handmade(JSON.stringify({ view: { kind: 'bug', bug: 'textkit-1' }, token: 'x' }));
    const err = await decodeLink(smuggled).catch((e: Error) => e);
    expect(err).toBeInstanceOf(LinkError);
    expect((err as Error).message).toMatch(/^refusing the link: token looks like a key field/);
    for (const e of [await encodeLink(keyed).catch((x: Error) => x.message)]) expect(e).not.toContain('sk-canary0123456789');
  });

  it('refuses unknown versions, damaged and truncated links, naming what is wrong', async () => {
    const good = await encodeLink(typicalLink('oneshot'));
    const body = good.slice(good.indexOf('.') + 1);
    await expect(decodeLink(`rl2.${body}`)).rejects.toThrow(/link version 2 is newer than this RepairLab reads \(version 1\)/);
    await expect(decodeLink(`rl0.${body}`)).rejects.toThrow(/link version 0 is not one RepairLab ever made/);
    await expect(decodeLink('https://lab.example/#/runs/123')).rejects.toThrow(/not a RepairLab link: its fragment should start with "rl1\."/);
    await expect(decodeLink(`rl1.${body.slice(0, 40)}!${body.slice(41)}`)).rejects.toThrow(/damaged: character "!" at position 40 is not base64url/);
    // cut short when copied: the data ends early
    await expect(decodeLink(good.slice(0, Math.floor(good.length / 2)))).rejects.toThrow(/the link is damaged/);
    // one character changed in the middle: a decompression error or a checksum mismatch, never a different view
    let refused = 0;
    for (let i = 20; i < body.length; i += Math.ceil(body.length / 25)) {
      const swapped = body[i] === 'A' ? 'B' : 'A';
      const err = await decodeLink(`rl1.${body.slice(0, i)}${swapped}${body.slice(i + 1)}`).catch((e: Error) => e);
      expect(err, `changed character ${i}`).toBeInstanceOf(LinkError);
      expect((err as Error).message).toMatch(/the link is damaged|not a valid RepairLab link state|no valid JSON/);
      refused++;
    }
    expect(refused).toBeGreaterThan(20);
    await expect(decodeLink('rl1.AAAA')).rejects.toThrow(/too short/);
  });

  it('checks the decoded state with the strict schemas: unknown fields, presets, variants and override keys are named', async () => {
    const unknownField = await handmade(JSON.stringify({ view: { kind: 'bug', bug: 'textkit-1', stpe: 2 } }));
    await expect(decodeLink(unknownField)).rejects.toThrow(/view: unknown field "stpe"/);
    await expect(decodeLink(await handmade(JSON.stringify({ view: { kind: 'run', run: 'r', step: -1 } })))).rejects.toThrow(/view\.step/);
    await expect(encodeLink({ view: { kind: 'bug', bug: 'textkit-1' }, config: { preset: 'repairagnet' } })).rejects.toThrow(/config: unknown preset "repairagnet"/);
    await expect(encodeLink({ view: { kind: 'bug', bug: 'textkit-1' }, config: { preset: 'oneshot', overrides: { budgets: { maxStepz: 3 } } } })).rejects.toThrow(/unknown key budgets\.maxStepz — did you mean maxSteps\?/);
    await expect(encodeLink({ view: { kind: 'bug', bug: 'textkit-1' }, config: { preset: 'oneshot', variants: ['no-such'] } })).rejects.toThrow(/config: .*no-such/);
    const badSpec = { ...experimentLink, experiment: { ...experimentLink.experiment, sampels: 2 } };
    await expect(encodeLink(badSpec as never)).rejects.toThrow(/experiment is not a valid ExperimentSpec.*unknown field "sampels"/);
    expect(() => parseLinkState({ view: { kind: 'experiment' }, experiment: { ...experimentLink.experiment, variants: [{ name: 'x', preset: 'oneshot', overrides: { prompt: { sytem: 'x' } } }] } }, 'the link')).toThrow(
      /experiment variant x: overrides: unknown key prompt\.sytem — did you mean system\?/,
    );
  });

  it('refuses a link over 8,000 characters and says to share a bundle', async () => {
    // text that does not compress (random words), as a long edited template would be at worst
    let seed = 7;
    const words = Array.from({ length: 2500 }, () => ((seed = (seed * 48271) % 2147483647), seed.toString(36))).join(' ');
    const state = typicalLink('oneshot');
    state.config!.overrides = { prompt: { system: words } };
    await expect(encodeLink(state)).rejects.toThrow(/the link would be \d{4,} characters, over the 8000 a link may have: share a bundle instead/);
  });
});
