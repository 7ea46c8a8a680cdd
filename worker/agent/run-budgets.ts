// A run's spending (tokens, cost) and the budget checks made between steps. The StrategySpec's `budgets` are the
// limits; the reasons written here are the ones worker/experiments/cell-verdict.ts recognises as budget ends.
import type { LlmProvider } from '../contracts/llm.ts';
import type { BudgetSpec } from '../contracts/strategy.ts';
import type { RunnerOutage, TrajStep } from '../contracts/trajectory.ts';
import type { End } from './loop-memory.ts';
import type { runCosts } from '../contracts/prices.ts';
import { abortReasonText } from '../llm/abort-reason.ts';
import { RunAbortedError, USER_STOP_REASON } from './run-control.ts';

type AuxiliaryUse = NonNullable<TrajStep['auxiliary']>;
type AbandonedStep = NonNullable<RunnerOutage['abandonedStep']>;

/**
 * Tokens and cost so far, kept as steps are pushed (budgets are checked every cycle; a resumed run starts from its
 * steps). A step without a known price adds nothing to `cost` — the cost budget holds the priced steps to it, and
 * budgets.unknownPrice "stop" ends the run at such a step instead — and makes the run's total unknown (null).
 */
export class RunSpending {
  input = 0;
  output = 0;
  cost = 0;
  unpriced = 0;
  private auxiliaryUse: AuxiliaryUse | undefined;

  constructor(private readonly costOf: ReturnType<typeof runCosts>) {}

  countStep(s: TrajStep): void {
    this.input += s.tokens.input + (s.auxiliary?.inputTokens ?? 0);
    this.output += s.tokens.output + (s.auxiliary?.outputTokens ?? 0);
    for (const cost of s.auxiliary ? [s.costUsd, s.auxiliary.costUsd] : [s.costUsd]) this.addCost(cost);
  }

  /** a model call whose step was abandoned to a runner outage: paid for all the same */
  countAbandoned(a: AbandonedStep): void {
    this.input += a.tokens.input;
    this.output += a.tokens.output;
    this.addCost(a.costUsd);
  }

  /** the run's cost, null when a step's price was unknown */
  get totalCostUsd(): number | null {
    return this.unpriced ? null : this.cost;
  }

  /** The second model as the tools see it: its calls are counted on the step whose tool made them. */
  meterAuxiliary(inner: LlmProvider | undefined, redact: (text: string) => string): LlmProvider | undefined {
    return (
      inner && {
        ...inner,
        complete: async (req) => {
          const res = { ...(await inner.complete(req)) };
          res.content = redact(res.content);
          const cost = this.costOf(res.model, res.usage);
          const use = (this.auxiliaryUse ??= { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });
          use.calls++;
          use.inputTokens += res.usage.inputTokens;
          use.outputTokens += res.usage.outputTokens;
          use.costUsd = use.costUsd === null || cost === null ? null : use.costUsd + cost;
          return res;
        },
      }
    );
  }

  /** the second model's use since the last call (the tool that just ran), for its step */
  takeAuxiliaryUse(): AuxiliaryUse | undefined {
    const use = this.auxiliaryUse;
    this.auxiliaryUse = undefined;
    return use;
  }

  private addCost(cost: number | null): void {
    if (cost === null) this.unpriced++;
    else this.cost += cost;
  }
}

/** The first budget the run has reached, checked before every step. */
export function budgetExceeded(b: BudgetSpec, spent: RunSpending, used: { steps: number; wallMs: number; validations: number }): End | undefined {
  if (used.steps >= b.maxSteps) return { kind: 'budget', reason: `step budget reached (${b.maxSteps} steps)` };
  if (b.maxTokens !== null && spent.input + spent.output >= b.maxTokens) return { kind: 'budget', reason: `token budget reached (${spent.input + spent.output} ≥ ${b.maxTokens})` };
  if (b.maxCostUsd !== null && spent.cost >= b.maxCostUsd) return { kind: 'budget', reason: `cost budget reached ($${spent.cost.toFixed(4)} ≥ $${b.maxCostUsd})` };
  if (b.maxWallMs !== null && used.wallMs >= b.maxWallMs) return { kind: 'budget', reason: `wall-time budget reached (${Math.round(used.wallMs / 1000)} s ≥ ${b.maxWallMs / 1000} s)` };
  if (b.maxValidations !== null && used.validations >= b.maxValidations) return { kind: 'budget', reason: `validation budget reached (${used.validations} runner validations)` };
  return undefined;
}

/** budgets.unknownPrice "stop": a step whose model has no price ends the run */
export function unknownPriceEnd(b: BudgetSpec, step: TrajStep): End | undefined {
  if (step.costUsd !== null || b.unknownPrice !== 'stop') return undefined;
  return { kind: 'budget', reason: `no price known for model ${step.response?.model}: add it to the price table, or set budgets.unknownPrice to "ignore"` };
}

/** The run's abort signal fired: the caller stopped it (`userStopReason`: the stop's sentence), or else the wall-time budget's timer did. */
export function abortedEnd(b: BudgetSpec, userStopReason: string | undefined, whileWaitingForRunner = false): End {
  const waiting = whileWaitingForRunner ? ' while waiting for the runner' : '';
  return userStopReason !== undefined
    ? { kind: 'user-stop', reason: whileWaitingForRunner ? `${userStopReason} (while waiting for the runner)` : userStopReason }
    : { kind: 'budget', reason: `${wallTimeReason(b)}${waiting}` };
}

const wallTimeReason = (b: BudgetSpec) => `wall-time budget reached (${(b.maxWallMs ?? 0) / 1000} s)`;

/**
 * The run's abort signal: the wall-time budget's timer (counting the time a continued run had already used) and the
 * caller's signal both fire it, aborting the model call in flight. `stop()` ends both: after the loop (the wrap-up
 * has its own limits) and however the run ends. It is aborted with a reason that says why (RunAbortedError: the
 * caller's own sentence, else "stopped by the user"; or the wall-time budget), which the calls it cuts short end with.
 */
export function runAbort(b: BudgetSpec, wallMsBefore: number, outer: AbortSignal | undefined): { signal: AbortSignal; stop: () => void } {
  const abort = new AbortController();
  const onOuterAbort = () => abort.abort(new RunAbortedError(abortReasonText(outer, USER_STOP_REASON)));
  // an already aborted signal fires no more 'abort' events
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  const wallTimer = b.maxWallMs ? setTimeout(() => abort.abort(new RunAbortedError(wallTimeReason(b))), Math.max(0, b.maxWallMs - wallMsBefore)) : undefined;
  const stop = () => {
    clearTimeout(wallTimer);
    outer?.removeEventListener('abort', onOuterAbort);
  };
  return { signal: abort.signal, stop };
}
