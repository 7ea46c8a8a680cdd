// Which demo recording can serve which run. A recording replays one conversation: it answers only a run on the bug,
// preset, variants and overrides it was recorded with (anything else asks it a first prompt it has never seen and the
// replay diverges at model call 1). The run panel picks the fitting recording with this; the experiment estimate names
// the cells a recording cannot serve.
import { recordingOf, type ModelSettings } from '../../worker/contracts/run-settings.ts';
import { demoRecordingProvenance, type DemoRecording, type ModelEndpointChoice } from './settings.ts';

/** What a run asks of its model endpoint, as far as a recording can tell. */
export interface DemoRequest {
  bugId: string;
  preset: string;
  variants?: readonly string[];
  overrides?: Record<string, unknown>;
}

/** JSON with object keys sorted, so two equal override objects compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Why `demo` cannot serve `req`, in words a newcomer can act on; undefined when it can. Recordings carry no variants
 * (the bundled ones are recorded on the presets as they are), so a run with variants is never served.
 */
export function demoMismatch(demo: DemoRecording, req: DemoRequest): string | undefined {
  const name = demo.file ?? 'this recording';
  if (demo.bugId !== req.bugId) return `${name} was recorded on ${demo.bugId}, not ${req.bugId}`;
  if (demo.preset !== req.preset) return `${name} was recorded with the ${demo.preset} preset, not ${req.preset}`;
  if (req.variants?.length) return `${name} was recorded without variants (this run asks for ${req.variants.join(', ')})`;
  if (canonical(demo.overrides ?? {}) !== canonical(req.overrides ?? {})) {
    return `${name} was recorded with the overrides ${canonical(demo.overrides ?? {})}, not ${canonical(req.overrides ?? {})}`;
  }
  return undefined;
}

export function demoServes(demo: DemoRecording, req: DemoRequest): boolean {
  return demoMismatch(demo, req) === undefined;
}

/** The served demo endpoints whose recording can serve `req` (in the order offered). */
export function demoEndpointsFor(endpoints: readonly ModelEndpointChoice[], req: DemoRequest): ModelEndpointChoice[] {
  return endpoints.filter((e) => e.demo && demoServes(e.demo, req));
}

/** A served demo endpoint, its recording known. */
export type DemoEndpoint = ModelEndpointChoice & { demo: DemoRecording };

/** One of a bug's recordings offered with one click when none fits the run asked for. */
export interface DemoOffer {
  /** the button's words: "Use textkit-1 · passerine recording" (the recording's own tail when a bug has several of a preset) */
  label: string;
  endpoint: DemoEndpoint;
}

/** Which served recording a run uses, or why none can serve it. */
export interface DemoPick {
  /** the served demo endpoint the run uses */
  endpoint?: DemoEndpoint;
  /** why no served recording can serve the run, in words a newcomer can act on: said before the run starts, never a divergence at step 1 */
  blocked?: string;
  /** this bug's recordings, each a one-click choice (offered when none fits) */
  offers: DemoOffer[];
}

export interface DemoPickOptions {
  /**
   * the user typed overrides: the run uses `req.overrides` as they are. Untyped, each recording is tried with its own
   * (a recording fills the overrides field with the ones it was recorded with, as Passerine's one trajectory).
   */
  overridesTyped: boolean;
  /** recording names (DemoRecording.file) tried first, in order: the one picked with one click, the one Settings names */
  prefer?: readonly (string | undefined)[];
}

const isDemo = (e: ModelEndpointChoice): e is DemoEndpoint => e.demo !== undefined;

/** "Use textkit-1 · passerine recording", with the recording's own tail ("(wrong)") when its bug has several of that preset. */
function offerLabel(e: DemoEndpoint, ofBug: readonly DemoEndpoint[]): string {
  const { bugId, preset, file } = e.demo;
  const label = `Use ${bugId} · ${preset} recording`;
  if (ofBug.filter((o) => o.demo.preset === preset).length < 2) return label;
  const prefix = `${bugId}.${preset}.`;
  return `${label} (${file?.startsWith(prefix) ? file.slice(prefix.length) : (file ?? 'unnamed')})`;
}

const CHOOSE_ANOTHER_MODEL = 'choose a model under Settings (an OpenAI-compatible endpoint, or a person plays the model)';

/**
 * The served demo endpoint a run on `req` uses when the model settings point at a demo recording: the preferred ones
 * first (`opts.prefer`), then the others in the order served; the first that can serve the run wins. When none can,
 * `blocked` says why and `offers` lists the recordings this bug has.
 */
