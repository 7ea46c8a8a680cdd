// The agent loop: one small cycle for every strategy. Build the prompt → ask the model → parse →
// rectify → gate by state → run the tool → transition → record. The StrategySpec carries every
// difference between agents; budgets, stop rules and pause/stop are checked between steps.
import { LlmError, type LlmProvider } from '../contracts/llm.ts';
import type { PublicBug } from '../contracts/bug.ts';
import type { Workspace, Overlay } from '../contracts/workspace.ts';
import type { ToolResult, Validator } from '../contracts/tools.ts';
import type { StrategySpec } from '../contracts/strategy.ts';
import { STRATEGY_SCHEMA_VERSION } from '../contracts/strategy.ts';
import type { ValidationResult } from '../contracts/runner-api.ts';
import { TRAJECTORY_SCHEMA_VERSION, type Outcome, type Rectification, type RunnerOutage, type Trajectory, type TrajStep } from '../contracts/trajectory.ts';
import type { AnyTool } from './agent-tool.ts';
import { buildBugContext } from './bug-context.ts';
import { argsText, buildMessages, type PromptMemory, type PromptVars } from './prompt.ts';
import { renderTemplate } from './templates.ts';
import { parseByFormat } from './middleware/parse.ts';
import { rectifyCommand } from './middleware/rectify.ts';
import { canonicalJson, PromptHasher } from '../llm/prompt-hash.ts';
import { trimObservation } from './observation.ts';
import { DEFAULT_PRICES, runCosts, type PriceTable } from './prices.ts';
import { RunControl } from './run-control.ts';
import { errorSignature, summarizeValidation } from './validation-summary.ts';
import { exactMatch, programPatch } from './outcome.ts';
import { publicModelConfig } from './run-config.ts';
import { fileDiff } from './step-diff.ts';
import { guardValidator, runnerWaitPolicy, type RunnerWaitPolicy } from './runner-outage.ts';
import { redactKnownSecrets } from '../llm/redact.ts';

export const REPAIRLAB_VERSION = '0.1.0';

export type AgentEvent =
  | { type: 'step-started'; runId: string; index: number; state: string }
  | { type: 'model-delta'; runId: string; index: number; text: string }
  | { type: 'step'; runId: string; step: TrajStep }
  | { type: 'paused'; runId: string; nextIndex: number }
  /** the runner is unavailable: the run waits `retryInMs`, then tries again (attempt = failed attempts so far) */
  | { type: 'waiting-for-runner'; runId: string; attempt: number; maxRetries: number; retryInMs: number; error: string }
  | { type: 'runner-back'; runId: string; waitedMs: number }
  /** the retries ran out: the run is set aside as waiting-for-runner (resumable), without an outcome */
  | { type: 'set-aside'; runId: string; reason: string }
  | { type: 'finished'; runId: string; outcome: Outcome };

export interface RunAgentOptions {
  strategy: StrategySpec;
  /** preset name and the overrides that produced `strategy` (for the record) */
  preset?: string;
  variants?: string[];
  overrides?: Record<string, unknown>;
  bug: PublicBug;
  workspace: Workspace;
  validator: Validator;
  llm: LlmProvider;
  /** public model settings for the record; default: the provider's own `config`. Filtered: never a key. */
  modelConfig?: Record<string, unknown>;
  tools: readonly AnyTool[];
  auxiliaryLlm?: LlmProvider;
  /** called after every step (and at the end) with the whole trajectory: persist it here */
  record?: (trajectory: Trajectory) => Promise<void>;
  onEvent?: (event: AgentEvent) => void;
  signal?: AbortSignal;
  control?: RunControl;
  prices?: PriceTable;
  /** for the outcome's exact-match check only; never shown to the agent */
  groundTruthPatch?: string;
  /** extra template variables, e.g. HAFixAgent's history_context */
  context?: Record<string, unknown>;
  /**
   * Computes extra template variables once at the start of the run (and again on resume), e.g. HAFixAgent's
   * history context from the history extractor according to `strategy.toolSettings.historyContext`.
   * Merged over `context`.
   */
  contextProvider?: (strategy: StrategySpec, bug: PublicBug, workspace: Workspace) => Promise<Record<string, unknown>>;
  /** continue a saved, unfinished trajectory (same strategy, bug and workspace base) */
  resumeFrom?: Trajectory;
  runId?: string;
  trajectoryIndex?: number;
  /** re-validate the final patch after the run (default true) */
  recheck?: boolean;
  /** how long an unavailable runner is waited for before the run is set aside (worker/agent/runner-outage.ts) */
  runnerWait?: Partial<RunnerWaitPolicy>;
  /**
   * secrets (the model's API key) replaced by "[redacted key]" in everything the run records and the model sees
   * again: replies, tool output, errors, the outcome. The providers redact their own key too; this is the backstop.
   */
  secrets?: readonly string[];
}

/** Arrays here only grow and their entries are not changed after being pushed (see memorySnapshot). */
interface LoopMemory extends PromptMemory {
  state: string;
  formatErrors: number;
  validations: number;
  lastErrorSignature?: string;
  seenCommands: string[];
  /** the best validated candidate, for tools that validate and revert (RepairAgent's write_fix) */
  plausibleOverlay?: Overlay;
  wallMsBefore: number;
  /** set when the loop has decided to end, before its last record: a run continued from that record only finishes */
  ended?: End;
  /** the startup commands have yet to run (the runner was unavailable during them) */
  startupPending?: boolean;
}

