// The run in flight as its host element shows it: the engine's run events (RunEvent, worker/contracts/runs.ts) folded into
// steps, the model's streamed text, a person's pending turn, the runner outage notice and the outcome; and what the
// user does to it (start, continue a saved run, pause, step, resume, stop, reply, reveal the ground truth).
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { isRunNotGoingOn, type RunEvent, type RunRequest } from '../../../worker/contracts/runs.ts';
import type { StrategyOutline } from '../../../worker/contracts/strategy.ts';
import type { Outcome, Trajectory, TrajStep } from '../../../worker/contracts/trajectory.ts';
import { Comlink, getEngine } from '../../engine-client.ts';
import type { HumanTurn } from '../classroom/human-turn/human-turn.ts';

/** One finished trajectory of the request (Passerine runs several). */
export interface TrajectoryResult {
  runId: string;
  outcome: Outcome;
}

export type RunnerWait = Extract<RunEvent, { type: 'runner-waiting' }>;
export type RunControl = 'pause' | 'resume' | 'step';
type Engine = ReturnType<typeof getEngine>;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class RunStreamController implements ReactiveController {
  steps: TrajStep[] = [];
  /** the model's reply to the step in flight, as it streams */
  streaming = '';
  running = false;
  paused = false;
  runId: string | undefined;
  /** the running strategy's states, tools and reply format (classroom: diagram and reply form) */
  outline: StrategyOutline | undefined;
  /** which trajectory is running: index and count */
  trajectory: { index: number; count: number } | undefined;
  /** finished trajectories of the current request */
  finished: TrajectoryResult[] = [];
  outcome: Outcome | undefined;
  error: string | undefined;
  /** the runner is away and the run waits for it (worker/agent/runner-outage.ts) */
  runnerWait: RunnerWait | undefined;
  /** a person plays the model and it is their turn */
  turn: HumanTurn | undefined;
  /** the ground-truth fix, once the user asked to see it after a run */
  groundTruth: string | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly engine: () => Engine = getEngine,
  ) {
    host.addController(this);
  }

  hostConnected() {}

  private changed() {
    this.host.requestUpdate();
  }

  /** Folds one run event into what is shown. */
  readonly onEvent = (e: RunEvent) => {
    switch (e.type) {
      case 'run-started':
        this.runId = e.runId;
        this.outline = e.outline;
        this.trajectory = { index: e.trajectory, count: e.trajectories };
        if (e.trajectory > 0 && e.stepsBefore === 0) this.steps = [];
        break;
      case 'model-delta':
        this.streaming += e.text;
        break;
      case 'step':
        this.streaming = '';
        this.steps = [...this.steps, e.step as TrajStep];
        break;
      case 'human-turn':
        this.turn = { step: e.step, messages: e.messages, ...(e.state ? { state: e.state } : {}) };
        break;
      case 'run-finished':
        // a stop cancels the person's turn: its reply panel must not outlive the run
        this.turn = undefined;
        this.runnerWait = undefined;
        this.streaming = '';
        this.outcome = e.outcome as Outcome;
        this.finished = [...this.finished, { runId: e.runId, outcome: e.outcome as Outcome }];
        if (e.last) {
          this.running = false;
          this.paused = false;
        }
        break;
      case 'runner-waiting':
        this.runnerWait = e;
        break;
      case 'runner-back':
        this.runnerWait = undefined;
        break;
      case 'run-failed':
        this.runnerWait = undefined;
        this.turn = undefined;
        this.streaming = '';
        this.error = e.error;
        this.running = false;
        break;
    }
    this.changed();
  };

  /** Shows `error` (a request that could not be made, say). */
  fail(error: string) {
    this.error = error;
    this.changed();
  }

  /** What is shown of a run, cleared for the next one (which starts from `steps`). */
  private clear(steps: TrajStep[]) {
    this.steps = steps;
    this.finished = [];
    this.trajectory = undefined;
    this.groundTruth = undefined;
    this.outcome = undefined;
    this.turn = undefined;
    this.runnerWait = undefined;
    this.runId = undefined;
    this.outline = undefined;
  }

  /** Starts the request `makeRequest` makes and streams it. */
  async start(makeRequest: () => RunRequest) {
    this.error = undefined;
    this.clear([]);
    this.running = true;
    this.changed();
    try {
      await this.engine().startRun(makeRequest(), Comlink.proxy(this.onEvent));
    } catch (e) {
      this.error = message(e);
      this.running = false;
      this.changed();
    }
  }

  /**
   * Continues the saved run `runId` with the model and runner `settingsFor` picks for its configuration; its saved
   * steps are shown first. Resolves false when it could not be continued (the error is shown).
   */
  async continueSaved(runId: string, settingsFor: (config: Trajectory['config']) => Pick<RunRequest, 'model' | 'runner'>): Promise<boolean> {
    // running at once: a second click must not continue the run twice
    this.running = true;
    this.error = undefined;
    this.runId = undefined;
    this.changed();
    try {
      const saved = await this.engine().getRun(runId);
      if (!saved) throw new Error(`The saved run ${runId} is gone.`);
      const { model, runner } = settingsFor(saved.config);
      this.clear(saved.steps);
      this.changed();
      await this.engine().continueRun(runId, { model, runner }, Comlink.proxy(this.onEvent));
      return true;
    } catch (e) {
      this.error = message(e);
      return false;
    } finally {
      this.running = false;
      this.paused = false;
      this.changed();
    }
  }

  async control(action: RunControl) {
    if (!this.runId) return;
    const engine = this.engine();
    if (action === 'pause') await engine.pauseRun(this.runId);
    else if (action === 'resume') await engine.resumeRun(this.runId);
    else await engine.stepRun(this.runId);
    this.paused = action !== 'resume';
    this.changed();
  }

  async stop() {
    if (!this.runId) return;
    this.turn = undefined;
    this.changed();
    try {
      await this.engine().stopRun(this.runId);
    } catch (e) {
      // Stop pressed as the run ended: its own 'finished' event shows how it ended, there is nothing to report
      if (isRunNotGoingOn(e)) return;
      this.fail(message(e));
    }
  }

  /** the person's reply, typed or composed by the reply form: the same text makes the same step */
  async reply(text: string) {
    if (!this.runId) return;
    this.turn = undefined;
    this.changed();
    await this.engine().submitHumanReply(this.runId, text);
  }

  async revealGroundTruth(bugId: string) {
    try {
      this.groundTruth = await this.engine().revealGroundTruth(bugId);
      this.changed();
    } catch (e) {
      this.fail(message(e));
    }
  }
}
