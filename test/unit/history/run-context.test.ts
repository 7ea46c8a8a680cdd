// The history settings a strategy's toolSettings give a run (worker/history/run-context.ts): defaults, and a clear
// error naming the setting for anything else. The injection itself is tested through `repairlab run`
// (test/integration/cli/analysis-commands.test.ts).
import { describe, expect, it } from 'vitest';
import { historyRequest } from '../../../worker/history/run-context.ts';
import { DEFAULT_HEURISTIC_SETTINGS } from '../../../worker/history/heuristics.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';

describe('historyRequest', () => {
  it('asks for nothing without history (the preset default) and for the variant heuristic with the paper defaults', () => {
    expect(historyRequest(resolveStrategy('hafixagent').toolSettings)).toBeUndefined();
    expect(historyRequest({})).toBeUndefined();
    expect(historyRequest(resolveStrategy('hafixagent', { variants: ['fn_pair'] }).toolSettings)).toEqual({
      heuristic: 'fn_pair',
      options: { mode: 'paper', selector: 'first', seed: 0, settings: DEFAULT_HEURISTIC_SETTINGS },
    });
  });

  it('takes the extractor mode, selector, seed and the heuristic caps from toolSettings', () => {
    expect(historyRequest({ historyContext: 'fl_diff', historyMode: 'code', historySelector: 'random', historySeed: 7, historyLimits: { maxDiffChars: 200 } })).toEqual({
      heuristic: 'fl_diff',
      options: { mode: 'code', selector: 'random', seed: 7, settings: { ...DEFAULT_HEURISTIC_SETTINGS, maxDiffChars: 200 } },
    });
  });

  it.each([
    [{ historyContext: 'fn_none' }, /toolSettings\.historyContext "fn_none": use "non-history" or one of fn_all, fn_pair, fl_diff/],
    [{ historyContext: 'fn_all', historyMode: 'blame-all' }, /toolSettings\.historyMode "blame-all": use one of paper, code/],
    [{ historyContext: 'fn_all', historySelector: 'llm_judge' }, /"llm_judge" is not available in runs yet.*use "first" or "random"/],
    [{ historyContext: 'fn_all', historySeed: 1.5 }, /toolSettings\.historySeed 1\.5: use a whole number/],
    [{ historyContext: 'fn_all', historyLimits: { maxChars: 10 } }, /historyLimits\.maxChars: not a limit; use maxFiles, maxNames, maxFunctionChars, maxDiffChars/],
    [{ historyContext: 'fn_all', historyLimits: { maxNames: 0 } }, /historyLimits\.maxNames 0: use a positive whole number/],
  ])('refuses %j with a message naming the setting', (settings, message) => {
    expect(() => historyRequest(settings)).toThrow(message);
  });
});