type End = { kind: 'finished' | 'budget' | 'stuck' | 'error' | 'user-stop'; reason: string };

const nowIso = () => new Date().toISOString();

/**
 * Resolves on a later task, after the microtasks queued now: by then a request the model provider has just started
 * is on its way (the SDK prepares it in microtasks), so work done after this overlaps the wait for the reply.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else if (typeof MessageChannel === 'function') {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    } else setTimeout(resolve, 0);
  });
}

/**
 * Runs `work` once the model request just started is on its way, so that it overlaps the wait for the reply (and,
 * when it takes longer, the parse and the tool call after it). `started` resolves once the synchronous part of
 * `work` has run (what it reads of the loop's state is then taken); `done` resolves with the milliseconds the work
 * took, or rejects with its error when awaited (never unhandled meanwhile).
 */
function whileModelWorks(work: () => Promise<void>): { started: Promise<void>; done: Promise<number> } {
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const done = nextTask().then(async () => {
    const start = performance.now();
    const running = work();
    markStarted();
    await running;
    return performance.now() - start;
  });
  done.catch(() => undefined);
  return { started, done };
}

/** A fresh run id (`run-<time>-<random>`): callers that must know it before the run starts (locks) make it here. */
export function newRunId(): string {
  const rand = crypto.getRandomValues(new Uint32Array(2));
  return `run-${Date.now().toString(36)}-${rand[0]!.toString(36)}${rand[1]!.toString(36)}`;
}

function runtimeName(): string {
  const g = globalThis as { process?: { versions?: { node?: string } }; navigator?: { userAgent?: string } };
  return g.process?.versions?.node ? `node ${g.process.versions.node}` : (g.navigator?.userAgent ?? 'unknown');
}

export async function runAgent(opts: RunAgentOptions): Promise<Trajectory> {
  // the wall-time timer and the caller's abort listener go away however the run ends (a failing record throws)
  const cleanups: Array<() => void> = [];
  try {
    return await runLoop(opts, cleanups);
  } finally {
    for (const cleanup of cleanups) cleanup();
  }
}

