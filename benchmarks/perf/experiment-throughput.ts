// Experiment throughput: how well the scheduler keeps the runners busy when the model costs nothing. A scripted model
// over real HTTP on 127.0.0.1 answers every call at once with the bug's developers' fix (the one-shot preset: one
// model call, then the runner validates the patch and re-checks it), so a cell's time is the runner's. Each reply's
// patch carries a unique trailing comment, so the runner's verdict cache (keyed by content) never answers a sample
// for another: every cell is compiled and tested. The same experiment (bundled bugs × samples) runs twice in this
// process, each time on fresh runners: one local runner, then two (the bugs dealt out between them, each bug's cells
// on one runner so its warm JVM is reused).
//
// Busy share, from the runner's point of view: a small HTTP proxy in front of each runner records when each request
// (validations, snapshot and blob uploads; not health checks) arrives and when its response ends. A runner is busy
// while at least one such request is open; busy share = the length of the union of those intervals / the
// experiment's wall time (from `run` to its last cell). A union, not a sum: two validations at once on one runner are
// one busy interval, so the share never exceeds 100%. With two runners the share is given per runner. Goal ≥ 90%.
//
//   repairlab bench experiment-throughput [--bugs 8] [--samples 3] [--json]
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRunner, type RunningRunner } from '../../runner/src/index.ts';
import { createLab, type Lab } from '../../worker/lab.ts';
import { nodeJavaWasm } from '../../worker/java/wasm-files.node.ts';
import { createNodePlatform } from '../../worker/platform/node.ts';

export const BUNDLED_BUGS = ['textkit-1', 'textkit-2', 'textkit-3', 'textkit-4', 'numkit-1', 'numkit-2', 'numkit-3', 'numkit-4', 'csvkit-1', 'csvkit-2', 'csvkit-3', 'csvkit-4', 'collectkit-1', 'collectkit-2', 'collectkit-3', 'collectkit-4'];

export interface ThroughputRun {
  runners: number;
  cells: number;
  plausible: number;
  wall_ms: number;
  cells_per_minute: number;
  /** busy share per runner (union of its open requests / wall time) */
  busy_share: number[];
  /** the same, counting validation requests only */
  validation_share: number[];
}

export interface ThroughputResult {
  bugs: string[];
  samples: number;
  one: ThroughputRun;
  two: ThroughputRun;
  /** two runners' cells per minute over one runner's */
  throughput_ratio: number;
}

/** An OpenAI-compatible endpoint that replies at once, streaming the developers' fix of the bug named in the prompt. */
export async function instantModel(fixes: Map<string, string>): Promise<{ baseURL: string; close(): Promise<void> }> {
  let calls = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (!req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
      const messages = (JSON.parse(body) as { messages: { role: string; content: string }[] }).messages;
      const bug = /# Bug (\S+):/.exec(messages.find((m) => m.role === 'user')?.content ?? '')?.[1] ?? '';
      const reply = `The fix.\n\n\`\`\`diff\n${uniquePatch(fixes.get(bug) ?? '', ++calls)}\`\`\``;
      const chunk = (payload: object) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'instant', ...payload })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: reply }, finish_reason: null }] }) +
          chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
          chunk({ choices: [], usage: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 } }) +
          'data: [DONE]\n\n',
      );
    });
  });
  const url = await listen(server);
  return { baseURL: `${url}/v1`, close: () => closeServer(server) };
}

/** The patch with a comment naming `n` at the end of its first added line: the same fix, a different content hash. */
export function uniquePatch(patch: string, n: number): string {
  const lines = patch.split('\n');
  const i = lines.findIndex((l) => l.startsWith('+') && !l.startsWith('+++'));
  if (i >= 0) lines[i] = `${lines[i]} // call ${n}`;
  return lines.join('\n');
}

