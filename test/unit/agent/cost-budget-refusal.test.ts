// costBudgetRefusal (worker/contracts/prices.ts): when a cost budget would count nothing — every way a model is named
// before a run starts, and every explicit way out. The CLI path is in entry-points.test.ts.
import { describe, expect, it } from 'vitest';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { costBudgetRefusal, modelNamesOf } from '../../../worker/contracts/prices.ts';

const hafix = (overrides: Record<string, unknown> = {}) => resolveStrategy('hafixagent', { overrides }).budgets;
const local = { kind: 'openai', baseURL: 'http://127.0.0.1:1/v1', model: 'qwen2.5-coder' } as const;

describe('a cost budget with an unpriced model', () => {
  it('is refused by default (unknownPrice "ask"), naming the model, the budget and every way out', () => {
    const message = costBudgetRefusal(hafix(), local);
    expect(message).toContain('the run has a cost budget ($1) but model "qwen2.5-coder" has no price');
    expect(message).toContain('--prices <file.json>');
    expect(message).toContain('Settings → Prices');
    expect(message).toMatch(/"unknownPrice":"ignore".*"unknownPrice":"stop".*"maxCostUsd":null/);
  });

  it('starts once a price is given or a choice made', () => {
    expect(costBudgetRefusal(hafix(), local, { 'qwen2.5-coder': { inputPerMTok: 0.1, outputPerMTok: 0.2 } })).toBeUndefined();
    expect(costBudgetRefusal(hafix({ budgets: { unknownPrice: 'ignore' } }), local)).toBeUndefined();
    expect(costBudgetRefusal(hafix({ budgets: { unknownPrice: 'stop' } }), local)).toBeUndefined();
    expect(costBudgetRefusal(hafix({ budgets: { maxCostUsd: null } }), local)).toBeUndefined();
  });

  it('needs no choice without a cost budget, or for a priced model (a dated snapshot of a priced one included)', () => {
    expect(resolveStrategy('repairagent').budgets.maxCostUsd).toBeNull();
    expect(costBudgetRefusal(resolveStrategy('repairagent').budgets, local)).toBeUndefined();
    expect(costBudgetRefusal(hafix(), { ...local, model: 'gpt-4o-2024-08-06' })).toBeUndefined();
    expect(costBudgetRefusal(hafix(), { kind: 'scripted', replies: [] })).toBeUndefined();
    expect(costBudgetRefusal(hafix(), { kind: 'human' })).toBeUndefined();
  });

  it('checks every name a recording answers as', () => {
    const cassette = { model: 'repairlab-demo-scripted', calls: [{ response: { model: 'repairlab-demo-scripted' } }, { response: { model: 'llama-3-70b' } }] };
    expect(modelNamesOf({ kind: 'replay', cassette })).toEqual(['repairlab-demo-scripted', 'llama-3-70b']);
    expect(costBudgetRefusal(hafix(), { kind: 'replay', cassette })).toContain('model "llama-3-70b" has no price');
  });
});
