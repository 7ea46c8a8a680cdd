// One step of the loop, from its prompt to its record. The scope owns what every step threads through besides the
// agent's own logic, so the loop does not:
//  - timing: the model's and the tool's time, the runner waits, the background work and the engine time (one
//    accounting window per step, engine-time.ts), pauses excluded;
//  - the runner: the tool runs against the validator that waits for an unavailable runner; a step whose runner is
//    lost for good is abandoned — never shown to the model — and the run set aside (runner-wait.ts);
//  - the record: the previous step's record and this prompt's hash run behind the model call, the step is pushed
//    once they are done (a pushed step is never changed in place) and recorded behind the next one (run-recorder.ts).
// RunSteps is the run's side: the gate between steps, a scope per step, and the last step's close after the loop.
import type { ChatMessage, LlmProvider } from '../contracts/llm.ts';
import type { BudgetSpec, StrategySpec } from '../contracts/strategy.ts';
import type { ToolContext } from '../contracts/tools.ts';
import type { ParsedCommand, RunnerOutage, Trajectory, TrajStep } from '../contracts/trajectory.ts';
import type { Overlay, Workspace } from '../contracts/workspace.ts';
import { PromptHasher } from '../llm/prompt-hash.ts';
import type { AnyTool } from '../tools/agent-tool.ts';
import type { ToolRun } from './after-tool.ts';
import { EngineTime } from './engine-time.ts';
import type { AgentEvent } from './agent-events.ts';
import type { End, LoopMemory } from './loop-memory.ts';
import { callModel, modelFailure } from './model-call.ts';
import type { runCosts } from '../contracts/prices.ts';
import { abortedEnd, type RunSpending } from './run-budgets.ts';
import type { RunControl } from './run-control.ts';
import { RunEnded, RunSetAside, userStop } from './run-ends.ts';
import type { BackgroundWork, RunRecorder } from './run-recorder.ts';
import type { GuardedValidator } from './runner-outage.ts';
import { abandonedStep, type RunnerWait } from './runner-wait.ts';
import { callTool, type secretRedactor } from './tool-call.ts';

/** The parts of a run every step uses. */
export interface StepRun {
  traj: Trajectory;
  memory: LoopMemory;
  workspace: Workspace;
  recorder: RunRecorder;
  runnerWait: RunnerWait;
  /** the tools' validator, waiting for an unavailable runner */
  guard: GuardedValidator;
  spent: RunSpending;
  costOf: ReturnType<typeof runCosts>;
  redact: ReturnType<typeof secretRedactor>;
  emit: (event: AgentEvent) => void;
  /** the run's abort signal: the caller's stop and the wall-time budget */
  signal: AbortSignal;
  budgets: BudgetSpec;
  /** the sentence of a person's stop ("Stopped by you at step 3") once the caller stopped the run, else undefined */
  userStopReason: () => string | undefined;
}

const nowIso = () => new Date().toISOString();

export class RunSteps {
  private readonly engineTime = new EngineTime();
  // hashes only what a prompt adds to the previous one (full history grows by two messages a cycle); see hashOrDigest
  private readonly hasher = new PromptHasher();
  private firstNewStep = 0;

  constructor(private readonly run: StepRun) {}

  /** After the startup: validations now happen in steps, and the first engine-time window opens. */
  begin(): void {
    this.run.runnerWait.phase = 'step';
    this.firstNewStep = this.run.traj.steps.length;
    this.engineTime.start();
  }

  /** The pause/stop gate before a step: a pause is recorded and announced, its time is not engine time; a stop ends the run. */
  async gate(control: RunControl): Promise<void> {
    const { recorder, traj, emit } = this.run;
    let idleSince: number | undefined;
    const gate = await control.gate(async () => {
      await recorder.persist('paused');
      emit({ type: 'paused', runId: traj.runId, nextIndex: traj.steps.length });
      idleSince = performance.now();
    });
    if (idleSince !== undefined) this.engineTime.exclude(performance.now() - idleSince);
    if (gate === 'stop') throw new RunEnded(userStop(control.stopReason));
  }

  /** A step starts with its prompt. */
  open(index: number, state: string, messages: ChatMessage[]): StepScope {
    this.run.emit({ type: 'step-started', runId: this.run.traj.runId, index, state });
    return new StepScope(this.run, this.engineTime, this.hasher, index, state, messages);
  }

  /**
   * After the loop, with the run's end: the last step's record starts (it overlaps the wrap-up; the caller awaits
   * it), and the time since that step was pushed — emitting it, starting its record, the last checks — is added to it.
   */
  closeLast(end: End): Promise<void> | undefined {
    this.run.memory.ended = end;
    const lastRecord = this.run.recorder.startLastRecord();
    this.run.recorder.addToLastStep(this.engineTime.close(), this.firstNewStep);
    return lastRecord;
  }
}

export class StepScope {
  /** the step as the trajectory records it, filled in as the cycle goes */
  readonly record: TrajStep;
  private reply = '';
  private background!: BackgroundWork;
  /** where the step started from: an abandoned step goes back there */
  private readonly seenAtStart: number;
  private readonly formatErrorsAtStart: number;

