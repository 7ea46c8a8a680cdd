// ExperimentSpec: strict (a misspelt field is refused, naming it), never a key, and the cross-field rules.
import { describe, expect, it } from 'vitest';
import { parseExperimentSpec } from '../../../worker/contracts/experiment.ts';

const base = () => ({
  schemaVersion: 1,
  bugs: ['textkit-1'],
  variants: [{ name: 'plain', preset: 'oneshot' }],
  samples: 2,
  model: { provider: 'openai', model: 'gpt-4o-mini' },
});

describe('parseExperimentSpec', () => {
  it('fills the defaults of a minimal spec', () => {
    const spec = parseExperimentSpec(base());
    expect(spec.concurrency).toEqual({ modelCalls: 4, validations: 2 });
    expect(spec.retries).toEqual({ maxAttempts: 3, backoffMs: 2000 });
    expect(spec.budgets.unpricedModel).toBe('refuse');
    expect(spec.variants[0]).toEqual({ name: 'plain', preset: 'oneshot', variants: [], overrides: {} });
  });

  it.each([
    [{ ...base(), sampels: 3 }, '(top level): unknown field "sampels"'],
    [{ ...base(), variants: [{ name: 'plain', preset: 'oneshot', overides: {} }] }, 'variants.0: unknown field "overides"'],
    [{ ...base(), model: { provider: 'openai', temprature: 0.2 } }, 'model: unknown field "temprature"'],
    [{ ...base(), budgets: { perRun: { cost: 1 } } }, 'budgets.perRun: unknown field "cost"'],
  ])('refuses an unknown field, naming it: %#', (spec, message) => {
    expect(() => parseExperimentSpec(spec, 'spec.json')).toThrow(message);
  });

  it.each([
    [{ ...base(), model: { provider: 'openai', apiKey: 'x' } }, 'model.apiKey looks like a key field'],
    [{ ...base(), model: { provider: 'openai', api_key: 'x' } }, 'model.api_key looks like a key field'],
    [{ ...base(), runnerToken: 'abc' }, 'runnerToken looks like a key field'],
    [{ ...base(), description: 'sk-proj-abcdefghijklmnop' }, 'description holds a value shaped like an API key'],
    [{ ...base(), model: { provider: 'custom', baseURL: 'https://me:pw@example.com/v1', model: 'm' } }, 'model.baseURL has credentials in its URL'],
    [{ ...base(), model: { provider: 'custom', baseURL: 'https://example.com/v1?api_key=abc', model: 'm' } }, 'model.baseURL has a "api_key" in its URL'],
  ])('refuses anything that looks like a key, without echoing it: %#', (spec, message) => {
    let error: Error | undefined;
    try {
      parseExperimentSpec(spec);
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).toContain(message);
    expect(error?.message).toContain('never holds keys');
    expect(error?.message).not.toMatch(/sk-proj|me:pw|abcdefghijklmnop/);
  });

  it('accepts fields that only mention tokens (maxTokens) and models named like key words in the price table', () => {
    const spec = parseExperimentSpec({
      ...base(),
      model: { provider: 'openai', model: 'gpt-4o-mini', sampling: { maxTokens: 512 } },
      variants: [{ name: 'plain', preset: 'oneshot', overrides: { budgets: { maxTokens: 100000 } } }],
      prices: { 'secret-model': { inputPerMTok: 1, outputPerMTok: 2 } },
    });
    expect(spec.model.sampling?.maxTokens).toBe(512);
  });

  it('checks the rules across fields', () => {
    expect(() => parseExperimentSpec({ ...base(), model: { provider: 'custom', model: 'm' } })).toThrow('model.baseURL: provider "custom" needs a baseURL');
    expect(() => parseExperimentSpec({ ...base(), model: { provider: 'openai', seeds: [1, 2, 3] } })).toThrow('model.seeds: give one seed per sample: 2 seeds, not 3');
    expect(() => parseExperimentSpec({ ...base(), variants: [{ name: 'a', preset: 'oneshot' }, { name: 'a', preset: 'repairagent' }] })).toThrow('two variants are named "a"');
    expect(() => parseExperimentSpec({ ...base(), variants: [{ name: 'a b', preset: 'oneshot' }] })).toThrow('variants.0.name');
    expect(() => parseExperimentSpec({ ...base(), samples: 0 })).toThrow('samples');
  });
});
