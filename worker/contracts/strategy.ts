// StrategySpec: an agent as data. The loop in worker/agent/loop.ts is the same for every agent; states,
// tools per state, transitions, prompt templates (Jinja), the output format, memory, middleware, stop
// rules and budgets are what make RepairAgent, HAFixAgent, Passerine (and one-shot) different.
// Every object is strict: a key the schema does not know (a typo such as `maxStepz`) is refused, naming the
// nearest valid key, instead of being dropped and the default silently run.
import { z } from 'zod';
import { closest, distance } from 'fastest-levenshtein';
import { TestEdits } from './test-edits.ts';
import type { ToolArgument } from './tools.ts';

export const STRATEGY_SCHEMA_VERSION = 1;

export const StateSpec = z.strictObject({
  name: z.string().min(1),
  /** shown to the model in state-aware prompts */
  description: z.string(),
  /** tool names allowed in this state ('*' = every tool) */
  tools: z.array(z.string()),
});
export type StateSpec = z.infer<typeof StateSpec>;

export const TransitionSpec = z.strictObject({
  /** a tool name; the transition fires after that tool ran (successfully) */
  tool: z.string(),
  /** state the transition leaves from ('*' = any) */
  from: z.string().default('*'),
  to: z.string(),
});

export const OutputFormat = z.enum(['json-command', 'bash-block', 'thought-action', 'unified-diff']);
export type OutputFormat = z.infer<typeof OutputFormat>;

export const PromptSpec = z.strictObject({
  /** Jinja templates; variables are documented in docs/presets/README-templates (see worker/strategies/prompt.ts) */
  system: z.string(),
  /** the first user message (bug, failing test, fault localization) */
  instance: z.string(),
  /** user message after each tool call (full-history memory) */
  observation: z.string(),
  /** user message after an unparseable reply */
  formatError: z.string(),
  /** dynamic-prompt memory only: the whole user message rebuilt every cycle (RepairAgent) */
  cycle: z.string().optional(),
});

export const MemorySpec = z.strictObject({
  /** full-history: every reply and observation is kept (mini-swe-agent, Passerine);
   *  dynamic-prompt: one prompt rebuilt each cycle from gathered information (RepairAgent) */
  kind: z.enum(['full-history', 'dynamic-prompt']),
  /** dynamic-prompt: how many past cycles' gathered information to show (null = all; 1 = single-cycle ablation) */
  cyclesRemembered: z.number().int().positive().nullable().default(null),
});

export const ObservationSpec = z.strictObject({
  /** results longer than this are trimmed to head + tail with a note of what was cut (null = never) */
  maxChars: z.number().int().positive().nullable().default(null),
  head: z.number().int().nonnegative().default(0),
  tail: z.number().int().nonnegative().default(0),
});

export const MiddlewareSpec = z.strictObject({
  /** paper: substring either way then normalised Levenshtein; code: exact tool names, argument substring mapping */
  rectifyNames: z.enum(['paper', 'code', 'off']).default('off'),
  levenshteinThreshold: z.number().min(0).max(1).default(0.1),
  /** dotted class names → paths, unique suffix match */
  repairPaths: z.boolean().default(false),
  /** an exact repeat of an earlier command is refused with a message */
  refuseRepeats: z.boolean().default(false),
  /** the run stops after this many unparseable replies in a row */
  maxConsecutiveFormatErrors: z.number().int().positive().default(3),
  /** bash-block: the command that ends the run when echoed */
  completionSentinel: z.string().optional(),
});

export const StopSpec = z.strictObject({
  /** end the run as soon as a validation is plausible */
  onPlausible: z.boolean().default(false),
  /** practitioner rule: the same error twice in a row → stuck */
  sameErrorTwice: z.boolean().default(false),
  /** practitioner rule: a change that makes more tests fail is reverted, the model told to retry */
  regressionRevert: z.boolean().default(false),
});

export const BudgetSpec = z.strictObject({
  maxSteps: z.number().int().positive(),
  maxTokens: z.number().int().positive().nullable().default(null),
  maxCostUsd: z.number().positive().nullable().default(null),
  maxWallMs: z.number().int().positive().nullable().default(null),
  maxValidations: z.number().int().positive().nullable().default(null),
  /**
   * what to do when the model has no entry in the price table. ask (default): a run with a cost budget refuses to
   * start until a price is given or one of the other two is chosen (worker/contracts/prices.ts costBudgetRefusal);
   * without a cost budget an unpriced call counts no cost. stop: the run ends at the first unpriced call.
   * ignore: go on counting no cost — a cost budget then holds only the priced calls.
   */
  unknownPrice: z.enum(['ask', 'stop', 'ignore']).default('ask'),
});
export type BudgetSpec = z.infer<typeof BudgetSpec>;

