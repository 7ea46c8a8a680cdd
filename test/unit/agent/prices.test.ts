// The price table: which model name gets which price, a table read from JSON, and a run's total when a price is missing.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, parsePriceTable, priceFor, runCosts } from '../../../worker/contracts/prices.ts';

describe('priceFor', () => {
  it('finds a model by name, after an OpenRouter vendor prefix, and for a dated snapshot', () => {
    expect(priceFor(DEFAULT_PRICES, 'gpt-4o')).toEqual(DEFAULT_PRICES['gpt-4o']);
    expect(priceFor(DEFAULT_PRICES, 'openai/gpt-4o-mini')).toEqual(DEFAULT_PRICES['gpt-4o-mini']);
    expect(priceFor(DEFAULT_PRICES, 'gpt-4o-2024-08-06')).toEqual(DEFAULT_PRICES['gpt-4o']);
    expect(priceFor(DEFAULT_PRICES, 'gpt-3.5-turbo-0613')).toEqual(DEFAULT_PRICES['gpt-3.5-turbo']);
  });

  it('gives another model of a family no price rather than its sibling’s', () => {
    expect(priceFor(DEFAULT_PRICES, 'gpt-4.1-nano')).toBeUndefined();
    expect(priceFor(DEFAULT_PRICES, 'gpt-4o-mini-2024-07-18')).toEqual(DEFAULT_PRICES['gpt-4o-mini']);
    expect(priceFor(DEFAULT_PRICES, 'qwen2.5-coder:7b')).toBeUndefined();
    expect(runCosts(DEFAULT_PRICES)('gpt-4.1-nano', { inputTokens: 1000, outputTokens: 0 })).toBeNull();
  });
});

describe('parsePriceTable', () => {
  it('reads a table of prices in USD per million tokens', () => {
    const table = parsePriceTable({ 'qwen2.5-coder:7b': { inputPerMTok: 0, outputPerMTok: 0 }, 'my-model': { inputPerMTok: 1, outputPerMTok: 2 } }, 'Prices');
    expect(runCosts(table)('my-model', { inputTokens: 1_000_000, outputTokens: 500_000 })).toBe(2);
    expect(runCosts(table)('qwen2.5-coder:7b', { inputTokens: 10, outputTokens: 10 })).toBe(0);
  });

  it.each([
    [[1, 2], /Prices: write a JSON object of model names and prices/],
    [{ 'my-model': 3 }, /Prices: the price of "my-model" needs inputPerMTok and outputPerMTok/],
    [{ 'my-model': { inputPerMTok: -1, outputPerMTok: 2 } }, /"my-model" needs .* numbers ≥ 0/],
    [{ 'my-model': { inputPerMTok: 1 } }, /"my-model" needs inputPerMTok and outputPerMTok/],
  ])('refuses %j, naming the entry', (json, message) => {
    expect(() => parsePriceTable(json, 'Prices')).toThrow(message);
  });
});
