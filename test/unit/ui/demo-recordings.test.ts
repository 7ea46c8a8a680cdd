// Which demo recording serves which run (src/state/demo-recordings.ts) and what the run panel makes of it
// (src/components/run-view/run-choices.ts planRun): a recording replays only the bug, preset, variants and overrides
// it was recorded with, so the panel uses the served recording that fits the run in view — or says, before anything
// starts, why none does and which recordings this bug has. A real endpoint the user chose is never switched. The
// endpoints here are the ones `npm start` serves (public/cassettes/index.json), described as scripts/demo-endpoints.ts
// describes them.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { demoEndpointsFor, demoMismatch, demoModelSettings, demoServes, pickDemo, type DemoEndpoint } from '../../../src/state/demo-recordings.ts';
import { defaultSettings, demoEndpointName, loadSettings, modelSettingsFor, type DemoRecording, type ModelEndpointChoice, type Settings } from '../../../src/state/settings.ts';
import { planRun, type PresetChoice, type RunFormFields } from '../../../src/components/run-view/run-choices.ts';
import { demoForSavedRun, modelForSavedRun } from '../../../src/state/demo-recordings.ts';
import { modelLabel } from '../../../src/components/runs-view/run-rows.ts';

interface IndexEntry {
  file: string;
  bugId: string;
  preset: string;
  overrides: Record<string, unknown>;
}
const INDEX = (JSON.parse(readFileSync(new URL('../../../public/cassettes/index.json', import.meta.url), 'utf8')) as { cassettes: IndexEntry[] }).cassettes;

/** The served endpoints as `npm start` lists them: one per recording, in the index's order, each on its own port. */
const SERVED: DemoEndpoint[] = INDEX.map((c, i) => {
  const file = c.file.replace(/\.cassette\.json$/, '');
  return { name: demoEndpointName(file, 'hand-authored'), baseURL: `http://127.0.0.1:${40000 + i}/v1`, model: 'repairlab-demo-scripted', demo: { bugId: c.bugId, preset: c.preset, overrides: c.overrides, file, source: 'hand-authored' } };
});
const served = (file: string) => SERVED.find((e) => e.demo.file === file)!;

// the presets as the engine lists them, RepairAgent first (the run panel's default preset)
const PRESETS: PresetChoice[] = [
  { id: 'repairagent', title: 'RepairAgent' },
  { id: 'hafixagent', title: 'HAFixAgent', variants: [{ id: 'fn_all' }] },
  { id: 'passerine', title: 'Passerine' },
  { id: 'oneshot', title: 'One-shot', variants: [{ id: 'stop-rules' }] },
];
const fields = (over: Partial<RunFormFields> = {}): RunFormFields => ({ preset: '', variants: [], overridesText: '', ...over });

describe('demoMismatch / demoServes / demoEndpointsFor', () => {
  const fix = served('textkit-1.oneshot.fix').demo;
  const wrong = served('textkit-1.oneshot.wrong').demo;

  it('a recording serves exactly its bug, preset and overrides (in any key order), and no variants', () => {
    expect(demoServes(fix, { bugId: 'textkit-1', preset: 'oneshot' })).toBe(true);
    expect(demoServes(wrong, { bugId: 'textkit-1', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } })).toBe(true);
    const passerine: DemoRecording = { bugId: 'b', preset: 'passerine', overrides: { sampling: { trajectories: 1, temperature: 0.2 } } };
    expect(demoServes(passerine, { bugId: 'b', preset: 'passerine', overrides: { sampling: { temperature: 0.2, trajectories: 1 } } })).toBe(true);
  });

  it('names what differs: the bug, the preset, variants, the overrides', () => {
    expect(demoMismatch(fix, { bugId: 'numkit-3', preset: 'oneshot' })).toBe('textkit-1.oneshot.fix was recorded on textkit-1, not numkit-3');
    expect(demoMismatch(fix, { bugId: 'textkit-1', preset: 'passerine' })).toBe('textkit-1.oneshot.fix was recorded with the oneshot preset, not passerine');
    expect(demoMismatch(fix, { bugId: 'textkit-1', preset: 'oneshot', variants: ['stop-rules'] })).toBe('textkit-1.oneshot.fix was recorded without variants (this run asks for stop-rules)');
    expect(demoMismatch(wrong, { bugId: 'textkit-1', preset: 'oneshot' })).toBe('textkit-1.oneshot.wrong was recorded with the overrides {"budgets":{"maxSteps":1}}, not {}');
    expect(demoMismatch({ bugId: 'b', preset: 'p', overrides: {} }, { bugId: 'c', preset: 'p' })).toBe('this recording was recorded on b, not c');
  });

  it('lists the served endpoints that fit a run, in the order served; endpoints without a recording never fit', () => {
    const real: ModelEndpointChoice = { name: 'OpenAI', baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini' };
    expect(demoEndpointsFor([real, ...SERVED], { bugId: 'textkit-1', preset: 'oneshot' }).map((e) => e.demo!.file)).toEqual(['textkit-1.oneshot.fix', 'textkit-1.oneshot.format-error']);
    expect(demoEndpointsFor([real, ...SERVED], { bugId: 'textkit-2', preset: 'oneshot' })).toEqual([]);
  });
});

