// The agent loop: one small cycle for every strategy. Build the prompt → ask the model → parse →
// rectify → gate by state → run the tool → transition → record. The StrategySpec carries every
// difference between agents; budgets, stop rules and pause/stop are checked between steps.
// Every end is thrown — RunEnded with the End, RunSetAside when the runner is gone — and caught once (run-ends.ts).
// Beside it, one concern each: step-scope.ts (a step's timing, runner waits and record), command-from-reply.ts (the
// middleware: parse, rectify, state gate, repeats), loop-memory.ts (what a saved run continues from), run-recorder.ts
// (the record, written behind the model call), run-budgets.ts (spending, budgets, the wall-time abort), engine-time.ts
// (a step's engine time), model-call.ts, tool-call.ts (and redaction), after-tool.ts (validations, transitions, stop
// rules, feedback), runner-wait.ts (runner outages), startup-commands.ts, final-recheck.ts (the outcome); agent-events.ts
// holds what a run is given and what it reports.
import type { ToolContext, Validator } from '../contracts/tools.ts';
import type { StrategySpec } from '../contracts/strategy.ts';
import type { Trajectory } from '../contracts/trajectory.ts';
import { buildBugContext } from '../strategies/bug-context.ts';
import { buildMessages, type PromptVars } from '../strategies/prompt.ts';
import { DEFAULT_PRICES, runCosts } from '../contracts/prices.ts';
import { RunControl, USER_STOP_REASON } from './run-control.ts';
import { abortReasonText } from '../llm/abort-reason.ts';
import { startMemory, type End } from './loop-memory.ts';
import { newRunId, RunRecorder, startTrajectory } from './run-recorder.ts';
import { runAbort, RunSpending } from './run-budgets.ts';
import { RunnerWait } from './runner-wait.ts';
import { runStartup } from './startup-commands.ts';
import { secretRedactor } from './tool-call.ts';
import { afterTool } from './after-tool.ts';
import { finalOutcome } from './final-recheck.ts';
import { RunSteps } from './step-scope.ts';
import { commandFromReply } from './command-from-reply.ts';
import { endOf, RunEnded, RunSetAside, throwIfLimitReached, throwIfStepEnded } from './run-ends.ts';

export { newRunId } from './run-recorder.ts';

export type { AgentEvent, RunAgentOptions } from './agent-events.ts';
import type { AgentEvent, RunAgentOptions } from './agent-events.ts';

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

  const traj = startTrajectory(opts, runId, defs.map((d) => d.name), prices);
  const memory = startMemory(spec, resume);
  if (resume?.resume) ws.setOverlay(resume.resume.overlay);

  const startedAt = performance.now();
  const wallMs = () => memory.wallMsBefore + (performance.now() - startedAt);
  const abort = runAbort(spec.budgets, memory.wallMsBefore, opts.signal);
  cleanups.push(abort.stop);
  // the caller's stop, in the sentence its signal was aborted with (RunManager.stop: "Stopped by you at step 3")
  const userStopReason = () => (opts.signal?.aborted ? abortReasonText(opts.signal, control.stopReason ?? USER_STOP_REASON) : undefined);

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
  const steps = new RunSteps({ traj, memory, workspace: ws, recorder, runnerWait, guard, spent, costOf, redact, emit, signal: abort.signal, budgets: spec.budgets, userStopReason });

  const toolSettings = { ...spec.toolSettings };
  const toolContext = (): ToolContext => ({ workspace: ws, bug: opts.bug, validator: guard.validator, auxiliaryLlm, settings: toolSettings, signal: abort.signal, testEdits: spec.testEdits });

  // every end of the loop is thrown (run-ends.ts) and caught here, once
  let end: End;
  try {
    // not on resume, unless a runner outage kept the startup commands from finishing
    if (!resume || memory.startupPending) {
      const lost = await runStartup({ spec, tools, workspace: ws, toolContext, guard, redactResult: redact.result, traj, memory, recorder, runnerWait, signal: abort.signal });
      if (lost) throw new RunSetAside(lost);
    }
    steps.begin();
    // a run saved after it decided to end (a crash during the final re-check) is only finished when continued
    if (memory.ended) throw new RunEnded(memory.ended);
    for (;;) {
      // ---- between steps: budgets, the stop signal, pause / stop ----
      throwIfLimitReached(spec.budgets, spent, { steps: traj.steps.length, wallMs: wallMs(), validations: memory.validations }, abort.signal, userStopReason());
      await steps.gate(control);
      // ---- prompt: the state machine's state and its tools; full history or the dynamic prompt ----
      const index = traj.steps.length;
      const state = memory.state;
      const stateSpec = spec.states.find((s) => s.name === state)!;
      const allowed = stateSpec.tools.includes('*') ? defs : defs.filter((d) => stateSpec.tools.includes(d.name));
      const vars: PromptVars = { bug: bugContext, spec, state, stateTools: allowed, allTools: defs, stepIndex: index, extra: extraContext };
      const step = steps.open(index, state, buildMessages(vars, memory));
      // ---- model (the prompt's hash and the previous step's record go behind it) ----
      const reply = await step.askModel(opts.llm, spec);
      // ---- middleware: parse → rectify → gate by state, refuse repeats ----
      const read = await commandFromReply(reply, { spec, stateSpec, allowed, tools, workspace: ws, memory, step: step.record });
      // ---- tool → validations, transitions, stop rules (a reply without a runnable command gets its feedback instead) ----
      const { feedback, end: stepEnd } = 'tool' in read ? await afterTool(spec, ws, opts.bug, memory, step.record, await step.runTool(read.tool, read.command, toolContext)) : read;
      // ---- record ----
      if (spec.memory.kind === 'full-history') memory.history.push({ role: 'assistant', content: reply }, { role: 'user', content: feedback });
      await step.finish(feedback);
      throwIfStepEnded(stepEnd, spec.budgets, step.record, control);
    }
  } catch (err) {
    if (err instanceof RunSetAside) return runnerWait.setAside(err.outage);
    end = endOf(err);
  }

  // ---- wrap-up: the last step's record overlaps the final re-check ----
  const lastRecord = steps.closeLast(end);
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
