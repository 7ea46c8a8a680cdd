// The experiment builder's form as data, and the ExperimentSpec it stands for. The model comes from Settings (the
// endpoint a single run uses); its key never enters the spec — it goes to the worker with run/resume only.
import type { BugSummary } from '../../../worker/contracts/bug-view.ts';
import type { ExperimentSpecInput } from '../../../worker/contracts/experiment.ts';
import type { Settings } from '../../state/settings.ts';

export interface VariantRowForm {
  name: string;
  preset: string;
  /** the preset's named variants, applied in order */
  variants: string[];
  /** StrategySpec fields as JSON text ('' = none) */
  overrides: string;
}

export interface BugFilterForm {
  /** by the bug browser's filter fields, or a list of ids */
  mode: 'filter' | 'ids';
  library: string;
  category: string;
  /** '' any, 'true', 'false' */
  blameable: string;
  /** '' = every bug that passes */
  limit: string;
  ids: string;
}

export interface ExperimentForm {
  name: string;
  bugs: BugFilterForm;
  variants: VariantRowForm[];
  samples: string;
  perRunCalls: string;
  perRunCostUsd: string;
  experimentCalls: string;
  experimentCostUsd: string;
  modelCalls: string;
  validations: string;
}

export function defaultForm(preset = 'oneshot'): ExperimentForm {
  return {
    name: '',
    bugs: { mode: 'filter', library: '', category: '', blameable: '', limit: '', ids: '' },
    variants: [{ name: preset, preset, variants: [], overrides: '' }],
    samples: '1',
    perRunCalls: '',
    perRunCostUsd: '',
    experimentCalls: '',
    experimentCostUsd: '',
    modelCalls: '4',
    validations: '2',
  };
}

/** The catalogue bugs the form's selection gives (what the experiment will resolve, shown as the user edits). */
export function selectedBugs(form: BugFilterForm, catalog: readonly BugSummary[]): BugSummary[] {
  if (form.mode === 'ids') {
    const byId = new Map(catalog.map((b) => [b.id, b]));
    return splitIds(form.ids).flatMap((id) => byId.get(id) ?? []);
  }
  const picked = catalog.filter(
    (b) => (!form.library || b.library === form.library) && (!form.category || b.category === form.category) && (!form.blameable || String(b.blameable) === form.blameable),
  );
  const limit = form.limit.trim() ? Number(form.limit) : picked.length;
  return picked.slice(0, Number.isFinite(limit) ? limit : picked.length);
}

const splitIds = (text: string) => text.split(/[\s,]+/).filter(Boolean);

function number(text: string, field: string, integer: boolean): number | undefined {
  if (!text.trim()) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new Error(`${field}: give a ${integer ? 'whole number' : 'number'} above 0 (or leave it empty), not "${text}".`);
  return n;
}

/** The spec's model from Settings: any OpenAI-compatible endpoint (provider "custom" with its URL); never the key. */
export function modelFromSettings(settings: Settings): ExperimentSpecInput['model'] {
  if (settings.modelKind !== 'endpoint') {
    throw new Error('An experiment asks an OpenAI-compatible endpoint: choose one under Settings → Model (a person or a loaded recording cannot answer hundreds of runs).');
  }
  const { baseURL, model, temperature, topP, maxTokens } = settings.model;
  const sampling = { ...(temperature !== undefined ? { temperature } : {}), ...(topP !== undefined ? { topP } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}) };
  return { provider: 'custom', baseURL, model, ...(Object.keys(sampling).length ? { sampling } : {}) };
}

/** The spec the form stands for; a bad field is refused naming it. */
export function specFromForm(form: ExperimentForm, settings: Settings): ExperimentSpecInput {
  const f = form.bugs;
  const bugs: ExperimentSpecInput['bugs'] =
    f.mode === 'ids'
      ? splitIds(f.ids)
      : {
          filter: {
            ...(f.library ? { libraries: [f.library] } : {}),
            ...(f.category ? { categories: [f.category as 'SL'] } : {}),
            ...(f.blameable ? { blameable: f.blameable === 'true' } : {}),
          },
          ...(f.limit.trim() ? { limit: number(f.limit, 'Bugs: first N', true)! } : {}),
        };
  if (Array.isArray(bugs) && !bugs.length) throw new Error('Bugs: list at least one bug id (separated by spaces or commas), or choose "by filter".');
  const variants = form.variants.map((v, i) => {
    let overrides: Record<string, unknown> = {};
    if (v.overrides.trim()) {
      try {
        overrides = JSON.parse(v.overrides) as Record<string, unknown>;
      } catch (e) {
        throw new Error(`Variant ${i + 1} (${v.name || 'unnamed'}): overrides are not valid JSON (${(e as Error).message}); write an object such as {"budgets":{"maxSteps":5}}.`);
      }
    }
    return { name: v.name.trim() || `variant-${i + 1}`, preset: v.preset, variants: v.variants, overrides };
  });
  const perRun = { calls: number(form.perRunCalls, 'Per run: model calls', true), costUsd: number(form.perRunCostUsd, 'Per run: cost (USD)', false) };
  const experiment = { calls: number(form.experimentCalls, 'Experiment: model calls', true), costUsd: number(form.experimentCostUsd, 'Experiment: cost (USD)', false) };
  const defined = (o: Record<string, number | undefined>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, number>;
  return {
    schemaVersion: 1,
    ...(form.name.trim() ? { name: form.name.trim() } : {}),
    bugs,
    variants,
    samples: number(form.samples, 'Samples', true) ?? 1,
    model: modelFromSettings(settings),
    ...(settings.prices ? { prices: settings.prices } : {}),
    budgets: {
      ...(Object.keys(defined(perRun)).length ? { perRun: defined(perRun) } : {}),
      ...(Object.keys(defined(experiment)).length ? { experiment: defined(experiment) } : {}),
    },
    concurrency: { modelCalls: number(form.modelCalls, 'Concurrency: runs in flight', true) ?? 4, validations: number(form.validations, 'Concurrency: validations per runner', true) ?? 2 },
  };
}
