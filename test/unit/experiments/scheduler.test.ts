// The scheduler over the real RunManager, engine and records (a temporary REPAIRLAB home), asking a real
// OpenAI-compatible endpoint on 127.0.0.1 that this test answers by hand. The one-shot preset's replies here never
// apply, so no validation runs and no runner is needed (its URL is never called).
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RunManager } from '../../../worker/runs/run-manager.ts';
import { Experiments, type ExperimentEvent } from '../../../worker/experiments/scheduler.ts';
import type { ExperimentSpecInput } from '../../../worker/contracts/experiment.ts';

/** Answers every call with prose (a format error for the one-shot preset); holds calls while `holding`. */
class Endpoint {
  server!: Server;
  baseURL = '';
  holding = false;
  held: { bug: string; seed: number | undefined; res: ServerResponse }[] = [];
  calls: { bug: string; seed: number | undefined }[] = [];
  /** every call's Authorization header */
  authorizations: string[] = [];
  maxInFlight = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const r = JSON.parse(body) as { messages: { role: string; content: string }[]; seed?: number };
        const call = { bug: /# Bug (\S+):/.exec(r.messages[1]!.content)![1]!, seed: r.seed };
        this.calls.push(call);
        this.authorizations.push(String(req.headers.authorization ?? ''));
        if (this.holding) {
          this.held.push({ ...call, res });
          this.maxInFlight = Math.max(this.maxInFlight, this.held.length);
        } else answer(res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  releaseOne(): void {
    answer(this.held.shift()!.res);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

function answer(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'I am not sure.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }));
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
};

let endpoint: Endpoint;
let engine: Engine;
let experiments: Experiments;
let events: ExperimentEvent[];
const RUNNER = { url: 'http://127.0.0.1:9', token: 'unused' };

beforeEach(async () => {
  endpoint = new Endpoint();
  await endpoint.start();
  engine = new Engine(createNodePlatform({ root: mkdtempSync(join(tmpdir(), 'repairlab-scheduler-')) }));
  const runs = new RunManager(engine, async () => undefined);
  experiments = new Experiments({ runs, records: engine.platform.records, listBugs: () => engine.listBugs() });
  events = [];
});
afterEach(() => endpoint.close());

const spec = (over: Partial<ExperimentSpecInput> = {}): ExperimentSpecInput => ({
  schemaVersion: 1,
  bugs: ['textkit-1', 'textkit-2'],
  variants: [
    { name: 'one', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } },
    { name: 'also-one', preset: 'oneshot', variants: ['stop-rules'], overrides: { budgets: { maxSteps: 1 } } },
  ],
  samples: 2,
  model: { provider: 'custom', baseURL: endpoint.baseURL, model: 'm', seeds: [1, 2] },
  concurrency: { modelCalls: 3, validations: 3 },
  ...over,
});

async function start(over: Partial<ExperimentSpecInput> = {}) {
  const record = await experiments.create(spec(over));
  return experiments.run(record.id, { runners: [RUNNER], onEvent: (e) => events.push(e) });
}

const started = () => events.filter((e) => e.type === 'cell-started').map((e) => (e as { cell: { index: number } }).cell.index);

describe('experiment scheduler', () => {
  it.each([
    ['modelCalls', { modelCalls: 3, validations: 8 }, 3],
    ['validations (one runner)', { modelCalls: 8, validations: 2 }, 2],
  ])('starts cells in bug × variant × sample order, as many in flight as %s allows', async (_, concurrency, limit) => {
    endpoint.holding = true;
    const session = await start({ concurrency });
    for (let answered = 0; answered < 8; answered++) {
      await until(() => endpoint.held.length === Math.min(limit, 8 - answered));
      endpoint.releaseOne();
    }
    const record = await session.done;
    expect(record.status).toBe('finished');
    expect(endpoint.maxInFlight).toBe(limit);
    expect(started()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // concurrent runs reach the model in any order: every cell's call came, once
    expect(endpoint.calls.map((c) => `${c.bug}#${c.seed}`).sort()).toEqual(['textkit-1#1', 'textkit-1#1', 'textkit-1#2', 'textkit-1#2', 'textkit-2#1', 'textkit-2#1', 'textkit-2#2', 'textkit-2#2']);
    const cells = [...(await experiments.store.cells(record.id)).values()];
    expect(cells.map((c) => c.status)).toEqual(Array(8).fill('budget'));
  });

  it('pause lets the runs in flight finish and starts no cell; stop marks the rest not-run; a resume runs them', async () => {
    endpoint.holding = true;
    const session = await start({ concurrency: { modelCalls: 2, validations: 2 } });
    await until(() => endpoint.held.length === 2);
    session.pause();
    endpoint.releaseOne();
    endpoint.releaseOne();
    await until(() => events.filter((e) => e.type === 'cell-finished').length === 2);
    expect(session.progress()).toMatchObject({ status: 'paused', done: 2, running: 0, queued: 6 });
    session.stop();
    const stopped = await session.done;
    expect(stopped).toMatchObject({ status: 'stopped', stopReason: 'stopped by the user' });
    expect(endpoint.calls).toHaveLength(2);
    const cells = [...(await experiments.store.cells(stopped.id)).values()];
    expect(cells.map((c) => c.status)).toEqual(['budget', 'budget', ...Array(6).fill('not-run')]);

    endpoint.holding = false;
    const again = await experiments.run(stopped.id, { runners: [RUNNER] });
    expect(await again.done).toMatchObject({ status: 'finished' });
    expect(endpoint.calls).toHaveLength(8);
    expect([...(await experiments.store.cells(stopped.id)).values()].map((c) => c.status)).toEqual(Array(8).fill('budget'));
  });

  it('an experiment budget stops scheduling: runs in flight finish, the rest are not-run', async () => {
    const session = await start({ concurrency: { modelCalls: 1, validations: 1 }, budgets: { experiment: { calls: 3 } } });
    const record = await session.done;
    expect(record).toMatchObject({ status: 'stopped', stopReason: 'experiment call budget reached (3 ≥ 3 model calls)' });
    const cells = [...(await experiments.store.cells(record.id)).values()];
    expect(cells.map((c) => c.status)).toEqual(['budget', 'budget', 'budget', ...Array(5).fill('not-run')]);
    expect(events.find((e) => e.type === 'stopping')).toMatchObject({ reason: 'experiment call budget reached (3 ≥ 3 model calls)' });
  });

  it('after a crash, a cell whose run finished unrecorded is only recorded, and one that lost its run id adopts its run: nothing runs again', async () => {
    const session = await start();
    const record = await session.done;
    const before = await experiments.store.cells(record.id);
    const calls = endpoint.calls.length;
    // the state a killed process can leave: the cell record still "running", with or without its run's id
    const withId = { ...before.get(0)!, status: 'running' as const, reason: '' };
    const { runId: lostId, ...withoutId } = { ...before.get(5)!, status: 'running' as const, reason: '' };
    await experiments.store.putCell(withId);
    await experiments.store.putCell(withoutId);
    await experiments.store.put({ ...record, status: 'running' });

    const resumed = await experiments.run(record.id, { runners: [RUNNER] });
    expect(await resumed.done).toMatchObject({ status: 'finished' });
    expect(endpoint.calls).toHaveLength(calls);
    const after = await experiments.store.cells(record.id);
    expect(after.get(0)).toMatchObject({ status: 'budget', runId: before.get(0)!.runId });
    expect(after.get(5)).toMatchObject({ status: 'budget', runId: lostId });
  });

  it("sends the runs only the key given for the spec's endpoint origin: a key for another endpoint never reaches it", async () => {
    const one = { bugs: ['textkit-1'], variants: [{ name: 'one', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } }], samples: 1, model: { provider: 'custom' as const, baseURL: endpoint.baseURL, model: 'm' } };
    const own = new URL(endpoint.baseURL).origin;
    const elsewhere = await experiments.create(spec(one));
    // keys for other origins only: the same host on another port, and OpenAI
    const otherPort = `http://127.0.0.1:${Number(new URL(own).port) + 1}`;
    await (await experiments.run(elsewhere.id, { runners: [RUNNER], apiKeys: { [otherPort]: 'key-for-another-port', 'https://api.openai.com': 'sk-for-openai' } })).done;
    expect(endpoint.authorizations).toEqual(['Bearer no-key']);
    const mine = await experiments.create(spec(one));
    await (await experiments.run(mine.id, { runners: [RUNNER], apiKeys: { [own]: 'key-for-this-endpoint', 'https://api.openai.com': 'sk-for-openai' } })).done;
    expect(endpoint.authorizations).toEqual(['Bearer no-key', 'Bearer key-for-this-endpoint']);
  });
});
