// `repairlab experiment` as a user runs it: a real CLI process, the real runner (javac/JUnit in the sandbox), and a
// real OpenAI-compatible HTTP endpoint playing the model. The endpoint's replies depend on the bug, the turn, the
// temperature and the seed, so the three variants differ; it rate-limits one cell, and holds the second call of one
// bug's cells until the CLI is killed. The resumed experiment must run every cell exactly once and report the counts,
// metrics (plausible@k, #unique pass, …) and test statistics (Cochran's Q, McNemar, Friedman, Wilcoxon) worked out by
// hand below.
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

interface FullReport {
  metrics: { computed: true; result: { ks: number[]; excludedCells: object; summary: ({ variant: string; category: string; steps: Record<string, unknown> } & Record<string, unknown>)[] } };
  statistics: {
    computed: true;
    result: {
      plausibility: { category: string; statistic: number; pvalue: number; pairwise: { first: string; second: string; firstOnly: number; secondOnly: number; pvalue: number; bonferroni: number; holm: number; significant: boolean }[] }[];
      measures: { category: string; metric: string; set: string; statistic: number; pvalue: number; kendallW: number; pairwise: { first: string; second: string; pvalue: number; bonferroni: number }[] }[];
    };
  };
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

    // the same counts as CSV and Markdown; the Markdown also holds the metrics and the statistics tables
    const csv = (await cli(['experiment', 'report', id!, '--csv'])).stdout.trim().split('\n');
    expect(csv[0]).toBe('variant,preset,cells,attempted,unfinished,plausible@1,first_samples,first_samples_in_error,plausible,bugs_fixed,bugs_attempted,status: plausible,status: not-plausible,status: budget,status: infrastructure-error,status: not-run,complete,cost_usd,calls');
    expect(csv[3]).toMatch(/^warm,oneshot,12,12,0,0\.75,4,0,9,3,4,9,3,0,0,0,yes,0\.04\d*,21$/);
    const md = (await cli(['experiment', 'report', id!, '--md'])).stdout;
    expect(md).toContain('| three-tries | oneshot | 12 | 12 | 0 | 1 | 4 | 0 | 12 | 4 | 4 | 12 | 0 | 0 | 0 | 0 | yes | 0.0560 | 28 |');
    expect(md).toContain('- **warm**: plausible@1 = 0.75 (3 of 4 bugs) · bugs fixed = 3 of 4 bugs attempted · plausible cells = 9 of 12 attempted');
    expect(md).toContain("### Steps and cost (HAFixAgent's Table 5)");
    expect(md).toMatch(/\| all \| cochran \| 12 \| 19\.5000 \| 5\.83e-5 \| one-try vs three-tries \| 0 \| 12 \|/);

    // The metrics, by hand from the same table (categories: textkit-1, -2 SL; -3 SH; -4 MFMH). The fix replies are the
    // developers' patch, so every plausible run is also an exact and AST match (valid). ks = 1 and the 3 samples.
    const full = JSON.parse(resumed.stdout) as FullReport;
    expect(full.metrics.computed && full.statistics.computed).toBe(true);
    const summary = (variant: string, category: string) => full.metrics.result.summary.find((s) => s.variant === variant && s.category === category)!;
    expect(full.metrics.result.ks).toEqual([1, 3]);
    expect(full.metrics.result.excludedCells).toEqual({ 'infrastructure-error': 0, 'not-run': 0, running: 0, 'missing-run': 0 });
    expect(summary('one-try', 'all')).toMatchObject({ bugs: 4, trajectories: 12, pass: 0, uniquePass: 0, plausibleAt1: 0, plausibleAtK: { 1: 0, 3: 0 }, validAtK: { 1: 0, 3: 0 }, exactMatchBugs: 0 });
    // three-tries alone fixes textkit-4: its one unique pass
    expect(summary('three-tries', 'all')).toMatchObject({ pass: 4, uniquePass: 1, plausibleAt1: 1, plausibleAtK: { 1: 1, 3: 1 }, validAtK: { 3: 1 }, exactMatchBugs: 4, astMatchBugs: 4 });
    // warm: (1 + 1 + 1 + 0) / 4 for plausible@1 and @3 alike (each bug is all or nothing)
    expect(summary('warm', 'all')).toMatchObject({ pass: 3, uniquePass: 0, plausibleAt1: 0.75, plausibleAtK: { 1: 0.75, 3: 0.75 }, validAtK: { 3: 0.75 }, exactMatchBugs: 3, astMatchBugs: 3 });
    expect(summary('three-tries', 'MFMH')).toMatchObject({ bugs: 1, pass: 1, uniquePass: 1 });
    expect(summary('warm', 'SL')).toMatchObject({ bugs: 2, pass: 2, uniquePass: 0, plausibleAt1: 1 });
    // steps by outcome: three-tries' runs take 2, 2, 3 steps per bug; warm's failures (textkit-4) take 3
    expect(summary('three-tries', 'all').steps.success).toEqual({ n: 12, mean: 28 / 12, median: 2 });
    expect(summary('warm', 'all').steps.failure).toEqual({ n: 3, mean: 3, median: 3 });

