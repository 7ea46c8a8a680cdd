// Retry: the cells in an infrastructure error run again, and nothing else. The real scheduler, RunManager, engine and
// records (a temporary REPAIRLAB home) ask a real OpenAI-compatible endpoint on 127.0.0.1 that refuses textkit-2 (401,
// a broken endpoint: no attempt mends it) until the test mends it. The one-shot preset's prose replies never apply, so
// no runner is needed (its URL is never called) and every served cell ends on its one-step budget.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RunManager } from '../../../worker/runs/run-manager.ts';
import { Experiments } from '../../../worker/experiments/scheduler.ts';
import { variantRows } from '../../../worker/experiments/report-denominators.ts';
import { parseExperimentSpec } from '../../../worker/contracts/experiment.ts';

/** Answers prose; refuses calls about `refused` bugs with 401 until mended. */
class Endpoint {
  server!: Server;
  baseURL = '';
  refused = new Set(['textkit-2']);
  calls: string[] = [];

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const r = JSON.parse(body) as { messages: { role: string; content: string }[] };
        const bug = /# Bug (\S+):/.exec(r.messages[1]!.content)![1]!;
        this.calls.push(bug);
        if (this.refused.has(bug)) {
          res.writeHead(401, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }));
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'I am not sure.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }));
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

let endpoint: Endpoint;
let experiments: Experiments;
const RUNNER = { url: 'http://127.0.0.1:9', token: 'unused' };

beforeEach(async () => {
  endpoint = new Endpoint();
  await endpoint.start();
  const engine = new Engine(createNodePlatform({ root: mkdtempSync(join(tmpdir(), 'repairlab-retry-')) }));
  experiments = new Experiments({ runs: new RunManager(engine, async () => undefined), records: engine.platform.records, listBugs: () => engine.listBugs() });
});
afterEach(() => endpoint.close());

const specJson = () => ({
  schemaVersion: 1,
  bugs: ['textkit-1', 'textkit-2'],
  variants: [{ name: 'one', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } }],
  samples: 1,
  model: { provider: 'custom', baseURL: endpoint.baseURL, model: 'm' },
  concurrency: { modelCalls: 1, validations: 1 },
  retries: { maxAttempts: 2, backoffMs: 1 },
});

const cellsOf = async (id: string) => [...(await experiments.store.cells(id)).values()].sort((a, b) => a.index - b.index);

describe('retrying the cells in error', () => {
  it('runs only them, afresh; keeps the failed run as an attempt, its calls counted; the experiment ends finished', async () => {
    const record = await experiments.create(specJson());
    await (await experiments.run(record.id, { runners: [RUNNER] })).done;
    const before = await cellsOf(record.id);
    expect(before.map((c) => [c.bugId, c.status])).toEqual([['textkit-1', 'budget'], ['textkit-2', 'infrastructure-error']]);
    const failed = before[1]!;
    expect(failed.reason).toMatch(/401|key/i);
    // the honest denominator before the retry: 0 of 2 bugs, 1 in error (not 0 of 1)
    const spec = parseExperimentSpec(record.spec);
    expect(variantRows(spec, before, 2)[0]).toMatchObject({ firstSamples: 2, firstSampleErrors: 1, attempted: 2 });

    // nothing to retry that is not in error; nothing at all once none is
    await expect(experiments.retry(record.id, { runners: [RUNNER] }, [0])).rejects.toThrow(/cell 0 is not in an infrastructure error/);

    endpoint.refused.clear();
    const callsBefore = endpoint.calls.length;
    const events: string[] = [];
    const session = await experiments.retry(record.id, { runners: [RUNNER], onEvent: (e) => e.type === 'cell-started' && events.push(`${e.cell.index}:${e.continued}`) });
    const final = await session.done;
    expect(final.status).toBe('finished');
    // only textkit-2's cell ran, as a new run (not a continuation)
    expect(events).toEqual(['1:false']);
    expect(endpoint.calls.slice(callsBefore)).toEqual(['textkit-2']);
    const after = await cellsOf(record.id);
    expect(after[0]).toEqual(before[0]);
    const retried = after[1]!;
    expect(retried.status).toBe('budget');
    expect(retried.runId).toBeDefined();
    expect(retried.runId).not.toBe(failed.runId);
    // the failed run is an attempt (its error and run id); its calls stay in the cell's count
    expect(retried.attempts.at(-1)).toMatchObject({ reason: failed.reason, ...(failed.runId ? { runId: failed.runId } : {}) });
    expect(retried.calls).toBe(failed.calls + 1);
    expect(variantRows(spec, after, 2)[0]).toMatchObject({ firstSamples: 2, firstSampleErrors: 0, statuses: { 'infrastructure-error': 0, budget: 2 } });

    await expect(experiments.retry(record.id, { runners: [RUNNER] })).rejects.toThrow(/has no cells in an infrastructure error to retry/);
  });

  it('a stop during a retry leaves the cells it had not started in error (not not-run), and the experiment stopped', async () => {
    endpoint.refused.add('textkit-1');
    const record = await experiments.create(specJson());
    await (await experiments.run(record.id, { runners: [RUNNER] })).done;
    expect((await cellsOf(record.id)).map((c) => c.status)).toEqual(['infrastructure-error', 'infrastructure-error']);
    endpoint.refused.clear();
    // one run at a time: the first retried cell is in flight when the stop comes, the second not started
    const session = await experiments.retry(record.id, { runners: [RUNNER] });
    session.stop('stopped by the test');
    const final = await session.done;
    expect((await cellsOf(record.id)).map((c) => c.status)).toEqual(['budget', 'infrastructure-error']);
    expect(final).toMatchObject({ status: 'stopped', stopReason: 'stopped by the test' });
  });

  it('a retry that fails again leaves the cell in error, with both runs as attempts', async () => {
    const record = await experiments.create(specJson());
    await (await experiments.run(record.id, { runners: [RUNNER] })).done;
    const first = (await cellsOf(record.id))[1]!;
    await (await experiments.retry(record.id, { runners: [RUNNER] }, [1])).done;
    const second = (await cellsOf(record.id))[1]!;
    expect(second.status).toBe('infrastructure-error');
    expect(second.attempts.length).toBe(first.attempts.length + 1);
    expect(second.runId).not.toBe(first.runId);
    expect((await experiments.get(record.id)).status).toBe('finished');
  });
});
