// Before an experiment starts: how many model calls and how much money it may take, from its budgets and prices only
// (no model is asked). Each cell is one run with the strategy a run of it resolves (the variant's own budgets lowered
// by the experiment's per-run ones, exactly as cellRequest builds them); a run makes at least one call and at most
// maxSteps agent calls. Its cost is bounded by its cost budget, or by its token budget at the dearer of the two
// prices; without either there is no bound. The experiment's own call and cost budgets cap the totals.
import type { ExperimentSpec } from '../contracts/experiment.ts';
import { resolveStrategy } from '../strategies/presets/index.ts';
import { DEFAULT_PRICES, priceFor, type Price } from '../contracts/prices.ts';
import { cellRequest, modelName, modelSettings, planCells, resolveVariants } from './plan.ts';
import { modelBaseURL } from '../llm/provider-presets.ts';

export interface VariantEstimate {
  variant: string;
  cells: number;
  /** agent steps a run may take (one model call each) */
  maxStepsPerRun: number;
  /** a run's cost bound in USD (null: no cost or token budget bounds it, or the model has no price) */
  maxCostPerRunUsd: number | null;
  /** where the cost bound comes from */
  costBound: 'cost budget' | 'token budget' | 'free model' | 'none';
  /** the strategy samples write_fix variants with a second model: those calls come on top of the steps */
  auxiliaryCalls: boolean;
  /**
   * runner validations a run may ask for: one per startup command, one per agent step (at most the strategy's
   * maxValidations when it has one) and the final re-check
   */
  maxValidationsPerRun: number;
}

export interface ExperimentEstimate {
  model: string;
  /** the endpoint the model calls go to (the page asks for its key when it has none for that origin) */
  baseURL: string;
  /** USD per million tokens (undefined: the model has no price) */
  price?: Price;
  bugs: number;
  /** the bugs the selection gives, in cell order (empty when only their count was given) */
  bugIds: string[];
  cells: number;
  /** agent runs: one trajectory per cell (samples are cells of their own) */
  runs: number;
  /** runner validations the runs may ask for (an upper bound: experiment-estimate.ts's header says how) */
  validations: { max: number };
  calls: { min: number; max: number; cappedByExperimentBudget: boolean };
  /** null: unbounded (a variant has no cost or token budget) or unknown (no price) */
  costUsd: { max: number | null; cappedByExperimentBudget: boolean };
  variants: VariantEstimate[];
  /** how the numbers were found, one sentence a line */
  method: string[];
}

/**
 * `selection`: the bugs the spec's selection gives (plan.resolveBugs over the catalogue), or only how many. Their ids
 * come back with the estimate, so the page can name the cells a demo recording endpoint cannot serve.
 */
