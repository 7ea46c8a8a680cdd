// Forking a saved run at step k: a new run whose first k model replies are the parent's recorded ones, served in
// order, so the real tools run the same calls against a fresh workspace and a real runner (the workspace after step k
// is the parent's, reached the way the parent reached it), then the chosen model goes on from step k + 1.
// A strategy edit may change the prompts of steps 1..k: the recorded reply is used all the same, and the fork records
// the first step whose prompt differed (forkOf.promptDiverged).
import { LlmError, type CompletionRequest, type CompletionResponse, type LlmProvider } from '../contracts/llm.ts';
import { parseStrategySpec, type StrategySpec } from '../contracts/strategy.ts';
import type { ForkStrategyEdit } from '../contracts/runs.ts';
import type { Trajectory, TrajStep } from '../contracts/trajectory.ts';
import { describeDivergence } from '../llm/divergence.ts';
import { abortedCall } from '../llm/abort-reason.ts';
import { PromptHasher } from '../llm/prompt-hash.ts';
import { deepMerge, isPlainObject, resolveStrategy } from '../strategies/presets/index.ts';

export type ForkOf = NonNullable<Trajectory['forkOf']>;

/** The preset, variants and overrides a fork records, and the strategy it runs. */
export interface ForkStrategy {
  preset: string;
  variants: string[];
  overrides: Record<string, unknown>;
  strategy: StrategySpec;
}

/**
 * Checks that `parent` can be forked at `atStep` (1-based: the steps replayed) and returns the step. Every refusal
 * names the run, the step and what to do instead.
 */
export function checkForkPoint(parent: Trajectory | undefined, runId: string, atStep: unknown): number {
  if (!parent) throw new Error(`There is no saved run ${runId} to fork: pick one from the Runs list (repairlab runs).`);
  if (parent.imported) throw new Error(`Run ${runId} was imported from a ${parent.imported.format} file: it has no RepairLab record of prompts to replay, so it cannot be forked.`);
  const n = parent.steps.length;
  if (n === 0) throw new Error(`Run ${runId} has no recorded steps to replay: it ended or was stopped before its first step. Start a new run instead.`);
  if (typeof atStep !== 'number' || !Number.isInteger(atStep) || atStep < 1) {
    throw new Error(`Fork step ${JSON.stringify(atStep)}: give a whole number from 1 to ${n}, the steps of run ${runId} to replay before the new model takes over.`);
  }
  if (atStep > n) throw new Error(`Run ${runId} has ${n} step${n === 1 ? '' : 's'}: it cannot be forked at step ${atStep}; give a step from 1 to ${n}.`);
  const unanswered = parent.steps.slice(0, atStep).find((s) => !s.response);
  if (unanswered) {
    const at = unanswered.index + 1;
    throw new Error(
      `Run ${runId} has no recorded model reply at step ${at} (${unanswered.error?.message ?? unanswered.status}), so it cannot be replayed up to step ${atStep}` +
        (at > 1 ? `; fork at step ${at - 1} or earlier.` : '.'),
    );
  }
  return atStep;
}

/** The fork's strategy: the parent's recorded one, a saved variant in its place, or the parent's overrides with more merged over. */
export function forkStrategy(parent: Trajectory, edit: ForkStrategyEdit = {}): ForkStrategy {
  if (edit.strategy && edit.overrides) throw new Error('Fork: give either a saved variant (strategy) or JSON overrides, not both.');
  if (edit.strategy) {
    const { preset, variants = [], overrides = {} } = edit.strategy;
    return { preset, variants, overrides, strategy: resolveStrategy(preset, { variants, overrides }) };
  }
  const { preset, variants, overrides } = parent.config;
  if (edit.overrides) {
    if (!isPlainObject(edit.overrides)) throw new Error('Fork overrides: give a JSON object of StrategySpec fields, e.g. {"budgets":{"maxSteps":10}}.');
    const merged = deepMerge(structuredClone(overrides), edit.overrides);
    return { preset, variants, overrides: merged, strategy: resolveStrategy(preset, { variants, overrides: merged }) };
  }
  // no edit: the strategy exactly as the parent ran it (even if the preset has changed since)
  return { preset, variants, overrides, strategy: parseStrategySpec(parent.config.strategy, `the strategy recorded with run ${parent.runId}`) };
}

/**
 * A provider that answers the first `forkOf.step` calls with the parent's recorded replies (and their recorded token
 * counts and model, so cost and tokens are the parent's), then hands every call to `next`. A prompt that differs
 * from the parent's is noted once, at its step, in `forkOf.promptDiverged` and in the step's response meta.
 * `firstCall`: calls the fork made before (a continued fork goes on from there).
 */
export function forkReplayProvider(parentSteps: readonly TrajStep[], forkOf: ForkOf, next: LlmProvider, firstCall = 0): LlmProvider {
  let call = firstCall;
  const hasher = new PromptHasher();
  const provider: LlmProvider & { config?: unknown } = {
    id: next.id,
    async complete(req: CompletionRequest): Promise<CompletionResponse> {
      if (call >= forkOf.step) return next.complete(req);
      if (req.signal?.aborted) throw abortedCall(req.signal);
      const started = performance.now();
      const recorded = parentSteps[call];
      if (!recorded?.response) throw new LlmError(`the fork cannot replay step ${call + 1}: run ${forkOf.runId}'s record of it is gone`, 'other');
      const reply = recorded.response;
      call++;
      const hash = await hasher.hashOrDigest(req.messages);
      const diverged = hash !== recorded.prompt.promptHash;
      if (diverged && !forkOf.promptDiverged) {
        const report = describeDivergence(call, recorded.prompt.promptHash, hash, recorded.prompt.messages, req.messages);
        forkOf.promptDiverged = { step: call, message: report.message.replace(/^replay diverged at model call \d+/, `the fork's prompt at step ${call} differs from run ${forkOf.runId}'s`) };
      }
      req.onDelta?.(reply.content);
      return {
        content: reply.content,
        model: reply.model,
        usage: { inputTokens: recorded.tokens.input, outputTokens: recorded.tokens.output },
        latencyMs: performance.now() - started,
        meta: {
          forkReplay: { runId: forkOf.runId, step: call },
          ...(recorded.tokens.estimated ? { usageEstimated: true } : {}),
          ...(diverged ? { diverged: true } : {}),
        },
      };
    },
  };
  // the record names the fork's own model (publicModelConfig reads `config`)
  const config = (next as { config?: unknown }).config;
  if (config !== undefined) provider.config = config;
  return provider;
}

/** A record hook that writes `forkOf` into every saved copy of the fork (its divergence note is filled in as it runs). */
export function recordForkOf(forkOf: ForkOf, record: (t: Trajectory) => Promise<void>): (t: Trajectory) => Promise<void> {
  return (t) => {
    t.forkOf = { ...forkOf };
    return record(t);
  };
}

/**
 * The steps a continued fork still needs of its parent: none once its replay is done, else the parent's record
 * (refused, naming both runs, when the parent was deleted meanwhile).
 */
export function stepsStillToReplay(fork: Trajectory, parent: Trajectory | undefined): TrajStep[] {
  const forkOf = fork.forkOf!;
  if (fork.steps.length >= forkOf.step) return [];
  if (!parent) throw new Error(`Run ${fork.runId} is a fork of run ${forkOf.runId} stopped after ${fork.steps.length} of its ${forkOf.step} replayed steps, and run ${forkOf.runId} is gone: it cannot be continued. Fork another run instead.`);
  return parent.steps.slice(0, forkOf.step);
}