describe('pickDemo', () => {
  it('untyped overrides: each recording is tried with its own, so every preset of textkit-1 has one', () => {
    const files = PRESETS.map((p) => pickDemo(SERVED, { bugId: 'textkit-1', preset: p.id }, { overridesTyped: false }).endpoint?.demo.file);
    expect(files).toEqual(['textkit-1.repairagent.fix', 'textkit-1.hafixagent.fix', 'textkit-1.passerine.fix', 'textkit-1.oneshot.fix']);
  });

  it('prefers the recording picked with one click, then the one Settings names, while it fits', () => {
    const req = { bugId: 'textkit-1', preset: 'oneshot' };
    expect(pickDemo(SERVED, req, { overridesTyped: false, prefer: ['textkit-1.oneshot.wrong'] }).endpoint?.demo.file).toBe('textkit-1.oneshot.wrong');
    expect(pickDemo(SERVED, req, { overridesTyped: false, prefer: [undefined, 'textkit-1.oneshot.format-error'] }).endpoint?.demo.file).toBe('textkit-1.oneshot.format-error');
    // a preferred recording of another preset does not fit: the first that does is used
    expect(pickDemo(SERVED, req, { overridesTyped: false, prefer: ['textkit-1.passerine.fix'] }).endpoint?.demo.file).toBe('textkit-1.oneshot.fix');
  });

  it('typed overrides must be the recording\'s own', () => {
    expect(pickDemo(SERVED, { bugId: 'textkit-1', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } }, { overridesTyped: true }).endpoint?.demo.file).toBe('textkit-1.oneshot.wrong');
    const none = pickDemo(SERVED, { bugId: 'textkit-1', preset: 'passerine', overrides: { budgets: { maxSteps: 3 } } }, { overridesTyped: true });
    expect(none.endpoint).toBeUndefined();
    expect(none.blocked).toBe(
      'No demo recording fits this run: textkit-1.passerine.fix was recorded with the overrides {"sampling":{"trajectories":1}}, not {"budgets":{"maxSteps":3}}. ' +
        "A recording replays only the run it was recorded from: use one of this bug's recordings, or choose a model under Settings (an OpenAI-compatible endpoint, or a person plays the model).",
    );
  });

  it('no fit: says why and offers each of the bug\'s recordings by name, a tail telling apart several of one preset', () => {
    const pick = pickDemo(SERVED, { bugId: 'textkit-1', preset: 'oneshot', variants: ['stop-rules'] }, { overridesTyped: false });
    expect(pick.endpoint).toBeUndefined();
    expect(pick.blocked).toMatch(/^No demo recording fits this run: textkit-1\.oneshot\.fix was recorded without variants \(this run asks for stop-rules\)\./);
    expect(pick.offers.map((o) => o.label)).toEqual([
      'Use textkit-1 · oneshot recording (fix)',
      'Use textkit-1 · oneshot recording (wrong)',
      'Use textkit-1 · oneshot recording (format-error)',
      'Use textkit-1 · repairagent recording',
      'Use textkit-1 · hafixagent recording',
      'Use textkit-1 · passerine recording',
    ]);
    const numkit = pickDemo(SERVED, { bugId: 'numkit-3', preset: 'repairagent' }, { overridesTyped: false });
    expect(numkit.blocked).toMatch(/^No demo recording fits this run: numkit-3\.hafixagent\.fix was recorded with the hafixagent preset, not repairagent\./);
    expect(numkit.offers.map((o) => o.label)).toEqual(['Use numkit-3 · hafixagent recording']);
  });

  it('a bug without recordings names the bugs that have them; no recording served at all says where they come from', () => {
    const pick = pickDemo(SERVED, { bugId: 'textkit-2', preset: 'oneshot' }, { overridesTyped: false });
    expect(pick).toEqual({
      blocked: 'No demo recording was made on textkit-2: the demo recordings replay runs on numkit-3, textkit-1, textkit-3, textkit-4. Open one of those bugs, or choose a model under Settings (an OpenAI-compatible endpoint, or a person plays the model).',
      offers: [],
    });
    expect(pickDemo([], { bugId: 'textkit-1', preset: 'oneshot' }, { overridesTyped: false }).blocked).toMatch(/^The model is a demo recording, but no demo recording is served here \(`npm start` serves them\)/);
  });
});

