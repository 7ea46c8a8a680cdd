// Engine overhead per cycle: the time the agent loop itself spends (everything but the model call and the tool
// call: prompt build, hash, parse, rectify, bookkeeping, events, snapshots and persisting the trajectory) against
// the cycle's model call and tool calls, when a recorded run is replayed for real — the cassette server over HTTP
// through the openai SDK, the real repository store, HAFixAgent's bash tool and the real runner. The cassette server
// and the runner run as separate processes (as in use), so their work is not counted as engine time. Target: engine
// < 1% of the cycle. The loop measures a step's engine time itself (worker/agent/loop.ts, docs/formats/trajectory.md).
//
// Side by side, in the same rounds, the bench replays the cassette with the *floor*: the least any loop must do per
// cycle — build the prompt with the strategy's templates, parse the reply, rectify the command, run the tool, trim
// its output and render the feedback — and nothing else (no record, no hash, no budgets, events or bookkeeping). Its
// share is what this machine charges for that work alone, the engine/floor ratio what the engine adds on top of it.
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
import { resolveStrategy } from '../../worker/strategies/presets/index.ts';
import { recordCassette } from '../../worker/agent/record-cassette.ts';
import { createOpenAiProvider } from '../../worker/llm/openai-provider.ts';
import type { Engine } from '../../worker/bugs/engine.ts';
import { MemoryRecordStore } from '../../worker/platform/memory-records.ts';
import { storeRecorder } from '../../worker/records/persistence.ts';
import { createNodePlatform } from '../../worker/platform/node.ts';
import { RunnerClient, runnerValidator } from '../../worker/runner-client/client.ts';
import { toolkit } from '../../worker/tools/registry.ts';
import { nodeJavaWasm } from '../../worker/java/wasm-files.node.ts';
import { createLab } from '../../worker/lab.ts';
import { buildBugContext } from '../../worker/strategies/bug-context.ts';
import { buildMessages, type PromptMemory } from '../../worker/strategies/prompt.ts';
import { parseByFormat } from '../../worker/strategies/middleware/parse.ts';
import { rectifyCommand } from '../../worker/strategies/middleware/rectify.ts';
import { trimObservation } from '../../worker/agent/observation.ts';
import { renderTemplate } from '../../worker/strategies/templates.ts';

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

/** The bench's bug, preset and model name (the cassette answers as this model). */
export const BENCH_BUG = 'textkit-1';
export const BENCH_PRESET = 'hafixagent';
export const BENCH_MODEL = 'bench-replay';

/** Options for a fresh run of the bench's bug and preset (a new workspace each call) on the real store and runner. */
export function benchRunOptions(engine: Engine, runner: { url: string; token: string }): () => Promise<Omit<RunAgentOptions, 'llm'>> {
  const strategy = resolveStrategy(BENCH_PRESET);
  return async () => {
    const { bug, workspace } = await engine.workspaceFor(BENCH_BUG);
    return {
      strategy,
      bug: toPublicBug(bug),
      workspace,
      validator: runnerValidator(new RunnerClient({ url: runner.url, token: runner.token }), bug.layout),
      tools: toolkit(BENCH_PRESET),
      groundTruthPatch: bug.groundTruth.patch,
    };
  };
}

/** Records the bench's cassette: its hand-written replies through the real engine (as the demo cassettes are made). */
export async function recordBenchCassette(engine: Engine, runner: { url: string; token: string }) {
  return recordCassette({ ...(await benchRunOptions(engine, runner)()), replies: REPLIES, model: BENCH_MODEL });
}

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
  /** the floor loop's time outside the model and tool calls (prompt build, parse, rectify, trim, feedback), per run; median over rounds */
  floor_ms: number;
  floor_share_percent: number;
  /** engine_ms / floor_ms, per round, median */
  engine_to_floor_ratio: number;
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
  // model time; whatever of it runs after the reply is in counts as engine time); the last step's record starts in
  // its engine time and goes on during the re-check. The final record (after the outcome) is outside the steps: it
  // is added to the last cycle here. `recordMs`
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

/**
 * The floor: one replay of the cassette by the least loop that sends the same prompts — the strategy's prompt build,
 * parse, rectify, the tool, trimming and the feedback template — and nothing else. Time outside the model and tool
 * calls, summed over the run. (Full-history strategies only: the prompt is the rendered start plus the replies and
 * feedback so far.) The cassette server refuses a prompt that differs from the recording, so the floor does the
 * same prompt work the engine does.
 */
