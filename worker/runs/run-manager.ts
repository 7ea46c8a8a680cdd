// Agent runs as the UI and the CLI start them: resolves the preset, builds the model provider, the runner
// validator and the toolkit, runs the loop, persists the trajectory after every step (platform records), and
// turns loop events into RunEvents. Many runs can go at once (they are I/O-bound); each has its own control.
import { toPublicBug } from '../contracts/bug.ts';
import type { LlmProvider } from '../contracts/llm.ts';
import type { Trajectory, TrajStep } from '../contracts/trajectory.ts';
import { parseStrategySpec, type StrategySpec } from '../contracts/strategy.ts';
import { parseRecordingProvenance, recordingOf, type ModelSettings } from '../contracts/run-settings.ts';
import { RunNotGoingOnError, type ForkRequest, type RunEvent, type RunRequest, type RunSummary } from '../contracts/runs.ts';
import type { Engine } from '../bugs/engine.ts';
import { newRunId, runAgent, type AgentEvent } from '../agent/loop.ts';
import type { RunnerWaitPolicy } from '../agent/runner-outage.ts';
import { RunAbortedError, RunControl, stopSentence, type StopPoint } from '../agent/run-control.ts';
import { listPresets, resolveStrategy } from '../strategies/presets/index.ts';
import { toolsForStrategy } from '../strategies/strategy-tools.ts';
import { costBudgetRefusal, DEFAULT_PRICES } from '../contracts/prices.ts';
import { createOpenAiProvider } from '../llm/openai-provider.ts';
import { createScriptedProvider } from '../llm/scripted-provider.ts';
import { createReplayProvider } from '../llm/replay-provider.ts';
import { parseCassette } from '../contracts/cassette.ts';
import { HumanChannel, type HumanTurn } from '../llm/human-provider.ts';
import { strategyOutline } from '../strategies/strategy-outline.ts';
import { RunnerClient, runnerValidator } from '../runner-client/client.ts';
import { deleteTrajectory, listTrajectoryHeaders, loadTrajectory, storeRecorder } from '../records/persistence.ts';
import { historyContextProvider, historyRequest } from '../history/run-context.ts';
import { checkForkPoint, forkReplayProvider, forkStrategy, recordForkOf, stepsStillToReplay, type ForkOf } from './run-fork.ts';


export interface RunManagerOptions {
  /** how long an unavailable runner is waited for before a run is set aside (default: DEFAULT_RUNNER_WAIT) */
  runnerWait?: Partial<RunnerWaitPolicy>;
  /** runner outages as they happen (the CLI prints them; RunEvents carry only the outcome) */
  onRunnerEvent?: (e: Extract<AgentEvent, { type: 'waiting-for-runner' | 'runner-back' | 'set-aside' }>) => void;
}

interface ActiveRun {
  control: RunControl;
  abort: AbortController;
  human?: { answer(text: string): void };
  /** where the run is, from its events: a stop names the step it ended at */
  at?: StopPoint;
}

/** The tools a strategy may call (kept here for the importers of this module). */

/** A cost budget is never silently off: an unpriced model with unknownPrice "ask" stops the run before it starts. */
function refuseUnpricedCostBudget(strategy: StrategySpec, request: Pick<RunRequest, 'model' | 'prices'>): void {
  const refusal = costBudgetRefusal(strategy.budgets, request.model, request.prices ?? DEFAULT_PRICES);
  if (refusal) throw new Error(refusal);
}

/** The recording a saved run's model replayed, for its row; a record without a well-formed one lists none. */
export class RunManager {
  private readonly active = new Map<string, ActiveRun>();
  /** saved runs being continued whose loop has not started yet (continueRun reserves the id before its first await) */
  private readonly continuing = new Set<string>();
  private javaReady?: Promise<unknown>;

  constructor(
    private readonly engine: Engine,
    /** loads the Java parser the RepairAgent and HAFix tools need (wasm URLs in the browser, bytes in Node) */
    private readonly initJava: () => Promise<unknown>,
    private readonly options: RunManagerOptions = {},
  ) {}

