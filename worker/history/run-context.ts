// HAFixAgent's history section for a run. The strategy's toolSettings choose it — `historyContext` names the
// heuristic ('non-history', the default, adds nothing) and the optional `historyMode`, `historySelector`,
// `historySeed` and `historyLimits` set the extractor and the heuristic's caps — and the text reaches the prompt as
// the template variable `history_context` (the instance template's "Historical context" section).
// Computed once at the start of a run (and again on resume) by runAgent's `contextProvider`.
import type { BugSpec } from '../contracts/bug.ts';
import type { StrategySpec } from '../contracts/strategy.ts';
import type { RepoSession } from '../repo/session.ts';
import type { ExtractorOptions } from './extractor.ts';
import { DEFAULT_HEURISTIC_SETTINGS, HISTORY_HEURISTICS, historyContext, type HeuristicSettings, type HistoryHeuristic } from './heuristics.ts';

/** `toolSettings.historyContext` of a run without history (HAFixAgent's default). */
export const NO_HISTORY = 'non-history';

const MODES = ['paper', 'code'] as const;
const SELECTORS = ['first', 'random'] as const;

function choice<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  const also = name === 'historyContext' ? `"${NO_HISTORY}" or ` : '';
  throw new Error(`toolSettings.${name} ${JSON.stringify(value)}: use ${also}one of ${allowed.join(', ')}.`);
}

/** The extractor options and heuristic caps a strategy's toolSettings ask for; undefined for no history. */
export function historyRequest(toolSettings: Record<string, unknown>): { heuristic: HistoryHeuristic; options: ExtractorOptions & { settings: HeuristicSettings } } | undefined {
  const wanted = toolSettings.historyContext ?? NO_HISTORY;
  if (wanted === NO_HISTORY) return undefined;
  const heuristic = choice<HistoryHeuristic>('historyContext', wanted, HISTORY_HEURISTICS, HISTORY_HEURISTICS[0]);
  if (toolSettings.historySelector === 'llm_judge') {
    throw new Error('toolSettings.historySelector "llm_judge" is not available in runs yet (the judge needs a prompt of its own): use "first" or "random".');
  }
  const seed = toolSettings.historySeed ?? 0;
  if (typeof seed !== 'number' || !Number.isInteger(seed)) throw new Error(`toolSettings.historySeed ${JSON.stringify(seed)}: use a whole number.`);
  const limits = toolSettings.historyLimits ?? {};
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) throw new Error('toolSettings.historyLimits: use an object such as {"maxDiffChars": 3000}.');
  const settings = { ...DEFAULT_HEURISTIC_SETTINGS };
  for (const [key, value] of Object.entries(limits)) {
    if (!(key in DEFAULT_HEURISTIC_SETTINGS)) throw new Error(`toolSettings.historyLimits.${key}: not a limit; use ${Object.keys(DEFAULT_HEURISTIC_SETTINGS).join(', ')}.`);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new Error(`toolSettings.historyLimits.${key} ${JSON.stringify(value)}: use a positive whole number.`);
    settings[key as keyof HeuristicSettings] = value;
  }
  return {
    heuristic,
    options: {
      mode: choice('historyMode', toolSettings.historyMode, MODES, 'paper'),
      selector: choice('historySelector', toolSettings.historySelector, SELECTORS, 'first'),
      seed,
      settings,
    },
  };
}

/**
 * runAgent's `contextProvider` for a bug: `{ history_context }` from the history extractor when the strategy asks
 * for history, `{}` otherwise. The extractor reads the bug's history up to its buggy commit only (never the fix).
 */
export function historyContextProvider(session: RepoSession, bug: BugSpec): (strategy: StrategySpec) => Promise<Record<string, unknown>> {
  return async (strategy) => {
    const request = historyRequest(strategy.toolSettings);
    if (!request) return {};
    const context = await historyContext(session, bug, request.heuristic, request.options);
    return { history_context: context.text };
  };
}
