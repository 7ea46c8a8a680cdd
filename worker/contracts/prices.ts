// Cost from an editable price table (USD per million tokens). A model missing from the table has no
// known price: the step's cost is null and BudgetSpec.unknownPrice decides whether the run stops — and, left at
// "ask", a run with a cost budget does not start at all (costBudgetRefusal), so a budget is never silently off.
import type { BudgetSpec } from './strategy.ts';
import type { ModelSettings } from './run-settings.ts';

export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
}
export type PriceTable = Record<string, Price>;

/** Starting prices (USD / 1M tokens, list prices as of late 2025); Settings → Prices and `run --prices` replace them. */
export const DEFAULT_PRICES: PriceTable = {
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'gpt-3.5-turbo': { inputPerMTok: 0.5, outputPerMTok: 1.5 },
  'deepseek-chat': { inputPerMTok: 0.28, outputPerMTok: 0.42 },
  // scripted replies, a person, and the hand-written demo recordings (public/cassettes) cost nothing
  scripted: { inputPerMTok: 0, outputPerMTok: 0 },
  human: { inputPerMTok: 0, outputPerMTok: 0 },
  'repairlab-demo-scripted': { inputPerMTok: 0, outputPerMTok: 0 },
};

/** What may follow a priced name in a snapshot of the same model: a date ("-2024-08-06", "-0613") or "-latest". */
const SNAPSHOT_SUFFIX = /^-(\d{4}-\d{2}-\d{2}|\d{4}|latest)$/;

export function priceFor(table: PriceTable, model: string): Price | undefined {
  if (table[model]) return table[model];
  // OpenRouter-style "vendor/model" and dated snapshots ("gpt-4o-2024-08-06") fall back to the base name; another
  // model of the family ("gpt-4.1-nano" beside "gpt-4.1") has no price rather than a wrong one
  const base = model.split('/').pop() ?? model;
  if (table[base]) return table[base];
  const key = Object.keys(table).find((k) => base.startsWith(k) && SNAPSHOT_SUFFIX.test(base.slice(k.length)));
  return key ? table[key] : undefined;
}

/** A price table from JSON (a settings field, a --prices file): every entry checked, errors name the entry. */
export function parsePriceTable(json: unknown, source: string): PriceTable {
  const example = '{"gpt-4o": {"inputPerMTok": 2.5, "outputPerMTok": 10}}';
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error(`${source}: write a JSON object of model names and prices in USD per million tokens, e.g. ${example}.`);
  const table: PriceTable = {};
  for (const [model, price] of Object.entries(json)) {
    const p = price as Partial<Price> | null;
    const ok = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
    if (!p || typeof p !== 'object' || !ok(p.inputPerMTok) || !ok(p.outputPerMTok)) {
      throw new Error(`${source}: the price of ${JSON.stringify(model)} needs inputPerMTok and outputPerMTok, numbers ≥ 0 (USD per million tokens), e.g. ${example}.`);
    }
    table[model] = { inputPerMTok: p.inputPerMTok!, outputPerMTok: p.outputPerMTok! };
  }
  return table;
}

/**
 * A step's cost in USD for one run (null when the model has no price): prices looked up once per model name. The
 * table is read as it is at the first step of each model (a run records its table at the start and does not change it).
 */
export function runCosts(table: PriceTable): (model: string, usage: { inputTokens: number; outputTokens: number }) => number | null {
  const byModel = new Map<string, Price | undefined>();
  return (model, usage) => {
    if (!byModel.has(model)) byModel.set(model, priceFor(table, model));
    const p = byModel.get(model);
    return p ? (usage.inputTokens * p.inputPerMTok + usage.outputTokens * p.outputPerMTok) / 1_000_000 : null;
  };
}

/**
 * The model names a run's calls will be priced under, as far as they are known before it starts: the endpoint's
 * model, or the names a recording answers as (a replay prices each call by the name its response reported).
 */
export function modelNamesOf(model: ModelSettings): string[] {
  switch (model.kind) {
    case 'openai':
      return [model.model];
    case 'scripted':
      return ['scripted'];
    case 'human':
      return ['human'];
    case 'replay': {
      const c = model.cassette as { model?: unknown; calls?: { response?: { model?: unknown } }[] } | null;
      const names = [c?.model, ...(Array.isArray(c?.calls) ? c.calls.map((call) => call?.response?.model) : [])];
      return [...new Set(names.filter((n): n is string => typeof n === 'string'))];
    }
  }
}

/**
 * Why a run may not start: it has a cost budget, its model has no price, and budgets.unknownPrice is still "ask"
 * (the default) — the budget would silently hold nothing. Undefined when the run may start. The message names
 * every way out: a price, or an explicit unknownPrice, or no cost budget.
 */
export function costBudgetRefusal(budgets: Pick<BudgetSpec, 'maxCostUsd' | 'unknownPrice'>, model: ModelSettings, table: PriceTable = DEFAULT_PRICES): string | undefined {
  if (budgets.maxCostUsd === null || budgets.unknownPrice !== 'ask') return undefined;
  const unpriced = modelNamesOf(model).filter((name) => !priceFor(table, name));
  if (!unpriced.length) return undefined;
  const name = unpriced[0]!;
  return (
    `the run has a cost budget ($${budgets.maxCostUsd}) but model "${name}" has no price, so the budget would count nothing. ` +
    `Give its price — CLI: --prices <file.json> holding {"${name}": {"inputPerMTok": 1, "outputPerMTok": 2}} (USD per million tokens); app: Settings → Prices — ` +
    `or choose explicitly with overrides (--overrides): {"budgets":{"unknownPrice":"ignore"}} runs with its calls counted as free, ` +
    `{"budgets":{"unknownPrice":"stop"}} ends the run at its first unpriced call, {"budgets":{"maxCostUsd":null}} drops the cost budget.`
  );
}