  listPresets() {
    return listPresets().map((p) => ({ ...p, title: p.name }));
  }

  /**
   * Runs the strategy's independent trajectories (Passerine samples several; most strategies one) one after the
   * other, each on a fresh workspace at the buggy commit and with a fresh model provider, and resolves with them
   * all; events stream through `onEvent` meanwhile. Stopping a trajectory also cancels the ones not started yet.
   */
  async start(request: RunRequest, onEvent: (e: RunEvent) => void): Promise<Trajectory[]> {
    const strategy = resolveStrategy(request.preset, { variants: request.variants, overrides: request.overrides });
    refuseUnpricedCostBudget(strategy, request);
    historyRequest(strategy.toolSettings); // refuse bad history settings before anything starts
    if (strategy.toolkit !== 'engine' && strategy.toolkit !== 'passerine') {
      this.javaReady ??= this.initJava();
      await this.javaReady;
    }
    const count = strategy.sampling.trajectories;
    const trajectories: Trajectory[] = [];
    for (let index = 0; index < count; index++) {
      const run: ActiveRun = { control: new RunControl(), abort: new AbortController() };
      const t = await this.runOne(request, strategy, { index, count }, run, onEvent);
      trajectories.push(t);
      // set aside (the runner is unavailable): the later trajectories would only wait as well
      if (run.abort.signal.aborted || run.control.stopRequested || t.status !== 'finished') break;
    }
    return trajectories;
  }

  /**
   * Continues a saved run that a reload or a crash interrupted, or that was set aside while the runner was unavailable
   * (saved as running, paused or waiting-for-runner, with its resume point):
   * the same run id, the recorded strategy and steps, and the model and runner of `settings` — the record keeps no
   * key. A replayed or scripted model goes on from the reply after the last step's. Only this trajectory goes on,
   * not the later ones of a several-trajectory request.
   */
  async continueRun(runId: string, settings: Pick<RunRequest, 'model' | 'runner'>, onEvent: (e: RunEvent) => void): Promise<Trajectory> {
    if (this.active.has(runId) || this.continuing.has(runId)) throw new Error(`Run ${runId} is going on already.`);
    this.continuing.add(runId);
    try {
      return await this.continueSaved(runId, settings, onEvent);
    } finally {
      this.continuing.delete(runId);
    }
  }

  private async continueSaved(runId: string, settings: Pick<RunRequest, 'model' | 'runner'>, onEvent: (e: RunEvent) => void): Promise<Trajectory> {
    if ((await this.engine.platform.runLocks?.held())?.has(runId)) throw new Error(`Run ${runId} is going on in another tab: continue it there, or close that tab first.`);
    const saved = await this.get(runId);
    if (!saved) throw new Error(`There is no saved run ${runId}.`);
    if (saved.status === 'finished' || !saved.resume) throw new Error(`Run ${runId} has finished: there is nothing to continue. Start a new run instead.`);
    const strategy = parseStrategySpec(saved.config.strategy, `the strategy recorded with run ${runId}`);
    refuseUnpricedCostBudget(strategy, { model: settings.model, prices: saved.config.prices as RunRequest['prices'] });
    historyRequest(strategy.toolSettings);
    if (strategy.toolkit !== 'engine' && strategy.toolkit !== 'passerine') {
      this.javaReady ??= this.initJava();
      await this.javaReady;
    }
    // the run's own price table (recorded at its start) stays its table
    const request: RunRequest = { bugId: saved.bug.id, preset: saved.config.preset, variants: saved.config.variants, overrides: saved.config.overrides, ...settings, prices: saved.config.prices };
    const run: ActiveRun = { control: new RunControl(), abort: new AbortController() };
    // a fork goes on replaying its parent's replies if it stopped before step k, then with its own model
    const fork = saved.forkOf ? { parentSteps: stepsStillToReplay(saved, saved.steps.length < saved.forkOf.step ? await this.get(saved.forkOf.runId) : undefined), forkOf: saved.forkOf } : undefined;
    // only this trajectory goes on: it is the request's last
    return this.runOne(request, strategy, { index: saved.config.trajectoryIndex, count: strategy.sampling.trajectories, last: true }, run, onEvent, saved, fork);
  }

