// A runner that goes away mid-run is infrastructure trouble, not a tool result: the run waits (status
// waiting-for-runner, retried with backoff), goes on when the runner is back, and its record says so; when the
// retries run out the run is set aside, resumable, and a continued run finishes. Real runner (real javac/JUnit in the
// sandbox) behind a real HTTP relay on 127.0.0.1 that stands in for the network between engine and runner: the test
// switches the relay off (connections refused) or makes it answer 502, and back on when the run says it is waiting.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RunManager, type RunManagerOptions } from '../../../worker/runs/run-manager.ts';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { startRunner } from '../../../runner/src/index.ts';
import type { ValidationResult } from '../../../worker/contracts/runner-api.ts';

const BUG = 'textkit-1';
let runner: Awaited<ReturnType<typeof startRunner>>;
const homes: string[] = [];

beforeAll(async () => {
  runner = await startRunner({ port: 0 });
});
afterAll(async () => {
  await runner?.close();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

/** The relay standing in for the network path to the runner: up, down (refused), or answering 502 to validations. */
class RunnerRelay {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;
  /** what to do with the next POST /v1/validate: pass it on, answer 502, or go down (refuse from then on) */
  onValidate: 'pass' | 'fail-502' | 'go-down' = 'pass';
  validations = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    const server = createServer((req, res) => this.handle(req, res));
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.method === 'POST' && req.url === '/v1/validate') {
      this.validations++;
      if (this.onValidate === 'fail-502') {
        req.resume();
        res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad gateway (relay)', code: 'server' }));
        return;
      }
      if (this.onValidate === 'go-down') {
        void this.down();
        return;
      }
    }
    const target = new URL(runner.url);
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }
}

function newEngine(): Engine {
  const home = mkdtempSync(join(tmpdir(), 'repairlab-outage-'));
  homes.push(home);
  return new Engine(createNodePlatform({ root: home }));
}

async function groundTruthReply(engine: Engine): Promise<string> {
  const bug = await engine.catalog.bug(BUG);
  return `The limit check is off by one.\n\`\`\`diff\n${bug.groundTruth.patch}\`\`\`\n`;
}

/** The runner's own verdict on the ground truth, asked directly (no relay): what a run that met an outage must get too. */
let baseline: Promise<ValidationResult> | undefined;
function directVerdict(engine: Engine): Promise<ValidationResult> {
  return (baseline ??= engine.validatePatch(BUG, 'ground-truth', { url: runner.url, token: runner.token }));
}
/** what the run's outcome is when the runner answers as it does directly */
const expectedStatus = (v: ValidationResult) => (v.plausible ? 'plausible' : 'implausible');
/** one step: the run ends after the step whatever the verdict (the point here is what the step was told) */
const ONE_STEP = { budgets: { maxSteps: 1 } };

