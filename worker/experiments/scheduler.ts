// The experiment scheduler: runs an experiment's cells through RunManager (the same runs, records and continue path
// as a single run) in a deterministic order with bounded concurrency, reports progress, pauses, resumes and stops,
// and survives a killed process: a resumed session skips finished cells, records the runs that finished unrecorded,
// and continues the interrupted ones under their run ids — no cell runs twice, none is lost.
import type { RecordStore } from '../contracts/platform.ts';
import type { Trajectory, TrajStep } from '../contracts/trajectory.ts';
import { parseExperimentSpec, type CellRecord, type ExperimentRecord, type ExperimentSpec, EXPERIMENT_SCHEMA_VERSION } from '../contracts/experiment.ts';
import type { StrategySpec } from '../contracts/strategy.ts';
import type { BugSummary } from '../contracts/bug-view.ts';
import type { ModelSettings, RunnerSettings } from '../contracts/run-settings.ts';
import type { RunEvent } from '../contracts/runs.ts';
import type { RunManager } from '../runs/run-manager.ts';
import { listTrajectoryHeaders } from '../records/persistence.ts';
import type { ApiKeys } from '../llm/key-origin.ts';
import { canonicalJson } from '../llm/prompt-hash.ts';
import { addCost, classifyRun, runUsage, type RunUsage, type RunVerdict } from './cell-verdict.ts';
import { assignRunners, cellRequest, checkPrices, modelSettings, planCells, resolveBugs, resolveVariants, type PlannedCell } from './plan.ts';
import { ExperimentStore, newExperimentId } from './experiment-store.ts';
import { isAttempted } from './report-denominators.ts';
import type { PoolMember } from '../contracts/pool-descriptor.ts';
import { RunnerClient } from '../runner-client/client.ts';
import { RunnerPool, type HealthProbe, type Lease, type PoolRunnerStatus } from './runner-pool.ts';

/** What the scheduler needs of RunManager (its public API). */
export type CellRuns = Pick<RunManager, 'start' | 'continueRun' | 'get' | 'pause' | 'resume'>;

export interface ExperimentProgress {
  type: 'progress';
  experimentId: string;
  status: ExperimentRecord['status'];
  total: number;
  done: number;
  running: number;
  queued: number;
  /** every run's cost so far, in flight included (null: a model without a price) */
  costUsd: number | null;
  calls: number;
  elapsedMs: number;
  /** at this session's pace; null until a cell has finished in it */
  etaMs: number | null;
}

export type ExperimentEvent =
  | ExperimentProgress
  | { type: 'cell-started'; experimentId: string; cell: CellRecord; continued: boolean }
  | { type: 'cell-retry'; experimentId: string; cell: CellRecord; reason: string; inMs: number }
  | { type: 'cell-finished'; experimentId: string; cell: CellRecord }
  /** a cell whose runner was lost goes on (its run continued, counted once) on another runner, or on its runner's replacement (from === to: runner ids) */
  | { type: 'cell-moved'; experimentId: string; cell: CellRecord; from: string; to: string; reason: string }
  /** the pool's runners after a health check or a change of state (busy/idle, alive/lost) */
  | { type: 'pool'; experimentId: string; runners: PoolRunnerStatus[] }
  | { type: 'stopping'; experimentId: string; reason: string };

export interface SessionSettings {
  /** model keys by endpoint origin: the runs get the one for the spec's endpoint only (plan.modelSettings); never recorded */
  apiKeys?: ApiKeys;
  /** the experiment's runners in order (spec.runners with their tokens, or the one runner of this session) */
  runners: RunnerSettings[];
  onEvent?: (e: ExperimentEvent) => void;
  /**
   * Retry: run only these cells (by index), each one recorded in an infrastructure error, afresh — the failed run is
   * kept as an attempt (its cost and calls stay counted) and the cell gets the spec's attempts again. Other cells are
   * left as they are. `Experiments.retry` checks the list.
   */
  retry?: readonly number[];
  /**
   * A runner pool (contracts/pool-descriptor.ts): its runners replace `runners`, each taking up to its capacity at once;
   * bugs go to runners as places free up (affinity: a bug stays on its runner while it lives), and a cell whose runner
   * is lost is continued on another one.
   */
  pool?: {
    members: PoolMember[];
    /** default: GET /v1/health answered */
    probe?: HealthProbe;
    /** health checks every so often while the session runs (default 5 s; 0: only when a run meets an outage) */
    healthEveryMs?: number;
  };
}

