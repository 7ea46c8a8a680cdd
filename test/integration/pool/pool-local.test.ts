// The pool scenario (pool-scenario.ts) on local runner processes: the victim's process group is killed.
import { afterAll, describe, it } from 'vitest';
import { alive, cleanUp, poolScenario } from './pool-scenario.ts';

afterAll(cleanUp);

describe('repairlab pool --local', () => {
  it('2 runners: one killed mid-cell, the cell goes on on the other; every cell once, verdicts as on one runner; down leaves nothing', async () => {
    await poolScenario({
      upArgs: ['--local', '2', '--capacity', '2'],
      kill: async (pid) => void process.kill(-Number(pid), 'SIGKILL'),
      gone: async (pid) => !alive(Number(pid)),
    });
  }, 600_000);
});
