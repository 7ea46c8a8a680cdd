// Planning an experiment: bug selection, runner assignment, the deterministic cell order and what each cell asks for.
import { describe, expect, it } from 'vitest';
import { parseExperimentSpec, type ExperimentSpecInput } from '../../../worker/contracts/experiment.ts';
import { assignRunners, cellRequest, checkPrices, modelSettings, planCells, resolveBugs, resolveVariants } from '../../../worker/experiments/plan.ts';
import { Engine } from '../../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const catalog = await new Engine(createNodePlatform({ root: mkdtempSync(join(tmpdir(), 'repairlab-plan-')) })).listBugs();

const spec = (over: Partial<ExperimentSpecInput> = {}) =>
  parseExperimentSpec({
    schemaVersion: 1,
    bugs: ['textkit-1', 'numkit-2'],
    variants: [
      { name: 'plain', preset: 'oneshot' },
      { name: 'rules', preset: 'oneshot', variants: ['stop-rules'], overrides: { budgets: { maxSteps: 2 }, sampling: { temperature: 0.5 } } },
    ],
    samples: 2,
    model: { provider: 'openai', model: 'gpt-4o-mini', sampling: { temperature: 0.2, topP: 0.9 }, seeds: [11, 12] },
    ...over,
  });

describe('experiment planning', () => {
  it('selects bugs by id (in the given order) or by filter (catalogue order, limit)', () => {
    expect(resolveBugs(['numkit-2', 'textkit-1'], catalog)).toEqual([
      { id: 'numkit-2', category: catalog.find((b) => b.id === 'numkit-2')!.category },
      { id: 'textkit-1', category: 'SL' },
    ]);
    const filtered = resolveBugs({ filter: { libraries: ['textkit', 'csvkit'], categories: ['SL'] }, limit: 3 }, catalog);
    expect(filtered.map((b) => b.id)).toEqual(catalog.filter((b) => ['textkit', 'csvkit'].includes(b.library) && b.category === 'SL').slice(0, 3).map((b) => b.id));
    expect(() => resolveBugs(['textkit-11'], catalog)).toThrow('there is no bug "textkit-11" (nearest: "textkit-1")');
    expect(() => resolveBugs(['textkit-1', 'textkit-1'], catalog)).toThrow('"textkit-1" is listed twice');
    expect(() => resolveBugs({ filter: { libraries: ['nolib'] } }, catalog)).toThrow('no bug passes it');
  });

  it('orders cells bug × variant × sample and keeps each bug on one runner', () => {
    const s = spec({ bugs: ['textkit-1', 'textkit-2', 'numkit-1'] });
    const runners = assignRunners(['textkit-1', 'textkit-2', 'numkit-1'], 2);
    expect(runners).toEqual({ 'textkit-1': 0, 'textkit-2': 1, 'numkit-1': 0 });
    const cells = planCells(s, [{ id: 'textkit-1' }, { id: 'textkit-2' }, { id: 'numkit-1' }], runners);
    expect(cells.map((c) => `${c.index}:${c.bugId}/${c.variant.name}/${c.sample}@${c.runner}`)).toEqual([
      '0:textkit-1/plain/0@0', '1:textkit-1/plain/1@0', '2:textkit-1/rules/0@0', '3:textkit-1/rules/1@0',
      '4:textkit-2/plain/0@1', '5:textkit-2/plain/1@1', '6:textkit-2/rules/0@1', '7:textkit-2/rules/1@1',
      '8:numkit-1/plain/0@0', '9:numkit-1/plain/1@0', '10:numkit-1/rules/0@0', '11:numkit-1/rules/1@0',
    ]);
  });

  it("a cell asks for one trajectory with its sample's seed; the variant's sampling wins over the model's; per-run budgets cap the strategy's", () => {
    const s = spec({ budgets: { perRun: { calls: 5, costUsd: 0.5, wallMs: 60_000 } } });
    const strategies = resolveVariants(s);
    const cells = planCells(s, [{ id: 'textkit-1' }], { 'textkit-1': 0 });
    const model = modelSettings(s, { 'https://api.openai.com': 'the-key' });
    const runner = { url: 'http://127.0.0.1:1', token: 't' };
    const plain = cellRequest(s, cells[1]!, strategies.get('plain')!, model, runner);
    expect(plain).toMatchObject({ bugId: 'textkit-1', preset: 'oneshot', variants: [], model: { kind: 'openai', baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'the-key' } });
    // oneshot allows 3 steps: the per-run 5 calls do not raise it
    expect(plain.overrides).toEqual({ sampling: { temperature: 0.2, topP: 0.9, seed: 12, trajectories: 1 }, budgets: { maxSteps: 3, maxCostUsd: 0.5, maxWallMs: 60_000 } });
    const rules = cellRequest(s, cells[2]!, strategies.get('rules')!, model, runner);
    expect(rules.variants).toEqual(['stop-rules']);
    expect(rules.overrides).toEqual({ sampling: { temperature: 0.5, topP: 0.9, seed: 11, trajectories: 1 }, budgets: { maxSteps: 2, maxCostUsd: 0.5, maxWallMs: 60_000 } });
  });

  it("gives the runs only the key for the origin of the spec's own endpoint, never one given for another", () => {
    const keys = { 'https://api.openai.com': 'sk-for-openai', 'http://127.0.0.1:8000': 'key-for-local' };
    const at = (baseURL: string) => modelSettings(spec({ model: { provider: 'custom', baseURL, model: 'm' } }), keys);
    expect(modelSettings(spec(), keys)).toEqual({ kind: 'openai', baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-for-openai' });
    expect(at('http://127.0.0.1:8000/v1')).toMatchObject({ apiKey: 'key-for-local' });
    // the origin is scheme, host and port: the same host on another port or scheme, or a look-alike host, gets nothing
    for (const elsewhere of ['http://127.0.0.1:8001/v1', 'http://api.openai.com/v1', 'https://api.openai.com.attacker.example/v1', 'https://attacker.example/v1?u=https://api.openai.com']) {
      expect(at(elsewhere), elsewhere).not.toHaveProperty('apiKey');
    }
    // another path, the default port spelled out, upper case: the same origin
    expect(at('https://API.openai.com:443/other/v1')).toMatchObject({ apiKey: 'sk-for-openai' });
    // a provider preset's endpoint is its origin too
    expect(modelSettings(spec({ model: { provider: 'deepseek' } }), keys)).not.toHaveProperty('apiKey');
    expect(modelSettings(spec(), undefined)).not.toHaveProperty('apiKey');
  });

  it('refuses a variant that does not resolve or sets its own trajectory count, naming the variant', () => {
    expect(() => resolveVariants(spec({ variants: [{ name: 'x', preset: 'oneshot', variants: ['no-such-variant'] }] }))).toThrow(/^variants\.x: preset oneshot has no variant "no-such-variant"/);
    expect(() => resolveVariants(spec({ variants: [{ name: 'many', preset: 'passerine', overrides: { sampling: { trajectories: 20 } } }] }))).toThrow('variants.many.overrides.sampling.trajectories: an experiment runs one trajectory per cell; set "samples" instead.');
  });

  it('a cost budget with an unpriced model is refused unless the spec says to count it as free', () => {
    const unpriced = { provider: 'custom' as const, baseURL: 'http://127.0.0.1:8000/v1', model: 'local-model' };
    const check = (s: ReturnType<typeof spec>) => checkPrices(s, resolveVariants(s));
    expect(() => check(spec({ model: unpriced, budgets: { experiment: { costUsd: 2 } } }))).toThrow('model "local-model" has no price in the built-in table');
    expect(() => check(spec({ model: unpriced, budgets: { perRun: { costUsd: 2 }, unpricedModel: 'count-as-free' } }))).not.toThrow();
    expect(() => check(spec({ model: unpriced, prices: { 'local-model': { inputPerMTok: 0, outputPerMTok: 0 } }, budgets: { experiment: { costUsd: 2 } } }))).not.toThrow();
    // no cost budget: nothing to ask
    expect(() => check(spec({ model: unpriced }))).not.toThrow();
    expect(() => check(spec({ budgets: { experiment: { costUsd: 2 } } }))).not.toThrow();
  });

  it("a variant whose own strategy has a cost budget (HAFixAgent's $1) is held to the same rule as a single run", () => {
    const unpriced = { provider: 'custom' as const, baseURL: 'http://127.0.0.1:8000/v1', model: 'local-model' };
    const hafix = [{ name: 'hafix', preset: 'hafixagent' }];
    const refused = spec({ model: unpriced, variants: hafix });
    expect(() => checkPrices(refused, resolveVariants(refused))).toThrow(/^variants\.hafix: its strategy has a cost budget \(\$1\), but model "local-model" has no price/);
    const free = spec({ model: unpriced, variants: hafix, budgets: { unpricedModel: 'count-as-free' } });
    const strategies = resolveVariants(free);
    expect(() => checkPrices(free, strategies)).not.toThrow();
    // the choice reaches every run's own check
    const [cell] = planCells(free, [{ id: 'textkit-1' }], { 'textkit-1': 0 });
    const request = cellRequest(free, cell!, strategies.get('hafix')!, modelSettings(free, undefined), { url: 'http://127.0.0.1:1', token: 't' });
    expect((request.overrides as { budgets?: { unknownPrice?: string } }).budgets?.unknownPrice).toBe('ignore');
  });
});