/** A runner is up when its /v1/health answers (one quick try: the pool decides what a silence means). */
export const healthProbe: HealthProbe = async (runner) => {
  await new RunnerClient({ ...runner, retries: 0, timeoutMs: 5_000 }).health();
  return true;
};

export interface ExperimentDeps {
  runs: CellRuns;
  records: RecordStore;
  listBugs(): Promise<BugSummary[]>;
}

const nowIso = () => new Date().toISOString();

export class Experiments {
  readonly store: ExperimentStore;
  private readonly sessions = new Map<string, ExperimentSession>();

  constructor(private readonly deps: ExperimentDeps) {
    this.store = new ExperimentStore(deps.records);
  }

  /** Checks the spec (variants, prices, bugs) and records the experiment; `run` starts it. */
  async create(json: unknown, source = 'experiment spec'): Promise<ExperimentRecord> {
    const spec = parseExperimentSpec(json, source);
    checkPrices(spec, resolveVariants(spec));
    modelSettings(spec, undefined);
    const bugs = resolveBugs(spec.bugs, await this.deps.listBugs());
    const runnerOfBug = assignRunners(
      bugs.map((b) => b.id),
      spec.runners?.length ?? 1,
    );
    const at = nowIso();
    const record: ExperimentRecord = {
      schemaVersion: EXPERIMENT_SCHEMA_VERSION,
      kind: 'repairlab-experiment',
      id: newExperimentId(),
      createdAt: at,
      updatedAt: at,
      status: 'running',
      spec: spec as unknown as Record<string, unknown>,
      bugs,
      runnerOfBug,
      cells: bugs.length * spec.variants.length * spec.samples,
      wallMsBefore: 0,
    };
    await this.store.put(record);
    return record;
  }

  list(): Promise<ExperimentRecord[]> {
    return this.store.list();
  }

  async get(id: string): Promise<ExperimentRecord> {
    const record = await this.store.get(id);
    if (!record) throw new Error(`There is no experiment ${id}: \`repairlab experiments\` lists them.`);
    return record;
  }

  /**
   * Runs the cells in an infrastructure error again (`indices`: some of them; default all), as a session of its own:
   * nothing else runs. Refused when a chosen cell is not in error, or none is.
   */
  async retry(id: string, settings: SessionSettings, indices?: readonly number[]): Promise<ExperimentSession> {
    await this.get(id);
    const inError = [...(await this.store.cells(id)).values()].filter((c) => c.status === 'infrastructure-error').map((c) => c.index);
    const chosen = [...new Set(indices ?? inError)].sort((a, b) => a - b);
    const wrong = chosen.filter((i) => !inError.includes(i));
    const listed = inError.length ? `here ${inError.length === 1 ? 'cell' : 'cells'} ${inError.join(', ')}` : 'and there are none';
    if (wrong.length) throw new Error(`Experiment ${id}: cell${wrong.length === 1 ? '' : 's'} ${wrong.join(', ')} ${wrong.length === 1 ? 'is' : 'are'} not in an infrastructure error; retry takes only cells in error, ${listed}.`);
    if (!chosen.length) throw new Error(`Experiment ${id} has no cells in an infrastructure error to retry.`);
    return this.run(id, { ...settings, retry: chosen });
  }

  /** Runs (or, after a stop or a crash, goes on with) an experiment; one session per experiment at a time. */
  async run(id: string, settings: SessionSettings): Promise<ExperimentSession> {
    if (this.sessions.has(id)) throw new Error(`Experiment ${id} is running already.`);
    const record = await this.get(id);
    const spec = parseExperimentSpec(record.spec, `the spec recorded with experiment ${id}`);
    const runnersNeeded = Math.max(0, ...Object.values(record.runnerOfBug)) + 1;
    if (!settings.pool && settings.runners.length < runnersNeeded) throw new Error(`Experiment ${id} spreads its bugs over ${runnersNeeded} runners; ${settings.runners.length} given.`);
    const session = new ExperimentSession(this.deps, this.store, record, spec, settings);
    this.sessions.set(id, session);
    void session.done.finally(() => this.sessions.delete(id)).catch(() => undefined);
    await session.started;
    return session;
  }
}