/**
 * ToolContext.settings: the keys the toolkits read (docs/toolkits). Strict like the rest, so a misspelt mode cannot
 * quietly leave a tool on its fallback. The history values are checked in worker/history/run-context.ts.
 */
export const ToolSettings = z.strictObject({
  /** every toolkit: a tool's output is cut at this many characters … */
  outputCap: z.number().int().positive().optional(),
  /** … keeping its head, or head and tail */
  outputCapMode: z.enum(['head', 'head-tail']).optional(),
  /** repairagent: search_code_base as the paper describes it or as the released code does it */
  searchMode: z.enum(['paper', 'code']).optional(),
  /** repairagent: write_fix as the paper describes it or as the released code applies it */
  writeFixMode: z.enum(['paper', 'code']).optional(),
  /** repairagent: fault localization in the prompt (perfect) or from run_fault_localization (ochiai) */
  faultLocalization: z.enum(['perfect', 'ochiai']).optional(),
  /** repairagent: write_fix refuses changes outside the fault-localized lines */
  requireFaultLines: z.boolean().optional(),
  /** repairagent: sample `variants` alternatives of each write_fix with a second model */
  sampleVariants: z.boolean().optional(),
  variants: z.number().int().positive().optional(),
  variantConcurrency: z.number().int().positive().optional(),
  /** hafixagent: the echoed command that ends the run */
  completionSentinel: z.string().min(1).optional(),
  /** hafixagent history: 'non-history' | fn_all | fn_pair | fl_diff, extractor mode, selector, seed, caps */
  historyContext: z.string().optional(),
  historyMode: z.string().optional(),
  historySelector: z.string().optional(),
  historySeed: z.number().optional(),
  historyLimits: z
    .strictObject({ maxFiles: z.number().optional(), maxNames: z.number().optional(), maxFunctionChars: z.number().optional(), maxDiffChars: z.number().optional() })
    .optional(),
  /** engine (apply_patch): apply each diff to the buggy version rather than over the previous attempt */
  revertBeforeApply: z.boolean().optional(),
});

export const StrategySpec = z.strictObject({
  schemaVersion: z.literal(STRATEGY_SCHEMA_VERSION),
  id: z.string().regex(/^[a-z0-9][\w.-]*$/),
  name: z.string(),
  description: z.string(),
  /** which paper/code behaviours this follows (for docs/presets) */
  follows: z.array(z.string()).default([]),
  toolkit: z.enum(['repairagent', 'hafixagent', 'passerine', 'engine']),
  states: z.array(StateSpec).min(1),
  startState: z.string(),
  finalStates: z.array(z.string()).default([]),
  transitions: z.array(TransitionSpec).default([]),
  /** advisory: states only described in the prompt (RepairAgent's code); enforced: other tools refused */
  stateEnforcement: z.enum(['advisory', 'enforced']).default('advisory'),
  prompt: PromptSpec,
  output: z.strictObject({ format: OutputFormat }),
  memory: MemorySpec,
  observation: ObservationSpec.default({ maxChars: null, head: 0, tail: 0 }),
  middleware: MiddlewareSpec.default({ rectifyNames: 'off', levenshteinThreshold: 0.1, repairPaths: false, refuseRepeats: false, maxConsecutiveFormatErrors: 3 }),
  stop: StopSpec.default({ onPlausible: false, sameErrorTwice: false, regressionRevert: false }),
  budgets: BudgetSpec,
  sampling: z
    .object({ temperature: z.number().optional(), topP: z.number().optional(), seed: z.number().int().optional(), maxTokens: z.number().int().optional(), trajectories: z.number().int().positive().default(1) })
    .default({ trajectories: 1 }),
  /** commands the engine runs before the first cycle (RepairAgent: run_tests); their results join the prompt like any tool result */
  startup: z.array(z.strictObject({ tool: z.string(), args: z.record(z.string(), z.unknown()).default({}) })).default([]),
  /** passed to tools as ToolContext.settings */
  toolSettings: ToolSettings.default({}),
  /**
   * What the agent may do to test files (worker/contracts/test-edits.ts): none = nothing (the papers' agents may not
   * change the tests that define the bug); add = write reproduction tests of its own, the bug's tests still read-only.
   * The tools refuse the rest and the runner is told the same; never 'any' (a model's patch is not trusted).
   */
  testEdits: TestEdits.exclude(['any']).default('none'),
});
export type StrategySpec = z.infer<typeof StrategySpec>;
export type StrategySpecInput = z.input<typeof StrategySpec>;

