// The pool scenario (pool-scenario.ts) on Docker: `pool up --docker 2` starts two containers of the runner service
// image (runner/service.Dockerfile, built offline by scripts/docker-runner-image.sh) with bubblewrap inside, the
// victim's container is killed mid-cell, and `pool down` must leave no container. Runs where scripts/test.sh's docker
// stage found an engine (REPAIRLAB_TEST_DOCKER_POOL=1); elsewhere that stage reports it NOT RUN, with the reason.
import { execFileSync } from 'node:child_process';
import { afterAll, describe, it } from 'vitest';
import { cleanUp, poolScenario } from './pool-scenario.ts';

const exists = (container: string) => {
  try {
    execFileSync('docker', ['inspect', container], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

afterAll(cleanUp);

describe.skipIf(!process.env.REPAIRLAB_TEST_DOCKER_POOL)('repairlab pool --docker', () => {
  it('2 runner containers: one killed mid-cell, the cell goes on on the other; every cell once, verdicts as on one runner; down leaves no container', async () => {
    await poolScenario({
      upArgs: ['--docker', '2', '--capacity', '2'],
      kill: async (container) => void execFileSync('docker', ['kill', container], { stdio: 'ignore' }),
      gone: async (container) => !exists(container),
    });
  }, 900_000);
});
