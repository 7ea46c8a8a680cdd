// Bundles and links as a user makes them: a real CLI process, the real runner (javac/JUnit in the sandbox) and a real
// OpenAI-compatible HTTP endpoint on 127.0.0.1 playing the model — given a canary key, which it echoes back in a
// reply, once the key is said to be for its origin (without --api-key-origin the run is refused and the endpoint never
// sees the key). The experiment is bundled, opened in a fresh REPAIRLAB_HOME and replayed there with the model gone:
// every run comes out the same. Then the canary is looked for in every link, bundle, export, report and record file:
// nowhere.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner } from '../../../runner/src/index.ts';

const CANARY = 'canary-key-7f3a9c1e5b2d4068a1c3e5f7';
const BUGS = ['textkit-1', 'textkit-2'];
let runner: Awaited<ReturnType<typeof startRunner>>;
let work: string;
let home: string;

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', ['bin/repairlab.mjs', ...args], { env: { ...process.env, REPAIRLAB_HOME: home, ...env }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const viaRunner = () => ['--runner', runner.url, '--token', runner.token];

/** The model: a wrong patch (and the key it was sent) on turn 1, the developers' fix on turn 2. */
class CanaryModel {
  server!: Server;
  baseURL = '';
  authorizations = new Set<string>();
  answered = 0;

  async start(): Promise<void> {
    const fixes = new Map<string, string>();
    for (const id of BUGS) fixes.set(id, (JSON.parse(await readFile(`public/benchmarks/bugs/${id}.json`, 'utf8')) as { groundTruth: { patch: string } }).groundTruth.patch);
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        if (!req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
        const auth = String(req.headers.authorization ?? '');
        this.authorizations.add(auth);
        const { messages } = JSON.parse(body) as { messages: { role: string; content: string }[] };
        const bug = /# Bug (\S+):/.exec(messages.find((m) => m.role === 'user')!.content)![1]!;
        const turn = messages.filter((m) => m.role === 'assistant').length + 1;
        const reply =
          turn === 1
            ? `Debug: you called me with "${auth}".\n\n\`\`\`diff\n--- a/src/main/java/org/repairlab/textkit/Strings.java\n+++ b/src/main/java/org/repairlab/textkit/Strings.java\n@@ -1,1 +1,1 @@\n-not in the file\n+nor this\n\`\`\``
            : `The fix.\n\n\`\`\`diff\n${fixes.get(bug)!}\`\`\``;
        this.answered++;
        const chunk = (payload: object) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'canary-model', ...payload })}\n\n`;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: reply }, finish_reason: null }] }) +
            chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
            chunk({ choices: [], usage: { prompt_tokens: 900, completion_tokens: 90, total_tokens: 990 } }) +
            'data: [DONE]\n\n',
        );
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Every file under `dir` (gzip files also decompressed) that holds `needle`. */
async function filesHolding(dir: string, needle: string): Promise<{ searched: number; found: string[] }> {
  const out = { searched: 0, found: [] as string[] };
  for (const entry of await readdir(dir, { recursive: true })) {
    const path = join(dir, entry);
    if (!(await stat(path)).isFile()) continue;
    let bytes = new Uint8Array(await readFile(path));
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      try {
        bytes = gunzipSync(bytes);
      } catch {
        // a truncated copy (the damaged-bundle test's): search what is there
      }
    }
    out.searched++;
    if (Buffer.from(bytes).includes(needle)) out.found.push(path);
  }
  return out;
}

let model: CanaryModel;
let experimentId: string;
let bundleFile: string;
/** everything the CLI printed, for the canary search */
const printed: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'repairlab-share-'));
  home = join(work, 'home');
  runner = await startRunner({ port: 0 });
  model = new CanaryModel();
  await model.start();
  const spec = {
    schemaVersion: 1,
    name: 'share-canary',
    bugs: BUGS,
    variants: [
      { name: 'one-try', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } },
      { name: 'two-tries', preset: 'oneshot', overrides: { prompt: { system: 'You fix Java bugs. Reply with one unified diff in a ```diff block.\n' } } },
    ],
    samples: 1,
    model: { provider: 'custom', baseURL: model.baseURL, model: 'canary-model', seeds: [5] },
  };
  await writeFile(join(work, 'spec.json'), JSON.stringify(spec));
  // the key is for one origin (default OpenAI's): a spec naming another endpoint is refused before anything is recorded
  // or asked, and the key never reaches that endpoint
  const origin = new URL(model.baseURL).origin;
  const refused = await cli(['experiment', 'run', join(work, 'spec.json'), ...viaRunner(), '--api-key-env', 'CANARY_KEY'], { CANARY_KEY: CANARY });
  printed.push(refused.stdout, refused.stderr);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`The spec sends its model calls to ${origin}, but the key in CANARY_KEY is for https://api.openai.com (the default --api-key-origin)`);
  expect(refused.stderr).toContain(`add --api-key-origin ${origin}`);
  expect([model.answered, model.authorizations.size]).toEqual([0, 0]);
  expect(JSON.parse((await cli(['experiments', '--json'])).stdout)).toEqual([]);
  const run = await cli(['experiment', 'run', join(work, 'spec.json'), ...viaRunner(), '--api-key-env', 'CANARY_KEY', '--api-key-origin', origin, '--json'], { CANARY_KEY: CANARY });
  printed.push(run.stdout, run.stderr);
  expect(run.code, run.stderr).toBe(0);
  experimentId = /^experiment (exp-\S+):/m.exec(run.stderr)![1]!;
  bundleFile = join(work, 'exp.rlbundle.json.gz');
}, 300_000);