    // The statistics, by hand. Plausibility rows are (bug, sample) with the variants' 0/1 outcomes:
    //   textkit-1..3 × 3 samples: [0, 1, 1] (9 rows); textkit-4 × 3: [0, 1, 0] (3 rows).
    // Cochran's Q = (k−1)(k·ΣC² − N²)/(k·N − ΣR²) with k = 3, column sums C = 0, 12, 9, N = 21, ΣR² = 9·4 + 3·1 = 39:
    //   Q = 2·(3·225 − 441)/(63 − 39) = 468/24 = 19.5; χ²(2) survival = e^(−Q/2).
    const plaus = (category: string) => full.statistics.result.plausibility.find((r) => r.category === category)!;
    expect(plaus('all')).toMatchObject({ test: 'cochran', n: 12, bugs: 4, successes: [0, 12, 9], significant: true });
    expect(plaus('all').statistic).toBeCloseTo(19.5, 12);
    expect(plaus('all').pvalue).toBeCloseTo(Math.exp(-19.5 / 2), 15);
    // McNemar exact per pair: one-try vs three-tries b = 0, c = 12 → 2·½¹²; one-try vs warm b = 0, c = 9 → 2·½⁹;
    // three-tries vs warm b = 3, c = 0 → 2·½³. Bonferroni ×3; Holm ×3, ×2, ×1 in order of p.
    const pairs = plaus('all').pairwise;
    expect(pairs.map((p) => [p.first, p.second, p.firstOnly, p.secondOnly])).toEqual([['one-try', 'three-tries', 0, 12], ['one-try', 'warm', 0, 9], ['three-tries', 'warm', 3, 0]]);
    const closeAll = (got: number[], want: number[]) => got.forEach((g, i) => expect(g).toBeCloseTo(want[i]!, 12));
    closeAll(pairs.map((p) => p.pvalue), [2 / 4096, 2 / 512, 2 / 8]);
    closeAll(pairs.map((p) => p.bonferroni), [6 / 4096, 6 / 512, 0.75]);
    closeAll(pairs.map((p) => p.holm), [6 / 4096, 4 / 512, 0.25]);
    expect(pairs.map((p) => p.significant)).toEqual([true, true, false]);
    // per category: SL 6 rows [0,1,1] → Q = 2·(3·72 − 144)/(36 − 24) = 12; SH 3 rows [0,1,1] → Q = 6; MFMH 3 rows [0,1,0] → Q = 6
    expect(plaus('SL').statistic).toBeCloseTo(12, 12);
    expect(plaus('SL').pvalue).toBeCloseTo(Math.exp(-6), 15);
    expect([plaus('SH').statistic, plaus('MFMH').statistic]).toEqual([6, 6]);
    // Table 5. No bug is fixed by every variant (one-try fixes none), so the matched set is empty.
    const measure = (category: string, metric: string, set: string) => full.statistics.result.measures.find((r) => r.category === category && r.metric === metric && r.set === set)!;
    expect(measure('all', 'steps', 'fixed-by-all')).toMatchObject({ n: 0, pvalue: null, reading: 'not computed: no bug was fixed by every variant' });
    // Over all bugs, mean steps per bug: one-try 1; three-tries (2+2+3)/3 = 7/3; warm (1+1+2)/3 = 4/3 on textkit-1..3,
    // 3 on textkit-4. Ranks within bugs: [1, 3, 2] ×3 and [1, 2, 3] → rank sums 4, 11, 9;
    // Friedman χ² = 12/(n·k·(k+1))·ΣR² − 3n(k+1) = 12/48·218 − 48 = 6.5, p = e^(−3.25) ≈ 0.0388 < 0.05; W = 6.5/(4·2).
    // Cost is calls × $0.002, so it ranks the same way.
    for (const metric of ['steps', 'cost']) {
      const row = measure('all', metric, 'all-bugs');
      expect(row).toMatchObject({ test: 'friedman', n: 4, significant: true });
      expect(row.statistic).toBeCloseTo(6.5, 12);
      expect(row.pvalue).toBeCloseTo(Math.exp(-3.25), 12);
      expect(row.kendallW).toBeCloseTo(0.8125, 12);
      // post-hoc one-try vs three-tries: four equal differences (tied) → normal approximation, T = 0, mean 5,
      // variance (4·5·9 − (4³ − 4)/2)/24 = 6.25, z = −2, p = 2Φ(−2) = 0.0455002638963584 (tables), Bonferroni ×3
      expect(row.pairwise[0]).toMatchObject({ first: 'one-try', second: 'three-tries', significant: false });
      expect(row.pairwise[0]!.pvalue).toBeCloseTo(0.0455002638963584, 12);
      expect(row.pairwise[0]!.bonferroni).toBeCloseTo(3 * 0.0455002638963584, 12);
    }
    // the per-cell CSV: one row per cell with its run's numbers
    const cellCsv = (await cli(['experiment', 'report', id!, '--csv', '--table', 'cells'])).stdout.trim().split('\n');
    expect(cellCsv).toHaveLength(37);
    expect(cellCsv[0]).toMatch(/^index,bug,category,variant,sample,status,run,plausible,exact_match,ast_match,steps,tokens,cost_usd,wall_ms,llm_calls,NO_TEST/);
    expect(cellCsv[22]).toMatch(new RegExp(`^21,textkit-3,SH,three-tries,0,plausible,${cells[21]!.runId},true,true,true,2,2200,0\\.004\\d*,`));