export class ExperimentSession {
  readonly done: Promise<ExperimentRecord>;
  /** resolves once the recorded cells are read and the first cells scheduled */
  readonly started: Promise<void>;
  private markStarted!: () => void;
  private readonly strategies: Map<string, StrategySpec>;
  private readonly model: ModelSettings;
  private readonly plan: PlannedCell[];
  private readonly cells = new Map<number, CellRecord>();
  /** in-flight runs' usage so far (from their step events; a continued run starts from its recorded steps) */
  private readonly live = new Map<number, RunUsage>();
  private paused = false;
  private stopReason: string | undefined;
  private wakers: Array<() => void> = [];
  private readonly sessionStart = performance.now();
  private doneThisSession = 0;
  private queued = 0;
  private writeError: unknown;
  /** the cells this session retries (SessionSettings.retry): only they run */
  private readonly retrying: ReadonlySet<number>;
  /** a retried cell's failed run, kept as an attempt when the cell starts again */
  private readonly failedRuns = new Map<number, CellRecord['attempts'][number]>();
  readonly pool: RunnerPool;

  constructor(
    private readonly deps: ExperimentDeps,
    private readonly store: ExperimentStore,
    private readonly record: ExperimentRecord,
    private readonly spec: ExperimentSpec,
    private readonly settings: SessionSettings,
  ) {
    this.strategies = resolveVariants(spec);
    this.model = modelSettings(spec, settings.apiKeys);
    this.plan = planCells(spec, record.bugs, record.runnerOfBug);
    this.retrying = new Set(settings.retry ?? []);
    // a list of runners keeps the experiment's dealing of bugs (record.runnerOfBug); a pool deals them as places free up
    this.pool = settings.pool
      ? new RunnerPool(settings.pool.members, settings.pool.probe ?? healthProbe)
      : new RunnerPool(
          settings.runners.map((runner) => ({ id: runner.url, runner, capacity: spec.concurrency.validations })),
          healthProbe,
          record.runnerOfBug,
        );
    this.started = new Promise((resolve) => (this.markStarted = resolve));
    this.done = this.execute().finally(() => this.markStarted());
  }

  get id(): string {
    return this.record.id;
  }

  /** No new cell starts; runs in flight pause after their step in flight. */
  pause(): void {
    if (this.paused || this.stopReason) return;
    this.paused = true;
    this.forEachRun((runId) => this.deps.runs.pause(runId));
    this.record.status = 'paused';
    this.saveRecord();
    this.wake();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.forEachRun((runId) => this.deps.runs.resume(runId));
    this.record.status = 'running';
    this.saveRecord();
    this.wake();
  }

