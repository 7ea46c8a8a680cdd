// StrategySpec: an agent as data. The loop in worker/agent/loop.ts is the same for every agent; states,
// tools per state, transitions, prompt templates (Jinja), the output format, memory, middleware, stop
// rules and budgets are what make RepairAgent, HAFixAgent, Passerine (and one-shot) different.
import { z } from 'zod';

export const STRATEGY_SCHEMA_VERSION = 1;

export const StateSpec = z.object({
  name: z.string().min(1),
  /** shown to the model in state-aware prompts */
  description: z.string(),
  /** tool names allowed in this state ('*' = every tool) */
  tools: z.array(z.string()),
});
export type StateSpec = z.infer<typeof StateSpec>;

export const TransitionSpec = z.object({
  /** a tool name; the transition fires after that tool ran (successfully) */
  tool: z.string(),
  /** state the transition leaves from ('*' = any) */
  from: z.string().default('*'),
  to: z.string(),
});

export const OutputFormat = z.enum(['json-command', 'bash-block', 'thought-action', 'unified-diff']);
export type OutputFormat = z.infer<typeof OutputFormat>;

export const PromptSpec = z.object({
  /** Jinja templates; variables are documented in docs/presets/README-templates (see worker/agent/prompt.ts) */
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

export const MemorySpec = z.object({
  /** full-history: every reply and observation is kept (mini-swe-agent, Passerine);
   *  dynamic-prompt: one prompt rebuilt each cycle from gathered information (RepairAgent) */
  kind: z.enum(['full-history', 'dynamic-prompt']),
  /** dynamic-prompt: how many past cycles' gathered information to show (null = all; 1 = single-cycle ablation) */
  cyclesRemembered: z.number().int().positive().nullable().default(null),
});

export const ObservationSpec = z.object({
  /** results longer than this are trimmed to head + tail with a note of what was cut (null = never) */
  maxChars: z.number().int().positive().nullable().default(null),
  head: z.number().int().nonnegative().default(0),
  tail: z.number().int().nonnegative().default(0),
});

export const MiddlewareSpec = z.object({
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

export const StopSpec = z.object({
  /** end the run as soon as a validation is plausible */
  onPlausible: z.boolean().default(false),
  /** practitioner rule: the same error twice in a row → stuck */
  sameErrorTwice: z.boolean().default(false),
  /** practitioner rule: a change that makes more tests fail is reverted, the model told to retry */
  regressionRevert: z.boolean().default(false),
});

export const BudgetSpec = z.object({
  maxSteps: z.number().int().positive(),
  maxTokens: z.number().int().positive().nullable().default(null),
  maxCostUsd: z.number().positive().nullable().default(null),
  maxWallMs: z.number().int().positive().nullable().default(null),
  maxValidations: z.number().int().positive().nullable().default(null),
  /** what to do when the model has no entry in the price table: stop the run, or go on counting no cost */
  unknownPrice: z.enum(['stop', 'ignore']).default('ignore'),
});
export type BudgetSpec = z.infer<typeof BudgetSpec>;

export const StrategySpec = z.object({
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
  output: z.object({ format: OutputFormat }),
  memory: MemorySpec,
  observation: ObservationSpec.default({ maxChars: null, head: 0, tail: 0 }),
  middleware: MiddlewareSpec.default({ rectifyNames: 'off', levenshteinThreshold: 0.1, repairPaths: false, refuseRepeats: false, maxConsecutiveFormatErrors: 3 }),
  stop: StopSpec.default({ onPlausible: false, sameErrorTwice: false, regressionRevert: false }),
  budgets: BudgetSpec,
  sampling: z
    .object({ temperature: z.number().optional(), topP: z.number().optional(), seed: z.number().int().optional(), maxTokens: z.number().int().optional(), trajectories: z.number().int().positive().default(1) })
    .default({ trajectories: 1 }),
  /** commands the engine runs before the first cycle (RepairAgent: run_tests); their results join the prompt like any tool result */
  startup: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()).default({}) })).default([]),
  /** passed to tools as ToolContext.settings */
  toolSettings: z.record(z.string(), z.unknown()).default({}),
});
export type StrategySpec = z.infer<typeof StrategySpec>;
export type StrategySpecInput = z.input<typeof StrategySpec>;

export function parseStrategySpec(json: unknown, source = 'strategy'): StrategySpec {
  const r = StrategySpec.safeParse(json);
  if (!r.success) {
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
