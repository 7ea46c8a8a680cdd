// The trajectory record: started once, written after every step — behind the next model call, so the write (a slow
// store: IndexedDB) is off the path from one tool call to the next — while waiting for the runner, and at the end.
import type { ChatMessage } from '../contracts/llm.ts';
import { STRATEGY_SCHEMA_VERSION } from '../contracts/strategy.ts';
import { REPAIRLAB_VERSION, TRAJECTORY_SCHEMA_VERSION, type Outcome, type Trajectory, type TrajStep } from '../contracts/trajectory.ts';
import type { Overlay, Workspace } from '../contracts/workspace.ts';
import type { PromptHasher } from '../llm/prompt-hash.ts';
import type { RunAgentOptions } from './agent-events.ts';
import { memorySnapshot, type LoopMemory } from './loop-memory.ts';
import type { PriceTable } from '../contracts/prices.ts';
import { publicModelConfig } from './run-config.ts';


const nowIso = () => new Date().toISOString();

/** A fresh run id (`run-<time>-<random>`): callers that must know it before the run starts (locks) make it here. */
export function newRunId(): string {
  const rand = crypto.getRandomValues(new Uint32Array(2));
  return `run-${Date.now().toString(36)}-${rand[0]!.toString(36)}${rand[1]!.toString(36)}`;
}

function runtimeName(): string {
  const g = globalThis as { process?: { versions?: { node?: string } }; navigator?: { userAgent?: string } };
  return g.process?.versions?.node ? `node ${g.process.versions.node}` : (g.navigator?.userAgent ?? 'unknown');
}

/** The record a run starts from: the saved one when it is continued, else a new one with the run's configuration. */
export function startTrajectory(opts: RunAgentOptions, runId: string, toolNames: string[], prices: PriceTable): Trajectory {
  const resume = opts.resumeFrom;
  if (resume) return structuredClone({ ...resume, status: 'running' as const, outcome: undefined });
  const spec = opts.strategy;
  return {
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
      tools: toolNames,
      prices,
      trajectoryIndex: opts.trajectoryIndex ?? 0,
    },
    bug: { id: opts.bug.id, library: opts.bug.library, buggyCommit: opts.bug.buggyCommit, failingTests: [...opts.bug.failingTests] },
    startup: [],
    steps: [],
  };
}

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

/** Work started behind a model call: `started` once it has read the loop's state, `done` with the ms it took. */
export interface BackgroundWork {
  started: Promise<void>;
  done: Promise<number>;
}

/**
 * Runs `work` once the model request just started is on its way, so that it overlaps the wait for the reply (and,
 * when it takes longer, the parse and the tool call after it). `started` resolves once the synchronous part of
 * `work` has run (what it reads of the loop's state is then taken); `done` resolves with the milliseconds the work
 * took, or rejects with its error when awaited (never unhandled meanwhile).
 */