describe('a runner outage mid-run', () => {
  it('connection refused: the run waits for the runner, goes on when it is back, and records the outage, not a tool error', async () => {
    const relay = new RunnerRelay();
    await relay.up();
    const engine = newEngine();
    const waits: string[] = [];
    const statusesWhileWaiting: string[] = [];
    const options: RunManagerOptions = {
      runnerWait: { maxRetries: 50, firstDelayMs: 20, maxDelayMs: 100 },
      onRunnerEvent: (e) => {
        waits.push(e.type);
        if (e.type === 'waiting-for-runner' && waits.filter((w) => w === 'waiting-for-runner').length === 2) {
          relay.onValidate = 'pass';
          void relay.up();
        }
      },
    };
    const runs = new RunManager(engine, initJavaForNode, options);
    relay.onValidate = 'go-down';
    const [t] = await runs.start(
      { bugId: BUG, preset: 'oneshot', overrides: ONE_STEP, model: { kind: 'scripted', replies: [await groundTruthReply(engine)] }, runner: { url: relay.url, token: runner.token } },
      (e) => {
        if (e.type === 'step') statusesWhileWaiting.push((e.step as { status: string }).status);
      },
    );
    await relay.down();
    expect(waits.slice(0, 2)).toEqual(['waiting-for-runner', 'waiting-for-runner']);
    expect(waits).toContain('runner-back');
    const step = t!.steps[0]!;
    // the model never saw the outage: the step ran its tool and got the real verdict
    expect(step.status).toBe('ok');
    const direct = await directVerdict(engine);
    expect(step.verdict?.plausible).toBe(direct.plausible);
    expect(step.verdict?.failingTests).toEqual(direct.failingTests);
    expect(step.tool?.output).not.toContain(relay.url);
    expect(step.tool?.output).not.toMatch(/did not answer|ECONNREFUSED/);
    expect(step.feedback).not.toContain(relay.url);
    expect(step.latencyMs.runnerWait).toBeGreaterThan(0);
    expect(t!.outcome?.status).toBe(expectedStatus(direct));
    expect(t!.runnerOutages).toHaveLength(1);
    expect(t!.runnerOutages![0]).toMatchObject({ phase: 'step', stepIndex: 0, resolved: true, lastError: { code: 'unreachable' } });
    expect(t!.runnerOutages![0]!.attempts).toBeGreaterThanOrEqual(2);
    expect(t!.runnerOutages![0]!.abandonedStep).toBeUndefined();
    // the stored record says the same
    const stored = await runs.get(t!.runId);
    expect(stored?.runnerOutages?.[0]?.resolved).toBe(true);
    expect(stored?.status).toBe('finished');
    expect(statusesWhileWaiting).toEqual(['ok']);
  }, 240_000);

  it('5xx answers: the run is recorded as waiting-for-runner while it waits, and goes on once the runner answers', async () => {
    const relay = new RunnerRelay();
    await relay.up();
    const engine = newEngine();
    const runs = new RunManager(engine, initJavaForNode, {
      runnerWait: { maxRetries: 50, firstDelayMs: 20, maxDelayMs: 100 },
      onRunnerEvent: (e) => {
        if (e.type === 'waiting-for-runner') {
          // read back what the record says while the run waits, then let the runner answer again
          void (async () => {
            const listed = await runs.list();
            recorded.push(listed[0]?.status ?? 'none');
            relay.onValidate = 'pass';
          })();
        }
      },
    });
    const recorded: string[] = [];
    relay.onValidate = 'fail-502';
    const [t] = await runs.start(
      { bugId: BUG, preset: 'oneshot', overrides: ONE_STEP, model: { kind: 'scripted', replies: [await groundTruthReply(engine)] }, runner: { url: relay.url, token: runner.token } },
      () => undefined,
    );
    await relay.down();
    expect(recorded[0]).toBe('waiting-for-runner');
    expect(t!.steps[0]!.status).toBe('ok');
    expect(t!.outcome?.status).toBe(expectedStatus(await directVerdict(engine)));
    expect(t!.runnerOutages?.[0]).toMatchObject({ resolved: true, lastError: { code: 'server', status: 502 } });
  }, 240_000);

  it('retries spent: the run is set aside as waiting-for-runner without an outcome, then continued to the end once the runner is back', async () => {
    const relay = new RunnerRelay();
    await relay.up();
    const engine = newEngine();
    const reply = await groundTruthReply(engine);
    const events: string[] = [];
    const runs = new RunManager(engine, initJavaForNode, { runnerWait: { maxRetries: 1, firstDelayMs: 10, maxDelayMs: 10 }, onRunnerEvent: (e) => events.push(e.type) });
    relay.onValidate = 'go-down';
    const failures: string[] = [];
    const [t] = await runs.start(
      { bugId: BUG, preset: 'oneshot', overrides: ONE_STEP, model: { kind: 'scripted', replies: [reply] }, runner: { url: relay.url, token: runner.token } },
      (e) => e.type === 'run-failed' && failures.push(e.error),
    );
    expect(events).toEqual(['waiting-for-runner', 'set-aside']);
    expect(failures[0]).toMatch(/runner was unavailable.*waiting-for-runner/);
    expect(t!.status).toBe('waiting-for-runner');
    expect(t!.outcome).toBeUndefined();
    // no step was taken: the model's reply is kept with the outage, its result never shown
    expect(t!.steps).toHaveLength(0);
    const outage = t!.runnerOutages![0]!;
    expect(outage).toMatchObject({ phase: 'step', stepIndex: 0, resolved: false, attempts: 2, lastError: { code: 'unreachable' } });
    expect(outage.abandonedStep?.reply).toBe(reply);
    const listed = (await runs.list()).find((r) => r.runId === t!.runId);
    expect(listed).toMatchObject({ status: 'waiting-for-runner', interrupted: true });

    // the runner is back: the run goes on from the same point, as other interrupted runs do
    relay.onValidate = 'pass';
    await relay.up();
    const done = await runs.continueRun(t!.runId, { model: { kind: 'scripted', replies: [reply] }, runner: { url: relay.url, token: runner.token } }, () => undefined);
    await relay.down();
    expect(done.runId).toBe(t!.runId);
    expect(done.steps).toHaveLength(1);
    expect(done.steps[0]!.status).toBe('ok');
    expect(done.outcome?.status).toBe(expectedStatus(await directVerdict(engine)));
    expect(done.runnerOutages).toHaveLength(1);
    // the abandoned call's tokens count: the reply was paid for
    expect(done.outcome!.totals.outputTokens).toBeGreaterThan(done.steps[0]!.tokens.output);
  }, 240_000);
});
