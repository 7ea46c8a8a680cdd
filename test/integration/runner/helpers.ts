// Shared set-up for runner integration tests: one real runner (bubblewrap, javac, JUnit) per test file.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startRunner, type RunningRunner } from '../../../runner/src/index.ts';

export const ALLOWED_ORIGIN = 'http://127.0.0.1:5173';

export interface TestRunner extends RunningRunner {
  /** the runner's data directory (tests check it holds no leftovers) */
  dataDir: string;
  stop(): Promise<void>;
}

export async function startTestRunner(opts: { workers?: number; recycleAfter?: number } = {}): Promise<TestRunner> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-runner-test-'));
  const runner = await startRunner({
    port: 0,
    dataDir,
    allowedOrigins: [ALLOWED_ORIGIN],
    sandbox: 'bwrap',
    workers: opts.workers ?? 2,
    recycleAfter: opts.recycleAfter,
    log: () => undefined,
  });
  return {
    ...runner,
    dataDir,
    async stop() {
      await runner.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
