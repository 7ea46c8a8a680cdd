// `repairlab bench pool`: (1) throughput of an experiment on a pool of 1, 2 and 4 local runners side by side — the
// bundled demo bugs, the one-shot preset, a model on 127.0.0.1 that answers at once with the developers' fix (each
// reply made unique so the runner's verdict cache never answers for another cell), so a cell's time is the runner's;
// (2) a simulation of the scheduler's dispatch at 100 runners: the real RunnerPool and the scheduler's dispatch scan
// (experiments/scheduler.ts: the first pending cell whose bug has a place), cells served in virtual time with the cell
// durations measured in (1). What is timed is the coordinator's own CPU time per dispatched cell (pick, take,
// release, the scan), against the measured median time of a validation — the goal is < 1%.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRunner, type RunningRunner } from '../../runner/src/index.ts';
import { createLab, type Lab } from '../../worker/lab.ts';
import { nodeJavaWasm } from '../../worker/java/wasm-files.node.ts';
import { createNodePlatform } from '../../worker/platform/node.ts';
import { RunnerPool } from '../../worker/experiments/runner-pool.ts';
import type { Trajectory } from '../../worker/contracts/trajectory.ts';
import { BUNDLED_BUGS, instantModel } from './experiment-throughput.ts';

export interface PoolRun {
  runners: number;
  cells: number;
  plausible: number;
  wall_ms: number;
  cells_per_minute: number;
  validations: number;
  validations_per_minute: number;
  /** each cell's wall time (ms), for the simulation */
  cell_ms: number[];
  /** each validation's time on the runner (ms) */
  validation_ms: number[];
}

export interface PoolSimulation {
  runners: number;
  capacity: number;
  bugs: number;
  cells: number;
  dispatched: number;
  /** coordinator CPU time per dispatched cell (µs): the scan, pick, take and release */
  overhead_us_per_dispatch: number;
  median_validation_ms: number;
  /** overhead per dispatch / median validation */
  overhead_share: number;
  /** virtual: the cells' total service time / (runners × capacity × makespan) */
  utilisation: number;
}

export interface PoolBenchResult {
  bugs: string[];
  samples: number;
  runs: PoolRun[];
  simulation: PoolSimulation;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : 0;
};

async function runOnPool(lab: Lab, bugs: string[], samples: number, baseURL: string, runners: RunningRunner[], log: (line: string) => void): Promise<PoolRun> {
  const capacity = 2;
  const record = await lab.experiments.create({
    schemaVersion: 1,
    name: `pool-${runners.length}`,
    bugs,
    variants: [{ name: 'oneshot', preset: 'oneshot' }],
    samples,
    model: { provider: 'custom', baseURL, model: 'instant' },
    prices: { instant: { inputPerMTok: 0, outputPerMTok: 0 } },
    concurrency: { modelCalls: capacity * runners.length, validations: capacity },
  });
  const members = runners.map((r, i) => ({ id: `runner-${i + 1}`, runner: { url: r.url, token: r.token }, capacity }));
  const start = performance.now();
  const session = await lab.experiments.run(record.id, { runners: members.map((m) => m.runner), pool: { members, healthEveryMs: 2_000 }, onEvent: (e) => e.type === 'cell-finished' && log(`  ${e.cell.bugId} #${e.cell.sample + 1} on ${e.cell.runnerId}: ${e.cell.status}`) });
  await session.done;
  const wall = performance.now() - start;
  const cells = [...(await lab.experiments.store.cells(record.id)).values()];
  const trajectories = (await Promise.all(cells.map((c) => (c.runId ? lab.trajectory(c.runId) : undefined)))).filter((t): t is Trajectory => !!t);
  const verdicts = trajectories.flatMap((t) => [...t.steps.map((s) => s.verdict), t.outcome?.recheck]).filter((v) => v !== undefined);
  return {
    runners: runners.length,
    cells: cells.length,
    plausible: cells.filter((c) => c.status === 'plausible').length,
    wall_ms: wall,
    cells_per_minute: (cells.length / wall) * 60_000,
    validations: verdicts.length,
    validations_per_minute: (verdicts.length / wall) * 60_000,
    cell_ms: cells.map((c) => Date.parse(c.finishedAt ?? c.startedAt) - Date.parse(c.startedAt)),
    validation_ms: verdicts.map((v) => v!.timingsMs.total),
  };
}

/**
 * The scheduler's dispatch at scale, in virtual time: `bugs` bugs × `perBug` cells over `runners` runners, each cell
 * lasting a duration drawn (deterministically) from `cellMs`. Only the coordinator's work is timed, in real time.
 */
