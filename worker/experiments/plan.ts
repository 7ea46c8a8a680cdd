// From an ExperimentSpec to the cells it runs: the bugs its selection gives, each bug's runner, the deterministic
// cell order (bug × variant × sample) and what each cell asks RunManager for (preset, variants, overrides with the
// sample's seed and the per-run budgets, the model settings). Everything a spec can get wrong is refused here, before
// the first run starts, with the field and what to give instead.
import { closest } from 'fastest-levenshtein';
import type { ExperimentSpec, ExperimentVariant, Limits } from '../contracts/experiment.ts';
import type { BugCategory } from '../contracts/bug.ts';
import type { StrategySpec } from '../contracts/strategy.ts';
import type { BugSummary } from '../contracts/bug-view.ts';
import type { ModelSettings, RunnerSettings } from '../contracts/run-settings.ts';
import type { RunRequest } from '../contracts/runs.ts';
import { deepMerge, resolveStrategy } from '../strategies/presets/index.ts';
import { costBudgetRefusal, DEFAULT_PRICES, priceFor } from '../contracts/prices.ts';
import { keyForOrigin, type ApiKeys } from '../llm/key-origin.ts';
import { modelBaseURL, providerPreset } from '../llm/provider-presets.ts';

export interface PlannedCell {
  index: number;
  bugId: string;
  variant: ExperimentVariant;
  sample: number;
  /** index into the experiment's runners */
  runner: number;
}

/** The bugs a selection gives, in the catalogue's order for a filter, in the given order for ids. */
export function resolveBugs(selection: ExperimentSpec['bugs'], catalog: BugSummary[]): { id: string; category: BugCategory }[] {
  const byId = new Map(catalog.map((b) => [b.id, b]));
  if (Array.isArray(selection)) {
    const seen = new Set<string>();
    return selection.map((id) => {
      const bug = byId.get(id);
      if (!bug) throw new Error(`bugs: there is no bug "${id}"${catalog.length ? ` (nearest: "${closest(id, [...byId.keys()])}")` : ''}; \`repairlab bugs\` lists them.`);
      if (seen.has(id)) throw new Error(`bugs: "${id}" is listed twice; list each bug once (samples repeat a cell).`);
      seen.add(id);
      return { id, category: bug.category };
    });
  }
  const f = selection.filter;
  const picked = catalog.filter(
    (b) => (!f.libraries || f.libraries.includes(b.library)) && (!f.categories || f.categories.includes(b.category)) && (f.blameable === undefined || b.blameable === f.blameable),
  );
  const bugs = picked.slice(0, selection.limit ?? picked.length).map((b) => ({ id: b.id, category: b.category }));
  if (!bugs.length) throw new Error(`bugs.filter ${JSON.stringify(f)}: no bug passes it; \`repairlab bugs --json\` shows each bug's library, category and blameable.`);
  return bugs;
}

/** Each bug on one runner (its warm JVM is reused across the bug's cells), the bugs dealt out in turn. */
export function assignRunners(bugIds: string[], runners: number): Record<string, number> {
  return Object.fromEntries(bugIds.map((id, i) => [id, i % Math.max(1, runners)]));
}

/** Cells in the deterministic order: bug-major, then variant, then sample. */
export function planCells(spec: ExperimentSpec, bugs: readonly { id: string }[], runnerOfBug: Record<string, number>): PlannedCell[] {
  const cells: PlannedCell[] = [];
  for (const bug of bugs) {
    for (const variant of spec.variants) {
      for (let sample = 0; sample < spec.samples; sample++) cells.push({ index: cells.length, bugId: bug.id, variant, sample, runner: runnerOfBug[bug.id] ?? 0 });
    }
  }
  return cells;
}

/** The strategy of each variant, resolved once: refuses an unknown preset, variant or override, naming the variant. */
export function resolveVariants(spec: ExperimentSpec): Map<string, StrategySpec> {
  const out = new Map<string, StrategySpec>();
  for (const v of spec.variants) {
    const sampling = v.overrides.sampling as Record<string, unknown> | undefined;
    if (sampling && 'trajectories' in sampling) {
      throw new Error(`variants.${v.name}.overrides.sampling.trajectories: an experiment runs one trajectory per cell; set "samples" instead.`);
    }
    try {
      out.set(v.name, resolveStrategy(v.preset, { variants: v.variants, overrides: v.overrides }));
    } catch (e) {
      throw new Error(`variants.${v.name}: ${(e as Error).message}`);
    }
  }
  return out;
}

