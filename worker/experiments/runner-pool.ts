// Which runner an experiment cell goes to. Bug affinity: a bug's cells stay on the runner that served its first cell
// while that runner lives (its warm JVM and uploaded snapshot are reused); a bug without a live runner goes to the
// runner with the most free capacity. Capacity: a runner never gets more cells at once than it says it takes. Health:
// a runner whose /v1/health stops answering is lost — no new cell goes there, and its bugs move on — and one that
// answers again is back. When every runner is lost, all of them are tried again rather than none (an outage of the
// only runner is waited out as before, by the run itself).
import type { PoolMember } from '../contracts/pool-descriptor.ts';
import type { RunnerSettings } from '../contracts/run-settings.ts';

/** Answers whether a runner is up (the CLI and the page: RunnerClient.health). */
export type HealthProbe = (runner: RunnerSettings) => Promise<boolean>;

/** A runner as the Experiments view shows it. */
export interface PoolRunnerStatus {
  id: string;
  url: string;
  capacity: number;
  /** cells running on it now */
  busy: number;
  alive: boolean;
  /** cells it has started this session */
  served: number;
  /** validations it answered this session, and per minute since the session began */
  validations: number;
  validationsPerMinute: number;
}

/** A cell's hold on a runner; `index` changes when the cell moves to another runner. */
export interface Lease {
  index: number;
}

export class RunnerPool {
  private readonly busy: number[];
  private readonly alive: boolean[];
  private readonly served: number[];
  private readonly validations: number[];
  private readonly since = performance.now();
  private readonly affinity = new Map<string, number>();
  private waiters: Array<() => void> = [];

  readonly members: readonly PoolMember[];

  constructor(
    members: readonly PoolMember[],
    private readonly probe: HealthProbe,
    /** a bug's runner fixed before the session (an experiment created with a list of runners deals them out) */
    preferred: Readonly<Record<string, number>> = {},
  ) {
    if (!members.length) throw new Error('A runner pool needs at least one runner.');
    this.members = [...members];
    this.busy = members.map(() => 0);
    this.alive = members.map(() => true);
    this.served = members.map(() => 0);
    this.validations = members.map(() => 0);
    for (const [bug, i] of Object.entries(preferred)) if (i < members.length) this.affinity.set(bug, i);
  }

  runner(index: number): RunnerSettings {
    return this.members[index]!.runner;
  }

  /** The runner a cell of `bugId` may start on now (undefined: wait for a free place). */
  pick(bugId: string): number | undefined {
    const own = this.affinity.get(bugId);
    const anyAlive = this.alive.some(Boolean);
    const usable = (i: number) => this.alive[i] || !anyAlive;
    if (own !== undefined && usable(own)) return this.free(own) > 0 ? own : undefined;
    let best: number | undefined;
    for (let i = 0; i < this.members.length; i++) {
      if (!usable(i) || this.free(i) <= 0) continue;
      if (best === undefined || this.free(i) > this.free(best)) best = i;
    }
    return best;
  }

  /** Takes a place for a cell of `bugId`; undefined when none is free now. */
  take(bugId: string): Lease | undefined {
    const index = this.pick(bugId);
    if (index === undefined) return undefined;
    this.affinity.set(bugId, index);
    this.busy[index]!++;
    this.served[index]!++;
    return { index };
  }

  /** Waits for a place (the cell's runner was lost and it moves on). */
  async acquire(bugId: string): Promise<Lease> {
    for (;;) {
      const lease = this.take(bugId);
      if (lease) return lease;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  release(lease: Lease): void {
    this.busy[lease.index]!--;
    this.wakeWaiters();
  }

  /** Asks the runner whether it is up, and records the answer. */
  async check(index: number): Promise<boolean> {
    const up = await this.probe(this.runner(index)).catch(() => false);
    const cameBack = up && !this.alive[index];
    this.alive[index] = up;
    if (cameBack) this.wakeWaiters();
    return up;
  }

  checkAll(): Promise<boolean[]> {
    return Promise.all(this.members.map((_, i) => this.check(i)));
  }

  /**
   * A runner started in place of a lost one (its engine ended it: a Slurm job, a process): it takes the lost one's
   * place and its bugs; cells still running on the old one move off as their runs meet the outage.
   */
  replace(index: number, member: PoolMember): void {
    (this.members as PoolMember[])[index] = member;
    this.alive[index] = true;
    this.wakeWaiters();
  }

  /** Whether another runner than `index` is alive (a cell can move there). */
  hasOtherAlive(index: number): boolean {
    return this.alive.some((up, i) => up && i !== index);
  }

  /** A validation a run on runner `index` got an answer to. */
  noteValidation(index: number): void {
    this.validations[index]!++;
  }

  status(): PoolRunnerStatus[] {
    const minutes = Math.max(1e-9, (performance.now() - this.since) / 60_000);
    return this.members.map((m, i) => ({
      id: m.id,
      url: m.runner.url,
      capacity: m.capacity,
      busy: this.busy[i]!,
      alive: this.alive[i]!,
      served: this.served[i]!,
      validations: this.validations[i]!,
      validationsPerMinute: this.validations[i]! / minutes,
    }));
  }

  private wakeWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private free(index: number): number {
    return this.members[index]!.capacity - this.busy[index]!;
  }
}
