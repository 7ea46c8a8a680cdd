// How the loop ends. Whatever ends a run — a budget, the stop signal, the pause gate's stop, a failed model call, a
// stop rule — throws RunEnded with the End the outcome is made from, and runLoop catches it in one place (as
// mini-swe-agent raises its limits). A runner lost for good throws RunSetAside instead: that run has no End, it is
// recorded as waiting-for-runner, to be continued.
import type { BudgetSpec } from '../contracts/strategy.ts';
import type { RunnerOutage, TrajStep } from '../contracts/trajectory.ts';
import type { End } from './loop-memory.ts';
import { abortedEnd, budgetExceeded, unknownPriceEnd, type RunSpending } from './run-budgets.ts';
import { USER_STOP_REASON, type RunControl } from './run-control.ts';

export class RunEnded extends Error {
  constructor(readonly end: End) {
    super(end.reason);
    this.name = 'RunEnded';
  }
}

export class RunSetAside extends Error {
  constructor(readonly outage: RunnerOutage) {
    super(outage.lastError.message);
    this.name = 'RunSetAside';
  }
}

/** The End an error carries; any other error is the run's failure and propagates. */
export function endOf(err: unknown): End {
  if (err instanceof RunEnded) return err.end;
  throw err;
}

/** A person's stop; `reason` is the sentence it was given ("Stopped by you at step 3"). */
export const userStop = (reason = USER_STOP_REASON): End => ({ kind: 'user-stop', reason });

/**
 * Before a step: the first budget the run has reached, else its abort signal (the caller's stop — `userStopReason`, its
 * sentence — or the wall-time timer).
 */
export function throwIfLimitReached(budgets: BudgetSpec, spent: RunSpending, used: { steps: number; wallMs: number; validations: number }, signal: AbortSignal, userStopReason: string | undefined): void {
  const end = budgetExceeded(budgets, spent, used) ?? (signal.aborted ? abortedEnd(budgets, userStopReason) : undefined);
  if (end) throw new RunEnded(end);
}

/** After a step is recorded: the end its stop rules chose, else budgets.unknownPrice "stop", else a stop the user asked for. */
export function throwIfStepEnded(end: End | undefined, budgets: BudgetSpec, step: TrajStep, control: RunControl): void {
  const ended = end ?? unknownPriceEnd(budgets, step) ?? (control.stopRequested ? userStop(control.stopReason) : undefined);
  if (ended) throw new RunEnded(ended);
}