export function parseStrategySpec(json: unknown, source = 'strategy'): StrategySpec {
  const r = StrategySpec.safeParse(json);
  if (!r.success) {
    const unknownKeys = r.error.issues.flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys.map((k) => unknownKeyMessage(i.path, k)) : []));
    if (unknownKeys.length) throw new Error(`${source} is not a valid StrategySpec: ${unknownKeys.join('; ')}`);
    const issue = r.error.issues[0];
    throw new Error(`${source} is not a valid StrategySpec: ${issue ? issue.path.join('.') || '(top level)' : ''}: ${issue?.message ?? 'invalid'}`);
  }
  const spec = r.data;
  const names = new Set(spec.states.map((s) => s.name));
  const unknown = [spec.startState, ...spec.finalStates, ...spec.transitions.flatMap((t) => [t.to, ...(t.from === '*' ? [] : [t.from])])].filter((n) => !names.has(n));
  if (unknown.length) throw new Error(`${source}: unknown state(s) ${[...new Set(unknown)].join(', ')}; declared states are ${[...names].join(', ')}`);
  if (spec.memory.kind === 'dynamic-prompt' && !spec.prompt.cycle) throw new Error(`${source}: dynamic-prompt memory needs prompt.cycle`);
  return spec;
}

type Path = readonly PropertyKey[];

/** The schema inside defaults, optionals and nullables. */
function unwrap(schema: z.ZodType): z.ZodType {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType };
  return def.innerType && ['default', 'prefault', 'optional', 'nullable'].includes(def.type) ? unwrap(def.innerType) : schema;
}

/** The schema a path leads to in StrategySpec (array indices step into the element), or undefined off the schema. */
function schemaAt(path: Path, schema: z.ZodType = StrategySpec): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  for (const key of path) {
    if (!s) return undefined;
    const def = unwrap(s)._zod.def as { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; valueType?: z.ZodType };
    s = def.type === 'object' ? def.shape?.[String(key)] : def.type === 'array' ? def.element : def.type === 'record' ? def.valueType : undefined;
  }
  return s && unwrap(s);
}

function objectKeys(schema: z.ZodType | undefined): string[] {
  const def = schema?._zod.def as { type: string; shape?: Record<string, unknown> } | undefined;
  return def?.type === 'object' ? Object.keys(def.shape ?? {}) : [];
}

/** `unknown key budgets.maxStepz — did you mean maxSteps?` (the nearest valid key when it is near; else the valid keys) */
export function unknownKeyMessage(path: Path, key: string): string {
  const valid = objectKeys(schemaAt(path));
  const where = [...path, key].map(String).join('.');
  const near = valid.length ? closest(key, valid) : undefined;
  if (near && distance(key.toLowerCase(), near.toLowerCase()) <= Math.max(2, Math.floor(near.length / 3))) return `unknown key ${where} — did you mean ${near}?`;
  return `unknown key ${where}${valid.length ? ` — ${path.length ? path.map(String).join('.') : 'a StrategySpec'} takes ${valid.join(', ')}` : ''}`;
}

/**
 * Keys of a partial StrategySpec (overrides, a variant's settings) that the schema does not have, at any depth,
 * as messages naming each key and the nearest valid one. Values are not checked here: the merged spec is parsed.
 */
export function unknownOverrideKeys(partial: unknown, path: PropertyKey[] = []): string[] {
  const schema = schemaAt(path);
  if (!schema || typeof partial !== 'object' || partial === null) return [];
  const def = schema._zod.def as { type: string; shape?: Record<string, unknown> };
  if (Array.isArray(partial)) return def.type === 'array' ? partial.flatMap((v, i) => unknownOverrideKeys(v, [...path, i])) : [];
  if (def.type === 'record') return Object.entries(partial).flatMap(([k, v]) => unknownOverrideKeys(v, [...path, k]));
  if (def.type !== 'object') return [];
  return Object.entries(partial).flatMap(([k, v]) => (k in (def.shape ?? {}) ? unknownOverrideKeys(v, [...path, k]) : [unknownKeyMessage(path, k)]));
}

/**
 * What the classroom (src/components/classroom/) shows of a run's strategy: its state machine, the tools it offers with
 * their argument schemas, and the reply format the parser reads. Plain data, sent with 'run-started', so the page
 * draws the diagram and builds the reply form without loading the toolkits (tree-sitter, just-bash) itself. Built by
 * worker/strategies/strategy-outline.ts.
 */
export interface StrategyOutline {
  format: OutputFormat;
  states: { name: string; description: string; tools: string[] }[];
  transitions: { tool: string; from: string; to: string }[];
  startState: string;
  finalStates: string[];
  /** the strategy's tools (a variant that removes a tool removes it here, as in the run) */
  tools: { name: string; description: string; args: ToolArgument[]; aliases?: string[] }[];
  /** bash-block: the echoed command that ends the run */
  completionSentinel?: string;
}
