// A pool as a user runs one, on any engine: `repairlab pool up` starts two real runners (bwrap, javac/JUnit), an
// experiment runs across them through the real CLI and a real OpenAI-compatible endpoint on 127.0.0.1, and the engine
// ends one runner (its process group killed, its Slurm job scancelled) while a cell waits for its model's reply. The
// cell's run must go on on the other runner (its validations say so), every cell must run exactly once, the verdicts
// must equal a one-runner run's, the ended runner must be started again in its place, and `pool down` must leave no
// runner, job or directory behind.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmod, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';

const BUGS = ['textkit-1', 'textkit-2', 'textkit-3', 'textkit-4'];
let home: string;

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', ['bin/repairlab.mjs', ...args], { env: { ...process.env, REPAIRLAB_HOME: home, ...env }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const readJsonDir = async <T,>(dir: string): Promise<T[]> => {
  const names = await readdir(join(home, 'records', dir)).catch(() => [] as string[]);
  return Promise.all(names.filter((n) => n.endsWith('.json')).map(async (n) => JSON.parse(await readFile(join(home, 'records', dir, n), 'utf8')) as T));
};
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface Cell {
  experimentId: string;
  index: number;
  bugId: string;
  status: string;
  runId?: string;
  runnerId?: string;
  startedAt: string;
  attempts: unknown[];
}
interface Pool {
  runners: { id: string; url: string; job: { id: string } }[];
}

/** The model: a patch that does not apply first, then the developers' fix — except textkit-4, which never gets one. */
class LabModel {
  server!: Server;
  baseURL = '';
  fixes = new Map<string, string>();
  /** textkit-3's first sample: its second call is held until the test releases it */
  held: ServerResponse | undefined;
  holding = true;

