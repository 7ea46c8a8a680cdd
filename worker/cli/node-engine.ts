// The CLI's engine: the same Engine as the browser worker, on the Node platform (repositories and records
// under REPAIRLAB_HOME, default <checkout>/.repairlab), with a runner given by flags/env or started in-process.
import { fileURLToPath } from 'node:url';
import type { Engine } from '../engine.ts';
import type { RunnerSettings } from '../engine-api.ts';

const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the CLI keeps repositories and records: REPAIRLAB_HOME, default <checkout>/.repairlab. */
export function repairlabHome(): string {
  return process.env.REPAIRLAB_HOME ?? `${CHECKOUT}.repairlab`;
}

/** Loaded on first use: `repairlab --help` and commands that need no engine start without it (~0.3 s of modules). */
export async function createNodeEngine(): Promise<Engine> {
  const [{ Engine }, { createNodePlatform }] = await Promise.all([import('../engine.ts'), import('../platform/node.ts')]);
  await allowLongAnswers();
  return new Engine(createNodePlatform({ root: repairlabHome() }));
}

/**
 * Node's fetch gives up on an answer whose headers take over 300 s (undici's headersTimeout): a runner validating a
 * whole Defects4J suite (Lang with `--per-test-timeout 300`, Math) answers later than that, and the CLI reported the
 * runner as gone. The runner's answer is bounded by the validation's own wall clock, and a model call by the SDK's
 * timeout, so the CLI's fetch waits as long as they allow. (The browser's fetch has no such limit.)
 */
export async function allowLongAnswers(): Promise<void> {
  const { Agent, setGlobalDispatcher } = await import('undici');
  setGlobalDispatcher(new Agent({ headersTimeout: 0, bodyTimeout: 0 }));
}

export interface RunnerFlags {
  runner?: string;
  token?: string;
}

/**
 * Calls `fn` with a runner: the one named by --runner/--token (or REPAIRLAB_RUNNER_URL/TOKEN), else a runner
 * started in this process for the duration of the command (sandboxed as `npm start`'s is).
 */
export async function withRunner<T>(flags: RunnerFlags, fn: (runner: RunnerSettings) => Promise<T>, started: { jit?: 'c1' | 'tiered'; heapMb?: number } = {}): Promise<T> {
  const url = flags.runner ?? process.env.REPAIRLAB_RUNNER_URL;
  if (url) {
    const token = flags.token ?? process.env.REPAIRLAB_RUNNER_TOKEN ?? '';
    return fn({ url, token });
  }
  const { startRunner } = await import('../../runner/src/index.ts');
  const runner = await startRunner({ port: 0, ...started });
  try {
    return await fn({ url: runner.url, token: runner.token });
  } finally {
    await runner.close();
  }
}