  constructor(
    private readonly run: StepRun,
    private readonly engineTime: EngineTime,
    private readonly hasher: PromptHasher,
    index: number,
    state: string,
    messages: ChatMessage[],
  ) {
    this.seenAtStart = run.memory.seenCommands.length;
    this.formatErrorsAtStart = run.memory.formatErrors;
    this.record = {
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
  }

  /**
   * Asks the model, with the prompt's hash and the previous step's record behind the call. A failed call ends the
   * run: the step is pushed and recorded with its error, then RunEnded is thrown.
   */
  async askModel(llm: LlmProvider, spec: StrategySpec): Promise<string> {
    const { run, record: step } = this;
    const messages = step.prompt.messages;
    const answering = callModel(llm, spec, messages, run.signal, (text) => run.emit({ type: 'model-delta', runId: run.traj.runId, index: step.index, text }), (res) => {
      this.reply = run.redact.text(res.content);
      step.response = { content: this.reply, model: res.model, ...(res.meta ? { meta: res.meta } : {}) };
      step.tokens = { input: res.usage.inputTokens, output: res.usage.outputTokens, estimated: Boolean(res.meta?.usageEstimated) };
      step.costUsd = run.costOf(res.model, res.usage);
    });
    this.background = run.recorder.behindModelCall(this.hasher, messages, step);
    const answer = await answering;
    step.latencyMs.model = answer.ms;
    this.engineTime.exclude(answer.ms);
    if (!answer.ok) {
      step.latencyMs.background = await this.background.done;
      const end = modelFailure(answer.error, step, run.budgets, run.userStopReason(), run.redact.text);
      this.push();
      run.memory.ended = end;
      await run.recorder.persist('running');
      throw new RunEnded(end);
    }
    // the memory and overlay the previous step's record keeps are taken (normally long before the reply is in)
    await this.background.started;
    return this.reply;
  }

  /**
   * Runs the step's tool. Its time is not the engine's; the runner waits it met go on the step and the record (a record
   * made meanwhile resumes from the step's start). A runner lost for good abandons the step: RunSetAside, or RunEnded
   * when the run was stopped meanwhile.
   */
  async runTool(tool: AnyTool, command: ParsedCommand, context: () => ToolContext): Promise<ToolRun> {
    const { run, record: step } = this;
    const overlayBefore = run.workspace.overlay();
    const toolStart = performance.now();
    run.runnerWait.stepInFlight = step.index;
    run.recorder.stepBase = { overlay: overlayBefore, seenCommands: this.seenAtStart, formatErrors: this.formatErrorsAtStart };
    run.recorder.pending = this.background.done;
    const raw = await callTool(tool, command.args, context(), `The command ${command.name}`);
    run.recorder.stepBase = run.runnerWait.stepInFlight = undefined;
    const result = run.redact.result(raw);
    step.latencyMs.tool = performance.now() - toolStart;
    this.engineTime.exclude(step.latencyMs.tool);
    const { waitedMs, lost } = run.runnerWait.collect(run.guard);
    if (waitedMs !== undefined) step.latencyMs.runnerWait = waitedMs;
    if (lost) return this.abandon(lost, overlayBefore);
    const auxiliary = run.spent.takeAuxiliaryUse();
    if (auxiliary) step.auxiliary = auxiliary;
    return { name: command.name, args: command.args, result, overlayBefore };
  }

  /** The step is done: with the feedback the model sees next it is pushed, and recorded behind the next model call. */
  async finish(feedback: string): Promise<void> {
    const { run, record: step } = this;
    step.feedback = feedback;
    step.stateAfter = run.memory.state;
    // the prompt hash and the previous step's record (an error there ends the run here)
    step.latencyMs.background = await this.background.done;
    this.push();
    run.recorder.unsaved = true;
  }

  /** The engine time is final before the step is pushed: a pushed step is never changed in place (persistence writes each step once). */
  private push(): void {
    const { run, record: step } = this;
    step.latencyMs.engine = this.engineTime.close();
    run.traj.steps.push(step);
    run.spent.countStep(step);
    run.emit({ type: 'step', runId: run.traj.runId, step });
  }

  /** The tool's result is the runner's trouble, not an answer: not shown to the model, the step not taken (its model call is paid for all the same). */
  private async abandon(lost: RunnerOutage, overlayBefore: Overlay): Promise<never> {
    const { run, record: step } = this;
    const auxiliary = run.spent.takeAuxiliaryUse();
    run.workspace.setOverlay(overlayBefore);
    run.memory.seenCommands = run.memory.seenCommands.slice(0, this.seenAtStart);
    run.memory.formatErrors = this.formatErrorsAtStart;
    lost.abandonedStep = abandonedStep(step, this.reply, auxiliary);
    run.spent.countAbandoned(lost.abandonedStep);
    await this.background.done;
    if (!run.signal.aborted) throw new RunSetAside(lost);
    throw new RunEnded(abortedEnd(run.budgets, run.userStopReason(), true));
  }
}