export function simulateDispatch(opts: { runners: number; capacity: number; bugs: number; perBug: number; cellMs: number[]; medianValidationMs: number }): PoolSimulation {
  const members = Array.from({ length: opts.runners }, (_, i) => ({ id: `runner-${i + 1}`, runner: { url: `http://sim/${i}`, token: '' }, capacity: opts.capacity }));
  const pool = new RunnerPool(members, async () => true);
  const pending: { bugId: string; ms: number }[] = [];
  let k = 0;
  for (let b = 0; b < opts.bugs; b++) for (let c = 0; c < opts.perBug; c++) pending.push({ bugId: `bug-${b}`, ms: opts.cellMs[k++ % opts.cellMs.length]! });
  const slots = opts.runners * opts.capacity;
  // running cells by their virtual end time (a sorted array is enough at this size)
  const running: { end: number; lease: { index: number } }[] = [];
  let now = 0;
  let busy = 0;
  let dispatched = 0;
  let coordinatorMs = 0;
  while (pending.length || running.length) {
    const t0 = performance.now();
    // as the scheduler: the first pending cell that may start, while places are free
    for (;;) {
      if (running.length >= slots) break;
      const next = pending.findIndex((c) => pool.pick(c.bugId) !== undefined);
      if (next < 0) break;
      const [cell] = pending.splice(next, 1);
      const lease = pool.take(cell!.bugId)!;
      const end = now + cell!.ms;
      busy += cell!.ms;
      let at = running.length;
      while (at > 0 && running[at - 1]!.end > end) at--;
      running.splice(at, 0, { end, lease });
      dispatched++;
    }
    coordinatorMs += performance.now() - t0;
    const done = running.shift();
    if (!done) break;
    now = done.end;
    const t1 = performance.now();
    pool.release(done.lease);
    coordinatorMs += performance.now() - t1;
  }
  const perDispatchMs = coordinatorMs / dispatched;
  return {
    runners: opts.runners,
    capacity: opts.capacity,
    bugs: opts.bugs,
    cells: opts.bugs * opts.perBug,
    dispatched,
    overhead_us_per_dispatch: perDispatchMs * 1000,
    median_validation_ms: opts.medianValidationMs,
    overhead_share: perDispatchMs / opts.medianValidationMs,
    utilisation: busy / (slots * now),
  };
}

export async function benchPool(opts: { bugs: number; samples: number; log?: (line: string) => void }): Promise<PoolBenchResult> {
  if (opts.bugs > BUNDLED_BUGS.length) throw new Error(`--bugs ${opts.bugs}: there are ${BUNDLED_BUGS.length} bundled bugs; give at most that many.`);
  const log = opts.log ?? (() => undefined);
  const bugs = BUNDLED_BUGS.slice(0, opts.bugs);
  const home = await mkdtemp(join(tmpdir(), 'repairlab-bench-pool-'));
  // as root, bwrap runs validations as nobody, who must pass through to the runners' data directories
  await chmod(home, 0o711);
  const lab = createLab(createNodePlatform({ root: home }), { javaWasm: nodeJavaWasm });
  const fixes = new Map<string, string>();
  for (const id of bugs) fixes.set(id, (await lab.engine.catalog.bug(id)).groundTruth.patch ?? '');
  const model = await instantModel(fixes);
  const withRunners = async <T,>(count: number, use: (runners: RunningRunner[]) => Promise<T>): Promise<T> => {
    const runners: RunningRunner[] = [];
    try {
      for (let i = 0; i < count; i++) runners.push(await startRunner({ port: 0, workers: 2, dataDir: join(home, `runner-${count}-${i}`), log: () => undefined }));
      return await use(runners);
    } finally {
      for (const r of runners) await r.close();
    }
  };
  try {
    log('warm-up (repositories, harness)');
    await withRunners(1, (r) => runOnPool(lab, bugs, 1, model.baseURL, r, () => undefined));
    const runs: PoolRun[] = [];
    for (const n of [1, 2, 4]) {
      log(`${n} runner${n === 1 ? '' : 's'}`);
      runs.push(await withRunners(n, (r) => runOnPool(lab, bugs, opts.samples, model.baseURL, r, log)));
    }
    const cellMs = runs.flatMap((r) => r.cell_ms);
    const validationMs = runs.flatMap((r) => r.validation_ms);
    log('simulation: 100 runners');
    const simulation = simulateDispatch({ runners: 100, capacity: 2, bugs: 835, perBug: 40, cellMs, medianValidationMs: median(validationMs) });
    return { bugs, samples: opts.samples, runs, simulation };
  } finally {
    await model.close();
    await rm(home, { recursive: true, force: true });
  }
}

export function poolBenchText(r: PoolBenchResult): string {
  const row = (label: string, cells: string[]) => `${label.padEnd(26)}${cells.map((c) => c.padStart(14)).join('')}`;
  const s = r.simulation;
  return [
    `${r.bugs.length} bundled bugs × ${r.samples} samples (one-shot, instant model replies), each runner capacity 2`,
    row('', r.runs.map((x) => `${x.runners} runner${x.runners === 1 ? '' : 's'}`)),
    row('cells (plausible)', r.runs.map((x) => `${x.cells} (${x.plausible})`)),
    row('wall time', r.runs.map((x) => `${(x.wall_ms / 1000).toFixed(1)} s`)),
    row('cells / min', r.runs.map((x) => x.cells_per_minute.toFixed(1))),
    row('validations / min', r.runs.map((x) => x.validations_per_minute.toFixed(1))),
    row('ratio to 1 runner', r.runs.map((x) => `${(x.cells_per_minute / r.runs[0]!.cells_per_minute).toFixed(2)}×`)),
    '',
    `simulation: ${s.runners} runners × capacity ${s.capacity}, ${s.bugs} bugs × ${s.cells / s.bugs} cells = ${s.cells} cells (measured cell times)`,
    `  coordinator per dispatched cell: ${s.overhead_us_per_dispatch.toFixed(1)} µs; median validation ${s.median_validation_ms.toFixed(0)} ms → ${(s.overhead_share * 100).toFixed(4)}% (goal < 1%)`,
    `  places busy (virtual time): ${(s.utilisation * 100).toFixed(1)}%`,
  ].join('\n');
}
