// Pause / resume / step / stop for a running agent. The loop awaits gate() before every step.
export class RunControl {
  private paused = false;
  private stepsAllowed = Number.POSITIVE_INFINITY;
  private wake: (() => void) | undefined;
  private stopped = false;

  get isPaused(): boolean {
    return this.paused;
  }
  get stopRequested(): boolean {
    return this.stopped;
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
  /** end the run after the step in flight (outcome status 'stopped') */
  stop(): void {
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