  async start(): Promise<void> {
    for (const id of BUGS) {
      const spec = JSON.parse(await readFile(`public/benchmarks/bugs/${id}.json`, 'utf8')) as { groundTruth: { patch: string } };
      this.fixes.set(id, spec.groundTruth.patch);
    }
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const r = JSON.parse(body) as { messages: { role: string; content: string }[]; seed?: number };
        const bug = /# Bug (\S+):/.exec(r.messages.find((m) => m.role === 'user')!.content)![1]!;
        const turn = r.messages.filter((m) => m.role === 'assistant').length + 1;
        if (bug === 'textkit-3' && r.seed === 1 && turn === 2 && this.holding) {
          this.holding = false;
          this.held = res;
          return;
        }
        this.reply(res, bug, turn);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  reply(res: ServerResponse, bug: string, turn: number): void {
    const bad = '```diff\n--- a/src/main/java/org/repairlab/textkit/Strings.java\n+++ b/src/main/java/org/repairlab/textkit/Strings.java\n@@ -1,1 +1,1 @@\n-this line is not in the file\n+nor is this one\n```';
    const content = bug === 'textkit-4' ? 'I am not sure where the bug is.' : turn >= 2 ? `The fix.\n\n\`\`\`diff\n${this.fixes.get(bug)!}\`\`\`` : bad;
    const chunk = (payload: object) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'lab-model', ...payload })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(
      chunk({ choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: null }] }) +
        chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
        chunk({ choices: [], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } }) +
        'data: [DONE]\n\n',
    );
  }

  async close(): Promise<void> {
    this.held?.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

export interface PoolEngineUnderTest {
  /** `pool up` flags: the engine, the runner count (2), capacity */
  upArgs: string[];
  /** ends a runner as its engine would (the descriptor's job id) */
  kill(jobId: string): Promise<void>;
  /** whether nothing of that runner is left */
  gone(jobId: string): Promise<boolean>;
}

/** The whole scenario (module comment) on one engine; `pool down` is run again by `cleanUp` after a failure. */
export async function poolScenario(engine: PoolEngineUnderTest): Promise<void> {
  home = await mkdtemp(join(tmpdir(), 'repairlab-pool-'));
  // as root, bwrap runs validations as nobody, who must pass through to the runners' data directories
  await chmod(home, 0o711);
  model = new LabModel();
  await model.start();
  try {
      const up = await cli(['pool', 'up', ...engine.upArgs, '--name', 'lab']);
      expect(up.code, up.stderr).toBe(0);
      const poolFile = join(home, 'pools', 'lab', 'pool.json');
      const before = JSON.parse(await readFile(poolFile, 'utf8')) as Pool;
      expect(before.runners.map((r) => r.id)).toEqual(['runner-1', 'runner-2']);
      // the descriptor names where the token is, never the token
      const token = (await readFile(join(home, 'pools', 'lab', 'token'), 'utf8')).trim();
      expect(await readFile(poolFile, 'utf8')).not.toContain(token);
      expect((await stat(join(home, 'pools', 'lab', 'token'))).mode & 0o777).toBe(0o600);
      const status = await cli(['pool', 'status', '--name', 'lab']);
      expect(status.stdout.match(/answers · isolation bwrap/g), status.stdout + status.stderr).toHaveLength(2);

      const spec = {
        schemaVersion: 1,
        name: 'pool',
        bugs: BUGS,
        variants: [{ name: 'three-tries', preset: 'oneshot' }],
        samples: 2,
        model: { provider: 'custom', baseURL: model.baseURL, model: 'lab-model', seeds: [1, 2] },
        prices: { 'lab-model': { inputPerMTok: 1, outputPerMTok: 10 } },
        concurrency: { modelCalls: 4, validations: 2 },
        retries: { maxAttempts: 2, backoffMs: 50 },
      };
      const specFile = join(home, 'spec.json');
      await writeFile(specFile, JSON.stringify(spec));
      const child = spawn('node', ['bin/repairlab.mjs', 'experiment', 'run', specFile, '--pool', 'lab', '--json'], { env: { ...process.env, REPAIRLAB_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let progress = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (progress += d.toString()));
      const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
      for (const deadline = performance.now() + 240_000; !model.held; ) {
        if (child.exitCode !== null || performance.now() > deadline) throw new Error(`textkit-3's second call never came\n${progress}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // the held cell's runner: the one its cell record names
      const heldCell = (await readJsonDir<Cell>('experiment-cells')).find((c) => c.bugId === 'textkit-3' && c.status === 'running' && c.index === 4)!;
      expect(heldCell?.runnerId, progress).toMatch(/^runner-[12]$/);
      const victim = before.runners.find((r) => r.id === heldCell.runnerId)!;
      const survivor = before.runners.find((r) => r.id !== heldCell.runnerId)!;
      const killedAt = new Date().toISOString();
      await engine.kill(victim.job.id);
      model.reply(model.held!, 'textkit-3', 2);
      expect(await exited, progress).toBe(0);

      const cells = (await readJsonDir<Cell>('experiment-cells')).sort((a, b) => a.index - b.index);
      // the cell goes on on the other runner, or on the lost runner's replacement when that answered first (Slurm can
      // start it within seconds); either way once
      const movedTo = cells[4]!.runnerId === victim.id ? 'replacement' : 'survivor';
      expect(progress).toContain(movedTo === 'survivor' ? `move textkit-3 three-tries #1 from ${victim.id} to ${survivor.id}` : `move textkit-3 three-tries #1 to ${victim.id}'s replacement`);
      expect(cells.map((c) => c.index)).toEqual([...Array(8).keys()]);
      // exactly once: one run per cell, no attempt spent on the lost runner, no other run recorded
      expect(cells.filter((c) => !c.runId || c.attempts.length > 0).map((c) => `${c.index} ${c.bugId} ${c.status}: ${JSON.stringify(c.attempts)}`), progress).toEqual([]);
      const trajectories = await readJsonDir<{ runId: string; status: string; steps: { verdict?: { runner?: string } }[]; outcome?: { recheck?: { runner?: string } } }>('trajectories');
      expect(trajectories.map((t) => t.runId).sort()).toEqual(cells.map((c) => c.runId).sort());
      // the moved cell's record says where it ended; its run's validations say which runner served each
      expect([survivor.id, victim.id]).toContain(cells[4]!.runnerId);
      const moved = trajectories.find((t) => t.runId === cells[4]!.runId)!;
      const replacementUrl = async () => (JSON.parse(await readFile(poolFile, 'utf8')) as Pool).runners.find((r) => r.id === victim.id)!.url;
      expect(moved.outcome?.recheck?.runner).toBe(movedTo === 'survivor' ? survivor.url : await replacementUrl());
      // bug affinity: the cells of a bug dispatched while both runners lived, none moved, are on one runner (once its
      // runner is lost a bug's later cells rightly go elsewhere)
      const movedBugs = new Set([...progress.matchAll(/^move (\S+) /gm)].map((m) => m[1]));
      const settled = BUGS.filter((b) => !movedBugs.has(b) && cells.filter((c) => c.bugId === b).every((c) => c.startedAt < killedAt));
      for (const bug of settled) expect(new Set(cells.filter((c) => c.bugId === bug).map((c) => c.runnerId)).size, `${bug}\n${progress}`).toBe(1);
      const pooled = cells.map((c) => `${c.index} ${c.bugId} ${c.status}`);

      // the killed runner was started again in its place (its engine ended it while the experiment ran)
      const after = JSON.parse(await readFile(poolFile, 'utf8')) as Pool;
      expect(after.runners.find((r) => r.id === victim.id)!.job.id).not.toBe(victim.job.id);
      const again = await cli(['pool', 'status', '--name', 'lab']);
      expect(again.stdout.match(/answers · isolation bwrap/g), again.stdout + again.stderr).toHaveLength(2);

      // the same spec on one runner: the same verdicts
      const one = await cli(['experiment', 'run', specFile, '--runner', survivor.url, '--token', token, '--json']);
      expect(one.code, one.stderr).toBe(0);
      const oneId = (JSON.parse(one.stdout) as { experiment: { id: string } }).experiment.id;
      const single = (await readJsonDir<Cell>('experiment-cells')).filter((c) => c.experimentId === oneId).sort((a, b) => a.index - b.index);
      expect(single.map((c) => `${c.index} ${c.bugId} ${c.status}`)).toEqual(pooled);
      expect(pooled.filter((c) => c.endsWith(' plausible'))).toHaveLength(6);

      const down = await cli(['pool', 'down', '--name', 'lab']);
      expect(down.code, down.stderr).toBe(0);
      for (const r of after.runners) expect(await engine.gone(r.job.id), `${r.id} (${r.job.id}) is still there`).toBe(true);
      const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
      expect(ps.split('\n').filter((l) => l.includes(join(home, 'pools')))).toEqual([]);
      await expect(stat(join(home, 'pools', 'lab'))).rejects.toThrow();
  } finally {
    await model.close();
  }
}

/** Stops what a failed scenario left: its pool's runners. */
export async function cleanUp(): Promise<void> {
  if (home) await cli(['pool', 'down', '--name', 'lab']);
}

let model: LabModel;
