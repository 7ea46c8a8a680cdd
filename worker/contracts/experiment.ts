// ExperimentSpec: variants × bugs × samples, as data (docs/formats/experiment.md). Strict everywhere: a misspelt
// field is refused, never silently ignored. It never holds a key (the model's key and the runners' token come from the
// environment of whoever runs it). ExperimentRecord and CellRecord are what the scheduler keeps in the platform's
// record store (worker/experiments/experiment-store.ts), beside the runs' trajectories.
import { z } from 'zod';
import { BugCategory } from './bug.ts';

export const EXPERIMENT_SCHEMA_VERSION = 1;

const Name = z.string().regex(/^[A-Za-z0-9][\w.-]*$/, 'use letters, digits and . _ - (starting with a letter or digit)');

/** Bugs by id, or every catalogue bug that passes a filter (in catalogue order). */
export const BugSelection = z.union([
  z.array(z.string().min(1)).min(1),
  z.strictObject({
    filter: z.strictObject({
      libraries: z.array(z.string().min(1)).min(1).optional(),
      categories: z.array(BugCategory).min(1).optional(),
      blameable: z.boolean().optional(),
    }),
    /** the first N bugs that pass */
    limit: z.number().int().positive().optional(),
  }),
]);

export const ExperimentVariant = z.strictObject({
  /** the variant's name in reports (unique within the experiment) */
  name: Name,
  preset: z.string().min(1),
  /** the preset's named variants (ablations, paper-vs-code options), applied in order */
  variants: z.array(z.string().min(1)).default([]),
  /** StrategySpec fields merged over the preset and its variants (strategy edits included) */
  overrides: z.record(z.string(), z.unknown()).default({}),
});
export type ExperimentVariant = z.infer<typeof ExperimentVariant>;

export const ModelProvider = z.enum(['openai', 'deepseek', 'openrouter', 'ollama', 'vllm', 'custom']);

export const ExperimentModel = z.strictObject({
  /** a provider preset (worker/llm/provider-presets.ts), or `custom` with a baseURL */
  provider: ModelProvider,
  /** OpenAI-compatible endpoint; default: the provider preset's */
  baseURL: z.url().optional(),
  /** default: the provider preset's default model */
  model: z.string().min(1).optional(),
  /** merged under each variant's `sampling` overrides (a variant may set its own) */
  sampling: z.strictObject({ temperature: z.number().min(0).optional(), topP: z.number().min(0).max(1).optional(), maxTokens: z.number().int().positive().optional() }).optional(),
  /** one seed per sample: sample i is asked with seeds[i] (length = samples) */
  seeds: z.array(z.number().int()).optional(),
});
export type ExperimentModel = z.infer<typeof ExperimentModel>;

export const Limits = z.strictObject({
  costUsd: z.number().positive().optional(),
  /** model calls (one per agent step, plus a tool's calls to the second model) */
  calls: z.number().int().positive().optional(),
  wallMs: z.number().int().positive().optional(),
});
export type Limits = z.infer<typeof Limits>;

export const ExperimentSpec = z
  .strictObject({
    schemaVersion: z.literal(EXPERIMENT_SCHEMA_VERSION),
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    bugs: BugSelection,
    variants: z.array(ExperimentVariant).min(1),
    /** independent runs per (bug, variant) cell */
    samples: z.number().int().positive(),
    model: ExperimentModel,
    /** USD per million tokens by model name; replaces the built-in table (worker/contracts/prices.ts) */
    prices: z.record(z.string(), z.strictObject({ inputPerMTok: z.number().nonnegative(), outputPerMTok: z.number().nonnegative() })).optional(),
    budgets: z
      .strictObject({
        /** caps every run (the lower of this and the strategy's own budget holds) */
        perRun: Limits.optional(),
        /** reaching one stops scheduling; runs in flight finish; the cells not started are `not-run` */
        experiment: Limits.optional(),
        /** a cost budget with a model that has no price: refuse to start (default), or count its calls as free */
        unpricedModel: z.enum(['refuse', 'count-as-free']).default('refuse'),
      })
      .default({ unpricedModel: 'refuse' }),
    concurrency: z
      .strictObject({
        /** runs in flight (a run makes one agent model call at a time, so this bounds the model calls in flight) */
        modelCalls: z.number().int().positive().default(4),
        /** runs in flight per runner (a run asks for one validation at a time, so this bounds each runner's validations) */
        validations: z.number().int().positive().default(2),
      })
      .default({ modelCalls: 4, validations: 2 }),
    /** runner URLs (tokens come from the command line or the environment); a bug's cells all go to one runner */
    runners: z.array(z.url()).min(1).optional(),
    /** infrastructure failures (429, 5xx, runner down) are retried, never counted as the agent's */
    retries: z
      .strictObject({ maxAttempts: z.number().int().positive().default(3), backoffMs: z.number().int().nonnegative().default(2000) })
      .default({ maxAttempts: 3, backoffMs: 2000 }),
  })
  .superRefine((spec, ctx) => {
    const names = spec.variants.map((v) => v.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) ctx.addIssue({ code: 'custom', path: ['variants'], message: `two variants are named "${dup}": give each a name of its own` });
    if (spec.model.provider === 'custom' && !spec.model.baseURL) ctx.addIssue({ code: 'custom', path: ['model', 'baseURL'], message: 'provider "custom" needs a baseURL (an OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1)' });
    if (spec.model.seeds && spec.model.seeds.length !== spec.samples) {
      ctx.addIssue({ code: 'custom', path: ['model', 'seeds'], message: `give one seed per sample: ${spec.samples} seeds, not ${spec.model.seeds.length}` });
    }
  });
