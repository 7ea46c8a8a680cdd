// The pool scenario (pool-scenario.ts) on Slurm: `pool up --slurm 2` submits the runners as jobs to a single-node
// cluster (scripts/slurm-cluster.sh brings one up), the victim's job is scancelled mid-cell, and `pool down` must
// leave no job. Runs where scripts/test.sh's Slurm stage found a cluster (REPAIRLAB_TEST_SLURM=1, SLURM_CONF set);
// elsewhere that stage reports it NOT RUN, with the reason.
import { execFileSync } from 'node:child_process';
import { afterAll, describe, it } from 'vitest';
import { cleanUp, poolScenario } from './pool-scenario.ts';

const squeue = (jobId: string) => {
  try {
    return execFileSync('squeue', ['-h', '-j', jobId, '-o', '%T'], { encoding: 'utf8' }).trim();
  } catch {
    // an id Slurm no longer knows: the job is gone
    return '';
  }
};

afterAll(cleanUp);

describe.skipIf(!process.env.REPAIRLAB_TEST_SLURM)('repairlab pool --slurm', () => {
  it('2 runner jobs: one scancelled mid-cell, the cell goes on on the other; every cell once, verdicts as on one runner; down leaves no job', async () => {
    await poolScenario({
      upArgs: ['--slurm', '2', '--capacity', '1', '--cpus', '1', '--mem', '1536', '--time', '00:30:00'],
      kill: async (jobId) => void execFileSync('scancel', [jobId]),
      gone: async (jobId) => squeue(jobId) === '',
    });
  }, 900_000);
});
