// User settings, kept in this browser's localStorage only. Model API keys are stored separately, by endpoint
// origin (api-keys.ts), and are never put in share links, exports, trajectories or logs; a request is handed only the
// key of its own endpoint's origin.
import type { PagePool } from './pool-settings.ts';
import { recordingSourceWords, type ModelSettings, type RecordingProvenance, type RecordingSource, type RunnerSettings } from '../../worker/contracts/run-settings.ts';
import type { PriceTable } from '../../worker/contracts/prices.ts';
import type { RecordingSummary } from '../../worker/records/trajectory-io.ts';
import { endpointOrigin } from '../../worker/llm/key-origin.ts';
import { PROVIDER_PRESETS as SERVICE_PRESETS } from '../../worker/llm/provider-presets.ts';
import { keyForEndpoint, migrateOldApiKey } from './api-keys.ts';

/** A recorded demo run replays only on the bug, preset and overrides it was recorded with. */
export interface DemoRecording {
  bugId: string;
  preset: string;
  overrides: Record<string, unknown>;
  /** the recording's name (its file without .cassette.json) */
  file?: string;
  /** who wrote the replies (the cassette's provenance.source) */
  source?: RecordingSource;
}

/** What a demo recording's replies are, in words (unknown source: said so). */
export function demoSourceWords(source: DemoRecording['source']): string {
  return source ? recordingSourceWords(source, { notAModel: true }) : 'where its replies came from is not recorded';
}

/** A demo endpoint's name in the model menu: the recording, and honestly who wrote its replies. */
export function demoEndpointName(file: string, source: DemoRecording['source']): string {
  return `Demo recording ${file} (no key; ${demoSourceWords(source)})`;
}

/** One line naming the active demo recording, for Settings and the run panel. */
export function describeDemo(demo: DemoRecording): string {
  return `${demo.file ?? `a recording of ${demo.preset}`} on ${demo.bugId} with ${demo.preset} — ${demoSourceWords(demo.source)}`;
}

/** What a run's record says a demo recording is (config.model.recording); undefined when its name or source is not known. */
export function demoRecordingProvenance(demo: DemoRecording): RecordingProvenance | undefined {
  return demo.file && demo.source ? { name: demo.file, source: demo.source } : undefined;
}

export interface ModelEndpointChoice {
  name: string;
  baseURL: string;
  model: string;
  /** set for the demo recordings `npm start` serves */
  demo?: DemoRecording;
  /** what to do when the browser's cross-origin request to this service is refused */
  corsNote?: string;
}

export interface Settings {
  runner: RunnerSettings;
  /** experiments run on this pool's runners when set (its token kept here like the runner's: state/pool-settings.ts) */
  pool?: PagePool;
  model: { baseURL: string; model: string; temperature?: number; topP?: number; seed?: number; maxTokens?: number; demo?: DemoRecording };
  /** 'endpoint' = an OpenAI-compatible server; 'human' = a person types the model's replies; 'recording' = a loaded cassette */
  modelKind: 'endpoint' | 'human' | 'recording';
  /** what the loaded recording is (the recording itself is kept for this tab only: see loadRecording) */
  recording?: RecordingSummary;
  /** USD per million tokens by model name, for step costs and cost budgets; unset: the engine's DEFAULT_PRICES */
  prices?: PriceTable;
}

const SETTINGS_KEY = 'repairlab.settings.v1';

/** Endpoints the serving machine offers (written by `npm start` into /runtime-config.json). */
export interface RuntimeConfig {
  runner?: RunnerSettings;
  modelEndpoints?: ModelEndpointChoice[];
}

/** The provider presets (worker/llm/provider-presets.ts) as endpoint choices. */
export const PROVIDER_PRESETS: ModelEndpointChoice[] = SERVICE_PRESETS.map((p) => ({ name: p.label, baseURL: p.baseURL, model: p.defaultModel, corsNote: p.corsNote }));

export async function fetchRuntimeConfig(): Promise<RuntimeConfig> {
  try {
    const url = new URL('runtime-config.json', document.baseURI);
    const res = await fetch(url, { cache: 'no-store' });
    if (!res.ok) return {};
    const config = (await res.json()) as RuntimeConfig;
    // the runner may restart with another token while this page is open: a 401 reads it here again (runner-session.ts)
    return config.runner ? { ...config, runner: { ...config.runner, tokenSource: url.href } } : config;
  } catch {
    return {};
  }
}

export function loadSettings(runtime: RuntimeConfig): Settings {
  const settings = savedSettings(runtime);
  // the single key of earlier versions went to the endpoint saved here: it becomes that endpoint's key
  migrateOldApiKey(settings.model.baseURL);
  return settings;
}