export type ExperimentSpec = z.infer<typeof ExperimentSpec>;
export type ExperimentSpecInput = z.input<typeof ExperimentSpec>;

/** Field names that hold secrets; an experiment is shared as a file, so none may be in it. */
/** (whole names or name endings: `maxTokens` and `tokensPerCall` are no keys, `runnerToken` and `api_key` are) */
const KEY_NAME = /^(key|bearer|authorization)$|(api[-_]?key|secret|password|passwd|token|credentials?)$/i;
/** Values shaped like provider keys (OpenAI/Anthropic sk-…, GitHub, Slack, AWS, Google). */
const KEY_VALUE = /^(sk-[\w-]{8,}|sk_[\w-]{8,}|gh[pousr]_\w{20,}|xox[abpr]-[\w-]+|AKIA[0-9A-Z]{16}|AIza[\w-]{30,})$/;

/** The first place in `json` that looks like a key, as a dotted path with the reason, or undefined. */
export function findKeyLike(json: unknown, path: string[] = []): string | undefined {
  if (typeof json === 'string') {
    if (KEY_VALUE.test(json.trim())) return `${path.join('.') || '(top level)'} holds a value shaped like an API key`;
    if (/^https?:\/\//i.test(json)) {
      try {
        const u = new URL(json);
        if (u.username || u.password) return `${path.join('.')} has credentials in its URL`;
        for (const k of u.searchParams.keys()) if (KEY_NAME.test(k)) return `${path.join('.')} has a "${k}" in its URL`;
      } catch {
        // not a URL after all: the schema says what is wrong with it
      }
    }
    return undefined;
  }
  if (Array.isArray(json)) {
    for (const [i, v] of json.entries()) {
      const found = findKeyLike(v, [...path, String(i)]);
      if (found) return found;
    }
    return undefined;
  }
  if (json && typeof json === 'object') {
    for (const [k, v] of Object.entries(json)) {
      // price table entries are named after models, not fields
      if (KEY_NAME.test(k) && !(path.length === 1 && path[0] === 'prices')) return `${[...path, k].join('.')} looks like a key field`;
      const found = findKeyLike(v, [...path, k]);
      if (found) return found;
    }
  }
  return undefined;
}

export function parseExperimentSpec(json: unknown, source = 'experiment spec'): ExperimentSpec {
  const keyLike = findKeyLike(json);
  if (keyLike) {
    throw new Error(`${source}: ${keyLike}. An experiment never holds keys (it is recorded and shared): remove it and give the key through the environment (\`repairlab experiment run --api-key-env NAME\`, runner tokens with --token).`);
  }
  const r = ExperimentSpec.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const where = issue.path.join('.') || '(top level)';
    const unknown = issue.code === 'unrecognized_keys' ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')} (see docs/formats/experiment.md)` : issue.message;
    throw new Error(`${source} is not a valid ExperimentSpec (schemaVersion ${EXPERIMENT_SCHEMA_VERSION}): ${where}: ${unknown}`);
  }
  return r.data;
}

/** A cell's result. not-run: never started (an experiment budget or a stop came first). */
export const CellStatus = z.enum(['plausible', 'not-plausible', 'budget', 'infrastructure-error', 'not-run']);
export type CellStatus = z.infer<typeof CellStatus>;

/** An attempt that infrastructure ended (its run is kept, not counted): the cell was tried again. */
export const CellAttempt = z.object({ runId: z.string().optional(), reason: z.string(), at: z.string(), costUsd: z.number().nullable(), calls: z.number().int().nonnegative() });

export const CellRecord = z.object({
  experimentId: z.string(),
  /** position in the deterministic order bug × variant × sample */
  index: z.number().int().nonnegative(),
  bugId: z.string(),
  variant: z.string(),
  sample: z.number().int().nonnegative(),
  /** index into the session's runners (the spec's, or the pool's): the one that served the cell last */
  runner: z.number().int().nonnegative(),
  /** the pool runner's id (runner-1, …) or URL that served the cell last; a cell moved off a lost runner names the new one */
  runnerId: z.string().optional(),
  /** running: started (or interrupted: a resume continues it) */
  status: z.union([CellStatus, z.literal('running')]),
  /** the run that counts; set as soon as the run has an id */
  runId: z.string().optional(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  attempts: z.array(CellAttempt).default([]),
  reason: z.string().default(''),
  /** of the counted run and every attempt (null: a model without a price) */
  costUsd: z.number().nullable().default(0),
  calls: z.number().int().nonnegative().default(0),
  steps: z.number().int().nonnegative().default(0),
});
export type CellRecord = z.infer<typeof CellRecord>;

export const ExperimentStatus = z.enum(['running', 'paused', 'stopped', 'finished']);

export const ExperimentRecord = z.object({
  schemaVersion: z.literal(EXPERIMENT_SCHEMA_VERSION),
  kind: z.literal('repairlab-experiment'),
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** running also when a killed process left it: `experiment run --resume` goes on */
  status: ExperimentStatus,
  /** why scheduling stopped (a budget, a stop) */
  stopReason: z.string().optional(),
  spec: z.record(z.string(), z.unknown()),
  /** the bugs the selection gave when the experiment was created (a later catalogue does not change them) */
  bugs: z.array(z.object({ id: z.string(), category: BugCategory })),
  /** runner index of each bug (its cells all go there) */
  runnerOfBug: z.record(z.string(), z.number().int().nonnegative()),
  cells: z.number().int().nonnegative(),
  /** wall time of earlier sessions (an experiment resumed after a crash counts on from there) */
  wallMsBefore: z.number().nonnegative(),
});
export type ExperimentRecord = z.infer<typeof ExperimentRecord>;
