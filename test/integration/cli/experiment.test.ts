// `repairlab experiment` as a user runs it: a real CLI process, the real runner (javac/JUnit in the sandbox), and a
// real OpenAI-compatible HTTP endpoint playing the model. The endpoint's replies depend on the bug, the turn, the
// temperature and the seed, so the three variants differ; it rate-limits one cell, and holds the second call of one
// bug's cells until the CLI is killed. The resumed experiment must run every cell exactly once and report the counts
// worked out by hand below.
import { execFile, spawn } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner } from '../../../runner/src/index.ts';

const BUGS = ['textkit-1', 'textkit-2', 'textkit-3', 'textkit-4'];
let home: string;
let runner: Awaited<ReturnType<typeof startRunner>>;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', ['bin/repairlab.mjs', ...args], { env: { ...process.env, REPAIRLAB_HOME: home }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const viaRunner = () => ['--runner', runner.url, '--token', runner.token];
const readJsonDir = async <T,>(dir: string): Promise<T[]> => {
  const names = await readdir(join(home, 'records', dir)).catch(() => [] as string[]);
  return Promise.all(names.filter((n) => n.endsWith('.json')).map(async (n) => JSON.parse(await readFile(join(home, 'records', dir, n), 'utf8')) as T));
};

interface Cell {
  index: number;
  bugId: string;
  variant: string;
  sample: number;
  status: string;
  runId?: string;
  attempts: { runId?: string }[];
}

/** The model: replies by bug, turn, temperature and seed (see the table in the test). */
class LabModel {
  server!: Server;
  baseURL = '';
  answered = 0;
  rateLimited = 0;
  /** requests held unanswered while `holdBug` is set (the CLI is killed waiting for them) */
  held: ServerResponse[] = [];
  holdBug: string | undefined = 'textkit-3';
  fixes = new Map<string, string>();

  async start(): Promise<void> {
    for (const id of BUGS) {
      const spec = JSON.parse(await readFile(`public/benchmarks/bugs/${id}.json`, 'utf8')) as { groundTruth: { patch: string } };
      this.fixes.set(id, spec.groundTruth.patch);
    }
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => this.answer(req.url ?? '', body, res));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  private answer(url: string, body: string, res: ServerResponse): void {
    if (!url.endsWith('/chat/completions')) return void res.writeHead(404).end();
    const req = JSON.parse(body) as { messages: { role: string; content: string }[]; temperature?: number; seed?: number };
    const bug = /# Bug (\S+):/.exec(req.messages.find((m) => m.role === 'user')!.content)![1]!;
    const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
    const warm = (req.temperature ?? 0) > 0;
    // the first four tries of one warm cell are rate-limited (the provider's own three retries, then the cell's)
    if (bug === 'textkit-1' && warm && req.seed === 2 && turn === 1 && this.rateLimited < 4) {
      this.rateLimited++;
      return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit' } }));
    }
    if (bug === this.holdBug && turn === 2) return void this.held.push(res);
    const fix = `The fix.\n\n\`\`\`diff\n${this.fixes.get(bug)!}\`\`\``;
    const bad = '```diff\n--- a/src/main/java/org/repairlab/textkit/Strings.java\n+++ b/src/main/java/org/repairlab/textkit/Strings.java\n@@ -1,1 +1,1 @@\n-this line is not in the file\n+nor is this one\n```';
    let reply: string;
    if (!warm) reply = turn >= 3 || (turn === 2 && req.seed !== 3) ? fix : bad;
    else if (bug === 'textkit-4') reply = 'I am not sure where the bug is.';
    else reply = turn >= 2 || req.seed !== 3 ? fix : bad;
    this.answered++;
    const chunk = (payload: object) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'lab-model', ...payload })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(
      chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: reply }, finish_reason: null }] }) +
        chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
        chunk({ choices: [], usage: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 } }) +
        'data: [DONE]\n\n',
    );
  }

  async close(): Promise<void> {
    for (const r of this.held) r.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

let model: LabModel;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'repairlab-experiment-'));
  runner = await startRunner({ port: 0 });
  model = new LabModel();
  await model.start();
});
afterAll(async () => {
  await model?.close();
  await runner?.close();
});