  /**
   * A new run that replays the first `atStep` steps of a saved run from its record (the parent's replies, the same tool
   * calls against a fresh workspace and the runner), then goes on with `request.model` (worker/runs/run-fork.ts).
   */
  async forkRun(request: ForkRequest, onEvent: (e: RunEvent) => void): Promise<Trajectory> {
    const parent = await this.get(request.runId);
    const step = checkForkPoint(parent, request.runId, request.atStep);
    const fork = forkStrategy(parent!, request);
    const prices = request.prices ?? (parent!.config.prices as RunRequest['prices']);
    refuseUnpricedCostBudget(fork.strategy, { model: request.model, prices });
    historyRequest(fork.strategy.toolSettings);
    if (fork.strategy.toolkit !== 'engine' && fork.strategy.toolkit !== 'passerine') {
      this.javaReady ??= this.initJava();
      await this.javaReady;
    }
    const runRequest: RunRequest = { bugId: parent!.bug.id, preset: fork.preset, variants: fork.variants, overrides: fork.overrides, model: request.model, runner: request.runner, ...(prices ? { prices } : {}) };
    const run: ActiveRun = { control: new RunControl(), abort: new AbortController() };
    return this.runOne(runRequest, fork.strategy, { index: 0, count: 1, last: true }, run, onEvent, undefined, { parentSteps: parent!.steps, forkOf: { runId: parent!.runId, step } });
  }