describe('planRun: the run the panel would start', () => {
  const settingsDemo = served('numkit-3.hafixagent.fix').demo;

  it('the README\'s first steps: textkit-1 with every preset, nothing typed, whatever recording Settings names', () => {
    for (const demo of [settingsDemo, served('textkit-1.oneshot.fix').demo]) {
      for (const p of PRESETS) {
        const plan = planRun({ bugId: 'textkit-1', presets: PRESETS, fields: fields({ preset: p.id }), settingsDemo: demo, served: SERVED });
        expect(plan.demo?.blocked).toBeUndefined();
        expect(plan.demo?.endpoint?.demo).toMatchObject({ bugId: 'textkit-1', preset: p.id });
        expect(plan.preset).toBe(p.id);
      }
    }
    // Passerine's recording has one trajectory: its overrides fill the field
    expect(planRun({ bugId: 'textkit-1', presets: PRESETS, fields: fields({ preset: 'passerine' }), settingsDemo, served: SERVED }).overridesText).toBe('{"sampling":{"trajectories":1}}');
  });

  it('the default preset: the recording Settings names when it is this bug\'s, else the first preset', () => {
    expect(planRun({ bugId: 'textkit-1', presets: PRESETS, fields: fields(), settingsDemo, served: SERVED })).toMatchObject({ preset: 'repairagent', demo: { endpoint: served('textkit-1.repairagent.fix') } });
    const wrong = served('textkit-1.oneshot.wrong').demo;
    expect(planRun({ bugId: 'textkit-1', presets: PRESETS, fields: fields(), settingsDemo: wrong, served: SERVED })).toMatchObject({
      preset: 'oneshot',
      overridesText: '{"budgets":{"maxSteps":1}}',
      demo: { endpoint: served('textkit-1.oneshot.wrong') },
    });
    expect(planRun({ bugId: 'numkit-3', presets: PRESETS, fields: fields(), settingsDemo, served: SERVED })).toMatchObject({ preset: 'hafixagent', demo: { endpoint: served('numkit-3.hafixagent.fix') } });
  });

  it('a recording picked with one click sets the run it replays', () => {
    const plan = planRun({ bugId: 'textkit-1', presets: PRESETS, fields: fields({ preset: 'oneshot', recording: 'textkit-1.oneshot.wrong' }), settingsDemo, served: SERVED });
    expect(plan).toMatchObject({ overridesText: '{"budgets":{"maxSteps":1}}', demo: { endpoint: served('textkit-1.oneshot.wrong') } });
  });

  it('a variant, overrides no recording has, or a bug without recordings: blocked before the run, with the offers', () => {
    const variant = planRun({ bugId: 'textkit-1', presets: PRESETS, fields: fields({ preset: 'oneshot', variants: ['stop-rules'] }), settingsDemo, served: SERVED });
    expect(variant.demo?.blocked).toContain('was recorded without variants (this run asks for stop-rules)');
    expect(variant.demo?.offers).toHaveLength(6);
    // a variant of another preset is dropped, as the run would drop it
    expect(planRun({ bugId: 'textkit-1', presets: PRESETS, fields: fields({ preset: 'passerine', variants: ['stop-rules'] }), settingsDemo, served: SERVED }).demo?.blocked).toBeUndefined();
    expect(planRun({ bugId: 'textkit-2', presets: PRESETS, fields: fields(), settingsDemo, served: SERVED }).demo?.blocked).toMatch(/^No demo recording was made on textkit-2/);
    expect(planRun({ bugId: 'textkit-1', presets: PRESETS, fields: fields({ overridesText: '{oops' }), settingsDemo, served: SERVED }).demo?.blocked).toMatch(/^Overrides: not valid JSON/);
  });

  it('a real endpoint (no demo in Settings) is never switched: the preset picked, the overrides typed', () => {
    const plan = planRun({ bugId: 'textkit-2', presets: PRESETS, fields: fields({ variants: ['x'] }), settingsDemo: undefined, served: SERVED });
    expect(plan).toEqual({ preset: 'repairagent', overridesText: '' });
  });

  it('Continue: the recording the run was started with, else one that fits; none says why', () => {
    const run = { bugId: 'textkit-1', preset: 'oneshot', variants: [], overrides: {} };
    expect(demoForSavedRun(SERVED, { ...run, recording: 'textkit-1.oneshot.format-error' }, settingsDemo).demo.file).toBe('textkit-1.oneshot.format-error');
    expect(demoForSavedRun(SERVED, run, settingsDemo).demo.file).toBe('textkit-1.oneshot.fix');
    expect(() => demoForSavedRun(SERVED, { ...run, overrides: { budgets: { maxSteps: 9 } } }, settingsDemo)).toThrow(/^This run cannot be continued with a demo recording\. No demo recording fits this run: /);
  });

  it('a fork or a continued run of a demo run: the recording the run was made with, not the one Settings names', () => {
    const base = { kind: 'openai', baseURL: served('numkit-3.hafixagent.fix').baseURL, model: 'repairlab-demo-scripted' } as const;
    const passerine = served('textkit-1.passerine.fix').demo;
    const config = { preset: 'passerine', variants: [], overrides: passerine.overrides, model: { recording: { name: 'textkit-1.passerine.fix', source: 'hand-authored' } } };
    expect(modelForSavedRun(SERVED, 'textkit-1', config, settingsDemo, base)).toMatchObject({ baseURL: served('textkit-1.passerine.fix').baseURL, recording: { name: 'textkit-1.passerine.fix' } });
    // a real endpoint in Settings is used as it is
    expect(modelForSavedRun(SERVED, 'textkit-1', config, undefined, base)).toBe(base);
  });
});

