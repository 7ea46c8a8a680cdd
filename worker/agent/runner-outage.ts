// Runner outages are infrastructure, not the agent's doing: a validation that meets an unreachable runner, a 5xx
// answer, or a runner that refuses the token or the page (restarted with another token or without this origin) is
// not handed back to the tool (which would show the model an error and let the run spend its budget on it). The
// loop's validator waits instead — the run is `waiting-for-runner`, retried with a bounded backoff; each retry's 401
// reads the token again where the page's server serves it (RunnerClient tokenSource) — and answers once the runner
// takes the request; when the retries run out the run is set aside, resumable, with the outage on record.
import type { Validator } from '../contracts/tools.ts';
import type { RunnerOutage } from '../contracts/trajectory.ts';
import { RunnerError } from '../runner-client/runner-errors.ts';

export interface RunnerWaitPolicy {
  /** retries after the first failed attempt before the run is set aside (the runner client's own quick retries come first) */
  maxRetries: number;
  /** delay before the first retry, doubled for each further one */
  firstDelayMs: number;
  /** cap of one delay */
  maxDelayMs: number;
}

export const DEFAULT_RUNNER_WAIT: RunnerWaitPolicy = { maxRetries: 8, firstDelayMs: 2_000, maxDelayMs: 60_000 };

/** The policy with `given`'s fields checked (a bad value would make the wait unbounded or spin). */
export function runnerWaitPolicy(given: Partial<RunnerWaitPolicy> = {}): RunnerWaitPolicy {
  const policy = { ...DEFAULT_RUNNER_WAIT, ...given };
  for (const [name, value] of Object.entries(policy)) {
    if (!Number.isInteger(value) || value < 0) throw new Error(`runner wait policy: ${name} must be a whole number ≥ 0, not ${JSON.stringify(value)}.`);
  }
  return policy;
}

/** Raised to the tool when the retries ran out; the loop sets the run aside instead of showing the tool's result. */
export class RunnerUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunnerUnavailableError';
  }
}

/**
 * Unreachable, a 5xx answer, no answer in time, a refused token (401) or a refused page origin (403
 * forbidden-origin): the runner's trouble or its set-up's, never the patch's — a model cannot fix a token.
 */
export function isRunnerOutage(err: unknown): err is RunnerError {
  if (!(err instanceof RunnerError) && (err as Error | undefined)?.name !== 'RunnerError') return false;
  const e = err as RunnerError;
  return e.code === 'unreachable' || e.code === 'timeout' || e.code === 'server' || e.code === 'unauthorized' || e.code === 'forbidden-origin' || (e.status ?? 0) >= 500;
}

export interface OutageHooks {
  /** the run's stop / wall-time signal: it ends a wait */
  signal: AbortSignal;
  /** where the validation happened, for the record */
  phase: () => RunnerOutage['phase'];
  stepIndex: () => number | undefined;
  /** before each wait: the loop records the run as waiting-for-runner */
  onWait: (outage: RunnerOutage, retryInMs: number) => Promise<void>;
  /** the runner answered again */
  onBack: (outage: RunnerOutage) => Promise<void>;
  /** message text as recorded (redacted) */
  redact: (text: string) => string;
}

export interface GuardedValidator {
  validator: Validator;
  /** outages since the last call, resolved or not, in order */
  takeOutages(): RunnerOutage[];
  /** the first outage whose retries ran out (or that a stop ended) since the last call, if any (all are in takeOutages) */
  takeUnresolved(): RunnerOutage | undefined;
}

const nowIso = () => new Date().toISOString();

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function guardValidator(inner: Validator, policy: RunnerWaitPolicy, hooks: OutageHooks): GuardedValidator {
  let outages: RunnerOutage[] = [];
  let unresolved: RunnerOutage[] = [];

  async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
    let outage: RunnerOutage | undefined;
    let waitStarted = 0;
    for (let retry = 0; ; retry++) {
      try {
        const answer = await attempt();
        if (outage) {
          outage.resolved = true;
          outage.endedAt = nowIso();
          outage.waitedMs = Math.round(performance.now() - waitStarted);
          await hooks.onBack(outage);
        }
        return answer;
      } catch (err) {
        if (!isRunnerOutage(err)) throw err;
        if (!outage) {
          waitStarted = performance.now();
          outage = { phase: hooks.phase(), ...(hooks.stepIndex() !== undefined ? { stepIndex: hooks.stepIndex() } : {}), startedAt: nowIso(), attempts: 0, waitedMs: 0, resolved: false, lastError: { code: err.code, message: '' } };
          outages.push(outage);
        }
        outage.attempts = retry + 1;
        outage.lastError = { code: err.code, message: hooks.redact(err.message), ...(err.status ? { status: err.status } : {}) };
        const gaveUp = () => {
          outage!.endedAt = nowIso();
          outage!.waitedMs = Math.round(performance.now() - waitStarted);
          unresolved.push(outage!);
        };
        if (hooks.signal.aborted) {
          gaveUp();
          throw hooks.signal.reason;
        }
        if (retry >= policy.maxRetries) {
          gaveUp();
          throw new RunnerUnavailableError(`the runner is unavailable after ${outage.attempts} attempts (${outage.lastError.message})`);
        }
        const delay = Math.min(policy.firstDelayMs * 2 ** retry, policy.maxDelayMs);
        await hooks.onWait(outage, delay);
        try {
          await sleep(delay, hooks.signal);
        } catch (abortReason) {
          gaveUp();
          throw abortReason;
        }
      }
    }
  }

  const validator: Validator = {
    validate: (workspace, tests, opts) => withRetries(() => inner.validate(workspace, tests, opts)),
    ...(inner.validateMany ? { validateMany: (workspaces, tests, opts) => withRetries(() => inner.validateMany!(workspaces, tests, opts)) } : {}),
  };
  return {
    validator,
    takeOutages() {
      const taken = outages;
      outages = [];
      return taken;
    },
    takeUnresolved() {
      const first = unresolved[0];
      unresolved = [];
      return first;
    },
  };
}