  /** No new cell starts; runs in flight finish; the cells not started are marked not-run (a later resume runs them). */
  stop(reason = 'stopped by the user'): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.settings.onEvent?.({ type: 'stopping', experimentId: this.id, reason });
    if (this.paused) {
      this.paused = false;
      this.forEachRun((runId) => this.deps.runs.resume(runId));
    }
    this.wake();
  }

  progress(): ExperimentProgress {
    let cost: number | null = 0;
    let calls = 0;
    const free = this.spec.budgets.unpricedModel === 'count-as-free';
    for (const c of this.cells.values()) {
      cost = addCost(cost, c.costUsd, free);
      calls += c.calls;
    }
    for (const u of this.live.values()) {
      cost = addCost(cost, u.costUsd, free);
      calls += u.calls;
    }
    const done = [...this.cells.values()].filter(isAttempted).length;
    const running = [...this.cells.values()].filter((c) => c.status === 'running').length;
    const sessionMs = performance.now() - this.sessionStart;
    const remaining = this.queued + running;
    return {
      type: 'progress',
      experimentId: this.id,
      status: this.record.status,
      total: this.plan.length,
      done,
      running,
      queued: this.queued,
      costUsd: cost,
      calls,
      elapsedMs: this.record.wallMsBefore + sessionMs,
      etaMs: this.doneThisSession ? (sessionMs / this.doneThisSession) * remaining : null,
    };
  }

  private async execute(): Promise<ExperimentRecord> {
    for (const [index, cell] of await this.store.cells(this.id)) this.cells.set(index, cell);
    const before = { status: this.record.status, stopReason: this.record.stopReason };
    let pending: PlannedCell[];
    if (this.retrying.size) {
      // a retry runs only its cells, in order; each failed run is read now, to be kept as an attempt
      pending = this.plan.filter((c) => this.retrying.has(c.index) && this.cells.get(c.index)?.status === 'infrastructure-error');
      for (const c of pending) this.failedRuns.set(c.index, await this.failedAttempt(this.cells.get(c.index)!));
    } else {
      const unfinished = (c: PlannedCell) => {
        const rec = this.cells.get(c.index);
        return rec?.status === 'running' || (rec?.status === 'not-run' && rec.runId !== undefined);
      };
      const interrupted = this.plan.filter(unfinished);
      await this.adoptOrphans(interrupted.filter((c) => this.cells.get(c.index)!.status === 'running'));
      // interrupted cells first (they were in flight), then the rest in order; not-run cells run now
      pending = [...interrupted, ...this.plan.filter((c) => !unfinished(c) && (!this.cells.has(c.index) || this.cells.get(c.index)!.status === 'not-run'))];
    }
    this.record.status = 'running';
    delete this.record.stopReason;
    await this.store.put(this.record);

    const inFlight = new Map<number, Promise<void>>();
    const { modelCalls } = this.spec.concurrency;
    const healthEvery = this.settings.pool ? (this.settings.pool.healthEveryMs ?? 5_000) : 0;
    const healthTimer = healthEvery > 0 ? setInterval(() => void this.checkPool(), healthEvery) : undefined;
    for (;;) {
      this.queued = pending.length;
      if (this.stopReason || !pending.length) break;
      const budget = this.budgetReached();
      if (budget) {
        this.stop(budget);
        break;
      }
      if (this.paused) {
        this.markStarted();
        await this.nextWake();
        continue;
      }
      const next = inFlight.size < modelCalls ? pending.findIndex((c) => this.pool.pick(c.bugId) !== undefined) : -1;
      if (next < 0) {
        this.markStarted();
        await Promise.race([...inFlight.values(), this.nextWake()]);
        continue;
      }
      const [cell] = pending.splice(next, 1) as [PlannedCell];
      const lease = this.pool.take(cell.bugId)!;
      const run = this.runCell(cell, lease).finally(() => {
        inFlight.delete(cell.index);
        this.pool.release(lease);
        this.emitPool();
        this.wake();
      });
      inFlight.set(cell.index, run);
    }
    this.markStarted();
    await Promise.all(inFlight.values());
    if (healthTimer) clearInterval(healthTimer);
    this.queued = 0;
    if (this.stopReason) {
      // an interrupted cell keeps its run: a later resume continues it; a cell a retry had not started yet stays in
      // error (as it was), not not-run
      for (const c of pending) {
        const saved = this.cells.get(c.index);
        if (this.retrying.has(c.index) && saved?.status === 'infrastructure-error') continue;
        await this.saveCell({ ...(saved ?? this.freshCell(c)), status: 'not-run', reason: this.stopReason, finishedAt: nowIso() });
      }
    }
    if (this.writeError) throw this.writeError;
    // a retry ran only some cells: the experiment is finished when every planned cell has ended, else it stays as a
    // stop left it (a resume runs the rest)
    const allEnded = this.plan.every((c) => isAttempted({ status: this.cells.get(c.index)?.status ?? 'not-run' }));
    const leftOver = this.retrying.size && !allEnded ? (before.stopReason ?? 'cells not run yet: resume runs them') : undefined;
    this.record.status = this.stopReason || leftOver ? 'stopped' : 'finished';
    if (this.stopReason ?? leftOver) this.record.stopReason = (this.stopReason ?? leftOver)!;
    this.record.wallMsBefore += performance.now() - this.sessionStart;
    await this.store.put(this.record);
    this.emitProgress();
    return this.record;
  }

  private budgetReached(): string | undefined {
    const b = this.spec.budgets.experiment;
    if (!b) return undefined;
    const p = this.progress();
    if (b.costUsd !== undefined && (p.costUsd ?? 0) >= b.costUsd) return `experiment cost budget reached ($${(p.costUsd ?? 0).toFixed(4)} ≥ $${b.costUsd})`;
    if (b.calls !== undefined && p.calls >= b.calls) return `experiment call budget reached (${p.calls} ≥ ${b.calls} model calls)`;
    if (b.wallMs !== undefined && p.elapsedMs >= b.wallMs) return `experiment wall-time budget reached (${Math.round(p.elapsedMs / 1000)} s ≥ ${b.wallMs / 1000} s)`;
    return undefined;
  }

  /**
   * A cell recorded as started but without a run id: the process died between the cell's record and its run's id
   * reaching it. If the run wrote a record meanwhile, that run is the cell's (same bug, preset, variants and
   * overrides, started after the cell, claimed by no other cell) — it is continued, not started again.
   */
  private async adoptOrphans(interrupted: PlannedCell[]): Promise<void> {
    const orphans = interrupted.filter((c) => !this.cells.get(c.index)!.runId);
    if (!orphans.length) return;
    const claimed = new Set<string>();
    for (const c of this.cells.values()) {
      if (c.runId) claimed.add(c.runId);
      for (const a of c.attempts) if (a.runId) claimed.add(a.runId);
    }
    const headers = (await listTrajectoryHeaders(this.deps.records)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    for (const cell of orphans) {
      const rec = this.cells.get(cell.index)!;
      const want = canonicalJson(this.request(cell).overrides);
      const found = headers.find(
        (h) =>
          !claimed.has(h.runId) &&
          h.bug.id === cell.bugId &&
          h.config.preset === cell.variant.preset &&
          canonicalJson(h.config.variants) === canonicalJson(cell.variant.variants) &&
          canonicalJson(h.config.overrides) === want &&
          h.createdAt >= rec.startedAt,
      );
      if (!found) continue;
      claimed.add(found.runId);
      rec.runId = found.runId;
      await this.saveCell(rec);
    }
  }

  private request(cell: PlannedCell, runner = this.pool.runner(cell.runner)) {
    return cellRequest(this.spec, cell, this.strategies.get(cell.variant.name)!, this.model, runner);
  }

  /** Health of every runner; a change is told as a pool event. */
  private async checkPool(): Promise<void> {
    const before = JSON.stringify(this.pool.status().map((r) => r.alive));
    await this.pool.checkAll();
    if (JSON.stringify(this.pool.status().map((r) => r.alive)) !== before) {
      this.emitPool();
      this.wake();
    }
  }

  private emitPool(): void {
    this.settings.onEvent?.({ type: 'pool', experimentId: this.id, runners: this.pool.status() });
  }

  /**
   * After an infrastructure failure: when the cell's runner does not answer its health check and another runner is
   * up, the cell moves there (the lease follows) and the failure is the runner's, not an attempt of the cell's.
   */
  private async moveIfLost(cell: PlannedCell, rec: CellRecord, lease: Lease, reason: string, usedUrl: string): Promise<boolean> {
    if (this.stopReason) return false;
    const from = this.pool.members[lease.index]!.id;
    if (this.pool.runner(lease.index).url !== usedUrl) {
      // the lost runner was replaced in its place meanwhile (pool.replace): the run goes on there
      rec.runnerId = this.pool.members[lease.index]!.id;
      await this.saveCell(rec);
      this.settings.onEvent?.({ type: 'cell-moved', experimentId: this.id, cell: structuredClone(rec), from, to: from, reason });
      return true;
    }
    if ((await this.pool.check(lease.index)) || !this.pool.hasOtherAlive(lease.index)) return false;
    this.pool.release(lease);
    this.emitPool();
    this.wake();
    const next = await this.pool.acquire(cell.bugId);
    lease.index = next.index;
    rec.runner = next.index;
    rec.runnerId = this.pool.members[next.index]!.id;
    await this.saveCell(rec);
    this.settings.onEvent?.({ type: 'cell-moved', experimentId: this.id, cell: structuredClone(rec), from, to: rec.runnerId, reason });
    this.emitPool();
    return true;
  }

  private freshCell(cell: PlannedCell, rest: Partial<CellRecord> = {}): CellRecord {
    return { experimentId: this.id, index: cell.index, bugId: cell.bugId, variant: cell.variant.name, sample: cell.sample, runner: cell.runner, status: 'running', startedAt: nowIso(), attempts: [], reason: '', costUsd: 0, calls: 0, steps: 0, ...rest };
  }

  /** A cell in error as an attempt: its run (if it had one), its error, and what that run cost (already in the cell's totals). */
  private async failedAttempt(rec: CellRecord): Promise<CellRecord['attempts'][number]> {
    const t = rec.runId ? await this.deps.runs.get(rec.runId).catch(() => undefined) : undefined;
    const usage = t ? runUsage(t) : { costUsd: 0, calls: 0 };
    return { ...(rec.runId ? { runId: rec.runId } : {}), reason: rec.reason, at: rec.finishedAt ?? nowIso(), costUsd: usage.costUsd, calls: usage.calls };
  }

  private async runCell(cell: PlannedCell, lease: Lease): Promise<void> {
    const saved = this.cells.get(cell.index);
    const failed = this.failedRuns.get(cell.index);
    // interrupted, or left not-run by a stop with its run unfinished: that run goes on
    const continued = !failed && (saved?.status === 'running' || (saved?.status === 'not-run' && saved.runId !== undefined));
    let rec: CellRecord;
    if (failed) {
      // retried: a fresh run; the failed one is kept as an attempt, its cost and calls stay in the cell's totals. Started
      // now: after a crash, only a run started since may be adopted as this cell's (adoptOrphans)
      rec = { ...saved!, status: 'running', reason: '', startedAt: nowIso(), attempts: [...saved!.attempts, failed] };
      delete rec.runId;
    } else rec = continued ? { ...saved!, status: 'running' as const, reason: '' } : this.freshCell(cell);
    delete rec.finishedAt;
    rec.runner = lease.index;
    rec.runnerId = this.pool.members[lease.index]!.id;
    // the spec's attempts count from here: a retried cell gets them all again
    const attemptsBefore = failed ? rec.attempts.length : 0;
    this.cells.set(cell.index, rec);
    // announced in scheduling order, before the first await (concurrent cells' writes may land in any order)
    this.settings.onEvent?.({ type: 'cell-started', experimentId: this.id, cell: structuredClone(rec), continued });
    this.emitProgress();
    await this.saveCell(rec);
    for (;;) {
      let verdict: RunVerdict;
      let usage: RunUsage = { costUsd: 0, calls: 0, steps: 0 };
      const usedUrl = this.pool.runner(lease.index).url;
      try {
        const t = await this.attempt(cell, rec, lease);
        verdict = classifyRun(t);
        usage = runUsage(t);
      } catch (e) {
        // an error before or around the run (its record, the bug's repository): infrastructure; its run, if it
        // recorded one, is continued or counted as the verdict says
        const t = rec.runId ? await this.deps.runs.get(rec.runId).catch(() => undefined) : undefined;
        verdict = { status: 'infrastructure-error', reason: e instanceof Error ? e.message : String(e), transient: true, resumable: !!t && t.status !== 'finished' && !!t.resume };
        if (t) usage = runUsage(t);
      }
      this.live.delete(cell.index);
      // a lost runner is the pool's business: the run goes on elsewhere, and the cell's attempts are not spent on it
      if (verdict.transient && verdict.resumable && (await this.moveIfLost(cell, rec, lease, verdict.reason, usedUrl))) continue;
      if (verdict.transient && rec.attempts.length - attemptsBefore + 1 < this.spec.retries.maxAttempts && !this.stopReason) {
        // the run is continued (set aside) or tried afresh; a fresh try keeps the failed run as an attempt, paid for
        rec.attempts.push({ ...(rec.runId ? { runId: rec.runId } : {}), reason: verdict.reason, at: nowIso(), costUsd: verdict.resumable ? 0 : usage.costUsd, calls: verdict.resumable ? 0 : usage.calls });
        if (!verdict.resumable) {
          rec.costUsd = addCost(rec.costUsd, usage.costUsd);
          rec.calls += usage.calls;
          delete rec.runId;
        }
        await this.saveCell(rec);
        const inMs = this.spec.retries.backoffMs * 2 ** (rec.attempts.length - attemptsBefore - 1);
        this.settings.onEvent?.({ type: 'cell-retry', experimentId: this.id, cell: structuredClone(rec), reason: verdict.reason, inMs });
        await new Promise((resolve) => setTimeout(resolve, inMs));
        continue;
      }
      rec.status = verdict.status;
      rec.reason = verdict.reason;
      rec.costUsd = addCost(rec.costUsd, usage.costUsd);
      rec.calls += usage.calls;
      rec.steps = usage.steps;
      rec.finishedAt = nowIso();
      await this.saveCell(rec);
      this.doneThisSession++;
      this.settings.onEvent?.({ type: 'cell-finished', experimentId: this.id, cell: structuredClone(rec) });
      this.emitProgress();
      return;
    }
  }

  /** One run of the cell: a recorded run that finished is only read, an interrupted one continued, else a new one. */
  private async attempt(cell: PlannedCell, rec: CellRecord, lease: Lease): Promise<Trajectory> {
    const runner = this.pool.runner(lease.index);
    const live: RunUsage = { costUsd: 0, calls: 0, steps: 0 };
    this.live.set(cell.index, live);
    const onEvent = (e: RunEvent) => {
      if (e.type === 'run-started') {
        if (!rec.runId) {
          rec.runId = e.runId;
          void this.saveCell(rec).catch((err: unknown) => (this.writeError ??= err));
        }
        if (this.paused) void this.deps.runs.pause(e.runId).catch(() => undefined);
      } else if (e.type === 'step') {
        const s = e.step as TrajStep;
        if (s.verdict) {
          this.pool.noteValidation(lease.index);
          this.emitPool();
        }
        if (s.response) {
          live.calls++;
          live.costUsd = addCost(live.costUsd, s.costUsd);
        }
        if (s.auxiliary) {
          live.calls += s.auxiliary.calls;
          live.costUsd = addCost(live.costUsd, s.auxiliary.costUsd);
        }
        live.steps++;
      }
    };
    if (rec.runId) {
      const saved = await this.deps.runs.get(rec.runId);
      if (saved?.status === 'finished') return saved;
      if (saved?.resume) {
        Object.assign(live, runUsage(saved));
        return this.deps.runs.continueRun(rec.runId, { model: this.model, runner }, onEvent);
      }
      // the run never reached its first record: nothing of it was kept, so it starts afresh
      delete rec.runId;
    }
    const [t] = await this.deps.runs.start(this.request(cell, runner), onEvent);
    if (!t) throw new Error(`the run of cell ${cell.index} (${cell.bugId}, ${cell.variant.name}) gave no trajectory`);
    return t;
  }

  private forEachRun(act: (runId: string) => Promise<void>): void {
    for (const c of this.cells.values()) if (c.status === 'running' && c.runId) void act(c.runId).catch(() => undefined);
  }

  private saveCell(cell: CellRecord): Promise<void> {
    this.cells.set(cell.index, cell);
    return this.store.putCell(cell);
  }

  private saveRecord(): void {
    void this.store.put(this.record).catch((err: unknown) => (this.writeError ??= err));
  }

  private emitProgress(): void {
    this.settings.onEvent?.(this.progress());
  }

  private nextWake(): Promise<void> {
    return new Promise((resolve) => this.wakers.push(resolve));
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const w of wakers) w();
  }
}

