// `pool up --slurm N`: each runner is a Slurm job (sbatch --wrap 'exec node … runner'), its address learned from the
// job's output file as it starts; `scancel` ends it with everything it started (its JVMs are in the job).
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { CHECKOUT, logFile, runnerArgs, urlFromLog, type PoolEngineDriver } from './pool-engine.ts';

function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: CHECKOUT }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 127) : 0;
      resolve({ code, stdout, stderr: stderr || (err && code === 127 ? err.message : '') });
    });
  });
}

/** quoted for the shell line sbatch --wrap runs */
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** States after which a job no longer runs (squeue shows them briefly, then forgets the job). */
const ENDED = /^(COMPLETED|CANCELLED|FAILED|TIMEOUT|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE|OUT_OF_MEMORY)/;

async function jobState(id: string): Promise<string | undefined> {
  const r = await run('squeue', ['-h', '-j', id, '-o', '%T']);
  // an unknown job id (finished and purged) is an error answer: the job is gone
  return r.code === 0 ? r.stdout.trim() || undefined : undefined;
}

export const slurmRunners: PoolEngineDriver = {
  engine: 'slurm',
  async start(id, pool, opts) {
    const log = logFile(pool, id);
    // a replaced runner's log still names the old address: the new job's output starts afresh
    await rm(log, { force: true });
    // on a cluster the runner listens on its node's name (reached from the submit host); on one machine on loopback
    const host = opts.bindHost === 'node' ? ['--host', '"$SLURMD_NODENAME"'] : [];
    const wrap = `exec ${sh(process.execPath)} ${runnerArgs(id, pool, opts).map(sh).join(' ')} ${host.join(' ')}`;
    const args = [
      '--parsable',
      `--job-name=repairlab-${pool.name}-${id}`,
      `--output=${log}`,
      `--cpus-per-task=${opts.cpusPerRunner ?? opts.capacity}`,
      `--mem=${opts.memoryMb ?? 2048}`,
      `--time=${opts.timeLimit ?? '04:00:00'}`,
      ...(opts.partition ? [`--partition=${opts.partition}`] : []),
      `--chdir=${CHECKOUT}`,
      '--wrap', wrap,
    ];
    const r = await run('sbatch', args);
    if (r.code !== 0) throw new Error(`sbatch refused runner ${id}: ${(r.stderr || r.stdout).trim()} — is Slurm up (sinfo), and do the partition, CPUs and memory fit a node?`);
    const jobId = r.stdout.trim().split(';')[0]!;
    try {
      // a job waiting for resources has not started: the wait covers the queue too
      const url = await urlFromLog(log, id, async () => (await jobState(jobId)) === undefined || ENDED.test((await jobState(jobId)) ?? ''), 300_000);
      return { url, job: { kind: 'slurm-job', id: jobId } };
    } catch (e) {
      await run('scancel', [jobId]);
      throw e;
    }
  },
  async ended(job) {
    const state = await jobState(job.id);
    return state === undefined || ENDED.test(state);
  },
  async stop(job) {
    await run('scancel', [job.id]);
    for (let i = 0; i < 150 && !(await this.ended(job)); i++) await new Promise((r) => setTimeout(r, 200));
  },
};
