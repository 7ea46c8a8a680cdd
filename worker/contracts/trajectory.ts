// Trajectory: the complete, versioned record of one agent run — written after every step (so a reload
// loses at most the step in flight), exported as a file, replayed against its cassette. It never holds
// an API key: the model configuration is stored through a whitelist (see worker/agent/run-config.ts).
import { z } from 'zod';
import { ValidationResult } from './runner-api.ts';

export const TRAJECTORY_SCHEMA_VERSION = 1;
/** The RepairLab version every record names (versions.repairlab). */
export const REPAIRLAB_VERSION = '0.1.0';

export const TrajMessage = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() });

/** One repair the middleware made to a reply (tool/argument name, file path, JSON syntax, …). */
export const Rectification = z.object({
  kind: z.enum(['json-repair', 'tool-name', 'arg-name', 'file-path', 'repeat-refused', 'state-refused', 'format-error', 'whitespace', 'other']),
  from: z.string().optional(),
  to: z.string().optional(),
  message: z.string(),
});
export type Rectification = z.infer<typeof Rectification>;

export const ParsedCommand = z.object({
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
});
export type ParsedCommand = z.infer<typeof ParsedCommand>;

/**
 * A stretch of time in which the runner was unreachable or answered 5xx. Infrastructure, not the agent's doing: the
 * validation was retried with backoff (the run `waiting-for-runner` meanwhile) instead of being shown to the model.
 */
export const RunnerOutage = z.object({
  /** where the validation was asked for: a startup command, a step's tool, the final re-check */
  phase: z.enum(['startup', 'step', 'recheck']),
  /** the step in flight (phase "step") */
  stepIndex: z.number().int().nonnegative().optional(),
  startedAt: z.string(),
  endedAt: z.string().optional(),
  /** failed attempts (each after the runner client's own quick retries) */
  attempts: z.number().int().nonnegative(),
  /** time spent waiting for the runner, not charged to the agent (inside the step's tool time) */
  waitedMs: z.number().nonnegative(),
  /** true: the runner answered again and the validation went on; false: the retries ran out or a stop ended the wait */
  resolved: z.boolean(),
  lastError: z.object({ code: z.string(), message: z.string(), status: z.number().int().optional() }),
  /**
   * an unresolved outage in a step: the model's reply whose tool call could not finish. It was not shown a result and
   * is not among the steps; a continued run asks the model again from the same point. Its tokens and cost count.
   */
  abandonedStep: z
    .object({ index: z.number().int().nonnegative(), reply: z.string(), model: z.string(), tokens: z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() }), costUsd: z.number().nonnegative().nullable() })
    .optional(),
});
export type RunnerOutage = z.infer<typeof RunnerOutage>;

export const StepStatus = z.enum(['ok', 'format-error', 'tool-error', 'refused', 'llm-error', 'stopped']);

