// The run's outcome: the final patch (or the best validated candidate), re-validated on the runner so the verdict
// does not rest on the agent's word, and — for scoring only — compared with the ground truth.
import type { PublicBug } from '../contracts/bug.ts';
import type { ValidationResult } from '../contracts/runner-api.ts';
import type { Outcome, RunnerOutage, TrajStep } from '../contracts/trajectory.ts';
import type { Overlay, Workspace } from '../contracts/workspace.ts';
import type { End } from './loop-memory.ts';
import { exactMatch, programOverlay, programPatch } from './outcome.ts';
import type { RunSpending } from './run-budgets.ts';
import type { GuardedValidator } from './runner-outage.ts';

export interface FinalRecheckInput {
  end: End;
  workspace: Workspace;
  bug: PublicBug;
  /** the best validated candidate, used when the workspace holds no patch */
  plausibleOverlay: Overlay | undefined;
  /** re-validate the final patch (default true) */
  recheck: boolean | undefined;
  /** the caller's stop: it cancels the re-check */
  signal: AbortSignal | undefined;
  /** the validator for the re-check, waiting for an unavailable runner until the given signal fires */
  guard: (signal: AbortSignal) => GuardedValidator;
  noteOutage: (outage: RunnerOutage) => void;
  groundTruthPatch: string | undefined;
  redact: (text: string) => string;
  steps: readonly TrajStep[];
  spent: RunSpending;
  validations: number;
  wallMs: () => number;
}

/** The outcome; undefined when the re-check could not reach the runner (the run is then set aside, to finish later). */
export async function finalOutcome(input: FinalRecheckInput): Promise<Outcome | undefined> {
  const { workspace: ws, bug, signal, redact } = input;
  let finalPatch = await programPatch(ws, bug);
  if (!finalPatch && input.plausibleOverlay) {
    ws.setOverlay(input.plausibleOverlay);
    finalPatch = await programPatch(ws, bug);
  }
  let recheck: ValidationResult | undefined;
  let plausible: boolean | null = null;
  let reason = input.end.reason;
  if (finalPatch && input.recheck !== false) {
    // a stop during the re-check cancels it (the outcome says so); so does it end a wait for the runner
    const recheckGuard = input.guard(signal ?? new AbortController().signal);
    try {
      // exactly the reported patch: the program files of the overlay, never the agent's edits to tests (testEdits none)
      const patched = ws.fork();
      patched.setOverlay(programOverlay(ws, bug));
      recheck = await recheckGuard.validator.validate(patched, { mode: 'failing-first', tests: bug.failingTests }, { testEdits: 'none', ...(signal ? { signal } : {}) });
      plausible = recheck.plausible;
    } catch (err) {
      recheckGuard.takeOutages().forEach(input.noteOutage);
      if (recheckGuard.takeUnresolved() && !signal?.aborted) return undefined;
      // cancelled by a stop: say so (the stop's own sentence is the reason already), not the abort error's message
      reason += signal?.aborted ? '; the final re-check was cancelled by the stop' : `; the final re-check failed: ${redact((err as Error).message)}`;
    }
  } else if (finalPatch) {
    plausible = input.steps.findLast((s) => s.verdict)?.verdict?.plausible ?? null;
  } else plausible = false;
  let match: boolean | null = null;
  if (input.groundTruthPatch) {
    try {
      match = finalPatch ? await exactMatch(ws, bug, input.groundTruthPatch) : false;
    } catch (err) {
      reason += `; exact match not computed: ${(err as Error).message}`;
    }
  }
  const e = input.end;
  // stopped: by the user during the loop, or during the re-check (which the stop cancelled)
  const status: Outcome['status'] = plausible ? 'plausible' : e.kind === 'error' ? 'error' : e.kind === 'user-stop' || signal?.aborted ? 'stopped' : 'implausible';
  return {
    status,
    reason: redact(reason),
    finalPatch: redact(finalPatch),
    plausible,
    ...(recheck ? { recheck } : {}),
    exactMatch: match,
    totals: {
      steps: input.steps.length,
      inputTokens: input.spent.input,
      outputTokens: input.spent.output,
      costUsd: input.spent.totalCostUsd,
      wallMs: input.wallMs(),
      validations: input.validations,
      formatErrors: input.steps.filter((s) => s.status === 'format-error').length,
    },
  };
}
