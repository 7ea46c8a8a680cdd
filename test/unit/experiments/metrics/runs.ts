// Real trajectories for the metrics tests: the agent loop with the real Passerine (HAFixAgent bash, RepairAgent) tools over the
// demo Clamp project (test/unit/agent/fixtures.ts), scripted replies with fixed token usage and a price table, so
// steps, tokens and cost are known by hand. Each trajectory is round-tripped through JSON and the Trajectory schema.
import type { PublicBug } from '../../../../worker/contracts/bug.ts';
import { parseTrajectory, type Trajectory } from '../../../../worker/contracts/trajectory.ts';
import { runAgent } from '../../../../worker/agent/loop.ts';
import { resolveStrategy } from '../../../../worker/strategies/presets/index.ts';
import { createScriptedProvider } from '../../../../worker/llm/scripted-provider.ts';
import { passerineTools } from '../../../../worker/tools/passerine/index.ts';
import { hafixTools } from '../../../../worker/tools/hafixagent/index.ts';
import { repairAgentTools } from '../../../../worker/tools/repairagent/index.ts';
import { demoBug, demoWorkspace, FakeValidator, GROUND_TRUTH, SRC } from '../../agent/fixtures.ts';

export { GROUND_TRUTH, SRC, SRC_TEXT, TEST } from '../../agent/fixtures.ts';

/** Every reply uses 1,000 input and 100 output tokens at $10 / $20 per million: $0.012 per step. */
export const USAGE = { inputTokens: 1000, outputTokens: 100 };
export const PRICES = { 'priced-model': { inputPerMTok: 10, outputPerMTok: 20 } };
export const COST_PER_STEP = 0.012;
export const TOKENS_PER_STEP = 1100;

const say = (thought: string, action: string) => `THOUGHT: ${thought}\nACTION: ${action}`;

/** Passerine scripts (replies in order). */
export const SCRIPTS = {
  /** cat, the developers' fix, test, finish: plausible, exact match — 4 steps */
  fix: [say('read', `cat ${SRC}`), say('fix the bound', `edit ${SRC} 13 13\n            return hi;`), say('check', 'test'), say('done', 'finish success')],
  /** the same fix with a comment line above it: plausible, not an exact match, an AST match — 4 steps */
  fixWithComment: [say('read', `cat ${SRC}`), say('fix', `edit ${SRC} 13 13\n            // the upper bound is inclusive\n            return hi;`), say('check', 'test'), say('done', 'finish success')],
  /** edits the wrong line and gives up without testing: implausible, NO_TEST — 3 steps */
  wrong: [say('read', `cat ${SRC}`), say('guess', `edit ${SRC} 10 10\n            return lo + 0;`), say('give up', 'finish failure')],
  /** three searches in a row, edits the README, gives up: NO_TEST, CONSECUTIVE_SEARCH — 5 steps */
  searchy: [say('look', 'code_search clamp'), say('look', 'code_search upper'), say('look', 'code_search bound'), say('note', 'edit README.md 1 1\n# demo (clamp)'), say('give up', 'finish failure')],
} as const;

export const STEPS = { fix: 4, fixWithComment: 4, wrong: 3, searchy: 5 } as const;

export interface RunOptions {
  bug?: PublicBug;
  /** outcome.totals.wallMs is measured, so tests set it to a chosen value */
  wallMs?: number;
  toolkit?: 'passerine' | 'hafixagent' | 'repairagent';
  /** the preset's named variants (e.g. RepairAgent's enforced-states) */
  variants?: string[];
}

export async function scriptedRun(replies: readonly string[], opts: RunOptions = {}): Promise<Trajectory> {
  const preset = opts.toolkit ?? 'passerine';
  // HAFixAgent and RepairAgent scripts end when their replies do
  const strategy = resolveStrategy(preset, { variants: opts.variants, ...(preset === 'passerine' ? {} : { overrides: { budgets: { maxSteps: replies.length } } }) });
  const t = await runAgent({
    strategy,
    preset,
    bug: opts.bug ?? demoBug,
    workspace: demoWorkspace(),
    validator: new FakeValidator(),
    llm: createScriptedProvider(replies.map((content) => ({ content, usage: USAGE })), { model: 'priced-model' }),
    tools: { passerine: passerineTools, hafixagent: hafixTools, repairagent: repairAgentTools }[preset],
    prices: PRICES,
    groundTruthPatch: GROUND_TRUTH,
  });
  const json = JSON.parse(JSON.stringify(t)) as Trajectory;
  if (opts.wallMs !== undefined && json.outcome) json.outcome.totals.wallMs = opts.wallMs;
  return parseTrajectory(json, `scripted ${preset} run`);
}

/** The demo bug under another id and category (same project and ground truth). */
export function demoBugAs(id: string, category: PublicBug['category']): PublicBug {
  return { ...demoBug, id, category };
}
