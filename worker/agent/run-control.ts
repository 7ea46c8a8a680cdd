// Pause / resume / step / stop for a running agent. The loop awaits gate() before every step. A stop says why in a
// sentence ("Stopped by you at step 3"): the run's outcome records it, and the run's abort signal carries it as its
// reason (RunAbortedError), so every call the stop cuts short — the model's, a runner validation, a wait for the
// runner — ends with that sentence instead of the platform's "signal is aborted without reason".

/** A stop without a sentence of its own (a caller that aborts the run's signal, or stops its control, with no reason). */
export const USER_STOP_REASON = 'stopped by the user';

/**
 * The reason a run's abort signal is aborted with: a person's stop or the wall-time budget, as a sentence. Named
 * AbortError and coded 'aborted' like the platform's own abort errors, so the code that tells an abort from a failure
 * (the toolkits, the runner client, the model SDK) treats it as one.
 */
export class RunAbortedError extends Error {
  readonly code = 'aborted';
  constructor(message: string) {
    super(message);
    this.name = 'AbortError';
  }
}

/** Where a run was when a person stopped it: the step in flight (0-based), if any, and the steps done. */
export interface StopPoint {
  stepInFlight?: number;
  stepsDone: number;
}

/** The sentence a person's stop ends the run with, numbering steps from 1 as the run view does. */
export function stopSentence(at: StopPoint): string {
  if (at.stepInFlight !== undefined) return `Stopped by you at step ${at.stepInFlight + 1}`;
  if (at.stepsDone > 0) return `Stopped by you after step ${at.stepsDone}`;
  return 'Stopped by you before the first step';
}

export class RunControl {
  private paused = false;
  private stepsAllowed = Number.POSITIVE_INFINITY;
  private wake: (() => void) | undefined;
  private stopped = false;
  private reason: string | undefined;

  get isPaused(): boolean {
    return this.paused;
  }
  get stopRequested(): boolean {
    return this.stopped;
  }
  /** why the run was stopped, once it was: the sentence given to stop(), else USER_STOP_REASON */
  get stopReason(): string | undefined {
    return this.stopped ? (this.reason ?? USER_STOP_REASON) : undefined;
  }
  /** finish the step in flight, then wait */
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
    this.stepsAllowed = Number.POSITIVE_INFINITY;
    this.wake?.();
  }
  /** run exactly one more step, then pause again */
  step(): void {
    this.paused = false;
    this.stepsAllowed = 1;
    this.wake?.();
  }
  /** end the run after the step in flight (outcome status 'stopped', `reason` its outcome's reason) */
  stop(reason?: string): void {
    if (!this.stopped) this.reason = reason;
    this.stopped = true;
    this.wake?.();
  }

  /** Resolves 'go' when the next step may run, 'stop' when the run must end. Calls onPause once per pause. */
  async gate(onPause?: () => Promise<void> | void): Promise<'go' | 'stop'> {
    if (this.stepsAllowed <= 0) this.paused = true;
    let notified = false;
    while (this.paused && !this.stopped) {
      if (!notified) {
        notified = true;
        await onPause?.();
        // resume()/step() may have been called while onPause ran: check again before waiting
        continue;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
    if (this.stopped) return 'stop';
    if (this.stepsAllowed !== Number.POSITIVE_INFINITY) this.stepsAllowed--;
    return 'go';
  }
}
