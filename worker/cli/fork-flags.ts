// `repairlab fork`: its flags read into a ForkRequest (worker/contracts/runs.ts), and one line on what a fork did. The
// engine side is worker/runs/run-fork.ts and RunManager.forkRun.
import type { ForkRequest } from '../contracts/runs.ts';
import type { Trajectory } from '../contracts/trajectory.ts';

/** `repairlab fork <runId> --at <k> [--overrides <json>]`: the flags as a ForkRequest without its model and runner. */
export function forkRequestFromFlags(runId: string, flags: { at: string; overrides?: string }): Omit<ForkRequest, 'model' | 'runner'> {
  const text = flags.at.trim();
  const atStep = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(atStep) || atStep < 1) throw new Error(`--at ${flags.at}: give the number of steps to replay, a whole number from 1 (e.g. --at 3).`);
  if (flags.overrides === undefined) return { runId, atStep };
  let overrides: unknown;
  try {
    overrides = JSON.parse(flags.overrides);
  } catch (e) {
    throw new Error(`--overrides: not JSON (${(e as Error).message}); give StrategySpec fields, e.g. --overrides '{"budgets":{"maxSteps":10}}'.`);
  }
  if (!overrides || typeof overrides !== 'object' || Array.isArray(overrides)) throw new Error(`--overrides: give a JSON object of StrategySpec fields, e.g. {"budgets":{"maxSteps":10}}.`);
  return { runId, atStep, overrides: overrides as Record<string, unknown> };
}

/** One line on what a fork did: its parent, the replayed steps, where a prompt diverged, and its outcome. */
export function describeFork(t: Trajectory): string {
  const f = t.forkOf;
  if (!f) return `run ${t.runId} is no fork`;
  const diverged = f.promptDiverged ? `; the prompt diverged at step ${f.promptDiverged.step} (the recorded reply was used): ${f.promptDiverged.message}` : '; steps replayed with identical prompts';
  return `run ${t.runId}: fork of ${f.runId} at step ${f.step}${diverged}. ${t.outcome ? `${t.outcome.status} — ${t.outcome.reason}` : `unfinished (${t.status})`}`;
}
