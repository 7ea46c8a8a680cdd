// The app's view in the URL fragment (docs/formats/bundle.md, "Links"): what the page shows — a bug with the run
// panel's configuration, a run at one step, an experiment with its spec, a comparison — as a LinkState, encoded with
// the share link codec. Plain data in, plain data out: the DOM side (reading and opening views) is
// src/components/share/app-view.ts.
import type { ExperimentModel } from '../../worker/contracts/experiment.ts';
import { decodeLink, encodeLink, LinkTooLongError } from '../../worker/share/link-codec.ts';
import type { LinkState, LinkStateInput } from '../../worker/share/link-state.ts';
import { modelBaseURL } from '../../worker/llm/provider-presets.ts';
import type { Settings } from './settings.ts';

/** One strategy with its model, as a bug or run view carries it. */
export interface ViewConfig {
  preset: string;
  variants: string[];
  overrides: Record<string, unknown>;
  model?: ExperimentModel;
}

/** What the page shows, in the terms a link keeps. */
export type ViewSnapshot =
  | { kind: 'bug'; bug: string; config?: ViewConfig }
  | { kind: 'run'; run: string; bug: string; step: number; config?: ViewConfig }
  | { kind: 'compare'; runs: string[] }
  | { kind: 'experiment'; experiment?: string; spec?: unknown };

export function linkStateOf(view: ViewSnapshot): LinkStateInput {
  switch (view.kind) {
    case 'bug':
      return { view: { kind: 'bug', bug: view.bug }, ...(view.config ? { config: view.config } : {}) };
    case 'run':
      return { view: { kind: 'run', run: view.run, bug: view.bug, step: view.step }, ...(view.config ? { config: view.config } : {}) };
    case 'compare':
      return { view: { kind: 'compare', runs: view.runs } };
    case 'experiment':
      return { view: { kind: 'experiment', ...(view.experiment ? { experiment: view.experiment } : {}) }, ...(view.spec ? { experiment: view.spec as never } : {}) };
  }
}

export interface ViewLink {
  /** the fragment, without `#` */
  fragment: string;
  /** false: the configuration did not fit in a link (MAX_LINK_CHARS) and was left out: a bundle carries it */
  carriesConfig: boolean;
  /** the length the whole link would have had, when it did not fit */
  fullLength?: number;
}

/** The link of a view with its configuration, or of the view alone when the configuration makes it too long. A key anywhere is refused (LinkError). */
export async function linkOf(view: ViewSnapshot): Promise<ViewLink> {
  const full = linkStateOf(view);
  try {
    return { fragment: await encodeLink(full), carriesConfig: true };
  } catch (e) {
    if (!(e instanceof LinkTooLongError)) throw e;
    const bare: LinkStateInput = { view: full.view };
    return { fragment: await encodeLink(bare), carriesConfig: false, fullLength: e.length };
  }
}

/**
 * The link of a view that points to a bundle (`bundle`: its content hash and the address it will be fetched from):
 * with the view's configuration while that still fits, else the view and the bundle reference alone.
 */
export async function bundleLinkOf(view: ViewSnapshot, bundle: { sha256: string; url: string }): Promise<string> {
  const full = linkStateOf(view);
  try {
    return await encodeLink({ ...full, bundle });
  } catch (e) {
    if (!(e instanceof LinkTooLongError)) throw e;
    return encodeLink({ view: full.view, bundle });
  }
}

/** The state a page address holds in its fragment, undefined when the fragment is not a RepairLab link; a damaged link throws LinkError. */
export async function stateOfHash(hash: string): Promise<LinkState | undefined> {
  const fragment = hash.replace(/^#/, '');
  if (!/^rl\d+\./.test(fragment)) return undefined;
  return decodeLink(fragment);
}

/** `?bundle=<url>` of a page address, resolved against it (a relative URL is the app's own file). */
export function bundleUrlOf(href: string): string | undefined {
  const url = new URL(href);
  const given = url.searchParams.get('bundle');
  return given ? new URL(given, url).href : undefined;
}

const isHttpUrl = (text: string | undefined): text is string => {
  if (!text) return false;
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

/** Sampling fields with a value; undefined when none has one. */
function samplingOf(m: { temperature?: unknown; topP?: unknown; maxTokens?: unknown }): ExperimentModel['sampling'] {
  const s = {
    ...(typeof m.temperature === 'number' ? { temperature: m.temperature } : {}),
    ...(typeof m.topP === 'number' ? { topP: m.topP } : {}),
    ...(typeof m.maxTokens === 'number' ? { maxTokens: m.maxTokens } : {}),
  };
  return Object.keys(s).length ? s : undefined;
}

/**
 * The model a link carries from model fields (Settings' model, or a run record's whitelisted `config.model`): endpoint,
 * model name, sampling and seed — field by field, so nothing else (a key above all) can ride along.
 */
export function linkModelOf(m: Partial<Settings['model']> & Record<string, unknown>): ExperimentModel | undefined {
  if (!isHttpUrl(m.baseURL)) return undefined;
  const sampling = samplingOf(m);
  return {
    provider: 'custom',
    baseURL: m.baseURL,
    ...(typeof m.model === 'string' && m.model ? { model: m.model } : {}),
    ...(sampling ? { sampling } : {}),
    ...(typeof m.seed === 'number' && Number.isInteger(m.seed) ? { seeds: [m.seed] } : {}),
  };
}

/**
 * Settings' model with a link's model applied (endpoint — its own or its provider's —, model name, sampling, seed); the
 * rest of Settings stays. No key comes with it: the request looks up the key of the new endpoint's origin.
 */
export function settingsWithLinkModel(settings: Settings, model: ExperimentModel): Settings {
  const rest = { ...settings.model };
  delete rest.demo;
  return {
    ...settings,
    modelKind: 'endpoint',
    model: {
      ...rest,
      baseURL: modelBaseURL(model),
      ...(model.model ? { model: model.model } : {}),
      temperature: model.sampling?.temperature,
      topP: model.sampling?.topP,
      maxTokens: model.sampling?.maxTokens,
      seed: model.seeds?.[0],
    },
  };
}
