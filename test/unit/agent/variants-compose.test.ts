// Variants compose (worker/strategies/presets/preset-variants.ts): for every preset, every pair of its variants in both orders —
// and every subset in two orders — resolves to one strategy that still shows each variant's effect, or to the same
// refusal naming both variants, which `listPresets().refusedPairs` documents. Generated from the presets themselves,
// so a variant added later is covered too.
import { describe, expect, it } from 'vitest';
import { listPresets, resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { repairAgentVariants } from '../../../worker/strategies/presets/repairagent.ts';
import { hafixAgentVariants } from '../../../worker/strategies/presets/hafixagent.ts';
import { passerineVariants } from '../../../worker/strategies/presets/passerine.ts';
import { STOP_RULES_VARIANT, type Variant } from '../../../worker/strategies/presets/index.ts';
import type { StrategySpec } from '../../../worker/contracts/strategy.ts';

const DEFINITIONS: Record<string, Variant[]> = {
  repairagent: [...repairAgentVariants, STOP_RULES_VARIANT],
  hafixagent: [...hafixAgentVariants, STOP_RULES_VARIANT],
  passerine: [...passerineVariants, STOP_RULES_VARIANT],
  oneshot: [STOP_RULES_VARIANT],
};

type Outcome = { strategy: StrategySpec } | { error: string };
function resolve(preset: string, variants: string[]): Outcome {
  try {
    return { strategy: resolveStrategy(preset, { variants }) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function valueAt(obj: unknown, path: string[]): unknown {
  return path.reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], obj);
}

/** [path, value] of everything a variant sets (objects walked into, arrays one value) */
function leaves(set: Record<string, unknown>, prefix: string[] = []): [string[], unknown][] {
  return Object.entries(set).flatMap(([k, v]) => (v && typeof v === 'object' && !Array.isArray(v) ? leaves(v as Record<string, unknown>, [...prefix, k]) : [[[...prefix, k], v] as [string[], unknown]]));
}

/**
 * The variant's intended effect is in the strategy: every value it sets, and none of the tools it removes anywhere.
 * Lists it sets (states, transitions) may have lost exactly the tools another variant removes (`removable`).
 */
function expectEffect(strategy: StrategySpec, v: Variant, removable: Set<string>, context: string): void {
  const kept = (tools: string[]) => tools.filter((t) => !removable.has(t));
  for (const [path, value] of leaves(v.set ?? {})) {
    const key = path.join('.');
    if (key === 'states') {
      const states = value as { name: string; tools: string[] }[];
      expect(strategy.states.map((s) => s.name), `${context}: ${v.id} states`).toEqual(states.map((s) => s.name));
      states.forEach((s, i) => {
        expect(kept(strategy.states[i]!.tools), `${context}: ${v.id} state ${s.name}`).toEqual(kept(s.tools));
        expect(s.tools, `${context}: ${v.id} state ${s.name}`).toEqual(expect.arrayContaining(strategy.states[i]!.tools));
      });
    } else if (key === 'transitions' || key === 'startup') {
      const own = (value as { tool: string }[]).filter((x) => !removable.has(x.tool));
      expect(strategy[key].filter((x) => !removable.has(x.tool)), `${context}: ${v.id} ${key}`).toEqual(own.map((x) => expect.objectContaining(x)));
    } else {
      expect(valueAt(strategy, path), `${context}: ${v.id} sets ${key}`).toEqual(value);
    }
  }
  for (const tool of v.removeTools ?? []) {
    expect(strategy.states.flatMap((s) => s.tools), `${context}: ${v.id} removes ${tool} from the states`).not.toContain(tool);
    expect(strategy.transitions.map((t) => t.tool), `${context}: ${v.id} removes ${tool} from the transitions`).not.toContain(tool);
    expect(strategy.startup.map((c) => c.tool), `${context}: ${v.id} removes ${tool} from startup`).not.toContain(tool);
  }
}

describe('every pair of every preset\'s variants, both orders', () => {
  for (const preset of listPresets()) {
    const defs = DEFINITIONS[preset.id]!;
    const removable = new Set(defs.flatMap((d) => d.removeTools ?? []));
    it(`${preset.id}: the definitions are the listed variants`, () => {
      expect(defs.map((v) => v.id)).toEqual(preset.variants.map((v) => v.id));
    });
    for (const [i, a] of defs.entries()) {
      for (const b of defs.slice(i + 1)) {
        it(`${preset.id}: ${a.id} + ${b.id}`, () => {
          const ab = resolve(preset.id, [a.id, b.id]);
          const ba = resolve(preset.id, [b.id, a.id]);
          expect(ba).toEqual(ab);
          const documented = preset.refusedPairs.find((r) => r.pair.includes(a.id) && r.pair.includes(b.id));
          if ('error' in ab) {
            expect(ab.error).toContain(a.id);
            expect(ab.error).toContain(b.id);
            expect(ab.error).toMatch(/conflict/);
            expect(documented?.reason).toBe(ab.error);
          } else {
            expect(documented).toBeUndefined();
            expectEffect(ab.strategy, a, removable, `${a.id}+${b.id}`);
            expectEffect(ab.strategy, b, removable, `${a.id}+${b.id}`);
          }
        });
      }
    }
  }
});

describe('any combination, in any order', () => {
  for (const preset of listPresets()) {
    it(`${preset.id}: every subset of its variants resolves the same forwards and backwards (or is refused as a documented pair)`, () => {
      const ids = preset.variants.map((v) => v.id);
      const refused = preset.refusedPairs.map((r) => r.pair);
      const removable = new Set(DEFINITIONS[preset.id]!.flatMap((d) => d.removeTools ?? []));
      for (let mask = 1; mask < 1 << ids.length; mask++) {
        const subset = ids.filter((_, i) => mask & (1 << i));
        const forwards = resolve(preset.id, subset);
        const backwards = resolve(preset.id, [...subset].reverse());
        const rotated = resolve(preset.id, [...subset.slice(1), subset[0]!]);
        expect(backwards, subset.join(',')).toEqual(forwards);
        expect(rotated, subset.join(',')).toEqual(forwards);
        const hasRefusedPair = refused.some(([x, y]) => subset.includes(x) && subset.includes(y));
        expect('error' in forwards, `${subset.join(',')}: ${'error' in forwards ? forwards.error : 'resolved'}`).toBe(hasRefusedPair);
        if ('strategy' in forwards) for (const v of DEFINITIONS[preset.id]!.filter((d) => subset.includes(d.id))) expectEffect(forwards.strategy, v, removable, subset.join(','));
      }
    });
  }
});

describe('the issue\'s cases', () => {
  const SEARCH = ['search_code_base', 'find_similar_api_calls', 'get_classes_and_methods'];
  it('no-search-tools then no-state-machine keeps the search tools out; the reverse order gives the same strategy', () => {
    const a = resolveStrategy('repairagent', { variants: ['no-search-tools', 'no-state-machine'] });
    const b = resolveStrategy('repairagent', { variants: ['no-state-machine', 'no-search-tools'] });
    expect(b).toEqual(a);
    expect(a.states.map((s) => s.name)).toEqual(['repair', 'done']);
    for (const tool of SEARCH) expect(a.states.flatMap((s) => s.tools)).not.toContain(tool);
    expect(a.states[0]!.tools).toContain('write_fix');
    expect(a.startState).toBe('repair');
  });

  it('an override that rebuilds the states cannot bring a removed tool back', () => {
    const s = resolveStrategy('repairagent', {
      variants: ['no-search-tools'],
      overrides: { states: [{ name: 'only', description: 'everything', tools: ['search_code_base', 'write_fix', 'goal_accomplished'] }], startState: 'only', finalStates: [], transitions: [] },
    });
    expect(s.states).toEqual([{ name: 'only', description: 'everything', tools: ['write_fix', 'goal_accomplished'] }]);
  });

  it('two history heuristics are refused, naming both and the field', () => {
    expect(() => resolveStrategy('hafixagent', { variants: ['fn_pair', 'fn_all'] })).toThrow(
      'preset hafixagent: variants fn_all and fn_pair conflict — both set toolSettings.historyContext ("fn_all" vs "fn_pair"); choose one of them.',
    );
    expect(listPresets().find((p) => p.id === 'hafixagent')!.refusedPairs.map((r) => r.pair)).toEqual([
      ['fn_all', 'fn_pair'],
      ['fn_all', 'fl_diff'],
      ['fn_pair', 'fl_diff'],
    ]);
  });

  it('a variant named twice counts once; an unknown one is named', () => {
    expect(resolveStrategy('repairagent', { variants: ['code', 'code'] })).toEqual(resolveStrategy('repairagent', { variants: ['code'] }));
    expect(() => resolveStrategy('repairagent', { variants: ['no-search-tool'] })).toThrow(/preset repairagent has no variant "no-search-tool": use one of code, enforced-states/);
  });

  it("a tool removal refuses a state that offers every tool ('*')", () => {
    expect(() => resolveStrategy('repairagent', { variants: ['no-search-tools'], overrides: { states: [{ name: 'all', description: '', tools: ['*'] }], startState: 'all', finalStates: [], transitions: [] } })).toThrow(
      /state "all" offers every tool \('\*'\), so find_similar_api_calls, get_classes_and_methods, search_code_base cannot be removed from it/,
    );
  });
});
