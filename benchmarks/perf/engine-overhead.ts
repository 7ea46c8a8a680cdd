// Engine overhead per cycle: the time the agent loop itself spends (everything but the model call and the tool
// call: prompt build, hash, parse, rectify, bookkeeping, events, snapshots and persisting the trajectory) against
// the cycle's model call and tool calls, when a recorded run is replayed for real — the cassette server over HTTP
// through the openai SDK, the real repository store, HAFixAgent's bash tool and the real runner. The cassette server
// and the runner run as separate processes (as in use), so their work is not counted as engine time. Target: engine
// < 1% of the cycle. The loop measures a step's engine time itself (worker/agent/loop.ts, docs/formats/trajectory.md).
//
//   node --import tsx benchmarks/perf/engine-overhead.ts   (or: repairlab bench engine-overhead --json)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toPublicBug } from '../../worker/contracts/bug.ts';
import { runAgent, type RunAgentOptions } from '../../worker/agent/loop.ts';
import { resolveStrategy } from '../../worker/agent/presets/index.ts';
import { recordCassette } from '../../worker/agent/record-cassette.ts';
import { createOpenAiProvider } from '../../worker/llm/openai-provider.ts';
import { Engine } from '../../worker/engine.ts';
import { MemoryRecordStore } from '../../worker/platform/memory-records.ts';
import { storeRecorder } from '../../worker/agent/persistence.ts';
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
  /** measured replays (after one warm-up replay) */
  rounds: number;
  outcome: string;
  /** the loop's own time on its critical path (steps' latencyMs.engine, the last step's record, the final record), summed over a run's cycles; median over rounds */
  engine_ms: number;
  /** engine + model call + tool calls, summed over cycles */
  cycle_ms: number;
  engine_share_percent: number;
  /** the same with the background work (record, prompt hash) counted as if none of it overlapped the model call */
  engine_with_background_percent: number;
  median_engine_ms_per_cycle: number;
}