function whileModelWorks(work: () => Promise<void>): BackgroundWork {
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

/** Where a step (or the startup) began: a record made while its tool waits for the runner resumes from here. */
export interface StepBase {
  overlay: Overlay;
  seenCommands: number;
  formatErrors: number;
  startup?: true;
}

export class RunRecorder {
  /** a step was pushed and not yet recorded: it is recorded while the next model and tool calls are in flight (or at the end) */
  unsaved = false;
  /** the previous step's record, in flight while the next tool runs: a waiting record goes after it */
  pending: Promise<unknown> | undefined;
  /**
   * While a step's tool (or the startup) runs: the point it started from. A record made while waiting for the runner
   * resumes from there, so a continued run asks the model again instead of seeing a half-done tool call.
   */
  stepBase: StepBase | undefined;
  /** records made while waiting go one at a time (variants validate concurrently) */
  private waitRecords: Promise<void> = Promise.resolve();

  constructor(
    private readonly traj: Trajectory,
    private readonly memory: LoopMemory,
    private readonly ws: Workspace,
    private readonly wallMs: () => number,
    private readonly record?: (trajectory: Trajectory) => Promise<void>,
  ) {}

  /**
   * Records the trajectory. The snapshot is taken before the first await. A recorder reads what it is given across
   * awaits, so the loop leaves `traj` alone until a record finishes (a cycle changes it only when it pushes its step,
   * after its record is done) — except after the last step, whose record overlaps the wrap-up: that one gets a copy
   * of the trajectory with its own steps array (`detached`), which the loop's later changes do not reach.
   */
  async persist(status: Trajectory['status'], detached = false): Promise<void> {
    this.unsaved = false;
    this.snapshot(status);
    await this.record?.(detached ? { ...this.traj, steps: [...this.traj.steps] } : this.traj);
  }

  /**
   * What the record needs and the next tool call does not: the prompt's hash, persisting the previous step. The step
   * waits for it only before it is pushed (a slow store then overlaps the parse and the tool too).
   */
  behindModelCall(hasher: PromptHasher, messages: ChatMessage[], step: TrajStep): BackgroundWork {
    return whileModelWorks(async () => {
      // independent: a failing hash must not keep the previous step from being recorded, nor the reverse
      const [hashed, recorded] = await Promise.allSettled([Promise.resolve().then(() => hasher.hashOrDigest(messages)), this.unsaved ? this.persist('running') : undefined]);
      if (recorded.status === 'rejected') throw recorded.reason;
      if (hashed.status === 'rejected') throw hashed.reason;
      step.prompt.promptHash = hashed.value;
    });
  }

  /** The run waits for the runner: recorded so, after the previous step's record, one waiting record at a time. */
  recordWaiting(): Promise<void> {
    const record = this.waitRecords.then(async () => {
      await this.pending?.catch(() => undefined);
      await this.persist('waiting-for-runner');
    });
    this.waitRecords = record.catch(() => undefined);
    return record;
  }

  /** The runner's retries ran out: the run is recorded as waiting-for-runner, to be continued later. */
  async recordSetAside(): Promise<void> {
    await this.waitRecords;
    await this.persist('waiting-for-runner');
  }

  /**
   * The last step has no model call after it to hide its record behind: it is recorded while the run is wrapped up
   * (final patch, re-check), which does not need it. It records a detached copy, taken before persist's first await,
   * so what changes afterwards (the last step's engine time, the workspace's final overlay) is not in it; the final
   * record waits for it (one write at a time), and its error, if any, ends the run as before.
   */
  startLastRecord(): Promise<void> | undefined {
    const last = this.unsaved ? this.persist('running', true) : undefined;
    last?.catch(() => undefined); // awaited by the caller
    this.pending = last;
    return last;
  }

  /** Adds engine time to the run's last step if this run made it: replaced, not changed in place, so a recorder sees the change. */
  addToLastStep(engineMs: number, firstNewStep: number): void {
    const steps = this.traj.steps;
    const last = steps.length > firstNewStep ? steps.at(-1) : undefined;
    if (last) steps[steps.length - 1] = { ...last, latencyMs: { ...last.latencyMs, engine: last.latencyMs.engine + engineMs } };
  }

  /** The final record, with the outcome. */
  async recordOutcome(outcome: Outcome): Promise<void> {
    this.traj.outcome = outcome;
    this.traj.status = 'finished';
    this.traj.updatedAt = nowIso();
    this.traj.resume = undefined;
    await this.record?.(this.traj);
  }

  private snapshot(status: Trajectory['status']): void {
    const traj = this.traj;
    traj.status = status;
    traj.updatedAt = nowIso();
    const saved = memorySnapshot(this.memory, this.wallMs());
    const base = this.stepBase;
    if (base) {
      // mid-step (waiting for the runner): the point the step started from
      saved.seenCommands = saved.seenCommands.slice(0, base.seenCommands);
      saved.formatErrors = base.formatErrors;
      if (base.startup) saved.startupPending = true;
    }
    traj.resume = { state: this.memory.state, overlay: base?.overlay ?? this.ws.overlay(), memory: saved as unknown as Record<string, unknown> };
  }
}