describe('repairlab experiment', () => {
  it('4 bugs × 3 variants × 3 samples: killed mid-way and resumed, every cell runs once and the report matches the hand count', async () => {
    const spec = {
      schemaVersion: 1,
      name: 'kill-and-resume',
      bugs: BUGS,
      variants: [
        { name: 'one-try', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } },
        { name: 'three-tries', preset: 'oneshot' },
        { name: 'warm', preset: 'oneshot', overrides: { sampling: { temperature: 0.7 } } },
      ],
      samples: 3,
      model: { provider: 'custom', baseURL: model.baseURL, model: 'lab-model', seeds: [1, 2, 3] },
      prices: { 'lab-model': { inputPerMTok: 1, outputPerMTok: 10 } },
      concurrency: { modelCalls: 4, validations: 4 },
      retries: { maxAttempts: 3, backoffMs: 50 },
    };
    const specFile = join(home, 'spec.json');
    await writeFile(specFile, JSON.stringify(spec));

    // cells in order: textkit-1 0–8, textkit-2 9–17, textkit-3 18–26 (one-try 18–20, three-tries 21–23, warm 24–26),
    // textkit-4 27–35. textkit-3's second calls are held: three-tries 21–23 and warm #3 (26) wait in the four slots.
    const child = spawn('node', ['bin/repairlab.mjs', 'experiment', 'run', specFile, ...viaRunner()], { env: { ...process.env, REPAIRLAB_HOME: home }, stdio: ['ignore', 'ignore', 'pipe'] });
    let progress = '';
    child.stderr!.on('data', (d: Buffer) => (progress += d.toString()));
    const heldRuns = async () => {
      const running = (await readJsonDir<Cell>('experiment-cells')).filter((c) => c.status === 'running');
      const steps = await Promise.all(running.map(async (c) => (c.runId ? ((await readJsonDir<{ runId: string; stepCount: number }>('trajectories')).find((t) => t.runId === c.runId)?.stepCount ?? 0) : 0)));
      return { running, recorded: steps.every((n) => n === 1) };
    };
    /** waits for `check`, failing at once (with the CLI's output) if the CLI exits first */
    const until = async (what: string, check: () => boolean | Promise<boolean>) => {
      for (const deadline = performance.now() + 180_000; !(await check()); ) {
        if (child.exitCode !== null || performance.now() > deadline) throw new Error(`${what}: not reached (CLI exit code ${child.exitCode})\n${progress}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await until('four second calls held', () => model.held.length === 4);
    await until('their first steps recorded', async () => (await heldRuns()).recorded);
    const beforeKill = (await heldRuns()).running;
    expect(beforeKill.map((c) => c.index).sort((a, b) => a - b), progress).toEqual([21, 22, 23, 26]);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const id = /^experiment (exp-\S+):/m.exec(progress)?.[1];
    expect(id, progress).toBeDefined();
    const doneBeforeKill = (await readJsonDir<Cell>('experiment-cells')).filter((c) => c.status !== 'running').length;
    expect(doneBeforeKill).toBe(23);

    const listed = JSON.parse((await cli(['experiments', '--json'])).stdout) as { id: string; status: string; done: number }[];
    expect(listed.find((e) => e.id === id)).toMatchObject({ status: 'running', done: 23 });

    // the model answers everything from now on
    model.holdBug = undefined;
    for (const r of model.held.splice(0)) r.destroy();
    const resumed = await cli(['experiment', 'run', '--resume', id!, ...viaRunner(), '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    for (const c of beforeKill) expect(resumed.stderr).toContain(`(continuing run ${c.runId})`);

    // every cell ran exactly once: one counted run each, the interrupted ones under their old ids, and no other run
    // recorded but the rate-limited cell's first attempt
    const cells = (await readJsonDir<Cell>('experiment-cells')).sort((a, b) => a.index - b.index);
    expect(cells.map((c) => c.index)).toEqual([...Array(36).keys()]);
    expect(cells.every((c) => c.runId)).toBe(true);
    for (const c of beforeKill) expect(cells[c.index]!.runId).toBe(c.runId);
    const attempts = cells.flatMap((c) => c.attempts.map((a) => a.runId));
    expect(cells.filter((c) => c.attempts.length).map((c) => [c.index, c.attempts.length])).toEqual([[7, 1]]);
    const trajectories = await readJsonDir<{ runId: string; status: string }>('trajectories');
    expect(trajectories.map((t) => t.runId).sort()).toEqual([...cells.map((c) => c.runId), ...attempts].sort());
    expect(trajectories.every((t) => t.status === 'finished')).toBe(true);
    // every answered call is in exactly one run's steps: none was made twice
    expect(model.answered).toBe(61);

    // Worked out by hand from the model's table:
    //   one-try (1 step): turn 1 is always a patch that does not apply → 12 × budget, 12 calls
    //   three-tries: seeds 1, 2 fixed at turn 2, seed 3 at turn 3 → 12 plausible, (2 + 2 + 3) × 4 = 28 calls
    //   warm: textkit-1..3 seeds 1, 2 fixed at turn 1, seed 3 at turn 2 → 9 plausible, 4 × 3 = 12 calls;
    //         textkit-4 three replies without a diff → 3 × not-plausible, 9 calls → 21 calls
    //   each call: 1000 input tokens at $1/M + 100 output tokens at $10/M = $0.002
    const report = JSON.parse(resumed.stdout) as { experiment: { status: string; cells: number }; variants: { variant: string; plausibleAt1: number; plausible: number; bugsFixed: number; statuses: Record<string, number>; costUsd: number; calls: number }[] };
    expect(report.experiment).toMatchObject({ status: 'finished', cells: 36 });
    const rows = Object.fromEntries(report.variants.map((r) => [r.variant, r]));
    expect(rows['one-try']).toMatchObject({ plausibleAt1: 0, plausible: 0, bugsFixed: 0, calls: 12, statuses: { plausible: 0, 'not-plausible': 0, budget: 12, 'infrastructure-error': 0, 'not-run': 0 } });
    expect(rows['three-tries']).toMatchObject({ plausibleAt1: 1, plausible: 12, bugsFixed: 4, calls: 28, statuses: { plausible: 12, 'not-plausible': 0, budget: 0, 'infrastructure-error': 0, 'not-run': 0 } });
    expect(rows.warm).toMatchObject({ plausibleAt1: 0.75, plausible: 9, bugsFixed: 3, calls: 21, statuses: { plausible: 9, 'not-plausible': 3, budget: 0, 'infrastructure-error': 0, 'not-run': 0 } });
    expect(rows['one-try']!.costUsd).toBeCloseTo(0.024, 10);
    expect(rows['three-tries']!.costUsd).toBeCloseTo(0.056, 10);
    expect(rows.warm!.costUsd).toBeCloseTo(0.042, 10);

    // the same counts as CSV and Markdown; the metrics and statistics say they are not computed yet
    const csv = (await cli(['experiment', 'report', id!, '--csv'])).stdout.trim().split('\n');
    expect(csv[0]).toBe('variant,preset,cells,plausible@1,first_samples,plausible,bugs_fixed,plausible,not-plausible,budget,infrastructure-error,not-run,cost_usd,calls');
    expect(csv[3]).toMatch(/^warm,oneshot,12,0\.75,4,9,3,9,3,0,0,0,0\.04\d*,21$/);
    const md = (await cli(['experiment', 'report', id!, '--md'])).stdout;
    expect(md).toContain('| three-tries | oneshot | 12 | 1 | 4 | 12 | 4 | 12 | 0 | 0 | 0 | 0 | 0.0560 | 28 |');
    expect(md).toMatch(/Statistics: not computed/);

    // predictions: one line per cell, the plausible ones carry the developers' fix
    const preds = (await cli(['experiment', 'export', id!, '--preds'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { instance_id: string; model_name_or_path: string; model_patch: string });
    expect(preds).toHaveLength(36);
    const first = preds.find((p) => p.model_name_or_path === `lab-model/${id}/three-tries/sample-0` && p.instance_id === 'textkit-2')!;
    expect(first.model_patch).toContain('Slugs.java');
    expect(preds.filter((p) => p.model_name_or_path.includes('/one-try/')).every((p) => p.model_patch === '')).toBe(true);
  }, 300_000);

  it('a spec with a key, an unknown field or an unknown bug is refused before anything runs, naming the field', async () => {
    const base = { schemaVersion: 1, bugs: ['textkit-1'], variants: [{ name: 'a', preset: 'oneshot' }], samples: 1, model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'm' } };
    const experimentsBefore = (await readJsonDir('experiments')).length;
    const attempt = async (spec: unknown) => {
      const file = join(home, `bad-${Math.random().toString(36).slice(2)}.json`);
      await writeFile(file, JSON.stringify(spec));
      return cli(['experiment', 'run', file, ...viaRunner()]);
    };
    const keyed = await attempt({ ...base, model: { ...base.model, apiKey: 'sk-abcdefghijklmnop' } });
    expect(keyed.code).toBe(1);
    expect(keyed.stderr).toMatch(/model\.apiKey looks like a key field.*never holds keys/);
    expect(keyed.stderr).not.toContain('sk-abcdefghijklmnop');
    const typo = await attempt({ ...base, sampels: 3 });
    expect(typo.stderr).toMatch(/unknown field "sampels"/);
    const unknownBug = await attempt({ ...base, bugs: ['textkit-9'] });
    expect(unknownBug.stderr).toMatch(/no bug "textkit-9" \(nearest: "textkit-\d"\)/);
    const unpriced = await attempt({ ...base, budgets: { experiment: { costUsd: 1 } } });
    expect(unpriced.stderr).toMatch(/model "m" has no price.*budgets\.unpricedModel/);
    // none of them was recorded
    expect((await readJsonDir('experiments')).length).toBe(experimentsBefore);
  }, 60_000);
});
