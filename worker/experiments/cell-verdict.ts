// What a cell's run says about the cell: its status, and whether infrastructure (not the agent) ended it — a
// model endpoint that rate-limited or failed after the provider's own retries, an unreachable runner that set the
// run aside. Infrastructure is retried and never counted as the agent's failure.
import type { Trajectory } from '../contracts/trajectory.ts';
import type { CellStatus } from '../contracts/experiment.ts';

export interface RunVerdict {
  status: CellStatus;
  reason: string;
  /** infrastructure ended it and trying again may help */
  transient: boolean;
  /** unfinished and resumable (set aside while the runner was away): continue it rather than start again */
  resumable: boolean;
}

/** model error codes that say the endpoint, not the agent, failed (after the provider's own retries) */
const TRANSIENT_MODEL_ERRORS = new Set(['rate-limit', 'server', 'network']);
/** model error codes that no retry mends: the endpoint or its settings are wrong */
const BROKEN_MODEL_ERRORS = new Set(['auth', 'cors', 'bad-request', 'cassette-divergence', 'cassette-exhausted', 'other']);
/** the loop's reasons for ending on a budget (worker/agent/run-budgets.ts budgetExceeded and the unknown-price stop) */
const BUDGET_REASON = /budget reached|^no price known for model/;

export function classifyRun(t: Trajectory): RunVerdict {
  if (t.status !== 'finished' || !t.outcome) {
    return { status: 'infrastructure-error', reason: `run ${t.runId} was set aside unfinished (${t.status})`, transient: true, resumable: true };
  }
  const o = t.outcome;
  if (o.status === 'plausible') return { status: 'plausible', reason: o.reason, transient: false, resumable: false };
  const last = t.steps.at(-1);
  if (o.status === 'error' && last?.status === 'llm-error' && last.error) {
    if (TRANSIENT_MODEL_ERRORS.has(last.error.code)) return { status: 'infrastructure-error', reason: o.reason, transient: true, resumable: false };
    if (BROKEN_MODEL_ERRORS.has(last.error.code)) return { status: 'infrastructure-error', reason: o.reason, transient: false, resumable: false };
  }
  if (o.status === 'stopped') return { status: 'not-run', reason: o.reason, transient: false, resumable: false };
  if (BUDGET_REASON.test(o.reason)) return { status: 'budget', reason: o.reason, transient: false, resumable: false };
  return { status: 'not-plausible', reason: o.reason, transient: false, resumable: false };
}

export interface RunUsage {
  /** null: a call to a model without a price */
  costUsd: number | null;
  /** model calls answered: the agent's steps, a tool's calls to the second model, replies abandoned to a runner outage */
  calls: number;
  steps: number;
}

export function runUsage(t: Trajectory): RunUsage {
  let cost = 0;
  let unpriced = false;
  let calls = 0;
  const add = (c: number | null) => (c === null ? (unpriced = true) : (cost += c));
  for (const s of t.steps) {
    if (s.response) {
      calls++;
      add(s.costUsd);
    }
    if (s.auxiliary) {
      calls += s.auxiliary.calls;
      add(s.auxiliary.costUsd);
    }
  }
  for (const o of t.runnerOutages ?? []) {
    if (!o.abandonedStep) continue;
    calls++;
    add(o.abandonedStep.costUsd);
  }
  return { costUsd: unpriced ? null : cost, calls, steps: t.steps.length };
}

/** Sum of costs where null (unknown) wins unless `unknownAsZero`. */
export function addCost(a: number | null, b: number | null, unknownAsZero = false): number | null {
  if (a === null || b === null) return unknownAsZero ? (a ?? 0) + (b ?? 0) : null;
  return a + b;
}
