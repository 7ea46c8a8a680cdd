// Overrides cannot misspell their way into a default run: a key StrategySpec does not have is refused at any depth,
// naming the key and the nearest valid one (worker/contracts/strategy.ts, zod strict objects + fastest-levenshtein).
import { describe, expect, it } from 'vitest';
import { listPresets, resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { repairAgentVariants } from '../../../worker/strategies/presets/repairagent.ts';
import { hafixAgentVariants } from '../../../worker/strategies/presets/hafixagent.ts';
import { passerineVariants } from '../../../worker/strategies/presets/passerine.ts';
import { STOP_RULES_VARIANT } from '../../../worker/strategies/presets/index.ts';
import { parseStrategySpec, unknownOverrideKeys } from '../../../worker/contracts/strategy.ts';

describe('unknown override keys', () => {
  it.each([
    [{ budgets: { maxStepz: 3 } }, 'unknown key budgets.maxStepz — did you mean maxSteps?'],
    [{ budget: { maxSteps: 3 } }, 'unknown key budget — did you mean budgets?'],
    [{ middleware: { rectifyName: 'off' } }, 'unknown key middleware.rectifyName — did you mean rectifyNames?'],
    [{ memory: { cyclesRemembred: 1 } }, 'unknown key memory.cyclesRemembred — did you mean cyclesRemembered?'],
    [{ sampling: { temprature: 0.5 } }, 'unknown key sampling.temprature — did you mean temperature?'],
    [{ stop: { onPlausibel: true } }, 'unknown key stop.onPlausibel — did you mean onPlausible?'],
    [{ observation: { maxChar: 10 } }, 'unknown key observation.maxChar — did you mean maxChars?'],
    [{ prompt: { sytem: 'x' } }, 'unknown key prompt.sytem — did you mean system?'],
    [{ output: { fromat: 'bash-block' } }, 'unknown key output.fromat — did you mean format?'],
    [{ toolSettings: { searchMod: 'code' } }, 'unknown key toolSettings.searchMod — did you mean searchMode?'],
    [{ toolSettings: { historyLimits: { maxDifChars: 10 } } }, 'unknown key toolSettings.historyLimits.maxDifChars — did you mean maxDiffChars?'],
    [{ states: [{ name: 'a', description: '', toolz: [] }] }, 'unknown key states.0.toolz — did you mean tools?'],
    [{ transitions: [{ tool: 'x', to: 'a', fromm: '*' }] }, 'unknown key transitions.0.fromm — did you mean from?'],
    [{ startup: [{ tool: 'run_tests', arg: {} }] }, 'unknown key startup.0.arg — did you mean args?'],
  ])('%j is refused: %s', (overrides, message) => {
    expect(() => resolveStrategy('repairagent', { overrides })).toThrow(`overrides: ${message}`);
  });

  it('a key far from every valid one lists the valid keys instead of guessing', () => {
    expect(() => resolveStrategy('oneshot', { overrides: { budgets: { zzzzzzzz: 1 } } })).toThrow(
      'overrides: unknown key budgets.zzzzzzzz — budgets takes maxSteps, maxTokens, maxCostUsd, maxWallMs, maxValidations, unknownPrice',
    );
  });

  it('names every unknown key at once', () => {
    expect(() => resolveStrategy('oneshot', { overrides: { budgets: { maxStepz: 1 }, stop: { sameErrorTwise: true } } })).toThrow(
      'overrides: unknown key budgets.maxStepz — did you mean maxSteps?; unknown key stop.sameErrorTwise — did you mean sameErrorTwice?',
    );
  });

  it('free-form values (a startup command\'s args) take any key', () => {
    expect(resolveStrategy('repairagent', { overrides: { startup: [{ tool: 'run_tests', args: { anything: 1 } }] } }).startup).toEqual([{ tool: 'run_tests', args: { anything: 1 } }]);
  });

  it('a strategy file (parseStrategySpec) is held to the same schema', () => {
    const spec = { ...resolveStrategy('oneshot'), budgets: { ...resolveStrategy('oneshot').budgets, maxStepz: 2 } };
    expect(() => parseStrategySpec(spec, 'my-strategy.json')).toThrow('my-strategy.json is not a valid StrategySpec: unknown key budgets.maxStepz — did you mean maxSteps?');
  });

  it('every preset and every variant it ships uses known keys only', () => {
    for (const v of [...repairAgentVariants, ...hafixAgentVariants, ...passerineVariants, STOP_RULES_VARIANT]) expect(unknownOverrideKeys(v.set ?? {}), v.id).toEqual([]);
    for (const p of listPresets()) expect(() => parseStrategySpec(resolveStrategy(p.id), p.id)).not.toThrow();
  });
});