/**
 * A fresh profile's settings. Where the serving machine offers model endpoints (`npm start`: the demo recordings,
 * its first the first of public/cassettes/index.json), the model is the first of them: a demo recording, so the run
 * panel picks the recording that fits the bug and preset in view (src/state/demo-recordings.ts pickDemo) and a first
 * run needs no key and no choice. Elsewhere, the first provider preset (its key asked for).
 */
export function defaultSettings(runtime: RuntimeConfig): Settings {
  return {
    runner: runtime.runner ?? { url: 'http://127.0.0.1:8765', token: '' },
    model: runtime.modelEndpoints?.[0]
      ? endpointModel(runtime.modelEndpoints[0])
      : { baseURL: PROVIDER_PRESETS[0]!.baseURL, model: PROVIDER_PRESETS[0]!.model },
    modelKind: 'endpoint',
  };
}

/**
 * A saved demo recording at the address it is served at now: `npm start` serves each recording on a new port every
 * time, so the saved URL of one goes stale; a recording no longer served stays as saved (the run panel says so).
 */
function servedNow(model: Settings['model'], runtime: RuntimeConfig): Settings['model'] {
  const file = model.demo?.file;
  const served = file ? runtime.modelEndpoints?.find((e) => e.demo?.file === file) : undefined;
  return served ? { ...model, ...endpointModel(served) } : model;
}

function savedSettings(runtime: RuntimeConfig): Settings {
  const fallback = defaultSettings(runtime);
  try {
    const raw = localStorage.getItem(SETTINGS_KEY);
    if (!raw) return fallback;
    const saved = JSON.parse(raw) as Partial<Settings>;
    const merged: Settings = { ...fallback, ...saved, runner: runtime.runner ?? saved.runner ?? fallback.runner };
    // The served runner is the one `npm start` runs now (its token may be another than the saved one): prefer it.
    return { ...merged, model: servedNow(merged.model, runtime) };
  } catch {
    return fallback;
  }
}

/** The model settings an endpoint choice stands for (a demo recording carries what it replays). */
export function endpointModel(p: ModelEndpointChoice): Settings['model'] {
  return { baseURL: p.baseURL, model: p.model, ...(p.demo ? { demo: p.demo } : {}) };
}

export function saveSettings(s: Settings): void {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(s));
}

/**
 * An endpoint that needs no key, so none is asked for: one the serving machine offers (the demo recordings `npm start`
 * serves, listed in /runtime-config.json) or a local service's preset (Ollama, vLLM).
 */
export function needsNoKey(baseURL: string, served: readonly ModelEndpointChoice[]): boolean {
  const origin = endpointOrigin(baseURL);
  const keyless = [...served.map((e) => e.baseURL), ...SERVICE_PRESETS.filter((p) => !p.needsKey).map((p) => p.baseURL)];
  return origin !== undefined && keyless.some((url) => endpointOrigin(url) === origin);
}

const RECORDING_KEY = 'repairlab.recording.v1';
/** the loaded cassette: in memory, and in this tab's sessionStorage when it fits (a reload keeps it) */
let recording: unknown;

export function loadRecording(cassette: unknown): void {
  recording = cassette;
  try {
    sessionStorage.setItem(RECORDING_KEY, JSON.stringify(cassette));
  } catch {
    sessionStorage.removeItem(RECORDING_KEY); // too large for sessionStorage: this page keeps it until a reload
  }
}

function loadedRecording(): unknown {
  if (recording === undefined) {
    const saved = sessionStorage.getItem(RECORDING_KEY);
    if (saved) recording = JSON.parse(saved) as unknown;
  }
  return recording;
}

export function modelSettingsFor(s: Settings): ModelSettings {
  if (s.modelKind === 'human') return { kind: 'human' };
  if (s.modelKind === 'recording') {
    const cassette = loadedRecording();
    if (cassette === undefined) throw new Error('Settings → Model: load the recording file again (a recording is kept for the tab it was loaded in).');
    // the run's record names the recording by its file (who wrote its replies comes from the cassette itself)
    return { kind: 'replay', cassette, ...(s.recording?.file ? { name: s.recording.file } : {}) };
  }
  // the key of this request's own endpoint, never one stored for another
  const apiKey = keyForEndpoint(s.model.baseURL);
  const { demo, ...model } = s.model;
  // a demo endpoint's recording goes into the run's record: its name, and who wrote its replies (its cassette's provenance)
  const recording = demo ? demoRecordingProvenance(demo) : undefined;
  return { kind: 'openai', ...model, ...(apiKey ? { apiKey } : {}), ...(recording ? { recording } : {}) };
}
