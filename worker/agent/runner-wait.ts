// The run's side of a runner outage (the waiting itself is runner-outage.ts; a refused token is one too): outages go
// on the record, the run is recorded and announced as waiting-for-runner, a step whose tool lost the runner is
// abandoned — never shown to the model — and when the retries run out the run is set aside, resumable.
import type { Validator } from '../contracts/tools.ts';
import type { RunnerOutage, Trajectory, TrajStep } from '../contracts/trajectory.ts';
import type { AgentEvent } from './agent-events.ts';
import type { RunRecorder } from './run-recorder.ts';
import { guardValidator, runnerWaitPolicy, type GuardedValidator, type RunnerWaitPolicy } from './runner-outage.ts';

type AbandonedStep = NonNullable<RunnerOutage['abandonedStep']>;

export class RunnerWait {
  /** where validations happen now, for the outage's record */
  phase: RunnerOutage['phase'] = 'startup';
  /** the step whose tool is running, if any */
  stepInFlight: number | undefined;
  private readonly policy: RunnerWaitPolicy;

  constructor(
    private readonly traj: Trajectory,
    private readonly validator: Validator,
    policy: Partial<RunnerWaitPolicy> | undefined,
    private readonly recorder: RunRecorder,
    private readonly redact: (text: string) => string,
    private readonly emit: (event: AgentEvent) => void,
  ) {
    this.policy = runnerWaitPolicy(policy);
  }

  /** puts an outage on the record (once) */
  note(outage: RunnerOutage): void {
    this.traj.runnerOutages ??= [];
    if (!this.traj.runnerOutages.includes(outage)) this.traj.runnerOutages.push(outage);
  }

  /** The validator the tools get: it waits for an unavailable runner, recording and announcing the wait. */
  guard(signal: AbortSignal): GuardedValidator {
    const runId = this.traj.runId;
    return guardValidator(this.validator, this.policy, {
      signal,
      phase: () => this.phase,
      stepIndex: () => this.stepInFlight,
      redact: this.redact,
      onWait: async (outage, retryInMs) => {
        this.note(outage);
        // announced once the record says so
        await this.recorder.recordWaiting();
        this.emit({ type: 'waiting-for-runner', runId, attempt: outage.attempts, maxRetries: this.policy.maxRetries, retryInMs, error: outage.lastError.message });
      },
      onBack: async (outage) => {
        this.traj.status = 'running';
        this.emit({ type: 'runner-back', runId, waitedMs: outage.waitedMs });
      },
    });
  }

  /** After a tool ran: the outages it met go on the record; `lost` is the one whose retries ran out, if any. */
  collect(guard: GuardedValidator): { waitedMs?: number; lost?: RunnerOutage } {
    const outages = guard.takeOutages();
    outages.forEach((o) => this.note(o));
    const lost = guard.takeUnresolved();
    return { ...(outages.length ? { waitedMs: outages.reduce((sum, o) => sum + o.waitedMs, 0) } : {}), ...(lost ? { lost } : {}) };
  }

  /** The retries ran out: the run is recorded as waiting-for-runner, resumable, and returned without an outcome. */
  async setAside(outage: RunnerOutage): Promise<Trajectory> {
    // a refused token or origin is not fixed by waiting for the runner to come back: say what continuing needs
    const when =
      outage.lastError.code === 'unauthorized'
        ? "once the runner's token is the one Settings → Runner (or --token) gives"
        : outage.lastError.code === 'forbidden-origin'
          ? "once the runner allows this page's origin"
          : 'once the runner is back';
    const reason = `the runner was unavailable (${outage.lastError.message}) through ${outage.attempts} attempts; the run is set aside as waiting-for-runner: continue it ${when}`;
    await this.recorder.recordSetAside();
    this.emit({ type: 'set-aside', runId: this.traj.runId, reason });
    return this.traj;
  }
}

/** The model call of a step abandoned to an outage, as the outage records it (it was paid for all the same). */
export function abandonedStep(step: TrajStep, reply: string, auxiliary: TrajStep['auxiliary']): AbandonedStep {
  return {
    index: step.index,
    reply,
    model: step.response?.model ?? '',
    tokens: { input: step.tokens.input + (auxiliary?.inputTokens ?? 0), output: step.tokens.output + (auxiliary?.outputTokens ?? 0) },
    costUsd: step.costUsd === null || auxiliary?.costUsd === null ? null : (step.costUsd ?? 0) + (auxiliary?.costUsd ?? 0),
  };
}