export function estimateExperiment(spec: ExperimentSpec, selection: number | readonly string[]): ExperimentEstimate {
  const bugs = typeof selection === 'number' ? selection : selection.length;
  const model = modelName(spec);
  const price = priceFor(spec.prices ?? DEFAULT_PRICES, model);
  const strategies = resolveVariants(spec);
  const settings = modelSettings(spec, undefined);
  const perVariant = bugs * spec.samples;
  const bugIds = Array.from({ length: Math.max(1, bugs) }, (_, i) => ({ id: `bug-${i}` }));
  const cells = planCells(spec, bugIds.slice(0, 1), {});
  const variants = spec.variants.map((v): VariantEstimate => {
    // the strategy a cell's run resolves: the variant's overrides with the per-run budgets merged in
    const cell = cells.find((c) => c.variant.name === v.name)!;
    const request = cellRequest(spec, cell, strategies.get(v.name)!, settings, { url: '', token: '' });
    const strategy = resolveStrategy(v.preset, { variants: v.variants, overrides: request.overrides });
    const b = strategy.budgets;
    let maxCostPerRunUsd: number | null = null;
    let costBound: VariantEstimate['costBound'] = 'none';
    if (b.maxCostUsd !== null) {
      maxCostPerRunUsd = b.maxCostUsd;
      costBound = 'cost budget';
    }
    if (price && b.maxTokens !== null) {
      const byTokens = (b.maxTokens * Math.max(price.inputPerMTok, price.outputPerMTok)) / 1e6;
      if (maxCostPerRunUsd === null || byTokens < maxCostPerRunUsd) {
        maxCostPerRunUsd = byTokens;
        costBound = 'token budget';
      }
    }
    if (price && price.inputPerMTok === 0 && price.outputPerMTok === 0) {
      maxCostPerRunUsd = 0;
      costBound = 'free model';
    }
    if (!price) maxCostPerRunUsd = null;
    const maxValidationsPerRun = strategy.startup.length + (b.maxValidations !== null ? Math.min(b.maxSteps, b.maxValidations) : b.maxSteps) + 1;
    return { variant: v.name, cells: perVariant, maxStepsPerRun: b.maxSteps, maxCostPerRunUsd, costBound, auxiliaryCalls: strategy.toolSettings.sampleVariants === true, maxValidationsPerRun };
  });
  const cellCount = perVariant * spec.variants.length;
  const maxCalls = variants.reduce((n, v) => n + v.cells * v.maxStepsPerRun, 0);
  const callCap = spec.budgets.experiment?.calls;
  const unbounded = variants.some((v) => v.maxCostPerRunUsd === null);
  const maxCost = unbounded ? null : variants.reduce((n, v) => n + v.cells * v.maxCostPerRunUsd!, 0);
  const costCap = spec.budgets.experiment?.costUsd;
  const cappedCost = costCap !== undefined && price && (maxCost === null || costCap < maxCost);
  const method = [
    `${bugs} bugs × ${spec.variants.length} variants × ${spec.samples} samples = ${cellCount} runs, one per cell.`,
    'A run makes at least one model call and at most its step budget (maxSteps, lowered by the experiment\'s per-run call budget): one call per agent step.',
    'A run asks the runner for at most one validation per startup command, one per agent step (its maxValidations budget, when set, caps these) and one final re-check.',
    price
      ? `Model "${model}" costs $${price.inputPerMTok} (input) and $${price.outputPerMTok} (output) per million tokens${spec.prices ? ' (the spec\'s prices)' : ' (the built-in table)'}; a run's cost is bounded by its cost budget, or by its token budget at the dearer price.`
      : `Model "${model}" has no price (add it under Settings → Prices): the cost cannot be estimated.`,
  ];
  if (callCap !== undefined && callCap < maxCalls) method.push(`The experiment's call budget (${callCap}) stops scheduling before the runs' own bounds.`);
  if (cappedCost) method.push(`The experiment's cost budget ($${costCap}) stops scheduling before the runs' own bounds (runs in flight finish, so it can be passed by their last calls).`);
  if (price && unbounded && !cappedCost) method.push('A variant has no cost or token budget, so its cost has no upper bound: give it one (overrides {"budgets":{"maxCostUsd":0.5}}) or set an experiment cost budget.');
  if (variants.some((v) => v.auxiliaryCalls)) method.push('write_fix variant sampling calls a second model on top of the agent steps, and validates its variants in one batch; those calls and validations are not in the bounds.');
  return {
    model,
    baseURL: modelBaseURL(spec.model),
    ...(price ? { price } : {}),
    bugs,
    bugIds: typeof selection === 'number' ? [] : [...selection],
    cells: cellCount,
    runs: cellCount,
    validations: { max: variants.reduce((n, v) => n + v.cells * v.maxValidationsPerRun, 0) },
    calls: { min: callCap !== undefined ? Math.min(callCap, cellCount) : cellCount, max: callCap !== undefined ? Math.min(callCap, maxCalls) : maxCalls, cappedByExperimentBudget: callCap !== undefined && callCap < maxCalls },
    costUsd: { max: !price ? null : cappedCost ? costCap! : maxCost, cappedByExperimentBudget: !!cappedCost },
    variants,
    method,
  };
}
