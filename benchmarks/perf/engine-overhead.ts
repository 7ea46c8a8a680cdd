// Engine overhead per cycle: the time the agent loop itself spends (prompt build + parse + rectify +
// bookkeeping + persisting the trajectory) against the cycle's model call and tool calls, when a
// recorded run is replayed for real — the cassette server over HTTP through the openai SDK, the real repository
// store, HAFixAgent's bash tool and the real runner. The cassette server and the runner run as separate
// processes (as in use), so their work is not counted as engine time. Target: engine < 1% of the cycle.
//
//   node --import tsx benchmarks/perf/engine-overhead.ts   (or: repairlab bench engine-overhead --json)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toPublicBug } from '../../worker/contracts/bug.ts';
import type { Trajectory } from '../../worker/contracts/trajectory.ts';
import { runAgent, type RunAgentOptions } from '../../worker/agent/loop.ts';
import { resolveStrategy } from '../../worker/agent/presets/index.ts';
import { recordCassette } from '../../worker/agent/record-cassette.ts';
import { createOpenAiProvider } from '../../worker/llm/openai-provider.ts';
import { Engine } from '../../worker/engine.ts';
import { createNodePlatform } from '../../worker/platform/node.ts';
import { RunnerClient, runnerValidator } from '../../worker/runner-client/client.ts';
import { toolkit } from '../../worker/tools/registry.ts';
import { initJavaForNode } from '../../worker/java/node-wasm.ts';

/** a path in this checkout, whatever the working directory */
const fromRepo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Start a Node child process and wait until its output matches `ready`. */
function startChild(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = out.match(ready);
      if (m) resolve({ child, match: m });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${args[0]} exited (${code}) before it was ready:\n${out}`)));
  });
}

const STRINGS = 'src/main/java/org/repairlab/textkit/Strings.java';
const bashReply = (cmd: string) => `THOUGHT: next step.\n\n\`\`\`bash\n${cmd}\n\`\`\``;
const REPLIES = [
  bashReply(`grep -n "truncate" ${STRINGS}`),
  bashReply(`sed -n '50,65p' ${STRINGS}`),
  bashReply('grep -rn "truncateKeepsStringThatFitsExactly" src/test'),
  bashReply('test'),
  bashReply(`sed -i 's/if (s.length() < maxLength) {/if (s.length() <= maxLength) {/' ${STRINGS}`),
  bashReply(`sed -n '57,60p' ${STRINGS}`),
  bashReply('test'),
  bashReply('echo COMPLETE_REPAIR_SIGNAL'),
];

export interface EngineOverheadBench {
  cycles: number;
  outcome: string;
  /** the loop's own time (prompt build, parse, rectify, bookkeeping, serialising the record), summed over cycles */
  engine_ms: number;
  /** engine + model call + tool calls, summed over cycles */
  cycle_ms: number;
  engine_share_percent: number;
  median_engine_ms_per_cycle: number;
}

export async function benchEngineOverhead(log: (line: string) => void = console.log): Promise<EngineOverheadBench> {
const home = mkdtempSync(join(tmpdir(), 'repairlab-bench-'));
const token = 'bench-token';
const runnerPort = await freePort();
const runnerProc = await startChild([fromRepo('runner/src/main.ts'), '--port', String(runnerPort), '--token', token], /listening|http:\/\/127\.0\.0\.1/i);
const runner = { url: `http://127.0.0.1:${runnerPort}`, token };
const children: ChildProcess[] = [runnerProc.child];
try {
  await initJavaForNode();
  const engine = new Engine(createNodePlatform({ root: home }));
  const strategy = resolveStrategy('hafixagent');
  const fresh = async () => {
    const { bug, workspace } = await engine.workspaceFor('textkit-1');
    return {
      strategy,
      bug: toPublicBug(bug),
      workspace,
      validator: runnerValidator(new RunnerClient({ url: runner.url, token: runner.token }), bug.layout),
      tools: toolkit('hafixagent'),
      groundTruthPatch: bug.groundTruth.patch,
    } satisfies Omit<RunAgentOptions, 'llm'>;
  };
  const { cassette, trajectory: recorded } = await recordCassette({ ...(await fresh()), replies: REPLIES, model: 'bench-replay' });
  log(`recorded ${cassette.calls.length} calls; the recorded run ended ${recorded.outcome?.status}`);

  const cassetteFile = join(home, 'bench.cassette.json');
  writeFileSync(cassetteFile, JSON.stringify(cassette));
  const server = await startChild([fromRepo('worker/llm/cassette-server.ts'), '--cassette', cassetteFile, '--port', String(await freePort())], /cassette server: (\S+)/);
  children.push(server.child);
  const recordMs: number[] = [];
  let t: Trajectory;
  try {
    t = await runAgent({
      ...(await fresh()),
      llm: createOpenAiProvider({ baseURL: server.match[1]!, model: cassette.model }),
      // what persistence costs per step: serialising the whole trajectory (the store write is the platform's)
      record: async (traj) => {
        const s = performance.now();
        JSON.stringify(traj);
        recordMs.push(performance.now() - s);
      },
    });
  } finally {
    server.child.kill();
  }

  log(`replayed run: ${t.steps.length} cycles, outcome ${t.outcome?.status}`);
  log('cycle  engine ms  record ms  model ms   tool ms  engine share');
  let engineTotal = 0;
  let cycleTotal = 0;
  t.steps.forEach((s, i) => {
    const engineMs = s.latencyMs.engine + (recordMs[i] ?? 0);
    const cycle = engineMs + s.latencyMs.model + s.latencyMs.tool;
    engineTotal += engineMs;
    cycleTotal += cycle;
    log(
      `${String(i + 1).padStart(5)}  ${s.latencyMs.engine.toFixed(2).padStart(9)}  ${(recordMs[i] ?? 0).toFixed(2).padStart(9)}  ${s.latencyMs.model.toFixed(1).padStart(8)}  ${s.latencyMs.tool.toFixed(1).padStart(8)}  ${((100 * engineMs) / cycle).toFixed(2).padStart(11)}%`,
    );
  });
  const sorted = t.steps.map((s, i) => s.latencyMs.engine + (recordMs[i] ?? 0)).sort((a, b) => a - b);
  log(`median engine time per cycle: ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} ms`);
  log(`total: engine ${engineTotal.toFixed(1)} ms of ${cycleTotal.toFixed(1)} ms = ${((100 * engineTotal) / cycleTotal).toFixed(2)}% (target < 1%)`);
  return {
    cycles: t.steps.length,
    outcome: t.outcome?.status ?? 'unfinished',
    engine_ms: engineTotal,
    cycle_ms: cycleTotal,
    engine_share_percent: (100 * engineTotal) / cycleTotal,
    median_engine_ms_per_cycle: sorted[Math.floor(sorted.length / 2)]!,
  };
} finally {
  for (const c of children) c.kill();
  rmSync(home, { recursive: true, force: true });
}
}

if (process.argv[1]?.endsWith('engine-overhead.ts')) await benchEngineOverhead();
