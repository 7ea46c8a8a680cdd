// Why a call was aborted, in words a person reads. A run's signal is aborted with a reason that says why ("Stopped by
// you at step 3", "wall-time budget reached (600 s)": worker/agent/run-control.ts); a signal aborted without one
// carries the platform's bare AbortError, whose message ("signal is aborted without reason", "This operation was
// aborted") tells a person nothing — so that one is replaced by the caller's own sentence.
import { LlmError } from '../contracts/llm.ts';

/** The sentence `signal` was aborted with, or `fallback` when it was aborted without a reason of its own. */
export function abortReasonText(signal: AbortSignal | undefined, fallback: string): string {
  const reason: unknown = signal?.reason;
  if (typeof reason === 'string' && reason.trim()) return reason;
  // the platform's own reason is a DOMException (AbortError, or TimeoutError from AbortSignal.timeout)
  const platformReason = typeof DOMException !== 'undefined' && reason instanceof DOMException;
  if (reason instanceof Error && !platformReason && reason.message.trim()) return reason.message;
  return fallback;
}

/** The error a provider throws for a model call its signal aborted: the signal's reason as the message. */
export function abortedCall(signal: AbortSignal | undefined, fallback = 'the model call was aborted'): LlmError {
  return new LlmError(abortReasonText(signal, fallback), 'aborted');
}
