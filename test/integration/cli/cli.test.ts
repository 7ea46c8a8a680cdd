// The headless CLI (`npx repairlab …`) as a user runs it: a real child process, the real runner, real javac/JUnit.
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner } from '../../../runner/src/index.ts';
import { startCassetteServer, type CassetteServer } from '../../../worker/llm/cassette-server.node.ts';

const BUG = 'textkit-1';
let home: string;
let runner: Awaited<ReturnType<typeof startRunner>>;

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', ['bin/repairlab.mjs', ...args], { env: { ...process.env, REPAIRLAB_HOME: home, ...env }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const viaRunner = () => ['--runner', runner.url, '--token', runner.token];

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'repairlab-cli-'));
  runner = await startRunner({ port: 0 });
});
afterAll(async () => {
  await runner?.close();
});

describe('repairlab CLI', () => {
  it('bugs --json lists the demo bug with its category and failing test', async () => {
    const { code, stdout } = await cli(['bugs', '--json']);
    expect(code).toBe(0);
    const bugs = JSON.parse(stdout) as { id: string; category: string; failingTests: string[] }[];
    const demo = bugs.find((b) => b.id === BUG);
    expect(demo?.category).toBe('SL');
    expect(demo?.failingTests).toContain('org.repairlab.textkit.StringsTest::truncateKeepsStringThatFitsExactly');
  });

  it('validate --patch none fails with the failing test named; ground-truth passes (in-process runner)', async () => {
    const none = await cli(['validate', BUG, '--patch', 'none', '--json']);
    expect(none.code).toBe(0);
    const fail = JSON.parse(none.stdout);
    expect(fail.verdict).toBe('fail');
    expect(fail.failingTests).toEqual(['org.repairlab.textkit.StringsTest::truncateKeepsStringThatFitsExactly']);
    expect(fail.report).toContain('Failing tests: 1');
    const fixed = await cli(['validate', BUG, '--patch', 'ground-truth', '--json']);
    expect(JSON.parse(fixed.stdout)).toMatchObject({ verdict: 'pass', plausible: true, compiled: true });
  }, 120_000);

  it('a patch that does not compile reports javac diagnostics with file and line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'repairlab-patch-'));
    const patch = join(dir, 'broken.diff');
    await writeFile(
      patch,
      [
        '--- a/src/main/java/org/repairlab/textkit/Strings.java',
        '+++ b/src/main/java/org/repairlab/textkit/Strings.java',
        '@@ -58,1 +58,1 @@',
        '-        if (s.length() < maxLength) {',
        '+        if (s.length() <= maxLength) {{',
        '',
      ].join('\n'),
    );
    const { stdout } = await cli(['validate', BUG, '--patch', patch, '--json', ...viaRunner()]);
    const r = JSON.parse(stdout);
    expect(r.compiled).toBe(false);
    expect(r.diagnostics[0]).toMatchObject({ file: 'src/main/java/org/repairlab/textkit/Strings.java', kind: 'error' });
  }, 60_000);

  it('an unreadable or malformed patch is refused with a message naming it', async () => {
    const missing = await cli(['validate', BUG, '--patch', '/nonexistent/fix.diff', ...viaRunner()]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('/nonexistent/fix.diff');
    const dir = await mkdtemp(join(tmpdir(), 'repairlab-patch-'));
    await writeFile(join(dir, 'junk.diff'), 'this is not a diff\n');
    const junk = await cli(['validate', BUG, '--patch', join(dir, 'junk.diff'), ...viaRunner()]);
    expect(junk.code).toBe(1);
    expect(junk.stderr).toMatch(/repairlab: .*(diff|patch)/i);
  }, 60_000);

  it('an unreachable runner and a wrong token each get a message that says what to do', async () => {
    const gone = await cli(['validate', BUG, '--runner', 'http://127.0.0.1:9', '--token', 'x']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('http://127.0.0.1:9');
    const wrong = await cli(['validate', BUG, '--runner', runner.url, '--token', 'wrong-token']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/token/i);
  });

  it('a run given a token the runner refuses fails at once, not after minutes of waiting for the runner', async () => {
    const replay = 'replay:public/cassettes/textkit-1.oneshot.fix.cassette.json';
    const wrong = await cli(['run', 'textkit-1', '--preset', 'oneshot', '--llm', replay, '--runner', runner.url, '--token', 'wrong-token', '--runner-retry-delay', '20000']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/token/i);
    expect(wrong.stderr).not.toContain('runner unavailable');
  }, 30_000);

  it('build-benchmarks rebuilds the bundled benchmark with the same commit ids (into --out, never over public/ here)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'repairlab-build-'));
    const { code, stdout, stderr } = await cli(['build-benchmarks', '--out', out, '--json']);
    expect(code, stderr).toBe(0);
    const built = JSON.parse(stdout) as { outDir: string; index: { repositories: { repoId: string; commits: number }[]; bugs: string[] } };
    const shipped = JSON.parse(await readFile('public/benchmarks/index.json', 'utf8')) as typeof built.index;
    expect(built.outDir).toBe(out);
    expect(built.index.bugs).toEqual(shipped.bugs);
    expect(built.index.repositories.map((r) => [r.repoId, r.commits])).toEqual(shipped.repositories.map((r) => [r.repoId, r.commits]));
    for (const path of shipped.bugs) {
      const ours = JSON.parse(await readFile(join(out, path), 'utf8')) as { buggyCommit: string; groundTruth: { fixedCommit: string } };
      const theirs = JSON.parse(await readFile(join('public/benchmarks', path), 'utf8')) as typeof ours;
      expect([ours.buggyCommit, ours.groundTruth.fixedCommit], path).toEqual([theirs.buggyCommit, theirs.groundTruth.fixedCommit]);
    }
    const bad = await cli(['build-benchmarks', '--out', '/dev/null/x']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--out /dev/null/x: cannot write the benchmark there');
  }, 60_000);

  describe('run', () => {
    let model: CassetteServer;
    beforeAll(async () => {
      model = await startCassetteServer({ replies: ['x'], port: 0, refuse: { status: 401 } });
    });
    afterAll(() => model.close());

    it('a model endpoint that refuses the key ends the run with a clear reason, and the trajectory is written', async () => {
      const out = join(home, 'refused.trajectory.json');
      const r = await cli(['run', BUG, '--preset', 'oneshot', '--llm', 'openai:some-model', '--base-url', model.baseURL, '--out', out, ...viaRunner()], {
        OPENAI_API_KEY: 'sk-test-secret-key-123',
      });
      expect(r.code).toBe(1);
      const t = JSON.parse(await readFile(out, 'utf8'));
      expect(t.outcome.status).toBe('error');
      expect(t.outcome.reason).toMatch(/401|key/i);
      // the key never lands in the record or the output
      expect(JSON.stringify(t)).not.toContain('sk-test-secret-key-123');
      expect(r.stdout + r.stderr).not.toContain('sk-test-secret-key-123');
    }, 60_000);

    it("RepairAgent's second model is the run's own endpoint: generate_method_body asks it and shows the answer", async () => {
      const agentReply = JSON.stringify({ thoughts: 'regenerate it', command: { name: 'generate_method_body', args: { filepath: 'src/main/java/org/repairlab/textkit/Strings.java', method_name: 'truncate' } } });
      const body = '```java\nreturn s.length() <= maxLength ? s : s.substring(0, maxLength);\n```';
      const endpoint = await startCassetteServer({ replies: [agentReply, body], port: 0 });
      try {
        const out = join(home, 'auxiliary.trajectory.json');
        const r = await cli(['run', BUG, '--preset', 'repairagent', '--llm', 'openai:some-model', '--base-url', endpoint.baseURL, '--overrides', '{"budgets":{"maxSteps":1},"startup":[]}', '--out', out, ...viaRunner()]);
        const t = JSON.parse(await readFile(out, 'utf8'));
        expect(t.steps[0].tool.name, r.stderr).toBe('generate_method_body');
        expect(t.steps[0].tool.ok).toBe(true);
        expect(t.steps[0].tool.output).toContain('return s.length() <= maxLength ? s : s.substring(0, maxLength);');
        // one request from the agent, one from the tool to the same endpoint
        expect(endpoint.requests.filter((q) => q.path.endsWith('/chat/completions'))).toHaveLength(2);
      } finally {
        await endpoint.close();
      }
    }, 60_000);

    it('replays a run from its own trajectory file: --llm replay:<trajectory.json>', async () => {
      const replies = join(home, 'replay-source.json');
      await writeFile(replies, JSON.stringify(['No diff yet.', 'THOUGHT: here\n```diff\n--- a/x\n+++ b/x\n```']));
      const first = join(home, 'replay-source.trajectory.json');
      await cli(['run', BUG, '--preset', 'oneshot', '--llm', `scripted:${replies}`, '--overrides', '{"budgets":{"maxSteps":2}}', '--out', first, ...viaRunner()]);
      const again = join(home, 'replayed.trajectory.json');
      const r = await cli(['run', BUG, '--preset', 'oneshot', '--llm', `replay:${first}`, '--overrides', '{"budgets":{"maxSteps":2}}', '--out', again, ...viaRunner()]);
      const [a, b] = [JSON.parse(await readFile(first, 'utf8')), JSON.parse(await readFile(again, 'utf8'))];
      expect(b.config.providerId, r.stderr).toMatch(/^replay:/);
      expect(b.steps.map((s: { response: { content: string }; feedback: string }) => [s.response.content, s.feedback])).toEqual(
        a.steps.map((s: { response: { content: string }; feedback: string }) => [s.response.content, s.feedback]),
      );
      expect(b.outcome.status).toBe(a.outcome.status);
      const notJson = await cli(['run', BUG, '--preset', 'oneshot', '--llm', `replay:${replies.replace('.json', '.txt')}`, ...viaRunner()]);
      expect(notJson.code).toBe(1);
      expect(notJson.stderr).toMatch(/--llm replay:.*cannot read the file/);
    }, 60_000);

    it('a run whose process was killed is listed as interrupted, and `continue` goes on under its id', async () => {
      // an OpenAI-compatible endpoint that answers the first call and never the second: the process is killed waiting
      let calls = 0;
      let secondAsked!: () => void;
      const asked = new Promise<void>((resolve) => (secondAsked = resolve));
      const reply = 'THOUGHT: look.\n\n```bash\nls src/main/java/org/repairlab/textkit\n```';
      const endpoint = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
          if (++calls > 1) return secondAsked(); // never answered
          const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(`${chunk({ role: 'assistant', content: reply }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`);
        });
      });
      await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
      const baseURL = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`;
      try {
        const child = spawn('node', ['bin/repairlab.mjs', 'run', BUG, '--preset', 'hafixagent', '--llm', 'openai:m', '--base-url', baseURL, '--overrides', '{"budgets":{"unknownPrice":"ignore"}}', ...viaRunner()], {
          env: { ...process.env, REPAIRLAB_HOME: home },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let progress = '';
        child.stderr!.on('data', (d: Buffer) => (progress += d.toString()));
        await asked;
        // step 1 is recorded while the second model call waits
        await expect.poll(async () => JSON.parse((await cli(['runs', '--json'])).stdout).some((r: { steps: number }) => r.steps === 1), { timeout: 20_000 }).toBe(true);
        child.kill('SIGKILL');
        await new Promise((resolve) => child.once('exit', resolve));
        const runId = /^run (run-\S+)/m.exec(progress)?.[1];
        expect(runId, progress).toBeDefined();
        const listed = (JSON.parse((await cli(['runs', '--json'])).stdout) as { runId: string; steps: number; interrupted: boolean }[]).find((r) => r.runId === runId);
        expect(listed).toMatchObject({ steps: 1, interrupted: true });
        expect((await cli(['runs'])).stdout).toContain(`(interrupted: repairlab continue ${runId} --llm`);

        // the scripted replies go on from the second
        const replies = join(home, 'continue-replies.json');
        await writeFile(replies, JSON.stringify([reply, 'THOUGHT: done.\n\n```bash\necho COMPLETE_REPAIR_SIGNAL\n```']));
        const r = await cli(['continue', runId!, '--llm', `scripted:${replies}`, ...viaRunner(), '--json']);
        expect(r.code, r.stderr).toBe(0);
        const t = JSON.parse(r.stdout) as { runId: string; steps: { response: { content: string } }[]; outcome: { reason: string } };
        expect(t.runId).toBe(runId);
        expect(t.steps.map((x) => x.response.content)).toEqual([reply, expect.stringContaining('COMPLETE_REPAIR_SIGNAL')]);
        expect(t.outcome.reason).toMatch(/COMPLETE_REPAIR_SIGNAL/);
        const again = await cli(['continue', runId!, '--llm', `scripted:${replies}`, ...viaRunner()]);
        expect(again.code).toBe(1);
        expect(again.stderr).toMatch(/has finished: there is nothing to continue/);
      } finally {
        endpoint.closeAllConnections();
        await new Promise((resolve) => endpoint.close(resolve));
      }
    }, 120_000);

    it('malformed model output is fed back and counted; the run stops after repeated format errors', async () => {
      const replies = join(home, 'replies.json');
      await writeFile(replies, JSON.stringify(['I think the bug is in truncate.', 'Still no diff here.', 'Nor here.']));
      const out = join(home, 'format.trajectory.json');
      await cli(['run', BUG, '--preset', 'oneshot', '--llm', `scripted:${replies}`, '--out', out, ...viaRunner()]);
      const t = JSON.parse(await readFile(out, 'utf8'));
      expect(t.steps.filter((s: { status: string }) => s.status === 'format-error').length).toBe(3);
      expect(t.outcome.totals.formatErrors).toBe(3);
      expect(t.outcome.status).not.toBe('plausible');
    }, 60_000);
  });
});