interface CycleFigures {
  engineMs: number;
  recordMs: number;
  /** engine work done while the model call was in flight (inside modelMs) */
  backgroundMs: number;
  modelMs: number;
  toolMs: number;
}
interface RoundFigures {
  cycles: number;
  outcome: string;
  engineMs: number;
  cycleMs: number;
  engineShare: number;
  /** engine + background time: the bound if none of the background work had been hidden behind the model call */
  withBackgroundShare: number;
  perCycle: CycleFigures[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** One replay of the cassette through the real openai SDK; engine time per cycle includes writing the records. */
async function replayOnce(options: Omit<RunAgentOptions, 'llm'>, baseURL: string, model: string): Promise<RoundFigures> {
  const records = new MemoryRecordStore(); // pays the serialisation a real store pays, not the I/O
  const recordMs: number[] = [];
  const save = storeRecorder(records);
  const t = await runAgent({
    ...options,
    llm: createOpenAiProvider({ baseURL, model }),
    // the synchronous part of persisting a step: what the store serialises (IndexedDB clones on put)
    record: (traj) => {
      const s = performance.now();
      const written = save(traj);
      recordMs.push(performance.now() - s);
      return written;
    },
  });
  // The record of step i is written while step i + 1's model call is in flight (its `background` time, inside the
  // model time; whatever of it runs after the reply is in counts as engine time); the last step's record is engine
  // time. The final record (after the outcome) is outside the steps: it is added to the last cycle here. `recordMs`
  // shows the time of the record hook attributed to each cycle.
  const n = t.steps.length;
  const finalRecord = recordMs.slice(n).reduce((a, b) => a + b, 0);
  const perCycle = t.steps.map((s, i) => {
    const last = i === n - 1;
    return {
      engineMs: s.latencyMs.engine + (last ? finalRecord : 0),
      recordMs: (i > 0 ? recordMs[i - 1]! : 0) + (last ? (recordMs[i] ?? 0) + finalRecord : 0),
      backgroundMs: s.latencyMs.background ?? 0,
      modelMs: s.latencyMs.model,
      toolMs: s.latencyMs.tool,
    };
  });
  const engineMs = perCycle.reduce((a, c) => a + c.engineMs, 0);
  const backgroundMs = perCycle.reduce((a, c) => a + c.backgroundMs, 0);
  const cycleMs = perCycle.reduce((a, c) => a + c.engineMs + c.modelMs + c.toolMs, 0);
  return {
    cycles: t.steps.length,
    outcome: t.outcome?.status ?? 'unfinished',
    engineMs,
    cycleMs,
    engineShare: (100 * engineMs) / cycleMs,
    withBackgroundShare: (100 * (engineMs + backgroundMs)) / cycleMs,
    perCycle,
  };
}

function printCycles(r: RoundFigures, log: (line: string) => void) {
  log('cycle  engine ms  background ms  (record)  model ms   tool ms  engine share');
  r.perCycle.forEach((c, i) => {
    const cycle = c.engineMs + c.modelMs + c.toolMs;
    log(
      `${String(i + 1).padStart(5)}  ${c.engineMs.toFixed(3).padStart(9)}  ${c.backgroundMs.toFixed(3).padStart(13)}  ${c.recordMs.toFixed(3).padStart(8)}  ${c.modelMs.toFixed(1).padStart(8)}  ${c.toolMs.toFixed(1).padStart(8)}  ${((100 * c.engineMs) / cycle).toFixed(2).padStart(11)}%`,
    );
  });
}

export async function benchEngineOverhead(log: (line: string) => void = console.log, opts: { rounds: number } = { rounds: 5 }): Promise<EngineOverheadBench> {
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
  // The first replay warms the JIT (as a long-lived worker is warm); the figures are medians over the rounds after it.
  // A fresh cassette server per round (a cassette is served once, in order).
  const rounds: RoundFigures[] = [];
  for (let round = 0; round <= opts.rounds; round++) {
    const server = await startChild([fromRepo('worker/llm/cassette-server.ts'), '--cassette', cassetteFile, '--port', String(await freePort())], /cassette server: (\S+)/);
    let figures: RoundFigures;
    try {
      figures = await replayOnce(await fresh(), server.match[1]!, cassette.model);
    } finally {
      server.child.kill();
    }
    if (figures.outcome !== recorded.outcome?.status) throw new Error(`replay ${round} ended ${figures.outcome}, the recorded run ${recorded.outcome?.status}`);
    if (round === 0) {
      log(`warm-up replay: ${figures.cycles} cycles, engine ${figures.engineShare.toFixed(2)}%`);
      continue;
    }
    rounds.push(figures);
    if (round === opts.rounds) printCycles(figures, log);
    log(`round ${round}: engine ${figures.engineMs.toFixed(2)} ms of ${figures.cycleMs.toFixed(1)} ms = ${figures.engineShare.toFixed(2)}% (${figures.withBackgroundShare.toFixed(2)}% with the background work)`);
  }
  const share = median(rounds.map((r) => r.engineShare));
  const perCycle = median(rounds.flatMap((r) => r.perCycle.map((c) => c.engineMs)));
  log(`median over ${rounds.length} rounds: engine ${share.toFixed(2)}% of a replayed cycle (target < 1%; ${median(rounds.map((r) => r.withBackgroundShare)).toFixed(2)}% counting the background work too); median engine time per cycle ${perCycle.toFixed(3)} ms`);
  return {
    cycles: rounds[0]!.cycles,
    rounds: rounds.length,
    outcome: rounds.at(-1)!.outcome,
    engine_ms: median(rounds.map((r) => r.engineMs)),
    cycle_ms: median(rounds.map((r) => r.cycleMs)),
    engine_share_percent: share,
    engine_with_background_percent: median(rounds.map((r) => r.withBackgroundShare)),
    median_engine_ms_per_cycle: perCycle,
  };
} finally {
  for (const c of children) c.kill();
  rmSync(home, { recursive: true, force: true });
}
}

if (process.argv[1]?.endsWith('engine-overhead.ts')) await benchEngineOverhead();
