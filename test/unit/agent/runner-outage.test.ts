// Which runner errors are infrastructure (waited for, never shown to the model), and the wait policy's checks.
import { describe, expect, it } from 'vitest';
import { isRunnerOutage, runnerWaitPolicy, DEFAULT_RUNNER_WAIT } from '../../../worker/agent/runner-outage.ts';
import { errorFromResponse, RunnerError, unreachable } from '../../../worker/runner-client/runner-errors.ts';

describe('runner outages', () => {
  it('counts an unreachable runner, a timeout, any 5xx answer, a refused token or page origin as an outage; a refused request is not one', () => {
    expect(isRunnerOutage(unreachable('http://127.0.0.1:9', new Error('ECONNREFUSED')))).toBe(true);
    expect(isRunnerOutage(new RunnerError('timeout', 'no answer in time'))).toBe(true);
    expect(isRunnerOutage(errorFromResponse('http://r', 500, { error: 'boom' }))).toBe(true);
    expect(isRunnerOutage(errorFromResponse('http://r', 502, undefined))).toBe(true);
    expect(isRunnerOutage(errorFromResponse('http://r', 503, { error: 'no sandbox', code: 'sandbox' }))).toBe(true);
    expect(isRunnerOutage(errorFromResponse('http://r', 400, { error: 'bad overlay' }))).toBe(false);
    // a model cannot fix the runner's token or its allowed origins: waited for (the token read again), never shown to it
    expect(isRunnerOutage(errorFromResponse('http://r', 401, { error: 'token' }))).toBe(true);
    expect(isRunnerOutage(errorFromResponse('http://r', 403, { error: 'origin', code: 'forbidden-origin' }))).toBe(true);
    expect(isRunnerOutage(errorFromResponse('http://r', 403, { error: 'host', code: 'forbidden-host' }))).toBe(false);
    expect(isRunnerOutage(new Error('the patch does not apply'))).toBe(false);
  });

  it('takes a policy of whole numbers ≥ 0 and refuses anything else by name', () => {
    expect(runnerWaitPolicy()).toEqual(DEFAULT_RUNNER_WAIT);
    expect(runnerWaitPolicy({ maxRetries: 0 })).toEqual({ ...DEFAULT_RUNNER_WAIT, maxRetries: 0 });
    expect(() => runnerWaitPolicy({ maxRetries: -1 })).toThrow(/maxRetries must be a whole number ≥ 0, not -1/);
    expect(() => runnerWaitPolicy({ firstDelayMs: 1.5 })).toThrow(/firstDelayMs/);
  });
});