async function runLoop(opts: RunAgentOptions, cleanups: Array<() => void>): Promise<Trajectory> {
  const spec = opts.strategy;
  const ws = opts.workspace;
  const control = opts.control ?? new RunControl();
  const prices = opts.prices ?? DEFAULT_PRICES;
  const costOf = runCosts(prices);
  const tools = opts.tools;
  const defs = tools.map((t) => t.definition);
  const bugContext = await buildBugContext(opts.bug, ws);
  const extraContext = { ...(opts.context ?? {}), ...(opts.contextProvider ? await opts.contextProvider(spec, opts.bug, ws) : {}) };
  const resume = opts.resumeFrom;
  const runId = resume?.runId ?? opts.runId ?? newRunId();
  const emit = (e: AgentEvent) => opts.onEvent?.(e);
  // hashes only what a prompt adds to the previous one (full history grows by two messages a cycle); see hashOrDigest
  const hasher = new PromptHasher();

  const traj: Trajectory = resume
    ? structuredClone({ ...resume, status: 'running' as const, outcome: undefined })
    : {
        schemaVersion: TRAJECTORY_SCHEMA_VERSION,
        kind: 'repairlab-trajectory',
        runId,
        createdAt: nowIso(),
        updatedAt: nowIso(),
        status: 'running',
        versions: { repairlab: REPAIRLAB_VERSION, trajectorySchema: TRAJECTORY_SCHEMA_VERSION, strategySchema: STRATEGY_SCHEMA_VERSION, runtime: runtimeName() },
        config: {
          preset: opts.preset ?? spec.id,
          variants: opts.variants ?? [],
          overrides: opts.overrides ?? {},
          strategy: spec as unknown as Record<string, unknown>,
          model: publicModelConfig(opts.llm, opts.modelConfig),
          providerId: opts.llm.id,
          tools: defs.map((d) => d.name),
          prices,
          trajectoryIndex: opts.trajectoryIndex ?? 0,
        },
        bug: { id: opts.bug.id, library: opts.bug.library, buggyCommit: opts.bug.buggyCommit, failingTests: [...opts.bug.failingTests] },
        startup: [],
        steps: [],
      };

  const memory: LoopMemory = resume?.resume
    ? { ...(structuredClone(resume.resume.memory) as unknown as LoopMemory), state: resume.resume.state }
    : { state: spec.startState, history: [], gathered: [], bannedCommands: [], formatErrors: 0, validations: 0, seenCommands: [], wallMsBefore: 0 };
  memory.bannedCommands ??= [];
  if (resume?.resume) ws.setOverlay(resume.resume.overlay);

  const startedAt = performance.now();
  const wallMs = () => memory.wallMsBefore + (performance.now() - startedAt);
  // wall-time budget and the caller's signal both abort the model call in flight
  const abort = new AbortController();
  const onOuterAbort = () => abort.abort();
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const wallTimer = spec.budgets.maxWallMs ? setTimeout(() => abort.abort(), Math.max(0, spec.budgets.maxWallMs - memory.wallMsBefore)) : undefined;
  /** no more wall-time or caller aborts: after the loop (the wrap-up has its own limits) and however the run ends */
  const stopAborts = () => {
    clearTimeout(wallTimer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  };
  cleanups.push(stopAborts);

  // the configured key never reaches a record (nor the model again), whatever echoes it
  const secrets = (opts.secrets ?? []).filter((k) => k.length >= 4);
  const redact = (text: string) => (secrets.length ? redactKnownSecrets(text, secrets) : text);
  const redactResult = (r: ToolResult): ToolResult => {
    if (!secrets.length) return r;
    return { ...r, output: redact(r.output), shown: redact(r.shown), ...(r.data ? { data: JSON.parse(redact(JSON.stringify(r.data))) as Record<string, unknown> } : {}) };
  };

  // ---- runner outages (worker/agent/runner-outage.ts): waited for, never shown to the model ----
  const waitPolicy = runnerWaitPolicy(opts.runnerWait);
  let phase: RunnerOutage['phase'] = 'startup';
  let stepInFlight: number | undefined;
  /**
   * While a step's tool (or the startup) runs: the point it started from. A record made while waiting for the runner
   * resumes from there, so a continued run asks the model again instead of seeing a half-done tool call.
   */
  let stepBase: { overlay: Overlay; seenCommands: number; formatErrors: number; startup?: true } | undefined;
  /** the previous step's record, in flight while the next tool runs: a waiting record goes after it */
  let pendingRecord: Promise<unknown> | undefined;
  /** records made while waiting go one at a time (variants validate concurrently) */
  let waitRecords: Promise<void> = Promise.resolve();
  const noteOutage = (outage: RunnerOutage) => {
    traj.runnerOutages ??= [];
    if (!traj.runnerOutages.includes(outage)) traj.runnerOutages.push(outage);
  };
  const guardFor = (signal: AbortSignal) =>
    guardValidator(opts.validator, waitPolicy, {
      signal,
      phase: () => phase,
      stepIndex: () => stepInFlight,
      redact,
      onWait: async (outage, retryInMs) => {
        noteOutage(outage);
        const record = waitRecords.then(async () => {
          await pendingRecord?.catch(() => undefined);
          await persist('waiting-for-runner');
        });
        waitRecords = record.catch(() => undefined);
        // announced once the record says so
        await record;
        emit({ type: 'waiting-for-runner', runId, attempt: outage.attempts, maxRetries: waitPolicy.maxRetries, retryInMs, error: outage.lastError.message });
      },
      onBack: async (outage) => {
        traj.status = 'running';
        emit({ type: 'runner-back', runId, waitedMs: outage.waitedMs });
      },
    });
  const guard = guardFor(abort.signal);

  // tokens and cost so far, kept as steps are pushed (budgets are checked every cycle; a resumed run starts from its steps).
  // A step without a known price adds nothing to `cost` — the cost budget holds the priced steps to it, and
  // budgets.unknownPrice "stop" ends the run at such a step instead — and makes the run's total unknown (null).
  const spent = { input: 0, output: 0, cost: 0, unpriced: 0 };
  const count = (s: TrajStep) => {
    spent.input += s.tokens.input + (s.auxiliary?.inputTokens ?? 0);
    spent.output += s.tokens.output + (s.auxiliary?.outputTokens ?? 0);
    for (const cost of s.auxiliary ? [s.costUsd, s.auxiliary.costUsd] : [s.costUsd]) {
      if (cost === null) spent.unpriced++;
      else spent.cost += cost;
    }
  };

  // the second model as the tools see it: its calls are counted on the step whose tool made them
  let auxiliaryUse: NonNullable<TrajStep['auxiliary']> | undefined;
  const inner = opts.auxiliaryLlm;
  const auxiliaryLlm: LlmProvider | undefined = inner && {
    ...inner,
    async complete(req) {
      const res = { ...(await inner.complete(req)) };
      res.content = redact(res.content);
      const cost = costOf(res.model, res.usage);
      const use = (auxiliaryUse ??= { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });
      use.calls++;
      use.inputTokens += res.usage.inputTokens;
      use.outputTokens += res.usage.outputTokens;
      use.costUsd = use.costUsd === null || cost === null ? null : use.costUsd + cost;
      return res;
    },
  };
  /** the second model's use since the last call (the tool that just ran), for its step */
  const takeAuxiliaryUse = () => {
    const use = auxiliaryUse;
    auxiliaryUse = undefined;
    return use;
  };
  for (const s of traj.steps) count(s);
  /** a model call whose step was abandoned to a runner outage: paid for all the same */
  const countAbandoned = (a: NonNullable<RunnerOutage['abandonedStep']>) => {
    spent.input += a.tokens.input;
    spent.output += a.tokens.output;
    if (a.costUsd === null) spent.unpriced++;
    else spent.cost += a.costUsd;
  };
  for (const o of traj.runnerOutages ?? []) if (o.abandonedStep) countAbandoned(o.abandonedStep);
  const pushStep = (s: TrajStep) => {
    traj.steps.push(s);
    count(s);
  };

  // Engine-time accounting. Each step's `latencyMs.engine` is the wall time of its accounting window minus the
  // model call, the tool call and time spent paused. A window runs from the moment the previous step was pushed to
  // the moment this step is pushed, so it holds everything the loop does between two steps on the way to the next
  // tool call: emitting the previous step, budget and gate checks, prompt build, parse, rectify and bookkeeping.
  // Persisting the previous step and hashing this prompt happen while the model call and then the tool call are in
  // flight (see `whileModelWorks`): that time is inside `model` (or `tool`) and shown as `background`; the loop waits
  // for it only before pushing the step, and such a wait counts as engine time. The value is final when the step is
  // pushed, so a step is never changed afterwards — except the last one: after the loop, the time since it was pushed
  // (emitting it, starting its record, the last checks) is added to it, in a replaced step object, before the final
  // record. Run setup (bug context, startup commands) and the end of the run (final patch, re-check, outcome, the
  // final record) are not counted.
  let windowStart = 0;
  let windowExcluded = 0;
  /** closes the current accounting window: the engine time spent in it */
  const closeWindow = () => {
    const now = performance.now();
    const engine = now - windowStart - windowExcluded;
    windowStart = now;
    windowExcluded = 0;
    return Math.max(0, engine);
  };

  /**
   * The memory as the record keeps it. Its arrays only grow and their entries are never changed once pushed (objects
   * in it are replaced, not edited), so copying the arrays — not a deep clone — keeps the snapshot as it was.
   */
  const memorySnapshot = (): LoopMemory => ({
    ...memory,
    history: [...memory.history],
    gathered: [...memory.gathered],
    seenCommands: [...memory.seenCommands],
    ...(memory.bannedCommands ? { bannedCommands: [...memory.bannedCommands] } : {}),
    wallMsBefore: wallMs(),
  });
  const snapshot = (status: Trajectory['status']) => {
    traj.status = status;
    traj.updatedAt = nowIso();
    const saved = memorySnapshot();
    if (stepBase) {
      // mid-step (waiting for the runner): the point the step started from
      saved.seenCommands = saved.seenCommands.slice(0, stepBase.seenCommands);
      saved.formatErrors = stepBase.formatErrors;
      if (stepBase.startup) saved.startupPending = true;
    }
    traj.resume = { state: memory.state, overlay: stepBase?.overlay ?? ws.overlay(), memory: saved as unknown as Record<string, unknown> };
  };
  /** The retries ran out: the run is recorded as waiting-for-runner, resumable, and returned without an outcome. */
  const setAside = async (outage: RunnerOutage): Promise<Trajectory> => {
    const reason = `the runner was unavailable (${outage.lastError.message}) through ${outage.attempts} attempts; the run is set aside as waiting-for-runner: continue it once the runner is back`;
    await waitRecords;
    await persist('waiting-for-runner');
    emit({ type: 'set-aside', runId, reason });
    return traj;
  };
  /** a step was pushed and not yet recorded: it is recorded while the next model and tool calls are in flight (or at the end) */
  let unsaved = false;
  /**
   * Records the trajectory. The snapshot is taken before the first await. A recorder reads what it is given across
   * awaits, so the loop leaves `traj` alone until a record finishes (a cycle changes it only when it pushes its step,
   * after its record is done) — except after the last step, whose record overlaps the wrap-up: that one gets a copy
   * of the trajectory with its own steps array (`detached`), which the loop's later changes do not reach.
   */
  const persist = async (status: Trajectory['status'], detached = false) => {
    unsaved = false;
    snapshot(status);
    await opts.record?.(detached ? { ...traj, steps: [...traj.steps] } : traj);
  };

  function budgetExceeded(): End | undefined {
    const b = spec.budgets;
    if (traj.steps.length >= b.maxSteps) return { kind: 'budget', reason: `step budget reached (${b.maxSteps} steps)` };
    if (b.maxTokens !== null && spent.input + spent.output >= b.maxTokens) return { kind: 'budget', reason: `token budget reached (${spent.input + spent.output} ≥ ${b.maxTokens})` };
    if (b.maxCostUsd !== null && spent.cost >= b.maxCostUsd) return { kind: 'budget', reason: `cost budget reached ($${spent.cost.toFixed(4)} ≥ $${b.maxCostUsd})` };
    if (b.maxWallMs !== null && wallMs() >= b.maxWallMs) return { kind: 'budget', reason: `wall-time budget reached (${Math.round(wallMs() / 1000)} s ≥ ${b.maxWallMs / 1000} s)` };
    if (b.maxValidations !== null && memory.validations >= b.maxValidations) return { kind: 'budget', reason: `validation budget reached (${memory.validations} runner validations)` };
    return undefined;
  }

  const toolSettings = { ...spec.toolSettings };
  // `echo <sentinel>` as the whole command (the sentinel is used as written, as a pattern); made once, when first needed
  let sentinelEcho: RegExp | undefined;
  // a run saved after it decided to end (a crash during the final re-check) is only finished when continued
  let end: End | undefined = memory.ended;

  // startup commands (RepairAgent runs the tests once before the first cycle); not on resume, unless a runner outage
  // kept them from finishing
  if (!resume || memory.startupPending) {
    traj.startup = [];
    memory.gathered = [];
    memory.validations = 0;
    stepBase = { overlay: ws.overlay(), seenCommands: memory.seenCommands.length, formatErrors: memory.formatErrors, startup: true };
    for (const cmd of spec.startup) {
      const tool = tools.find((t) => t.definition.name === cmd.tool);
      if (!tool) throw new Error(`strategy ${spec.id}: startup command ${cmd.tool} is not among the run's tools (${defs.map((d) => d.name).join(', ')})`);
      let result: ToolResult;
      try {
        result = await tool.run(cmd.args, { workspace: ws, bug: opts.bug, validator: guard.validator, auxiliaryLlm, settings: toolSettings, signal: abort.signal });
      } catch (err) {
        const msg = `The startup command ${cmd.tool} failed: ${(err as Error)?.message ?? String(err)}`;
        result = { ok: false, output: msg, shown: msg };
      }
      guard.takeOutages().forEach(noteOutage);
      const lost = guard.takeUnresolved();
      if (lost) {
        // the startup runs again when the run goes on; a stop ends the run as it would anyway
        ws.setOverlay(stepBase.overlay);
        traj.startup = [];
        memory.gathered = [];
        memory.validations = 0;
        if (!abort.signal.aborted) return setAside(lost);
        break;
      }
      result = redactResult(result);
      if (result.validation) memory.validations++;
      const shown = trimObservation(result.shown, spec.observation).text;
      traj.startup.push({ name: cmd.tool, args: cmd.args, ok: result.ok, output: result.output, shown, ...(result.validation ? { verdict: result.validation } : {}) });
      memory.gathered.push({ step: -1, tool: cmd.tool, args: cmd.args, argsText: argsText(cmd.args), ok: result.ok, shown });
    }
    stepBase = undefined;
    if (!abort.signal.aborted) memory.startupPending = undefined;
  }
  phase = 'step';

  const firstNewStep = traj.steps.length;
  windowStart = performance.now();
  while (!end) {
    end = budgetExceeded();
    if (end) break;
    if (abort.signal.aborted) {
      end = opts.signal?.aborted ? { kind: 'user-stop', reason: 'stopped by the user' } : { kind: 'budget', reason: `wall-time budget reached (${(spec.budgets.maxWallMs ?? 0) / 1000} s)` };
      break;
    }
    let idleSince: number | undefined;
    const gate = await control.gate(async () => {
      await persist('paused');
      emit({ type: 'paused', runId, nextIndex: traj.steps.length });
      idleSince = performance.now();
    });
    // waiting for resume/step is not engine time
    if (idleSince !== undefined) windowExcluded += performance.now() - idleSince;
    if (gate === 'stop') {
      end = { kind: 'user-stop', reason: 'stopped by the user' };
      break;
    }

    const index = traj.steps.length;
    const state = memory.state;
    const seenAtStart = memory.seenCommands.length;
    const formatErrorsAtStart = memory.formatErrors;
    const stateSpec = spec.states.find((s) => s.name === state)!;
    const allowed = stateSpec.tools.includes('*') ? defs : defs.filter((d) => stateSpec.tools.includes(d.name));
    const vars: PromptVars = { bug: bugContext, spec, state, stateTools: allowed, allTools: defs, stepIndex: index, extra: extraContext };
    const messages = buildMessages(vars, memory);
    emit({ type: 'step-started', runId, index, state });

    const step: TrajStep = {
      index,
      state,
      stateAfter: state,
      startedAt: nowIso(),
      status: 'ok',
      prompt: { messages, promptHash: '' },
      rectifications: [],
      tokens: { input: 0, output: 0, estimated: false },
      costUsd: 0,
      latencyMs: { model: 0, tool: 0, engine: 0 },
    };

    // ---- model ----
    let reply: string;
    // the model call as the loop waits for it (provider and SDK work included)
    const modelStart = performance.now();
    let modelEnd: number | undefined;
    const timeModel = () => {
      step.latencyMs.model = (modelEnd ?? performance.now()) - modelStart;
      windowExcluded += step.latencyMs.model;
    };
    // (a provider that throws instead of rejecting is handled as one that rejects)
    const call = Promise.resolve().then(() =>
      opts.llm.complete({
        messages,
        temperature: spec.sampling.temperature,
        topP: spec.sampling.topP,
        seed: spec.sampling.seed,
        maxTokens: spec.sampling.maxTokens,
        purpose: 'agent',
        signal: abort.signal,
        onDelta: (text) => emit({ type: 'model-delta', runId, index, text }),
      }),
    );
    // what the record needs and the next tool call does not: the prompt's hash, persisting the previous step; the
    // step waits for it only before it is pushed (a slow store — IndexedDB — then overlaps the parse and the tool too)
    const background = whileModelWorks(async () => {
      // independent: a failing hash must not keep the previous step from being recorded, nor the reverse
      const [hashed, recorded] = await Promise.allSettled([Promise.resolve().then(() => hasher.hashOrDigest(messages)), unsaved ? persist('running') : undefined]);
      if (recorded.status === 'rejected') throw recorded.reason;
      if (hashed.status === 'rejected') throw hashed.reason;
      step.prompt.promptHash = hashed.value;
    });
    try {
      const res = await call;
      modelEnd = performance.now();
      reply = redact(res.content);
      step.response = { content: reply, model: res.model, ...(res.meta ? { meta: res.meta } : {}) };
      step.tokens = { input: res.usage.inputTokens, output: res.usage.outputTokens, estimated: Boolean(res.meta?.usageEstimated) };
      step.costUsd = costOf(res.model, res.usage);
      timeModel();
    } catch (err) {
      timeModel();
      step.latencyMs.background = await background.done;
      const e = err instanceof LlmError ? err : new LlmError(String((err as Error)?.message ?? err), 'other');
      step.status = e.code === 'aborted' ? 'stopped' : 'llm-error';
      step.error = { code: e.code, message: redact(e.message) };
      if (e.code === 'aborted') {
        end = opts.signal?.aborted ? { kind: 'user-stop', reason: 'stopped by the user' } : { kind: 'budget', reason: `wall-time budget reached (${(spec.budgets.maxWallMs ?? 0) / 1000} s)` };
      } else {
        end = { kind: 'error', reason: `model error (${e.code}): ${redact(e.message)}` };
      }
      // final before the step is pushed: a pushed step is never changed in place (persistence writes each step once)
      step.latencyMs.engine = closeWindow();
      pushStep(step);
      emit({ type: 'step', runId, step });
      memory.ended = end;
      await persist('running');
      break;
    }

    // the memory and overlay the previous step's record keeps are taken (normally long before the reply is in)
    await background.started;
    // ---- parse + rectify ----
    const parsed = parseByFormat(spec.output.format, reply, { tools: defs });
    step.rectifications.push(...parsed.rectifications);
    step.parsed = { ...(parsed.thought ? { thought: parsed.thought } : {}), ...(parsed.command ? { command: parsed.command } : {}), ...(parsed.error ? { error: parsed.error } : {}) };
    let feedback: string;
    let result: ToolResult | undefined;
    let problem = parsed.error;
    let command = parsed.command;
    if (command && !problem) {
      const r = await rectifyCommand(command, defs, ws, {
        mode: spec.middleware.rectifyNames,
        threshold: spec.middleware.levenshteinThreshold,
        repairPaths: spec.middleware.repairPaths,
      });
      step.rectifications.push(...r.rectifications);
      if (r.error && !r.tool && !memory.bannedCommands.includes(command.name)) memory.bannedCommands.push(command.name);
      if (r.error) problem = r.error;
      else command = r.command!;
      step.parsed.command = command;
    }
    if (problem) {
      memory.formatErrors++;
      step.status = 'format-error';
      step.rectifications.push({ kind: 'format-error', message: problem });
      feedback = renderTemplate(spec.prompt.formatError, { error: problem, step: { index: index + 1 } }, `${spec.id}.formatError`);
      if (memory.formatErrors >= spec.middleware.maxConsecutiveFormatErrors) {
        end = { kind: 'error', reason: `${memory.formatErrors} consecutive replies could not be used (last: ${problem})` };
      }
    } else {
      memory.formatErrors = 0;
      const cmd = command!;
      // the commands run so far, kept only where repeats are refused
      const key = spec.middleware.refuseRepeats ? canonicalJson(cmd) : undefined;
      const notAllowed = spec.stateEnforcement === 'enforced' && !stateSpec.tools.includes('*') && !stateSpec.tools.includes(cmd.name);
      if (notAllowed) {
        step.status = 'refused';
        const msg = `The command ${cmd.name} is not available in state "${state}". Available now: ${allowed.map((d) => d.name).join(', ')}.`;
        step.rectifications.push({ kind: 'state-refused', from: cmd.name, message: msg });
        feedback = msg;
      } else if (key !== undefined && memory.seenCommands.includes(key)) {
        step.status = 'refused';
        const msg = `You already ran exactly this command (${cmd.name} with the same arguments); its result is above. Try something different.`;
        step.rectifications.push({ kind: 'repeat-refused', from: cmd.name, message: msg });
        feedback = msg;
      } else {
        if (key !== undefined) memory.seenCommands.push(key);
        const tool = tools.find((t) => t.definition.name === cmd.name)!;
        const overlayBefore = ws.overlay();
        const toolStart = performance.now();
        stepInFlight = index;
        stepBase = { overlay: overlayBefore, seenCommands: seenAtStart, formatErrors: formatErrorsAtStart };
        pendingRecord = background.done;
        try {
          result = await tool.run(cmd.args, { workspace: ws, bug: opts.bug, validator: guard.validator, auxiliaryLlm, settings: toolSettings, signal: abort.signal });
        } catch (err) {
          const msg = `The command ${cmd.name} failed: ${(err as Error)?.message ?? String(err)}`;
          result = { ok: false, output: msg, shown: msg };
        }
        stepBase = undefined;
        stepInFlight = undefined;
        result = redactResult(result);
        step.latencyMs.tool = performance.now() - toolStart;
        windowExcluded += step.latencyMs.tool;
        const outages = guard.takeOutages();
        outages.forEach(noteOutage);
        if (outages.length) step.latencyMs.runnerWait = outages.reduce((sum, o) => sum + o.waitedMs, 0);
        const lost = guard.takeUnresolved();
        if (lost) {
          // the tool's result is the runner's trouble, not an answer: not shown to the model, the step not taken
          const aux = takeAuxiliaryUse();
          ws.setOverlay(overlayBefore);
          memory.seenCommands = memory.seenCommands.slice(0, seenAtStart);
          memory.formatErrors = formatErrorsAtStart;
          lost.abandonedStep = {
            index,
            reply,
            model: step.response?.model ?? '',
            tokens: { input: step.tokens.input + (aux?.inputTokens ?? 0), output: step.tokens.output + (aux?.outputTokens ?? 0) },
            costUsd: step.costUsd === null || aux?.costUsd === null ? null : (step.costUsd ?? 0) + (aux?.costUsd ?? 0),
          };
          countAbandoned(lost.abandonedStep);
          await background.done;
          if (!abort.signal.aborted) return setAside(lost);
          end = opts.signal?.aborted
            ? { kind: 'user-stop', reason: 'stopped by the user (while waiting for the runner)' }
            : { kind: 'budget', reason: `wall-time budget reached (${(spec.budgets.maxWallMs ?? 0) / 1000} s) while waiting for the runner` };
          break;
        }
        const auxiliary = takeAuxiliaryUse();
        if (auxiliary) step.auxiliary = auxiliary;
        if (!result.ok) step.status = 'tool-error';
        const extraRect = result.data?.rectifications;
        if (Array.isArray(extraRect)) step.rectifications.push(...(extraRect as Rectification[]));
        feedback = await afterTool(cmd.name, cmd.args, result, overlayBefore, step);
      }
    }
    if (spec.memory.kind === 'full-history') {
      memory.history.push({ role: 'assistant', content: reply }, { role: 'user', content: feedback });
    }
    step.feedback = feedback;
    step.stateAfter = memory.state;
    // the prompt hash and the previous step's record (an error there ends the run here)
    step.latencyMs.background = await background.done;
    // final before the step is pushed: a pushed step is never changed in place (persistence writes each step once)
    step.latencyMs.engine = closeWindow();
    pushStep(step);
    if (step.costUsd === null && spec.budgets.unknownPrice === 'stop' && !end) {
      end = { kind: 'budget', reason: `no price known for model ${step.response?.model}: add it to the price table, or set budgets.unknownPrice to "ignore"` };
    }
    emit({ type: 'step', runId, step });
    unsaved = true;
    if (control.stopRequested && !end) end = { kind: 'user-stop', reason: 'stopped by the user' };
  }

  // The last step has no model call after it to hide its record behind: it is recorded while the run is wrapped up
  // (final patch, re-check), which does not need it. It records a detached copy, taken before persist's first await,
  // so what changes afterwards (the last step's engine time, finish() setting the workspace's overlay) is not in it;
  // the final record waits for it (one write at a time), and its error, if any, ends the run as before.
  memory.ended = end;
  const lastRecord = unsaved ? persist('running', true) : undefined;
  lastRecord?.catch(() => undefined); // awaited below
  pendingRecord = lastRecord;
  // the time since the last step was pushed (emitting it, starting its record, the last checks) belongs to it:
  // replaced, not changed in place, so a recorder sees that it changed
  const tail = closeWindow();
  const lastStep = traj.steps.length > firstNewStep ? traj.steps.at(-1) : undefined;
  if (lastStep) traj.steps[traj.steps.length - 1] = { ...lastStep, latencyMs: { ...lastStep.latencyMs, engine: lastStep.latencyMs.engine + tail } };
  stopAborts();
  const outcome = await finish(end);
  await lastRecord;
  if (!outcome) return setAside(traj.runnerOutages!.at(-1)!);
  traj.outcome = outcome;
  traj.status = 'finished';
  traj.updatedAt = nowIso();
  traj.resume = undefined;
  await opts.record?.(traj);
  emit({ type: 'finished', runId, outcome });
  return traj;

  /** Everything after a tool ran: validations, transitions, stop rules, the feedback text. */
  async function afterTool(name: string, args: Record<string, unknown>, result: ToolResult, overlayBefore: Overlay, step: TrajStep): Promise<string> {
    const trimmed = trimObservation(result.shown, spec.observation);
    step.tool = {
      name,
      args,
      ok: result.ok,
      output: result.output,
      shown: trimmed.text,
      ...(result.data ? { data: stripRectifications(result.data) } : {}),
      ...(result.finished ? { finished: result.finished } : {}),
    };
    const after = ws.overlay();
    const files = [...new Set([...Object.keys(after), ...Object.keys(overlayBefore)])].filter((p) => after[p] !== overlayBefore[p]).sort();
    if (files.length) step.overlayChange = { files, diff: await stepDiff(ws, overlayBefore, after, files) };
    let note = '';
    const v: ValidationResult | undefined = result.validation;
    if (v) {
      memory.validations++;
      step.verdict = v;
      const candidate = result.data?.candidateOverlay as Overlay | undefined;
      if (v.plausible) memory.plausibleOverlay = candidate ?? after;
      if (!v.plausible && spec.stop.regressionRevert) {
        const broke = v.failingTests.filter((t) => !opts.bug.failingTests.includes(t));
        if (broke.length && v.compiled) {
          ws.setOverlay(overlayBefore);
          note = `\n\nThis change made tests fail that passed before (${broke.slice(0, 5).join(', ')}); it was reverted. Try a different fix.`;
          step.rectifications.push({ kind: 'other', message: `regression: reverted the change (newly failing: ${broke.join(', ')})` });
        }
      }
      const sig = errorSignature(v);
      if (spec.stop.sameErrorTwice && sig && sig === memory.lastErrorSignature) {
        end = { kind: 'stuck', reason: `stuck: the same error twice in a row (${summarizeValidation(v).split('\n')[0]})` };
      }
      memory.lastErrorSignature = sig;
      if (v.plausible && spec.stop.onPlausible) end = { kind: 'finished', reason: 'a plausible patch was found (all tests pass)' };
    }
    if (result.ok) {
      const t = spec.transitions.find((tr) => tr.tool === name && (tr.from === '*' || tr.from === memory.state));
      if (t) memory.state = t.to;
    }
    if (spec.memory.kind === 'dynamic-prompt') {
      memory.gathered.push({ step: step.index, tool: name, args, argsText: argsText(args), ok: result.ok, shown: trimmed.text, ...(result.data ? { data: stripRectifications(result.data) } : {}) });
      memory.last = { command: `${name} ${JSON.stringify(args)}`, result: trimmed.text };
    }
    if (result.finished) end ??= { kind: 'finished', reason: `the agent finished (${result.finished.success ? 'success' : 'failure'}): ${result.finished.reason}` };
    if (spec.finalStates.includes(memory.state)) end ??= { kind: 'finished', reason: `reached final state ${memory.state}` };
    const sentinel = spec.middleware.completionSentinel;
    if (sentinel && (firstLine(result.output.trimStart()).trim() === sentinel || (sentinelEcho ??= new RegExp(`^\\s*echo\\s+["']?${sentinel}["']?\\s*$`)).test(String(args.command ?? '')))) {
      end ??= { kind: 'finished', reason: `the agent signalled completion (${sentinel})` };
    }
    const vars = { result: { tool: name, ok: result.ok, output: trimmed.text, elided: trimmed.elided, returncode: result.data?.returncode ?? (result.ok ? 0 : 1) }, step: { index: step.index + 1 } };
    return renderTemplate(spec.prompt.observation, vars, `${spec.id}.observation`) + note;
  }

  /** The outcome; undefined when the re-check could not reach the runner (the run is then set aside, to finish later). */
  async function finish(e: End): Promise<Outcome | undefined> {
    let finalPatch = await programPatch(ws, opts.bug);
    if (!finalPatch && memory.plausibleOverlay) {
      ws.setOverlay(memory.plausibleOverlay);
      finalPatch = await programPatch(ws, opts.bug);
    }
    let recheck: ValidationResult | undefined;
    let plausible: boolean | null = null;
    let reason = e.reason;
    if (finalPatch && opts.recheck !== false) {
      // a stop during the re-check cancels it (the outcome says so); so does it end a wait for the runner
      phase = 'recheck';
      const recheckGuard = guardFor(opts.signal ?? new AbortController().signal);
      try {
        recheck = await recheckGuard.validator.validate(ws, { mode: 'failing-first', tests: opts.bug.failingTests }, { ...(opts.signal ? { signal: opts.signal } : {}) });
        plausible = recheck.plausible;
      } catch (err) {
        recheckGuard.takeOutages().forEach(noteOutage);
        if (recheckGuard.takeUnresolved() && !opts.signal?.aborted) return undefined;
        reason += `; the final re-check failed: ${redact((err as Error).message)}`;
      }
    } else if (finalPatch) {
      plausible = traj.steps.findLast((s) => s.verdict)?.verdict?.plausible ?? null;
    } else plausible = false;
    let match: boolean | null = null;
    if (opts.groundTruthPatch) {
      try {
        match = finalPatch ? await exactMatch(ws, opts.bug, opts.groundTruthPatch) : false;
      } catch (err) {
        reason += `; exact match not computed: ${(err as Error).message}`;
      }
    }
    // stopped: by the user during the loop, or during the re-check (which the stop cancelled)
    const status: Outcome['status'] = plausible ? 'plausible' : e.kind === 'error' ? 'error' : e.kind === 'user-stop' || opts.signal?.aborted ? 'stopped' : 'implausible';
    return {
      status,
      reason: redact(reason),
      finalPatch: redact(finalPatch),
      plausible,
      ...(recheck ? { recheck } : {}),
      exactMatch: match,
      totals: {
        steps: traj.steps.length,
        inputTokens: spent.input,
        outputTokens: spent.output,
        costUsd: spent.unpriced ? null : spent.cost,
        wallMs: wallMs(),
        validations: memory.validations,
        formatErrors: traj.steps.filter((s) => s.status === 'format-error').length,
      },
    };
  }
}

/** The change this step made (not the cumulative patch): before = the previous overlay, else the base file. */
async function stepDiff(ws: Workspace, before: Overlay, after: Overlay, files: string[]): Promise<string> {
  let base: Workspace | undefined;
  const parts: string[] = [];
  for (const path of files) {
    let old: string | null;
    if (path in before) old = before[path] ?? null;
    else {
      base ??= ws.fork();
      base.setOverlay({});
      old = (await base.exists(path)) ? await base.read(path) : null;
    }
    const now = path in after ? (after[path] ?? null) : old;
    parts.push(fileDiff(path, old, now));
  }
  return parts.join('');
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end);
}

function stripRectifications(data: Record<string, unknown>): Record<string, unknown> {
  const { rectifications: _r, candidateOverlay: _c, ...rest } = data;
  return rest;
}
