// The agent loop: one small cycle for every strategy. Build the prompt → ask the model → parse →
// rectify → gate by state → run the tool → transition → record. The StrategySpec carries every
// difference between agents; budgets, stop rules and pause/stop are checked between steps.
// Beside it, one concern each: loop-memory.ts (what a saved run continues from), run-recorder.ts (the record, written
// behind the model call), run-budgets.ts (spending, budgets, the wall-time abort), engine-time.ts (a step's engine
// time), model-call.ts, tool-call.ts (and redaction), after-tool.ts (validations, transitions, stop rules, feedback),
// runner-wait.ts (runner outages), startup-commands.ts, final-recheck.ts (the outcome).
import type { LlmProvider } from '../contracts/llm.ts';
import type { PublicBug } from '../contracts/bug.ts';
import type { Workspace } from '../contracts/workspace.ts';
import type { ToolContext, Validator } from '../contracts/tools.ts';
import type { StrategySpec } from '../contracts/strategy.ts';
import type { Outcome, Trajectory, TrajStep } from '../contracts/trajectory.ts';
import type { AnyTool } from './agent-tool.ts';
import { buildBugContext } from './bug-context.ts';
import { buildMessages, type PromptVars } from './prompt.ts';
import { renderTemplate } from './templates.ts';
import { parseByFormat } from './middleware/parse.ts';
import { rectifyCommand } from './middleware/rectify.ts';
import { canonicalJson, PromptHasher } from '../llm/prompt-hash.ts';
import { DEFAULT_PRICES, runCosts, type PriceTable } from './prices.ts';
import { RunControl } from './run-control.ts';
import type { RunnerWaitPolicy } from './runner-outage.ts';
import { startMemory, type End } from './loop-memory.ts';
import { newRunId, RunRecorder, startTrajectory } from './run-recorder.ts';
import { abortedEnd, budgetExceeded, runAbort, RunSpending, unknownPriceEnd } from './run-budgets.ts';
import { EngineTime } from './engine-time.ts';
import { abandonedStep, RunnerWait } from './runner-wait.ts';
import { runStartup } from './startup-commands.ts';
import { callModel, modelFailure } from './model-call.ts';
import { callTool, secretRedactor } from './tool-call.ts';
import { afterTool } from './after-tool.ts';
import { finalOutcome } from './final-recheck.ts';

export { newRunId, REPAIRLAB_VERSION } from './run-recorder.ts';

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

const nowIso = () => new Date().toISOString();

