// Engine-time accounting. Each step's `latencyMs.engine` is the wall time of its accounting window minus the
// model call, the tool call and time spent paused. A window runs from the moment the previous step was pushed to
// the moment this step is pushed, so it holds everything the loop does between two steps on the way to the next
// tool call: emitting the previous step, budget and gate checks, prompt build, parse, rectify and bookkeeping.
// Persisting the previous step and hashing this prompt happen while the model call and then the tool call are in
// flight (see `whileModelWorks` in run-recorder.ts): that time is inside `model` (or `tool`) and shown as
// `background`; the loop waits for it only before pushing the step, and such a wait counts as engine time. The value
// is final when the step is pushed, so a step is never changed afterwards — except the last one: after the loop, the
// time since it was pushed (emitting it, starting its record, the last checks) is added to it, in a replaced step
// object, before the final record. Run setup (bug context, startup commands) and the end of the run (final patch,
// re-check, outcome, the final record) are not counted.
export class EngineTime {
  private windowStart = 0;
  private excluded = 0;

  /** opens the first window (after the run's setup) */
  start(): void {
    this.windowStart = performance.now();
  }

  /** time inside the window that is not the engine's: the model, the tool, a pause */
  exclude(ms: number): void {
    this.excluded += ms;
  }

  /** closes the current window and opens the next: the engine time spent in it */
  close(): number {
    const now = performance.now();
    const engine = now - this.windowStart - this.excluded;
    this.windowStart = now;
    this.excluded = 0;
    return Math.max(0, engine);
  }
}
