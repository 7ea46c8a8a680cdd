// A step's call to the model: timed as the loop waits for it, a failure turned into the step's error and the run's end.
import { LlmError, type ChatMessage, type CompletionResponse, type LlmProvider } from '../contracts/llm.ts';
import type { StrategySpec } from '../contracts/strategy.ts';
import type { TrajStep } from '../contracts/trajectory.ts';
import { abortedEnd } from './run-budgets.ts';
import type { End } from './loop-memory.ts';

export type ModelAnswer = { ok: true; ms: number } | { ok: false; error: unknown; ms: number };

/**
 * Starts the model call at once (the caller starts background work behind it before awaiting). `ms` is the call as
 * the loop waits for it, provider and SDK work included. `onReply` takes the reply into the step; a provider that
 * throws instead of rejecting, or a reply `onReply` cannot read, counts as a failed call.
 */
export async function callModel(
  llm: LlmProvider,
  spec: StrategySpec,
  messages: ChatMessage[],
  signal: AbortSignal,
  onDelta: (text: string) => void,
  onReply: (res: CompletionResponse) => void,
): Promise<ModelAnswer> {
  const start = performance.now();
  let end: number | undefined;
  const call = Promise.resolve().then(() =>
    llm.complete({
      messages,
      temperature: spec.sampling.temperature,
      topP: spec.sampling.topP,
      seed: spec.sampling.seed,
      maxTokens: spec.sampling.maxTokens,
      purpose: 'agent',
      signal,
      onDelta,
    }),
  );
  try {
    const res = await call;
    end = performance.now();
    onReply(res);
    return { ok: true, ms: end - start };
  } catch (error) {
    return { ok: false, error, ms: (end ?? performance.now()) - start };
  }
}

/**
 * A failed model call: the step's status and error, and why the run ends (a stop — `userStopReason`, its sentence —
 * or the wall-time budget, else the error).
 */
export function modelFailure(err: unknown, step: TrajStep, budgets: StrategySpec['budgets'], userStopReason: string | undefined, redact: (text: string) => string): End {
  const e = err instanceof LlmError ? err : new LlmError(String((err as Error)?.message ?? err), 'other');
  step.status = e.code === 'aborted' ? 'stopped' : 'llm-error';
  step.error = { code: e.code, message: redact(e.message) };
  if (e.code === 'aborted') return abortedEnd(budgets, userStopReason);
  return { kind: 'error', reason: `model error (${e.code}): ${redact(e.message)}` };
}