async function replayFloor(options: Omit<RunAgentOptions, 'llm'>, baseURL: string, model: string, cycles: number): Promise<{ floorMs: number; cycleMs: number }> {
  const spec = options.strategy;
  if (spec.memory.kind !== 'full-history') throw new Error(`the floor loop replays full-history strategies only, not ${spec.id}`);
  const llm = createOpenAiProvider({ baseURL, model });
  const defs = options.tools.map((t) => t.definition);
  const settings = { ...spec.toolSettings };
  const bug = await buildBugContext(options.bug, options.workspace);
  const memory: PromptMemory = { history: [], gathered: [] };
  let floorMs = 0;
  let outside = 0;
  // the end of the previous tool call (the start, at first): the floor's time runs from there to the next model call
  let last = performance.now();
  for (let index = 0; index < cycles; index++) {
    const messages = buildMessages({ bug, spec, state: spec.startState, stateTools: defs, allTools: defs, stepIndex: index, extra: {} }, memory);
    const modelStart = performance.now();
    const reply = (await llm.complete({ messages, temperature: spec.sampling.temperature, topP: spec.sampling.topP, seed: spec.sampling.seed, maxTokens: spec.sampling.maxTokens, purpose: 'agent' })).content;
    const modelEnd = performance.now();
    floorMs += modelStart - last;
    outside += modelEnd - modelStart;
    const parsed = parseByFormat(spec.output.format, reply, { tools: defs });
    const rectified = parsed.command && (await rectifyCommand(parsed.command, defs, options.workspace, { mode: spec.middleware.rectifyNames, threshold: spec.middleware.levenshteinThreshold, repairPaths: spec.middleware.repairPaths }));
    if (!rectified?.command) throw new Error(`floor replay, cycle ${index + 1}: the reply gave no command (${parsed.error ?? rectified?.error})`);
    const command = rectified.command;
    const tool = options.tools.find((t) => t.definition.name === command.name)!;
    const toolStart = performance.now();
    const result = await tool.run(command.args, { workspace: options.workspace, bug: options.bug, validator: options.validator, settings });
    const toolEnd = performance.now();
    floorMs += toolStart - modelEnd;
    outside += toolEnd - toolStart;
    const trimmed = trimObservation(result.shown, spec.observation);
    const feedback = renderTemplate(spec.prompt.observation, { result: { tool: command.name, ok: result.ok, output: trimmed.text, elided: trimmed.elided, returncode: result.data?.returncode ?? (result.ok ? 0 : 1) }, step: { index: index + 1 } });
    memory.history.push({ role: 'assistant', content: reply }, { role: 'user', content: feedback });
    last = toolEnd;
  }
  floorMs += performance.now() - last; // the last cycle's trimming and feedback
  return { floorMs, cycleMs: floorMs + outside };
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
  const lab = createLab(createNodePlatform({ root: home }), { javaWasm: nodeJavaWasm });
  await lab.loadJava();
  const { engine } = lab;
  const fresh = benchRunOptions(engine, runner);
  const { cassette, trajectory: recorded } = await recordBenchCassette(engine, runner);
  log(`recorded ${cassette.calls.length} calls; the recorded run ended ${recorded.outcome?.status}`);

  const cassetteFile = join(home, 'bench.cassette.json');
  writeFileSync(cassetteFile, JSON.stringify(cassette));
  // The first replays warm the JIT (as a long-lived worker is warm); the figures are medians over the rounds after it.
  // Each round replays with the engine, then with the floor loop.
  /** a fresh cassette server per replay (a cassette is served once, in order) */
  const withServer = async <T>(replay: (baseURL: string) => Promise<T>): Promise<T> => {
    const server = await startChild([fromRepo('worker/llm/cassette-server.node.ts'), '--cassette', cassetteFile, '--port', String(await freePort())], /cassette server: (\S+)/);
    try {
      return await replay(server.match[1]!);
    } finally {
      server.child.kill();
    }
  };
  const rounds: RoundFigures[] = [];
  const floors: { floorMs: number; floorShare: number }[] = [];
  for (let round = 0; round <= opts.rounds; round++) {
    const figures = await withServer(async (url) => replayOnce(await fresh(), url, cassette.model));
    if (figures.outcome !== recorded.outcome?.status) throw new Error(`replay ${round} ended ${figures.outcome}, the recorded run ${recorded.outcome?.status}`);
    const floor = await withServer(async (url) => replayFloor(await fresh(), url, cassette.model, recorded.steps.length));
    const floorShare = (100 * floor.floorMs) / floor.cycleMs;
    if (round === 0) {
      log(`warm-up replays: ${figures.cycles} cycles, engine ${figures.engineShare.toFixed(2)}%, floor ${floorShare.toFixed(2)}%`);
      continue;
    }
    rounds.push(figures);
    floors.push({ floorMs: floor.floorMs, floorShare });
    if (round === opts.rounds) printCycles(figures, log);
    log(
      `round ${round}: engine ${figures.engineMs.toFixed(2)} ms of ${figures.cycleMs.toFixed(1)} ms = ${figures.engineShare.toFixed(2)}% (${figures.withBackgroundShare.toFixed(2)}% with the background work); ` +
        `floor ${floor.floorMs.toFixed(2)} ms of ${floor.cycleMs.toFixed(1)} ms = ${floorShare.toFixed(2)}%; engine/floor ${(figures.engineMs / floor.floorMs).toFixed(2)}×`,
    );
  }
  const share = median(rounds.map((r) => r.engineShare));
  const perCycle = median(rounds.flatMap((r) => r.perCycle.map((c) => c.engineMs)));
  const floorShare = median(floors.map((f) => f.floorShare));
  const ratio = median(rounds.map((r, i) => r.engineMs / floors[i]!.floorMs));
  log(`median over ${rounds.length} rounds: engine ${share.toFixed(2)}% of a replayed cycle (target < 1%; ${median(rounds.map((r) => r.withBackgroundShare)).toFixed(2)}% counting the background work too); median engine time per cycle ${perCycle.toFixed(3)} ms`);
  log(`the floor (prompt build, parse, rectify, trim, feedback — nothing else) takes ${floorShare.toFixed(2)}% of its replayed cycle on this machine; the engine ${ratio.toFixed(2)}× the floor's time`);
  return {
    cycles: rounds[0]!.cycles,
    rounds: rounds.length,
    outcome: rounds.at(-1)!.outcome,
    engine_ms: median(rounds.map((r) => r.engineMs)),
    cycle_ms: median(rounds.map((r) => r.cycleMs)),
    engine_share_percent: share,
    engine_with_background_percent: median(rounds.map((r) => r.withBackgroundShare)),
    median_engine_ms_per_cycle: perCycle,
    floor_ms: median(floors.map((f) => f.floorMs)),
    floor_share_percent: floorShare,
    engine_to_floor_ratio: ratio,
  };
} finally {
  for (const c of children) c.kill();
  rmSync(home, { recursive: true, force: true });
}
}

if (process.argv[1]?.endsWith('engine-overhead.ts')) await benchEngineOverhead();
