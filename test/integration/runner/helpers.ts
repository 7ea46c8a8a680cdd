// Shared set-up for runner integration tests: one real runner (javac, JUnit in a sandbox) per test file. The sandbox
// is bubblewrap unless REPAIRLAB_TEST_SANDBOX names another backend: `npm test` runs the hostile and isolation files a
// second time with `docker` when a Docker engine answers (scripts/test.sh), so every backend the runner ships is held
// to the same verdicts.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startRunner, type RunningRunner } from '../../../runner/src/index.ts';
import type { SandboxBackend } from '../../../runner/src/sandbox.ts';
import { RunnerClient } from '../../../worker/runner-client/client.ts';

export const ALLOWED_ORIGIN = 'http://127.0.0.1:5173';

/** The sandbox backend these tests run the runner with (REPAIRLAB_TEST_SANDBOX, default bwrap). */
export const TEST_SANDBOX: SandboxBackend = testSandbox(process.env.REPAIRLAB_TEST_SANDBOX);

function testSandbox(name: string | undefined): SandboxBackend {
  if (name === undefined || name === '') return 'bwrap';
  if (name === 'bwrap' || name === 'docker') return name;
  throw new Error(`REPAIRLAB_TEST_SANDBOX=${name}: the runner tests run on bwrap or docker (an unsandboxed runner is not one to test verdicts on).`);
}

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
    sandbox: TEST_SANDBOX,
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

/** One runner and its client for a whole test file: started before its tests, stopped (data dir removed) after them. */
export function useTestRunner(opts: { workers?: number; recycleAfter?: number } = {}): { readonly runner: TestRunner; readonly client: RunnerClient } {
  let runner: TestRunner | undefined;
  let client: RunnerClient | undefined;
  beforeAll(async () => {
    runner = await startTestRunner(opts);
    client = new RunnerClient({ url: runner.url, token: runner.token });
  });
  afterAll(async () => {
    await runner?.stop();
  });
  return {
    get runner() {
      if (!runner) throw new Error('the test runner is not started yet (use it inside a test)');
      return runner;
    },
    get client() {
      if (!client) throw new Error('the test runner is not started yet (use it inside a test)');
      return client;
    },
  };
}

/** A validation's tests as sorted "method status [exception]" lines: what a test expects, readable in a diff. */
export function testStatuses(tests: { id: string; status: string; failure?: { exception: string } }[]): string[] {
  return tests.map((t) => `${t.id.split('::')[1]} ${t.status}${t.failure ? ` ${t.failure.exception}` : ''}`).sort();
}

let distinctCount = 0;

/**
 * A Java source made distinct for the runner's cache, which sees through comments and layout (runner/src/
 * verdict-cache.ts): empty declarations (`;`) after its last type, on a line of their own at the end (a last line
 * may be a comment), as many as no earlier call in this process used. The program and its lines stay the same.
 */
export function distinctJava(source: string): string {
  return `${source.endsWith('\n') ? source : `${source}\n`}${';'.repeat(++distinctCount)}\n`;
}
