// The page's URL state (src/state/url-state.ts): every view the app links round-trips through the real link codec;
// a configuration too long for a link leaves the view in it and says so; the model travels field by field, so a key
// beside it never does; `?bundle=` is resolved against the page.
import { describe, expect, it } from 'vitest';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { LinkError, MAX_LINK_CHARS } from '../../../worker/share/link-codec.ts';
import { bundleUrlOf, linkModelOf, linkOf, settingsWithLinkModel, stateOfHash, type ViewSnapshot } from '../../../src/state/url-state.ts';
import type { Settings } from '../../../src/state/settings.ts';

const CANARY = 'sk-canary-0123456789abcdefghijklmnop';
const model = { provider: 'custom' as const, baseURL: 'http://127.0.0.1:8123/v1', model: 'demo', sampling: { temperature: 0.2 }, seeds: [7] };

/** Text deflate cannot shrink much: a link carrying it is long. */
function incompressible(chars: number): string {
  let x = 12345;
  let out = '';
  for (let i = 0; i < chars; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out += String.fromCharCode(97 + (x % 26));
  }
  return out;
}

describe('url state', () => {
  it('round-trips a bug with its configuration, a run at a step, a comparison and an experiment with its spec', async () => {
    const spec = { schemaVersion: 1, bugs: ['textkit-1'], variants: [{ name: 'a', preset: 'oneshot' }], samples: 1, model };
    const views: ViewSnapshot[] = [
      { kind: 'bug', bug: 'textkit-1', config: { preset: 'hafixagent', variants: ['fn_all'], overrides: { budgets: { maxSteps: 5 } }, model } },
      { kind: 'run', run: 'run-1', bug: 'textkit-1', step: 2, config: { preset: 'oneshot', variants: [], overrides: {} } },
      { kind: 'compare', runs: ['run-1', 'run-2'] },
      { kind: 'experiment', experiment: 'exp-1', spec },
    ];
    const states = [];
    for (const view of views) {
      const link = await linkOf(view);
      expect(link.carriesConfig).toBe(true);
      states.push(await stateOfHash(`#${link.fragment}`));
    }
    expect(states[0]).toEqual({ view: { kind: 'bug', bug: 'textkit-1' }, config: { preset: 'hafixagent', variants: ['fn_all'], overrides: { budgets: { maxSteps: 5 } }, model } });
    expect(states[1]).toMatchObject({ view: { kind: 'run', run: 'run-1', bug: 'textkit-1', step: 2 }, config: { preset: 'oneshot' } });
    expect(states[2]).toEqual({ view: { kind: 'compare', runs: ['run-1', 'run-2'] } });
    expect(states[3]).toMatchObject({ view: { kind: 'experiment', experiment: 'exp-1' }, experiment: { bugs: ['textkit-1'], model } });
  });

  it('leaves a configuration that would pass the link limit out, keeps the view, and says how long it would have been', async () => {
    const system = resolveStrategy('oneshot').prompt.system + incompressible(12_000);
    const link = await linkOf({ kind: 'run', run: 'run-9', bug: 'textkit-1', step: 0, config: { preset: 'oneshot', variants: [], overrides: { prompt: { system } } } });
    expect(link.carriesConfig).toBe(false);
    expect(link.fullLength).toBeGreaterThan(MAX_LINK_CHARS);
    expect(link.fragment.length).toBeLessThan(200);
    expect(await stateOfHash(link.fragment)).toEqual({ view: { kind: 'run', run: 'run-9', bug: 'textkit-1', step: 0 } });
  });

  it('refuses a key in the configuration instead of dropping it silently', async () => {
    await expect(linkOf({ kind: 'bug', bug: 'textkit-1', config: { preset: 'oneshot', variants: [], overrides: { prompt: { system: CANARY } } } })).rejects.toThrow(LinkError);
  });

  it('takes the model field by field: endpoint, model, sampling and seed, never anything beside them', async () => {
    const settingsModel = { baseURL: 'http://127.0.0.1:8123/v1', model: 'demo', temperature: 0.2, seed: 7, apiKey: CANARY, headers: { Authorization: `Bearer ${CANARY}` } };
    const m = linkModelOf(settingsModel);
    expect(m).toEqual(model);
    const link = await linkOf({ kind: 'bug', bug: 'textkit-1', config: { preset: 'oneshot', variants: [], overrides: {}, model: m } });
    expect(link.fragment).not.toContain(CANARY);
    expect(JSON.stringify(await stateOfHash(link.fragment))).not.toContain(CANARY);
    // no usable endpoint: no model in the link
    expect(linkModelOf({ baseURL: '', model: 'x' })).toBeUndefined();
    expect(linkModelOf({ baseURL: 'ftp://example.org', model: 'x' })).toBeUndefined();
  });

  it("puts a link's model into Settings without touching the runner or the kind's other settings", () => {
    const settings: Settings = { runner: { url: 'http://127.0.0.1:1', token: 't' }, modelKind: 'human', model: { baseURL: 'http://a/v1', model: 'old', topP: 0.5, demo: { bugId: 'b', preset: 'p', overrides: {} } } };
    const next = settingsWithLinkModel(settings, model);
    expect(next).toEqual({ runner: settings.runner, modelKind: 'endpoint', model: { baseURL: model.baseURL, model: 'demo', temperature: 0.2, topP: undefined, maxTokens: undefined, seed: 7 } });
  });

  it('reads ?bundle= against the page address, and no other fragment than a RepairLab link', async () => {
    expect(bundleUrlOf('http://127.0.0.1:5173/?bundle=files/x.rlbundle.json.gz#rl1.abc')).toBe('http://127.0.0.1:5173/files/x.rlbundle.json.gz');
    expect(bundleUrlOf('http://127.0.0.1:5173/?bundle=https%3A%2F%2Fexample.org%2Fb.gz')).toBe('https://example.org/b.gz');
    expect(bundleUrlOf('http://127.0.0.1:5173/')).toBeUndefined();
    expect(await stateOfHash('')).toBeUndefined();
    expect(await stateOfHash('#section-2')).toBeUndefined();
    await expect(stateOfHash('#rl1.AAAA')).rejects.toThrow(/damaged/);
  });
});