/** The strategy's test-edit policy on every validation of the run that does not name its own (the final re-check does). */
function withTestEdits(validator: Validator, testEdits: StrategySpec['testEdits'] | undefined): Validator {
  if (!testEdits) return validator;
  return {
    validate: (workspace, tests, o) => validator.validate(workspace, tests, { testEdits, ...o }),
    ...(validator.validateMany ? { validateMany: (workspaces, tests, o) => validator.validateMany!(workspaces, tests, { testEdits, ...o }) } : {}),
  };
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

  const traj = startTrajectory(opts, runId, defs.map((d) => d.name), prices);
  const memory = startMemory(spec, resume);
  if (resume?.resume) ws.setOverlay(resume.resume.overlay);

  const startedAt = performance.now();
  const wallMs = () => memory.wallMsBefore + (performance.now() - startedAt);
  const abort = runAbort(spec.budgets, memory.wallMsBefore, opts.signal);
  cleanups.push(abort.stop);
  const stoppedByUser = () => Boolean(opts.signal?.aborted);

  // the configured key never reaches a record (nor the model again), whatever echoes it
  const redact = secretRedactor(opts.secrets);
  const recorder = new RunRecorder(traj, memory, ws, wallMs, opts.record);
  // runner outages are waited for, recorded and never shown to the model
  const runnerWait = new RunnerWait(traj, withTestEdits(opts.validator, spec.testEdits), opts.runnerWait, recorder, redact.text, emit);
  const guard = runnerWait.guard(abort.signal);
  const spent = new RunSpending(costOf);
  const auxiliaryLlm = spent.meterAuxiliary(opts.auxiliaryLlm, redact.text);
  for (const s of traj.steps) spent.countStep(s);
  for (const o of traj.runnerOutages ?? []) if (o.abandonedStep) spent.countAbandoned(o.abandonedStep);
  const pushStep = (s: TrajStep) => {
    traj.steps.push(s);
    spent.countStep(s);
  };
  const engineTime = new EngineTime();

  const toolSettings = { ...spec.toolSettings };
  const toolContext = (): ToolContext => ({ workspace: ws, bug: opts.bug, validator: guard.validator, auxiliaryLlm, settings: toolSettings, signal: abort.signal, testEdits: spec.testEdits });
  // a run saved after it decided to end (a crash during the final re-check) is only finished when continued
  let end: End | undefined = memory.ended;

  // not on resume, unless a runner outage kept the startup commands from finishing
  if (!resume || memory.startupPending) {
    const lost = await runStartup({ spec, tools, workspace: ws, toolContext, guard, redactResult: redact.result, traj, memory, recorder, runnerWait, signal: abort.signal });
    if (lost) return runnerWait.setAside(lost);
  }
  runnerWait.phase = 'step';

  const firstNewStep = traj.steps.length;
  engineTime.start();
  while (!end) {
    end = budgetExceeded(spec.budgets, spent, { steps: traj.steps.length, wallMs: wallMs(), validations: memory.validations });
    if (end) break;
    if (abort.signal.aborted) {
      end = abortedEnd(spec.budgets, stoppedByUser());
      break;
    }
    let idleSince: number | undefined;
    const gate = await control.gate(async () => {
      await recorder.persist('paused');
      emit({ type: 'paused', runId, nextIndex: traj.steps.length });
      idleSince = performance.now();
    });
    // waiting for resume/step is not engine time
    if (idleSince !== undefined) engineTime.exclude(performance.now() - idleSince);
    if (gate === 'stop') {
      end = { kind: 'user-stop', reason: 'stopped by the user' };
      break;
    }

    // ---- prompt ----
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

    // ---- model, with the prompt's hash and the previous step's record behind it ----
    let reply = '';
    const answering = callModel(opts.llm, spec, messages, abort.signal, (text) => emit({ type: 'model-delta', runId, index, text }), (res) => {
      reply = redact.text(res.content);
      step.response = { content: reply, model: res.model, ...(res.meta ? { meta: res.meta } : {}) };
      step.tokens = { input: res.usage.inputTokens, output: res.usage.outputTokens, estimated: Boolean(res.meta?.usageEstimated) };
      step.costUsd = costOf(res.model, res.usage);
    });
    const background = recorder.behindModelCall(hasher, messages, step);
    const answer = await answering;
    step.latencyMs.model = answer.ms;
    engineTime.exclude(answer.ms);
    if (!answer.ok) {
      step.latencyMs.background = await background.done;
      end = modelFailure(answer.error, step, spec.budgets, stoppedByUser(), redact.text);
      // final before the step is pushed: a pushed step is never changed in place (persistence writes each step once)
      step.latencyMs.engine = engineTime.close();
      pushStep(step);
      emit({ type: 'step', runId, step });
      memory.ended = end;
      await recorder.persist('running');
      break;
    }

    // the memory and overlay the previous step's record keeps are taken (normally long before the reply is in)
    await background.started;
    // ---- parse + rectify ----
    const parsed = parseByFormat(spec.output.format, reply, { tools: defs });
    step.rectifications.push(...parsed.rectifications);
    step.parsed = { ...(parsed.thought ? { thought: parsed.thought } : {}), ...(parsed.command ? { command: parsed.command } : {}), ...(parsed.error ? { error: parsed.error } : {}) };
    let feedback: string;
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
      // ---- gate by state, refuse repeats ----
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
        // ---- tool ----
        if (key !== undefined) memory.seenCommands.push(key);
        const tool = tools.find((t) => t.definition.name === cmd.name)!;
        const overlayBefore = ws.overlay();
        const toolStart = performance.now();
        runnerWait.stepInFlight = index;
        recorder.stepBase = { overlay: overlayBefore, seenCommands: seenAtStart, formatErrors: formatErrorsAtStart };
        recorder.pending = background.done;
        const raw = await callTool(tool, cmd.args, toolContext(), `The command ${cmd.name}`);
        recorder.stepBase = runnerWait.stepInFlight = undefined;
        const result = redact.result(raw);
        step.latencyMs.tool = performance.now() - toolStart;
        engineTime.exclude(step.latencyMs.tool);
        const { waitedMs, lost } = runnerWait.collect(guard);
        if (waitedMs !== undefined) step.latencyMs.runnerWait = waitedMs;
        if (lost) {
          // the tool's result is the runner's trouble, not an answer: not shown to the model, the step not taken
          const aux = spent.takeAuxiliaryUse();
          ws.setOverlay(overlayBefore);
          memory.seenCommands = memory.seenCommands.slice(0, seenAtStart);
          memory.formatErrors = formatErrorsAtStart;
          lost.abandonedStep = abandonedStep(step, reply, aux);
          spent.countAbandoned(lost.abandonedStep);
          await background.done;
          if (!abort.signal.aborted) return runnerWait.setAside(lost);
          end = abortedEnd(spec.budgets, stoppedByUser(), true);
          break;
        }
        const auxiliary = spent.takeAuxiliaryUse();
        if (auxiliary) step.auxiliary = auxiliary;
        ({ feedback, end } = await afterTool(spec, ws, opts.bug, memory, step, { name: cmd.name, args: cmd.args, result, overlayBefore }));
      }
    }
    // ---- record ----
    if (spec.memory.kind === 'full-history') {
      memory.history.push({ role: 'assistant', content: reply }, { role: 'user', content: feedback });
    }
    step.feedback = feedback;
    step.stateAfter = memory.state;
    // the prompt hash and the previous step's record (an error there ends the run here)
    step.latencyMs.background = await background.done;
    // final before the step is pushed: a pushed step is never changed in place (persistence writes each step once)
    step.latencyMs.engine = engineTime.close();
    pushStep(step);
    end ??= unknownPriceEnd(spec.budgets, step);
    emit({ type: 'step', runId, step });
    recorder.unsaved = true;
    if (control.stopRequested && !end) end = { kind: 'user-stop', reason: 'stopped by the user' };
  }

  // ---- wrap-up: the last step's record overlaps the final re-check ----
  memory.ended = end;
  const lastRecord = recorder.startLastRecord();
  // the time since the last step was pushed (emitting it, starting its record, the last checks) belongs to it
  recorder.addToLastStep(engineTime.close(), firstNewStep);
  abort.stop();
  const outcome = await finalOutcome({
    end,
    workspace: ws,
    bug: opts.bug,
    plausibleOverlay: memory.plausibleOverlay,
    recheck: opts.recheck,
    signal: opts.signal,
    guard: (signal) => {
      runnerWait.phase = 'recheck';
      return runnerWait.guard(signal);
    },
    noteOutage: (o) => runnerWait.note(o),
    groundTruthPatch: opts.groundTruthPatch,
    redact: redact.text,
    steps: traj.steps,
    spent,
    validations: memory.validations,
    wallMs,
  });
  await lastRecord;
  if (!outcome) return runnerWait.setAside(traj.runnerOutages!.at(-1)!);
  await recorder.recordOutcome(outcome);
  emit({ type: 'finished', runId, outcome });
  return traj;
}