export const TrajStep = z.object({
  index: z.number().int().nonnegative(),
  /** strategy state the step ran in (RepairAgent: S1/S2/S3 names; single-state strategies: their one state) */
  state: z.string(),
  stateAfter: z.string(),
  startedAt: z.string(),
  status: StepStatus,
  /** the prompt exactly as sent */
  prompt: z.object({ messages: z.array(TrajMessage), promptHash: z.string() }),
  response: z
    .object({
      content: z.string(),
      model: z.string(),
      meta: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  parsed: z
    .object({
      thought: z.string().optional(),
      command: ParsedCommand.optional(),
      error: z.string().optional(),
    })
    .optional(),
  rectifications: z.array(Rectification),
  tool: z
    .object({
      name: z.string(),
      args: z.record(z.string(), z.unknown()),
      ok: z.boolean(),
      output: z.string(),
      shown: z.string(),
      data: z.record(z.string(), z.unknown()).optional(),
      finished: z.object({ success: z.boolean(), reason: z.string() }).optional(),
    })
    .optional(),
  /** what the model was told after the step (observation, format error, refusal) */
  feedback: z.string().optional(),
  /** the workspace overlay after the step, as a unified diff, when it changed */
  overlayChange: z.object({ files: z.array(z.string()), diff: z.string() }).optional(),
  verdict: ValidationResult.optional(),
  tokens: z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative(), estimated: z.boolean() }),
  /** null when the model has no known price */
  costUsd: z.number().nonnegative().nullable(),
  /**
   * calls the step's tool made to the run's second model (RepairAgent's write_fix variants, generate_method_body):
   * counted in the run's totals and budgets beside the agent's own call (costUsd null: a model without a price)
   */
  auxiliary: z
    .object({ calls: z.number().int().positive(), inputTokens: z.number().int().nonnegative(), outputTokens: z.number().int().nonnegative(), costUsd: z.number().nonnegative().nullable() })
    .optional(),
  /** background: engine work done while the model and tool calls were in flight (persisting the previous step, the prompt hash), inside `model` and `tool` */
  /** runnerWait: time the tool's validations waited for an unavailable runner (inside `tool`; see `runnerOutages`) */
  latencyMs: z.object({ model: z.number(), tool: z.number(), engine: z.number(), background: z.number().optional(), runnerWait: z.number().optional() }),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type TrajStep = z.infer<typeof TrajStep>;

/** unknown: an imported trajectory whose patch RepairLab has not validated */
export const OutcomeStatus = z.enum(['plausible', 'implausible', 'error', 'stopped', 'unknown']);

export const Outcome = z.object({
  status: OutcomeStatus,
  /** why the run ended: finished by the agent, budget name, stuck, format errors, error message, user stop */
  reason: z.string(),
  /** program-file changes as a unified diff (empty when none) */
  finalPatch: z.string(),
  /** the final patch re-validated on the runner after the run (null: not re-checked, e.g. no patch) */
  plausible: z.boolean().nullable(),
  recheck: ValidationResult.optional(),
  /** final patch equals the ground truth ignoring whitespace and comments (null: no ground truth given) */
  exactMatch: z.boolean().nullable(),
  totals: z.object({
    steps: z.number().int(),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    /** null when a step's model had no price in the run's table (the sum would leave it out) */
    costUsd: z.number().nullable(),
    wallMs: z.number(),
    validations: z.number().int(),
    formatErrors: z.number().int(),
  }),
});
export type Outcome = z.infer<typeof Outcome>;

/** Formats of published results `repairlab published import` reads (docs/formats/published.md). */
export const PublishedFormat = z.enum(['hafix-repairagent', 'repairagent', 'hafix', 'hafix-birch']);
export type PublishedFormat = z.infer<typeof PublishedFormat>;

export const PublishedOrigin = z.object({
  format: PublishedFormat,
  /** the external variant's name, as an experiment report shows it */
  variant: z.string(),
  /** the file read, as given */
  file: z.string(),
  /** the bug's id in the publication (Cli_11), beside the run's bug id (Cli-11) */
  sourceBugId: z.string(),
  /** position of this patch among the bug's published patches (0-based) */
  entry: z.number().int().nonnegative(),
  /** what produced the patch, in the publication's words (RepairAgent: write_fix or mutant; HAFixAgent: its history setting) */
  source: z.string(),
  /** the authors' verdict: plausible (RepairAgent's plausible_patches, HAFixAgent's success, BIRCH's pass) */
  publishedPlausible: z.boolean(),
  /** true: the patch was re-validated on the runner (the outcome is RepairLab's verdict) */
  revalidated: z.boolean(),
  /** our verdict equals the published one (null: not re-validated) */
  agreement: z.boolean().nullable(),
  /** the publication's own figures for this entry (attempt rows, cost, steps, …), as read */
  info: z.record(z.string(), z.unknown()).default({}),
});
export type PublishedOrigin = z.infer<typeof PublishedOrigin>;

export const Trajectory = z.object({
  schemaVersion: z.literal(TRAJECTORY_SCHEMA_VERSION),
  kind: z.literal('repairlab-trajectory'),
  runId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** waiting-for-runner: the runner was unavailable; the run waits (or, its retries spent, was set aside) and is resumable */
  status: z.enum(['running', 'paused', 'waiting-for-runner', 'finished']),
  versions: z.object({ repairlab: z.string(), trajectorySchema: z.number().int(), strategySchema: z.number().int(), runtime: z.string() }),
  /** everything needed to re-run: the resolved strategy (preset + overrides), the model settings (no key), tool settings */
  config: z.object({
    preset: z.string(),
    /** the preset's named variants applied (ablations, paper-vs-code options), in order */
    variants: z.array(z.string()).default([]),
    overrides: z.record(z.string(), z.unknown()).default({}),
    strategy: z.record(z.string(), z.unknown()),
    model: z.record(z.string(), z.unknown()),
    providerId: z.string(),
    tools: z.array(z.string()),
    prices: z.record(z.string(), z.object({ inputPerMTok: z.number(), outputPerMTok: z.number() })).optional(),
    /** 0-based trajectory number among N independent ones (Passerine) */
    trajectoryIndex: z.number().int().nonnegative().default(0),
  }),
  bug: z.object({ id: z.string(), library: z.string(), buggyCommit: z.string(), failingTests: z.array(z.string()) }),
  /** strategy state between steps, so a paused or reloaded run can resume */
  resume: z
    .object({
      state: z.string(),
      overlay: z.record(z.string(), z.string().nullable()),
      memory: z.record(z.string(), z.unknown()),
    })
    .optional(),
  /** results of the strategy's startup commands, run before the first model call */
  startup: z
    .array(z.object({ name: z.string(), args: z.record(z.string(), z.unknown()), ok: z.boolean(), output: z.string(), shown: z.string(), verdict: ValidationResult.optional() }))
    .default([]),
  steps: z.array(TrajStep),
  /** every time the runner was unavailable during the run, in order (absent: never) */
  runnerOutages: z.array(RunnerOutage).optional(),
  outcome: Outcome.optional(),
  /**
   * set on a fork (worker/runs/run-fork.ts): the run whose first `step` steps this one replayed from the record before its
   * own model took over. `promptDiverged`: the first replayed step whose prompt differed from the parent's (a strategy
   * edit that touched it); the recorded reply was used there all the same.
   */
  forkOf: z
    .object({
      runId: z.string(),
      step: z.number().int().positive(),
      promptDiverged: z.object({ step: z.number().int().positive(), message: z.string() }).optional(),
    })
    .optional(),
  /** set when the record was converted from another tool's trajectory file (stored as a run: worker/records/trajectory-import.ts) */
  imported: z.object({ format: z.enum(['mini-swe-agent', 'swe-agent']), file: z.string(), info: z.record(z.string(), z.unknown()) }).optional(),
  /**
   * set on a patch-only run made of a published result (`repairlab published import`, docs/formats/published.md): the
   * external variant it belongs to, where it came from, the verdict the authors published and whether RepairLab's
   * re-validation (the outcome) agrees with it. `revalidated: false`: nothing to re-validate (no patch was published,
   * as in BIRCH's CSV) — the outcome then carries the published verdict as it is.
   */
  published: PublishedOrigin.optional(),
});
export type Trajectory = z.infer<typeof Trajectory>;

export function parseTrajectory(json: unknown, source = 'trajectory'): Trajectory {
  const r = Trajectory.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(
      `${source} is not a RepairLab trajectory (schemaVersion ${TRAJECTORY_SCHEMA_VERSION}): ${issue ? issue.path.join('.') || '(top level)' : ''}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return r.data;
}