  /**
   * One trajectory. Its run id is made (or, continued, kept) before it starts, so the run can be stopped from then
   * on and holds its lock while it goes (other tabs then do not offer it as interrupted).
   */
  private runOne(
    request: RunRequest,
    strategy: StrategySpec,
    trajectory: { index: number; count: number; last?: boolean },
    run: ActiveRun,
    onEvent: (e: RunEvent) => void,
    resumeFrom?: Trajectory,
    fork?: { parentSteps: readonly TrajStep[]; forkOf: ForkOf },
  ): Promise<Trajectory> {
    const runId = resumeFrom?.runId ?? newRunId();
    const go = async (): Promise<Trajectory> => {
      this.active.set(runId, run);
      try {
        const { bug, workspace } = await this.engine.workspaceFor(request.bugId);
        // a continued run's model goes on from its next call (human turns are numbered on from its steps too)
        const callsMade = resumeFrom?.steps.length ?? 0;
        run.at = { stepsDone: callsMade };
        // the state of the step in flight (the loop announces it before the model call), told with a person's turn
        let state: string | undefined;
        // a fork's own model answers from step k + 1: its first reply (or human turn k) is its first
        const ownCalls = fork ? Math.max(0, callsMade - fork.forkOf.step) : callsMade;
        const own = this.provider(request.model, (turn) => onEvent({ type: 'human-turn', runId, step: turn.step, messages: turn.messages, ...(state ? { state } : {}) }), run, ownCalls, Math.max(callsMade, fork?.forkOf.step ?? 0));
        const llm = fork ? forkReplayProvider(fork.parentSteps, fork.forkOf, own, callsMade) : own;
        // a demo endpoint replays a recording: the record names it (a replay provider names its cassette itself)
        const recording = request.model.kind === 'openai' && request.model.recording !== undefined ? parseRecordingProvenance(request.model.recording, 'model.recording') : undefined;
        onEvent({ type: 'run-started', runId, bugId: bug.id, preset: request.preset, trajectory: trajectory.index, trajectories: trajectory.count, stepsBefore: callsMade, outline: strategyOutline(strategy) });
        return await runAgent({
          strategy,
          preset: request.preset,
          variants: request.variants,
          overrides: request.overrides,
          bug: toPublicBug(bug),
          workspace,
          validator: runnerValidator(new RunnerClient(request.runner), bug.layout),
          llm,
          ...(recording ? { modelConfig: { ...((own as { config?: Record<string, unknown> }).config ?? {}), recording } } : {}),
          tools: toolsForStrategy(strategy),
          control: run.control,
          signal: run.abort.signal,
          trajectoryIndex: trajectory.index,
          runId,
          ...(resumeFrom ? { resumeFrom } : {}),
          groundTruthPatch: bug.groundTruth.patch,
          ...(this.options.runnerWait ? { runnerWait: this.options.runnerWait } : {}),
          // the key never reaches the record, whatever echoes it (the provider redacts its replies too)
          ...(request.model.kind === 'openai' && request.model.apiKey ? { secrets: [request.model.apiKey] } : {}),
          ...(request.prices ? { prices: request.prices } : {}),
          // RepairAgent's second model (write_fix variants, generate_method_body): the run's own endpoint and model
          ...(request.model.kind === 'openai' ? { auxiliaryLlm: createOpenAiProvider({ ...request.model, stream: false }) } : {}),
          // HAFixAgent's history section (fn_all | fn_pair | fl_diff), when the strategy asks for one
          contextProvider: historyContextProvider(await this.engine.ensureRepository(bug), bug),
          record: fork ? recordForkOf(fork.forkOf, storeRecorder(this.engine.platform.records)) : storeRecorder(this.engine.platform.records),
          onEvent: (e) => {
            if (e.type === 'step-started') {
              state = e.state;
              run.at = { stepInFlight: e.index, stepsDone: e.index };
            } else if (e.type === 'model-delta') onEvent({ type: 'model-delta', runId, step: e.index, text: e.text });
            else if (e.type === 'step') {
              run.at = { stepsDone: e.step.index + 1 };
              onEvent({ type: 'step', runId, step: e.step });
            }
            else if (e.type === 'waiting-for-runner' || e.type === 'runner-back') {
              this.options.onRunnerEvent?.(e);
              onEvent(e.type === 'runner-back' ? e : { ...e, type: 'runner-waiting' });
            }
            else if (e.type === 'set-aside') {
              this.options.onRunnerEvent?.(e);
              onEvent({ type: 'run-failed', runId, error: e.reason });
            } else if (e.type === 'finished') onEvent({ type: 'run-finished', runId, outcome: e.outcome, last: trajectory.last === true || trajectory.index === trajectory.count - 1 || run.control.stopRequested || run.abort.signal.aborted });
          },
        });
      } catch (e) {
        onEvent({ type: 'run-failed', runId, error: e instanceof Error ? e.message : String(e) });
        throw e;
      } finally {
        this.active.delete(runId);
      }
    };
    const locks = this.engine.platform.runLocks;
    return locks ? locks.hold(runId, go) : go();
  }

  /**
   * Stops a run: it ends as stopped, its outcome's reason the sentence of where it was ("Stopped by you at step 3").
   * The abort carries that sentence as its reason, so the call it cancels — a model call, a person's turn, a runner
   * validation — ends with it too (a bare abort() would leave them "signal is aborted without reason").
   */
  async stop(runId: string): Promise<void> {
    const run = this.active.get(runId);
    if (!run) throw new RunNotGoingOnError(`Run ${runId} is not going on (it may have just ended): there is nothing to stop.`);
    const reason = stopSentence(run.at ?? { stepsDone: 0 });
    run.control.stop(reason);
    run.abort.abort(new RunAbortedError(reason));
  }

  /** Deletes a saved run (header and steps); a run going on in this engine or another tab is refused. */
  async delete(runId: string): Promise<void> {
    const held = (await this.engine.platform.runLocks?.held()) ?? new Set<string>();
    if (this.active.has(runId) || this.continuing.has(runId) || held.has(runId)) throw new Error(`Run ${runId} is going on: stop it before deleting it.`);
    if (!(await deleteTrajectory(this.engine.platform.records, runId))) throw new Error(`There is no saved run ${runId} to delete.`);
  }