/** Length of the union of `intervals` clipped to [from, to]: overlapping requests count once. */
export function unionMs(intervals: readonly { start: number; end: number }[], from: number, to: number): number {
  const spans = intervals
    .map((i) => [Math.max(from, i.start), Math.min(to, i.end)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let reach = -Infinity;
  for (const [a, b] of spans) {
    if (b <= reach) continue;
    total += b - Math.max(a, reach);
    reach = b;
  }
  return total;
}

/** A pass-through proxy to a runner that records each request's open interval (ms since process start). */
class MeteredRunner {
  readonly intervals: { start: number; end: number; validation: boolean }[] = [];
  private server!: Server;
  url = '';

  constructor(readonly runner: RunningRunner) {}

  async start(): Promise<void> {
    const target = new URL(this.runner.url);
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const start = performance.now();
      const metered = !req.url?.startsWith('/v1/health');
      const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        up.on('end', () => metered && this.intervals.push({ start, end: performance.now(), validation: /^\/v1\/validate/.test(req.url ?? '') }));
      });
      upstream.on('error', (e) => res.writeHead(502).end(String(e)));
      req.pipe(upstream);
    });
    this.url = await listen(this.server);
  }

  /** Length of the union of the recorded intervals within [from, to]. */
  busyMs(from: number, to: number, validationOnly = false): number {
    return unionMs(this.intervals.filter((i) => !validationOnly || i.validation), from, to);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

async function runOnce(lab: Lab, bugs: string[], samples: number, baseURL: string, runners: MeteredRunner[], log: (line: string) => void): Promise<ThroughputRun> {
  const { experiments } = lab;
  const record = await experiments.create({
    schemaVersion: 1,
    name: `throughput-${runners.length}`,
    bugs,
    variants: [{ name: 'oneshot', preset: 'oneshot' }],
    samples,
    model: { provider: 'custom', baseURL, model: 'instant' },
    prices: { instant: { inputPerMTok: 0, outputPerMTok: 0 } },
    // enough runs in flight that no runner waits for the scheduler (each runner runs cores-many JVMs)
    concurrency: { modelCalls: 4 * runners.length, validations: 4 },
    runners: runners.map((r) => r.url),
  });
  const start = performance.now();
  const session = await experiments.run(record.id, { runners: runners.map((r) => ({ url: r.url, token: r.runner.token })), onEvent: (e) => e.type === 'cell-finished' && log(`  ${e.cell.bugId} #${e.cell.sample + 1}: ${e.cell.status}`) });
  await session.done;
  const end = performance.now();
  const cells = [...(await experiments.store.cells(record.id)).values()];
  const wall = end - start;
  return {
    runners: runners.length,
    cells: cells.length,
    plausible: cells.filter((c) => c.status === 'plausible').length,
    wall_ms: wall,
    cells_per_minute: (cells.length / wall) * 60_000,
    busy_share: runners.map((r) => r.busyMs(start, end) / wall),
    validation_share: runners.map((r) => r.busyMs(start, end, true) / wall),
  };
}

export async function benchExperimentThroughput(opts: { bugs: number; samples: number; log?: (line: string) => void }): Promise<ThroughputResult> {
  if (opts.bugs > BUNDLED_BUGS.length) throw new Error(`--bugs ${opts.bugs}: there are ${BUNDLED_BUGS.length} bundled bugs; give at most that many.`);
  const log = opts.log ?? (() => undefined);
  const bugs = BUNDLED_BUGS.slice(0, opts.bugs);
  const home = await mkdtemp(join(tmpdir(), 'repairlab-throughput-'));
  const lab = createLab(createNodePlatform({ root: home }), { javaWasm: nodeJavaWasm });
  const { engine } = lab;
  const fixes = new Map<string, string>();
  for (const id of bugs) fixes.set(id, (await engine.catalog.bug(id)).groundTruth.patch ?? '');
  const model = await instantModel(fixes);
  /** fresh runners behind their meters for one configuration, closed after it */
  const withRunners = async <T,>(count: number, use: (runners: MeteredRunner[]) => Promise<T>): Promise<T> => {
    const metered: MeteredRunner[] = [];
    try {
      for (let i = 0; i < count; i++) {
        const m = new MeteredRunner(await startRunner({ port: 0, log: () => undefined }));
        metered.push(m);
        await m.start();
      }
      return await use(metered);
    } finally {
      for (const m of metered) {
        await m.close();
        await m.runner.close();
      }
    }
  };
  try {
    // warm-up, not measured: imports the bundled repositories into the store and builds the runner's harness cache
    log('warm-up (repositories, harness)');
    await withRunners(1, (r) => runOnce(lab, bugs, 1, model.baseURL, r, () => undefined));
    log('one runner');
    const one = await withRunners(1, (r) => runOnce(lab, bugs, opts.samples, model.baseURL, r, log));
    log('two runners');
    const two = await withRunners(2, (r) => runOnce(lab, bugs, opts.samples, model.baseURL, r, log));
    return { bugs, samples: opts.samples, one, two, throughput_ratio: two.cells_per_minute / one.cells_per_minute };
  } finally {
    await model.close();
    await rm(home, { recursive: true, force: true });
  }
}

export function throughputText(r: ThroughputResult): string {
  const pct = (xs: number[]) => xs.map((x) => `${(x * 100).toFixed(1)}%`).join(' + ');
  const row = (label: string, one: string, two: string) => `${label.padEnd(30)}${one.padStart(16)}${two.padStart(22)}`;
  return [
    `${r.bugs.length} bundled bugs × ${r.samples} samples (one-shot, instant model replies)`,
    row('', 'one runner', 'two runners'),
    row('cells', String(r.one.cells), String(r.two.cells)),
    row('plausible', String(r.one.plausible), String(r.two.plausible)),
    row('wall time', `${(r.one.wall_ms / 1000).toFixed(1)} s`, `${(r.two.wall_ms / 1000).toFixed(1)} s`),
    row('runner busy (goal ≥ 90%)', pct(r.one.busy_share), pct(r.two.busy_share)),
    row('  of it validating', pct(r.one.validation_share), pct(r.two.validation_share)),
    row('throughput (cells/min)', r.one.cells_per_minute.toFixed(1), r.two.cells_per_minute.toFixed(1)),
    `throughput ratio two / one runner: ${r.throughput_ratio.toFixed(2)}×`,
  ].join('\n');
}
