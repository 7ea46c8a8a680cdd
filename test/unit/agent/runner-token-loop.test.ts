// A runner restarted mid-run with another token answers the run's next validation 401. That is the set-up's
// trouble, never the model's: the step's tool waits (waiting-for-runner), the client reads the token again where
// the page's server serves it (RunnerSettings.tokenSource), and the run goes on with the real verdict — no step,
// prompt or tool result mentions the token. Against a real HTTP client and a small fake runner on 127.0.0.1 that
// checks the bearer token (its answers are the FakeValidator's) and serves a runtime-config.json.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../../worker/agent/loop.ts';
import type { AgentEvent } from '../../../worker/agent/agent-events.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { RunnerClient, runnerValidator } from '../../../worker/runner-client/client.ts';
import type { LlmProvider } from '../../../worker/contracts/llm.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import type { TestSelection } from '../../../worker/contracts/runner-api.ts';
import { FakeWorkspace } from '../../helpers/fake-workspace.ts';
import { demoBug, demoWorkspace, FakeValidator, fence, GOOD_DIFF, SRC, SRC_TEXT, TEST, TEST_TEXT, WRONG_DIFF } from './fixtures.ts';

const OLD = 'old-token-0123456789abcdef';
const NEW = 'new-token-fedcba9876543210';

/** The runner API as far as a validation needs it, behind a bearer token that a "restart" can change. */
class TokenRunner {
  private server?: Server;
  url = '';
  /** the token it takes now */
  token = OLD;
  /** what /runtime-config.json serves (as `npm start` writes it); undefined: 404 */
  served: { runner: { url: string; token: string } } | undefined;
  validations = 0;
  refused = 0;
  /** after each answered validation */
  afterValidation: (n: number) => void = () => undefined;

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.served = { runner: { url: this.url, token: this.token } };
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  get tokenSource(): string {
    return `${this.url}/runtime-config.json`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/runtime-config.json') return void (this.served ? json(200, this.served) : json(404, {}));
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      this.refused++;
      return void json(401, { error: 'The runner token is wrong.', code: 'unauthorized' });
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { treeId?: string; overlay?: Record<string, string | null>; tests?: TestSelection };
    if (req.method === 'PUT' && req.url === '/v1/snapshots') return void json(200, { treeId: body.treeId, complete: true, missingBlobs: [] });
    if (req.method === 'POST' && req.url === '/v1/validate') {
      // the verdict the FakeValidator gives the overlay sent
      const ws = new FakeWorkspace({ [SRC]: SRC_TEXT, [TEST]: TEST_TEXT }, body.overlay ?? {});
      const verdict = await new FakeValidator().validate(ws, body.tests!);
      json(200, verdict);
      this.afterValidation(++this.validations);
      return;
    }
    json(404, { error: `no route ${req.method} ${req.url}`, code: 'not-found' });
  }
}

let runner: TokenRunner | undefined;
afterEach(async () => {
  await runner?.stop();
  runner = undefined;
});

/** A model whose prompts are kept: what the model was shown. */
function watched(inner: LlmProvider, prompts: string[]): LlmProvider {
  return { id: inner.id, complete: (req) => (prompts.push(JSON.stringify(req.messages)), inner.complete(req)) };
}

/**
 * A oneshot run of three steps at most: a wrong patch (implausible), then the fix. The runner "restarts" with the
 * token NEW after the first validation, so the fix's validation meets a 401 first.
 */
async function runThroughRestart(opts: { tokenSource: boolean; servedAtRestart?: boolean; onWaiting?: (r: TokenRunner) => void; maxRetries?: number }) {
  runner = new TokenRunner();
  await runner.start();
  const r = runner;
  r.afterValidation = (n) => {
    if (n !== 1) return;
    r.token = NEW;
    // `npm start` restarted as a whole: its page server serves the new token from the start
    if (opts.servedAtRestart) r.served = { runner: { url: r.url, token: NEW } };
  };
  const client = new RunnerClient({ url: r.url, token: OLD, retries: 0, ...(opts.tokenSource ? { tokenSource: r.tokenSource } : {}) });
  const events: AgentEvent[] = [];
  const prompts: string[] = [];
  const records: Trajectory[] = [];
  const traj = await runAgent({
    strategy: resolveStrategy('oneshot', { overrides: { budgets: { maxSteps: 3 } } }),
    bug: demoBug,
    workspace: demoWorkspace(),
    validator: runnerValidator(client, demoBug.layout),
    llm: watched(createScriptedProvider([fence(WRONG_DIFF), fence(GOOD_DIFF), fence(GOOD_DIFF)]), prompts),
    tools: [applyPatchTool],
    runnerWait: { maxRetries: opts.maxRetries ?? 20, firstDelayMs: 10, maxDelayMs: 50 },
    record: async (t) => {
      records.push(structuredClone(t));
    },
    onEvent: (e) => {
      events.push(e);
      if (e.type === 'waiting-for-runner') opts.onWaiting?.(r);
    },
  });
  return { traj, events, prompts, records, runner: r };
}