export function pickDemo(served: readonly ModelEndpointChoice[], req: DemoRequest, opts: DemoPickOptions): DemoPick {
  const recordings = served.filter(isDemo);
  const ofBug = recordings.filter((e) => e.demo.bugId === req.bugId);
  const offers = ofBug.map((endpoint) => ({ label: offerLabel(endpoint, ofBug), endpoint }));
  const asked = (e: DemoEndpoint): DemoRequest => (opts.overridesTyped ? req : { ...req, overrides: e.demo.overrides });
  const preferred = (opts.prefer ?? []).flatMap((name) => (name ? ofBug.filter((e) => e.demo.file === name) : []));
  const endpoint = [...preferred, ...ofBug].find((e) => demoServes(e.demo, asked(e)));
  if (endpoint) return { endpoint, offers };
  if (recordings.length === 0) {
    return { blocked: `The model is a demo recording, but no demo recording is served here (\`npm start\` serves them): ${CHOOSE_ANOTHER_MODEL}.`, offers };
  }
  if (ofBug.length === 0) {
    const bugs = [...new Set(recordings.map((e) => e.demo.bugId))].sort();
    return { blocked: `No demo recording was made on ${req.bugId}: the demo recordings replay runs on ${bugs.join(', ')}. Open one of those bugs, or ${CHOOSE_ANOTHER_MODEL}.`, offers };
  }
  // the recording nearest to what was asked (same preset, if there is one) says what differs
  const nearest = ofBug.find((e) => e.demo.preset === req.preset) ?? ofBug[0]!;
  return {
    blocked: `No demo recording fits this run: ${demoMismatch(nearest.demo, asked(nearest))}. A recording replays only the run it was recorded from: use one of this bug's recordings, or ${CHOOSE_ANOTHER_MODEL}.`,
    offers,
  };
}

/**
 * The model settings of a run answered by the demo `endpoint` in place of `base` (what Settings made): its URL and model
 * name, the sampling fields Settings set, the recording it replays — and no key: a demo endpoint needs none, and a key
 * stored for another endpoint must not travel to it.
 */
export function demoModelSettings(endpoint: DemoEndpoint, base: ModelSettings): ModelSettings {
  const sampling = base.kind === 'openai' ? { temperature: base.temperature, topP: base.topP, seed: base.seed, maxTokens: base.maxTokens } : {};
  const defined = Object.fromEntries(Object.entries(sampling).filter(([, v]) => v !== undefined));
  const recording = demoRecordingProvenance(endpoint.demo);
  return { kind: 'openai', baseURL: endpoint.baseURL, model: endpoint.model, ...defined, ...(recording ? { recording } : {}) };
}

/**
 * The demo endpoint that serves a saved run going on (Continue, a fork): the one it was recorded with, else another that fits
 * its configuration. Throws why none can, so the run is not continued against a recording that would diverge.
 */
export function demoForSavedRun(
  served: readonly ModelEndpointChoice[],
  run: { bugId: string; preset: string; variants: readonly string[]; overrides: Record<string, unknown>; recording?: string },
  settingsDemo: DemoRecording,
): DemoEndpoint {
  const { bugId, preset, variants, overrides } = run;
  const pick = pickDemo(served, { bugId, preset, variants, overrides }, { overridesTyped: true, prefer: [run.recording, settingsDemo.file] });
  if (!pick.endpoint) throw new Error(`This run cannot be continued with a demo recording. ${pick.blocked ?? ''}`.trim());
  return pick.endpoint;
}

/**
 * The model settings a saved run goes on with (Continue, a fork): `base` (what Settings made), or — when Settings point
 * at a demo recording — the served recording the run was made with, else another that fits its configuration.
 */
export function modelForSavedRun(
  served: readonly ModelEndpointChoice[],
  bugId: string,
  config: { preset: string; variants: readonly string[]; overrides: Record<string, unknown>; model: Record<string, unknown> },
  settingsDemo: DemoRecording | undefined,
  base: ModelSettings,
): ModelSettings {
  if (!settingsDemo) return base;
  const recorded = recordingOf(config.model)?.name;
  const endpoint = demoForSavedRun(served, { bugId, preset: config.preset, variants: config.variants, overrides: config.overrides, ...(recorded ? { recording: recorded } : {}) }, settingsDemo);
  return demoModelSettings(endpoint, base);
}