    // predictions: one line per cell, the plausible ones carry the developers' fix
    const preds = (await cli(['experiment', 'export', id!, '--preds'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { instance_id: string; model_name_or_path: string; model_patch: string });
    expect(preds).toHaveLength(36);
    const first = preds.find((p) => p.model_name_or_path === `lab-model/${id}/three-tries/sample-0` && p.instance_id === 'textkit-2')!;
    expect(first.model_patch).toContain('Slugs.java');
    expect(preds.filter((p) => p.model_name_or_path.includes('/one-try/')).every((p) => p.model_patch === '')).toBe(true);

    // per bug: plausible, attempted and in-error samples per variant, as the cell records say
    const bugCsv = (await cli(['experiment', 'export', id!, '--csv', 'bugs'])).stdout.trim().split('\n');
    expect(bugCsv[0]).toBe('bug,one-try plausible,one-try attempted,one-try in error,three-tries plausible,three-tries attempted,three-tries in error,warm plausible,warm attempted,warm in error');
    for (const [n, bug] of ['textkit-1', 'textkit-2', 'textkit-3', 'textkit-4'].entries()) {
      const count = (variant: string, statuses: string[]) => cells.filter((c) => c.bugId === bug && c.variant === variant && statuses.includes(c.status)).length;
      expect(bugCsv[n + 1]).toBe(
        [bug, ...['one-try', 'three-tries', 'warm'].flatMap((v) => [count(v, ['plausible']), count(v, ['plausible', 'not-plausible', 'budget', 'infrastructure-error']), count(v, ['infrastructure-error'])])].join(','),
      );
    }
    expect((await cli(['experiment', 'export', id!, '--csv', 'rows'])).stderr).toMatch(/--csv rows: use --csv cells .* or --csv bugs/);
    // the self-contained report: one file, no script, nothing fetched, the variants' plausible counts as in the JSON report
    const htmlFile = join(home, 'report.html');
    expect((await cli(['experiment', 'report', id!, '--html', '--out', htmlFile])).code).toBe(0);
    const page = await readFile(htmlFile, 'utf8');
    expect(page).toMatch(/^<!doctype html>/i);
    expect(page).not.toMatch(/<script|\ssrc=|href="(?!#)/i);
    for (const v of ['one-try', 'three-tries', 'warm']) expect(page).toContain(v);
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