/** The lower of the strategy's budget and the experiment's per-run one, as StrategySpec budget overrides. */
function perRunBudgets(strategy: StrategySpec, perRun: Limits | undefined): Record<string, number | string> {
  const lower = (own: number | null, cap: number | undefined) => (cap === undefined ? undefined : own === null ? cap : Math.min(own, cap));
  const b: Record<string, number | undefined> = {
    // a step is one agent model call
    maxSteps: lower(strategy.budgets.maxSteps, perRun?.calls),
    maxCostUsd: lower(strategy.budgets.maxCostUsd, perRun?.costUsd),
    maxWallMs: lower(strategy.budgets.maxWallMs, perRun?.wallMs),
  };
  return Object.fromEntries(Object.entries(b).filter((e): e is [string, number] => e[1] !== undefined)) as Record<string, number | string>;
}

/** What RunManager.start gets for a cell (one trajectory: samples are cells of their own). */
export function cellRequest(spec: ExperimentSpec, cell: PlannedCell, strategy: StrategySpec, model: ModelSettings, runner: RunnerSettings): RunRequest {
  const seed = spec.model.seeds?.[cell.sample];
  const base = { sampling: { ...spec.model.sampling, ...(seed !== undefined ? { seed } : {}) } };
  const budgets = perRunBudgets(strategy, spec.budgets.perRun);
  // the spec's explicit choice for unpriced models reaches each run's own cost-budget check (prices.ts costBudgetRefusal)
  if (spec.budgets.unpricedModel === 'count-as-free') budgets.unknownPrice = 'ignore';
  const overrides = deepMerge(deepMerge(base, cell.variant.overrides), { sampling: { trajectories: 1 }, ...(Object.keys(budgets).length ? { budgets } : {}) });
  return {
    bugId: cell.bugId,
    preset: cell.variant.preset,
    variants: cell.variant.variants,
    overrides,
    model,
    runner,
    ...(spec.prices ? { prices: spec.prices } : {}),
  };
}

/** The model name the experiment asks for (the provider preset's default when the spec names none). */
export function modelName(spec: ExperimentSpec): string {
  return spec.model.model ?? (spec.model.provider === 'custom' ? '' : providerPreset(spec.model.provider).defaultModel);
}

/**
 * The run's model settings. The caller's keys are by endpoint origin (never in the spec), and the run gets only the
 * one for the origin of the spec's own endpoint: a spec that names another endpoint gets no key.
 */
export function modelSettings(spec: ExperimentSpec, apiKeys: ApiKeys | undefined): ModelSettings {
  const model = modelName(spec);
  if (!model) throw new Error('model.model: provider "custom" has no default model; name the model the endpoint serves.');
  const baseURL = modelBaseURL(spec.model);
  const apiKey = keyForOrigin(apiKeys, baseURL);
  return { kind: 'openai', baseURL, model, ...(apiKey ? { apiKey } : {}) };
}

/**
 * A cost budget is never silently off: with a model that has no price, refuse — the experiment's own budgets and each
 * variant's strategy budget (the presets' own, e.g. HAFixAgent's $1: the rule a single run applies) — unless the spec
 * chose `budgets.unpricedModel: "count-as-free"`, which cellRequest then passes to every run.
 */
export function checkPrices(spec: ExperimentSpec, strategies: ReadonlyMap<string, StrategySpec>): void {
  if (spec.budgets.unpricedModel === 'count-as-free') return;
  const model = modelName(spec);
  const table = spec.prices ?? DEFAULT_PRICES;
  const ways = `add it to "prices" ({"${model}": {"inputPerMTok": 1, "outputPerMTok": 2}}, USD per million tokens), or set budgets.unpricedModel to "count-as-free".`;
  const costBudget = spec.budgets.perRun?.costUsd !== undefined || spec.budgets.experiment?.costUsd !== undefined;
  if (costBudget && !priceFor(table, model)) {
    throw new Error(`budgets: the experiment has a cost budget, but model "${model}" has no price${spec.prices ? ' in "prices"' : ' in the built-in table'}: ${ways}`);
  }
  for (const [name, strategy] of strategies) {
    if (costBudgetRefusal(strategy.budgets, { kind: 'openai', baseURL: '', model }, table)) {
      throw new Error(`variants.${name}: its strategy has a cost budget ($${strategy.budgets.maxCostUsd}), but model "${model}" has no price: ${ways}`);
    }
  }
}