afterAll(async () => {
  await model?.close();
  await runner?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('repairlab bundle', () => {
  it('bundle → open in a fresh home → listed there; replayed with no model: every run equal', async () => {
    const made = await cli(['experiment', 'bundle', experimentId, '--out', bundleFile, '--json']);
    printed.push(made.stdout, made.stderr);
    expect(made.code, made.stderr).toBe(0);
    const info = JSON.parse(made.stdout) as { sha256: string; cells: number; runs: number };
    expect(info).toMatchObject({ cells: 4, runs: 4 });
    // content-addressed: the same experiment bundles to the same hash
    const again = await cli(['experiment', 'bundle', experimentId, '--out', join(work, 'again.gz'), '--json']);
    expect((JSON.parse(again.stdout) as { sha256: string }).sha256).toBe(info.sha256);

    home = join(work, 'fresh-home');
    const opened = await cli(['bundle', 'open', bundleFile, '--json']);
    printed.push(opened.stdout, opened.stderr);
    expect(opened.code, opened.stderr).toBe(0);
    expect(JSON.parse(opened.stdout)).toMatchObject({ sha256: info.sha256, experimentId, cells: 4, runs: 4, alreadyPresent: false });
    const listed = JSON.parse((await cli(['experiments', '--json'])).stdout) as { id: string; status: string; done: number }[];
    expect(listed).toEqual([expect.objectContaining({ id: experimentId, status: 'finished', done: 4 })]);
    const runs = JSON.parse((await cli(['runs', '--json'])).stdout) as { bugId: string; status: string }[];
    expect(runs.map((r) => `${r.bugId} ${r.status}`).sort()).toEqual(['textkit-1 implausible', 'textkit-1 plausible', 'textkit-2 implausible', 'textkit-2 plausible']);
    // the imported experiment reports as it did where it ran
    const report = (await cli(['experiment', 'report', experimentId, '--csv'])).stdout;
    // variant,preset,cells,attempted,unfinished,plausible@1,first_samples,first_samples_in_error,plausible,bugs_fixed,
    // bugs_attempted, then the cells by status: plausible, not-plausible, budget, infrastructure-error, not-run
    expect(report).toMatch(/^one-try,oneshot,2,2,0,0,2,0,0,0,2,0,0,2,0,0,/m);
    expect(report).toMatch(/^two-tries,oneshot,2,2,0,1,2,0,2,2,2,2,0,0,0,0,/m);
    // opening it again changes nothing
    expect(JSON.parse((await cli(['bundle', 'open', bundleFile, '--json'])).stdout)).toMatchObject({ alreadyPresent: true, runs: 0, runsPresent: 4 });

    // no model any more: the replays come from the bundle's cassettes alone
    const callsBefore = model.answered;
    home = join(work, 'replay-home');
    const replay = await cli(['bundle', 'replay', bundleFile, ...viaRunner(), '--json']);
    printed.push(replay.stdout, replay.stderr);
    expect(replay.code, replay.stderr).toBe(0);
    const results = (JSON.parse(replay.stdout) as { results: { variant: string; bugId: string; result: string; recorded: string; replayed: string }[] }).results;
    expect(results.map((r) => [r.bugId, r.variant, r.result, r.recorded, r.replayed])).toEqual([
      ['textkit-1', 'one-try', 'equal', 'implausible', 'implausible'],
      ['textkit-1', 'two-tries', 'equal', 'plausible', 'plausible'],
      ['textkit-2', 'one-try', 'equal', 'implausible', 'implausible'],
      ['textkit-2', 'two-tries', 'equal', 'plausible', 'plausible'],
    ]);
    expect(model.answered).toBe(callsBefore);
    // replaying adds no runs to that home's list
    expect(JSON.parse((await cli(['runs', '--json'])).stdout)).toEqual([]);
  }, 300_000);

  it('a damaged or altered bundle is refused by name, and nothing is imported', async () => {
    home = join(work, 'refusing-home');
    const bytes = new Uint8Array(await readFile(bundleFile));
    const cut = join(work, 'cut.gz');
    await writeFile(cut, bytes.subarray(0, bytes.length - 200));
    const truncated = await cli(['bundle', 'open', cut]);
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toMatch(/cut\.gz is not a usable RepairLab bundle: it is not complete gzip data .* get the file again/);
    // valid gzip, valid JSON, one reply changed: the hash no longer matches
    const file = JSON.parse(new TextDecoder().decode(gunzipSync(bytes))) as { content: { runs: { cassette: { calls: { response: { content: string } }[] } }[] } };
    file.content.runs[0]!.cassette.calls[0]!.response.content += ' (edited)';
    const altered = join(work, 'altered.gz');
    await writeFile(altered, gzipSync(new TextEncoder().encode(JSON.stringify(file))));
    const tampered = await cli(['bundle', 'open', altered]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/altered\.gz is not a usable RepairLab bundle: its content does not match its hash .*changed or damaged/);
    const notABundle = await cli(['bundle', 'replay', join(work, 'spec.json')]);
    expect(notABundle.stderr).toMatch(/spec\.json is not a usable RepairLab bundle: it is not complete gzip data/);
    expect(await readdir(join(home, 'records')).catch(() => [])).toEqual([]);
  }, 120_000);

  it('the canary key was used, and is in no link, bundle, export, report or record', async () => {
    home = join(work, 'home');
    // the key did reach the model, which echoed it back in a reply: the bundle holds that reply, the key redacted
    expect([...model.authorizations]).toEqual([`Bearer ${CANARY}`]);
    const bundled = JSON.parse(new TextDecoder().decode(gunzipSync(new Uint8Array(await readFile(bundleFile))))) as { content: { runs: { trajectory: { steps: { response?: { content: string } }[] } }[] } };
    const echoes = bundled.content.runs.flatMap((r) => r.trajectory.steps.filter((s) => s.response?.content.startsWith('Debug: you called me with')));
    expect(echoes).toHaveLength(4);
    for (const s of echoes) expect(s.response!.content).toContain('you called me with "Bearer [redacted key]"');
    const link = await cli(['experiment', 'link', experimentId]);
    expect(link.code, link.stderr).toBe(0);
    expect(link.stdout).toMatch(/^http:\/\/127\.0\.0\.1:5173\/#rl1\.[\w-]+\n$/);
    const shown = await cli(['link', 'show', link.stdout.trim()]);
    expect(JSON.parse(shown.stdout)).toMatchObject({ view: { kind: 'experiment', experiment: experimentId }, experiment: { name: 'share-canary', model: { seeds: [5] } } });
    // a link to the bundle: it carries the hash of the file `experiment bundle` wrote and the address given
    const { sha256 } = JSON.parse(new TextDecoder().decode(gunzipSync(new Uint8Array(await readFile(bundleFile))))) as { sha256: string };
    const toBundle = await cli(['experiment', 'link', experimentId, '--bundle-url', 'https://example.org/shared/exp.rlbundle.json.gz#x']);
    expect(toBundle.code, toBundle.stderr).toBe(0);
    const toBundleShown = await cli(['link', 'show', toBundle.stdout.trim()]);
    expect(JSON.parse(toBundleShown.stdout)).toMatchObject({ view: { kind: 'experiment', experiment: experimentId }, experiment: { name: 'share-canary' }, bundle: { sha256, url: 'https://example.org/shared/exp.rlbundle.json.gz' } });
    expect((await cli(['experiment', 'link', experimentId, '--bundle-url', 'ftp://example.org/x'])).stderr).toMatch(/is a ftp address: a link can only point to an https:\/\/ or http:\/\/ address/);
    const outputs = [
      link,
      shown,
      toBundle,
      toBundleShown,
      await cli(['experiment', 'report', experimentId, '--html']),
      await cli(['experiment', 'export', experimentId, '--csv', 'cells']),
      await cli(['experiment', 'export', experimentId, '--csv', 'bugs']),
      await cli(['experiment', 'export', experimentId, '--json']),
      await cli(['experiment', 'export', experimentId, '--preds']),
      await cli(['experiment', 'report', experimentId, '--json']),
      await cli(['experiment', 'report', experimentId, '--csv']),
      await cli(['experiment', 'report', experimentId, '--md']),
      await cli(['experiment', 'report', experimentId]),
      await cli(['runs', '--json']),
      await cli(['experiments', '--json']),
    ];
    for (const o of outputs) expect(o.code, o.stderr).toBe(0);
    const text = [...printed, ...outputs.flatMap((o) => [o.stdout, o.stderr])].join('\n');
    expect(text).toContain(experimentId);
    expect(text).not.toContain(CANARY);
    // every file: the record stores where it ran, was opened and was replayed, and the bundles (decompressed)
    const searched = await filesHolding(work, CANARY);
    expect(searched.found).toEqual([]);
    expect(searched.searched).toBeGreaterThan(30);
    // the search itself finds a canary where there is one
    await writeFile(join(work, 'control.gz'), gzipSync(new TextEncoder().encode(`x${CANARY}x`)));
    expect((await filesHolding(work, CANARY)).found).toEqual([join(work, 'control.gz')]);
  }, 300_000);
});