  /** Pause after the step in flight; `resume` goes on, `step` runs exactly one more step. */
  async pause(runId: string): Promise<void> {
    this.control(runId).pause();
  }

  async resume(runId: string): Promise<void> {
    this.control(runId).resume();
  }

  async step(runId: string): Promise<void> {
    this.control(runId).step();
  }

  private control(runId: string): RunControl {
    const run = this.active.get(runId);
    if (!run) throw new Error(`No run ${runId} is going on.`);
    return run.control;
  }

  async submitHumanReply(runId: string, text: string): Promise<void> {
    const run = this.active.get(runId);
    if (!run?.human) throw new Error(`Run ${runId} is not waiting for a human reply.`);
    run.human.answer(text);
  }

  /** Saved runs, newest first (a run's record is written after every step, so failed and stopped runs are here too). */
  async list(): Promise<RunSummary[]> {
    // headers only: a run's steps are not read to list it
    // runs going on in another tab hold their locks
    const held = (await this.engine.platform.runLocks?.held()) ?? new Set<string>();
    const out: RunSummary[] = (await listTrajectoryHeaders(this.engine.platform.records)).map((t): RunSummary => {
      const recording = recordingOf(t.config.model);
      return {
        runId: t.runId,
        bugId: t.bug.id,
        preset: t.config.preset,
        variants: t.config.variants,
        overrides: t.config.overrides,
        model: typeof t.config.model.model === 'string' ? t.config.model.model : t.config.providerId,
        ...(recording ? { recording } : {}),
        costUsd: t.outcome?.totals.costUsd ?? null,
        createdAt: t.createdAt,
        steps: t.stepCount,
        status: t.outcome?.status ?? t.status,
        reason: t.outcome?.reason ?? '',
        interrupted: t.status !== 'finished' && t.resume !== undefined && !this.active.has(t.runId) && !this.continuing.has(t.runId) && !held.has(t.runId),
        ...(t.forkOf ? { forkOf: { runId: t.forkOf.runId, step: t.forkOf.step } } : {}),
      };
    });
    return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /**
   * The bug's ground-truth fix as a unified diff — only once a run of that bug has finished, so that nobody
   * (and no agent) sees it before trying. Never reaches a prompt: it is read here, for the person at the UI.
   */
  async revealGroundTruth(bugId: string): Promise<string> {
    const finished = (await this.list()).some((r) => r.bugId === bugId && ['plausible', 'implausible', 'error', 'stopped'].includes(r.status));
    if (!finished) throw new Error(`The ground truth of ${bugId} is shown only after a run of it has finished: run an agent on it first.`);
    const bug = await this.engine.catalog.bug(bugId);
    if (bug.groundTruth.patch) return bug.groundTruth.patch;
    throw new Error(`Bug ${bugId} has no ground-truth patch to show.`);
  }

  /** A saved run, its steps reassembled and validated (either storage format). */
  get(runId: string): Promise<Trajectory | undefined> {
    return loadTrajectory(this.engine.platform.records, runId);
  }

  /**
   * `callsMade`: model calls the run made before (a continued run); list-based models skip that many replies.
   * `humanFirstStep`: the step a person's first turn is (default `callsMade`; a fork's: the step after the replayed ones).
   */
  private provider(model: ModelSettings, askHuman: (turn: HumanTurn) => void, run: ActiveRun, callsMade = 0, humanFirstStep = callsMade): LlmProvider {
    switch (model.kind) {
      case 'openai':
        return createOpenAiProvider({ ...model, stream: true });
      case 'scripted':
        return createScriptedProvider(model.replies, { firstCall: callsMade });
      case 'replay': {
        return createReplayProvider(parseCassette(model.cassette, 'the cassette'), { strict: model.strict ?? true, firstCall: callsMade, ...(model.name ? { name: model.name } : {}) });
      }
      case 'human': {
        const channel = new HumanChannel(askHuman, humanFirstStep);
        run.human = { answer: (text) => channel.reply(text) };
        return channel.provider;
      }
    }
  }
}