describe('the run request and the Runs list name the recording', () => {
  it('a demo endpoint\'s settings: its URL and model, the sampling Settings set, the recording, never a key', () => {
    const model = demoModelSettings(served('textkit-1.passerine.fix'), { kind: 'openai', baseURL: 'http://127.0.0.1:1/v1', model: 'other', apiKey: 'sk-elsewhere', temperature: 0.5 });
    expect(model).toEqual({ kind: 'openai', baseURL: served('textkit-1.passerine.fix').baseURL, model: 'repairlab-demo-scripted', temperature: 0.5, recording: { name: 'textkit-1.passerine.fix', source: 'hand-authored' } });
  });

  it('labels a run\'s model with its recording and who wrote the replies', () => {
    expect(modelLabel({ model: 'repairlab-demo-scripted', recording: { name: 'textkit-1.oneshot.wrong', source: 'hand-authored' } })).toBe('repairlab-demo-scripted · textkit-1.oneshot.wrong (replies written by hand)');
    expect(modelLabel({ model: 'gpt-4o-mini' })).toBe('gpt-4o-mini');
  });
});

/** localStorage and sessionStorage as the browser has them, for Node. */
class MemoryStorage {
  private items = new Map<string, string>();
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.items.set(k, String(v));
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
}

describe('settings with the demo recordings served', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', new MemoryStorage());
    vi.stubGlobal('sessionStorage', new MemoryStorage());
  });
  afterEach(() => vi.unstubAllGlobals());

  it('a fresh profile\'s model is the first served recording; its requests name the recording', () => {
    const settings = loadSettings({ modelEndpoints: SERVED });
    expect(settings).toEqual(defaultSettings({ modelEndpoints: SERVED }));
    expect(settings.model).toMatchObject({ baseURL: SERVED[0]!.baseURL, demo: SERVED[0]!.demo });
    expect(modelSettingsFor(settings)).toEqual({ kind: 'openai', baseURL: SERVED[0]!.baseURL, model: 'repairlab-demo-scripted', recording: { name: INDEX[0]!.file.replace('.cassette.json', ''), source: 'hand-authored' } });
  });

  it('a saved demo recording is found at the port `npm start` serves it on now', () => {
    const stale: Settings = { runner: { url: 'http://127.0.0.1:8765', token: '' }, model: { baseURL: 'http://127.0.0.1:1/v1', model: 'repairlab-demo-scripted', demo: served('textkit-1.oneshot.wrong').demo }, modelKind: 'endpoint' };
    localStorage.setItem('repairlab.settings.v1', JSON.stringify(stale));
    expect(loadSettings({ modelEndpoints: SERVED }).model.baseURL).toBe(served('textkit-1.oneshot.wrong').baseURL);
    // no longer served: kept as saved (the run panel says none is served)
    expect(loadSettings({}).model.baseURL).toBe('http://127.0.0.1:1/v1');
  });

  it('a loaded recording replays under its file\'s name', () => {
    sessionStorage.setItem('repairlab.recording.v1', JSON.stringify({ any: 'cassette' }));
    const settings: Settings = { ...defaultSettings({}), modelKind: 'recording', recording: { file: 'mine.cassette.json', model: 'm', calls: 1 } };
    expect(modelSettingsFor(settings)).toEqual({ kind: 'replay', cassette: { any: 'cassette' }, name: 'mine.cassette.json' });
  });
});