/** Nothing the model was shown or the run recorded speaks of the token, and neither token is in the record. */
function expectNoTokenTalk(traj: Trajectory, prompts: string[], records: Trajectory[]) {
  for (const step of traj.steps) {
    expect(step.tool?.output ?? '').not.toMatch(/token|401|refused/i);
    expect(step.tool?.shown ?? '').not.toMatch(/token|401|refused/i);
    expect(step.feedback ?? '').not.toMatch(/token|401|refused/i);
    expect(step.error).toBeUndefined();
  }
  for (const p of prompts) expect(p).not.toMatch(/refused the token|unauthorized|401/i);
  for (const t of [traj, ...records]) {
    const text = JSON.stringify(t);
    expect(text).not.toContain(OLD);
    expect(text).not.toContain(NEW);
  }
}

describe('a runner restarted mid-run with another token', () => {
  it('is waited for, not shown to the model: the token is read again and the run goes on to its verdict', async () => {
    // the page's server still serves the old token at first (npm start not yet restarted), the new one once the run waits
    const { traj, events, prompts, records, runner: r } = await runThroughRestart({
      tokenSource: true,
      onWaiting: (fake) => {
        fake.served = { runner: { url: fake.url, token: NEW } };
      },
    });
    const types = events.map((e) => e.type);
    expect(types).toContain('waiting-for-runner');
    expect(types.indexOf('runner-back')).toBeGreaterThan(types.indexOf('waiting-for-runner'));
    const waiting = events.find((e) => e.type === 'waiting-for-runner') as Extract<AgentEvent, { type: 'waiting-for-runner' }>;
    // what the person is told while the run waits: the token, and that the page's runtime config was read again
    expect(waiting.error).toMatch(/refused the token/);
    expect(waiting.error).toContain(r.tokenSource);

    // two steps, as without the restart: the wrong patch, then the fix with its real verdict
    expect(traj.steps).toHaveLength(2);
    expect(traj.steps.map((s) => s.status)).toEqual(['ok', 'ok']);
    expect(traj.steps[0]!.verdict?.plausible).toBe(false);
    expect(traj.steps[1]!.verdict?.plausible).toBe(true);
    expect(traj.outcome?.status).toBe('plausible');
    expect(prompts).toHaveLength(2);
    expectNoTokenTalk(traj, prompts, records);

    // on record: an outage of step 1 that ended, its last error a refused token (the message redacted of nothing secret)
    expect(traj.runnerOutages).toHaveLength(1);
    expect(traj.runnerOutages![0]).toMatchObject({ phase: 'step', stepIndex: 1, resolved: true, lastError: { code: 'unauthorized', status: 401 } });
    expect(traj.steps[1]!.latencyMs.runnerWait).toBeGreaterThanOrEqual(0);
    expect(r.refused).toBeGreaterThanOrEqual(2);
  });

  it('goes on without a wait when the page already serves the new token', async () => {
    const { traj, events, prompts, records, runner: r } = await runThroughRestart({ tokenSource: true, servedAtRestart: true });
    // the first 401 is answered by the re-read, inside the client: nothing waits
    expect(r.refused).toBe(1);
    expect(events.map((e) => e.type)).not.toContain('waiting-for-runner');
    expect(traj.runnerOutages).toBeUndefined();
    expect(traj.steps).toHaveLength(2);
    expect(traj.outcome?.status).toBe('plausible');
    expectNoTokenTalk(traj, prompts, records);
  });

  it('without a token to read again, is set aside when the retries run out: resumable, the step abandoned, not shown', async () => {
    const { traj, events, prompts, records } = await runThroughRestart({ tokenSource: false, maxRetries: 2 });
    const setAside = events.find((e) => e.type === 'set-aside') as Extract<AgentEvent, { type: 'set-aside' }> | undefined;
    expect(setAside?.reason).toMatch(/refused the token/);
    expect(setAside?.reason).toMatch(/continue it once the runner's token is the one Settings → Runner \(or --token\) gives/);
    expect(traj.status).toBe('waiting-for-runner');
    expect(traj.outcome).toBeUndefined();
    expect(traj.resume).toBeDefined();
    // the fix's step was abandoned, not recorded as a step the model saw
    expect(traj.steps).toHaveLength(1);
    expect(traj.runnerOutages![0]).toMatchObject({ resolved: false, attempts: 3, lastError: { code: 'unauthorized' } });
    expect(traj.runnerOutages![0]!.abandonedStep?.reply).toContain('+            return hi;');
    expectNoTokenTalk(traj, prompts, records);
  });
});
