// The CLI's lab: the same parts as the browser worker (worker/lab.ts createLab), on the Node platform (repositories
// and records under REPAIRLAB_HOME, default <checkout>/.repairlab), with a runner given by flags/env or started
// in-process.
import { fileURLToPath } from 'node:url';
import type { Lab } from '../lab.ts';
import type { RecordStore } from '../contracts/platform.ts';
import type { RunnerSettings } from '../contracts/run-settings.ts';
import type { RunManagerOptions } from '../runs/run-manager.ts';

const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the CLI keeps repositories and records: REPAIRLAB_HOME, default <checkout>/.repairlab. */
export function repairlabHome(): string {
  return process.env.REPAIRLAB_HOME ?? `${CHECKOUT}.repairlab`;
}

export interface NodeLabOptions {
  /** how runs wait for an unavailable runner and who hears of it (`run`, `continue`, `fork`: --runner-retries) */
  runs?: RunManagerOptions;
  /** records somewhere else than REPAIRLAB_HOME's (`bundle replay` keeps its replays in memory) */
  records?: RecordStore;
}

/**
 * The lab over REPAIRLAB_HOME, with tree-sitter's wasm read from node_modules when Java is first needed. Loaded on
 * first use: `repairlab --help` and commands that need no engine start without it.
 */
export async function openNodeLab(options: NodeLabOptions = {}): Promise<Lab> {
  const [{ createLab }, { createNodePlatform }, { nodeJavaWasm }] = await Promise.all([import('../lab.ts'), import('../platform/node.ts'), import('../java/wasm-files.node.ts')]);
  await allowLongAnswers();
  const platform = createNodePlatform({ root: repairlabHome() });
  return createLab(options.records ? { ...platform, records: options.records } : platform, { javaWasm: nodeJavaWasm, ...(options.runs ? { runs: options.runs } : {}) });
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
    await refuseAWrongToken({ url, token });
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

/**
 * A run treats a refused token as an outage to wait out (the page re-reads its token: runner-outage.ts), but a
 * command has nowhere to re-read it from: a token the runner refuses now would be waited on for minutes and then
 * set aside. Asked once up front, it fails at once with what to do. An unreachable runner is left to the command
 * (a run waits for it; `validate` says so).
 */
async function refuseAWrongToken(runner: RunnerSettings): Promise<void> {
  // imported here, not at the top: the CLI loads no engine code before a command runs (start-up-imports.test.ts)
  const [{ RunnerClient }, { RunnerError }] = await Promise.all([import('../runner-client/client.ts'), import('../runner-client/runner-errors.ts')]);
  try {
    await new RunnerClient(runner).health();
  } catch (e) {
    if (e instanceof RunnerError && e.code === 'unauthorized') throw e;
  }
}
