// While an experiment runs on a pool this CLI started: a runner that its engine ended (a Slurm job past its time or
// scancelled, a process killed) is started again under the same id, the descriptor rewritten, and the scheduler's pool
// told (RunnerPool.replace). A runner that is only slow to answer is left alone: its engine still has it.
import type { PoolMember, RunnerPoolDescriptor } from '../../contracts/pool-descriptor.ts';
import type { RunnerPool } from '../../experiments/runner-pool.ts';
import type { PoolEngineDriver } from './pool-engine.ts';
import { poolDir, writeDescriptor } from './pool-files.ts';

export class PoolKeeper {
  private readonly replacing = new Set<string>();

  constructor(
    private readonly descriptor: RunnerPoolDescriptor,
    private readonly driver: PoolEngineDriver,
    private readonly token: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Called with the scheduler's pool after each change of its state. */
  async keep(pool: RunnerPool): Promise<void> {
    const lost = pool.status().filter((r) => !r.alive);
    await Promise.all(lost.map((r) => this.replaceIfEnded(pool, r.id)));
  }

  private async replaceIfEnded(pool: RunnerPool, id: string): Promise<void> {
    const index = this.descriptor.runners.findIndex((r) => r.id === id);
    const runner = this.descriptor.runners[index];
    const started = this.descriptor.started;
    if (!runner?.job || !started || this.replacing.has(id) || !(await this.driver.ended(runner.job))) return;
    this.replacing.add(id);
    try {
      this.log(`pool: runner ${id} (${runner.job.kind} ${runner.job.id}) was ended by ${this.driver.engine}; starting another in its place`);
      const again = await this.driver.start(id, poolDir(this.descriptor.name), started);
      this.descriptor.runners[index] = { ...runner, url: again.url, job: again.job };
      await writeDescriptor(poolDir(this.descriptor.name), this.descriptor);
      const member: PoolMember = { id, runner: { url: again.url, token: this.token }, capacity: runner.capacity };
      pool.replace(index, member);
      this.log(`pool: runner ${id} is back at ${again.url} (${again.job.kind} ${again.job.id})`);
    } catch (e) {
      this.log(`pool: runner ${id} could not be started again: ${(e as Error).message}`);
    } finally {
      this.replacing.delete(id);
    }
  }
}
