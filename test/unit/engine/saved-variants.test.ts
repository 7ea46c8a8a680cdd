// Saved strategy variants (src/state/variants.ts): saved by name (a second save of a name replaces it), listed by
// name, deleted by name; a nameless save is refused, and an unreadable store reads as empty instead of breaking the page.
import { expect, it } from 'vitest';
import { deleteVariant, loadVariants, saveVariant } from '../../../src/state/variants.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), items };
}

it('saves, replaces, lists and deletes variants by name', () => {
  const storage = memoryStorage();
  saveVariant({ name: 'short', preset: 'hafixagent', overrides: { budgets: { maxSteps: 5 } } }, storage);
  saveVariant({ name: ' another ', preset: 'oneshot', overrides: {} }, storage);
  saveVariant({ name: 'short', preset: 'hafixagent', overrides: { budgets: { maxSteps: 6 } } }, storage);
  expect(loadVariants(storage).map((v) => [v.name, v.overrides])).toEqual([['another', {}], ['short', { budgets: { maxSteps: 6 } }]]);
  expect(deleteVariant('another', storage).map((v) => v.name)).toEqual(['short']);
  expect(() => saveVariant({ name: '  ', preset: 'oneshot', overrides: {} }, storage)).toThrow(/Name the variant/);
});

it('reads an unreadable store as no variants, and skips malformed entries', () => {
  const storage = memoryStorage();
  storage.setItem('repairlab.strategyVariants.v1', '{not json');
  expect(loadVariants(storage)).toEqual([]);
  storage.setItem('repairlab.strategyVariants.v1', JSON.stringify([{ name: 'x', preset: 'oneshot', overrides: [] }, { name: 'y', preset: 'oneshot', overrides: {} }]));
  expect(loadVariants(storage).map((v) => v.name)).toEqual(['y']);
});
