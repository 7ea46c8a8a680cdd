// The page's experiment API (worker/experiments/experiments-api.ts) over the real scheduler, RunManager, engine and records (a
// temporary REPAIRLAB home), asking the real cassette server on 127.0.0.1 in replies mode. Its replies are prose, a
// format error for the one-shot preset, so no validation runs and no runner is called. And the estimate
// (worker/experiments/experiment-estimate.ts) from budgets and prices.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RunManager } from '../../../worker/runs/run-manager.ts';
import { Experiments, type ExperimentEvent } from '../../../worker/experiments/scheduler.ts';
import { ExperimentsApi } from '../../../worker/experiments/experiments-api.ts';
import { loadTrajectory } from '../../../worker/records/persistence.ts';
import { buildReport } from '../../../worker/experiments/report.ts';
import { parseExperimentSpec, type ExperimentSpecInput } from '../../../worker/contracts/experiment.ts';
import type { Platform, RunLocks } from '../../../worker/contracts/platform.ts';
import { startCassetteServer, type CassetteServer } from '../../../worker/llm/cassette-server.node.ts';

const RUNNER = { url: 'http://127.0.0.1:9', token: 'unused' };

/** Locks shared by two engines, as Web Locks are by two tabs: held while the work runs. */
function sharedLocks(): RunLocks {
  const held = new Set<string>();
  return {
    async hold(name, work) {
      held.add(name);
      try {
        return await work();
      } finally {
        held.delete(name);
      }
    },
    held: async () => new Set(held),
  };
}

let model: CassetteServer;
let engine: Engine;

function api(locks?: RunLocks) {
  const runs = new RunManager(engine, async () => undefined);
  const experiments = new Experiments({ runs, records: engine.platform.records, listBugs: () => engine.listBugs() });
  const platform: Pick<Platform, 'runLocks'> = locks ? { runLocks: locks } : {};
  return new ExperimentsApi(experiments, platform, (runId) => loadTrajectory(engine.platform.records, runId), () => engine.listBugs());
}

const spec = (over: Partial<ExperimentSpecInput> = {}): ExperimentSpecInput => ({
  schemaVersion: 1,
  bugs: ['textkit-1', 'textkit-2'],
  variants: [
    { name: 'one', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } },
    { name: 'two', preset: 'oneshot', overrides: { budgets: { maxSteps: 2 } } },
  ],
  samples: 2,
  model: { provider: 'custom', baseURL: model.baseURL, model: 'm' },
  concurrency: { modelCalls: 1, validations: 1 },
  ...over,
});

/** Resolves with the events until the experiment's session reports it finished or stopped. */
function watchUntilEnd(target: ExperimentsApi, id: string): { events: ExperimentEvent[]; ended: Promise<void> } {
  const events: ExperimentEvent[] = [];
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  target.watch((e) => {
    if (e.experimentId !== id) return;
    events.push(e);
    if (e.type === 'progress' && (e.status === 'finished' || e.status === 'stopped')) end();
  });
  return { events, ended };
}

beforeEach(async () => {
  model = await startCassetteServer({ replies: Array.from({ length: 100 }, () => 'I am not sure.'), model: 'm' });
  engine = new Engine(createNodePlatform({ root: mkdtempSync(join(tmpdir(), 'repairlab-experiments-api-')) }));
});
afterEach(() => model.close());

describe('the page experiment API', () => {
  it('streams every cell to its watchers, lists the experiment, and reports exactly what buildReport gives', async () => {
    const a = api();
    const record = await a.create(spec());
    const { events, ended } = watchUntilEnd(a, record.id);
    // a watcher whose page went away (its calls reject) is dropped; the others go on receiving
    let deadCalls = 0;
    a.watch(() => {
      deadCalls++;
      throw new Error('the page has gone');
    });
    await a.run(record.id, { runners: [RUNNER] });
    expect((await a.list()).find((x) => x.record.id === record.id)?.liveness).toBe('live');
    await ended;
    expect(events.filter((e) => e.type === 'cell-finished')).toHaveLength(8);
    // (events sent in the same tick as the first failed one may still reach it; none after)
    expect(deadCalls).toBeGreaterThan(0);
    expect(deadCalls).toBeLessThan(3);
    await expect.poll(async () => (await a.list()).find((x) => x.record.id === record.id)).toMatchObject({ liveness: 'idle', done: 8, notRun: 0, record: { status: 'finished' } });
    const snapshot = await a.get(record.id);
    expect(snapshot.cells.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const report = await a.report(record.id);
    const stored = await a.get(record.id);
    expect(report).toEqual(await buildReport(stored.record, parseExperimentSpec(stored.record.spec), stored.cells, (id) => loadTrajectory(engine.platform.records, id)));
    expect(report.variants.map((v) => [v.variant, v.cells, v.calls])).toEqual([['one', 4, 4], ['two', 4, 8]]);
  });

  it('stop, then resume from the records goes on with the cells not run', async () => {
    const a = api();
    const record = await a.create(spec());
    const first = watchUntilEnd(a, record.id);
    await a.run(record.id, { runners: [RUNNER] });
    a.stop(record.id);
    await first.ended;
    const stopped = await a.get(record.id);
    expect(stopped.record.status).toBe('stopped');
    expect(stopped.notRun).toBeGreaterThan(0);
    expect(() => a.pause(record.id)).toThrow(/not running in this tab: resume it first/);

    const second = watchUntilEnd(a, record.id);
    await a.resume(record.id, { runners: [RUNNER] });
    await second.ended;
    expect(await a.get(record.id)).toMatchObject({ done: 8, notRun: 0, record: { status: 'finished' } });
  });

  it('an experiment running in one engine is shown as running elsewhere in another, which will not run it too', async () => {
    const locks = sharedLocks();
    const here = api(locks);
    const there = api(locks);
    const record = await here.create(spec());
    const { ended } = watchUntilEnd(here, record.id);
    await here.run(record.id, { runners: [RUNNER] });
    here.pause(record.id);
    expect((await there.list()).find((x) => x.record.id === record.id)?.liveness).toBe('elsewhere');
    await expect(there.run(record.id, { runners: [RUNNER] })).rejects.toThrow(/running in another tab/);
    await here.resume(record.id, { runners: [RUNNER] });
    await ended;
    await expect.poll(async () => (await there.list()).find((x) => x.record.id === record.id)?.liveness).toBe('idle');
  });
});

describe('the estimate before an experiment starts', () => {
  const priced = (over: Partial<ExperimentSpecInput> = {}) => spec({ model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'priced' }, prices: { priced: { inputPerMTok: 1, outputPerMTok: 4 } }, ...over });

  it('calls: one to maxSteps per run, each variant its own; the experiment call budget caps them', async () => {
    const a = api();
    const e = await a.estimate(priced());
    expect(e).toMatchObject({ bugs: 2, cells: 8, calls: { min: 8, max: 4 * 1 + 4 * 2, cappedByExperimentBudget: false } });
    expect(e.variants.map((v) => v.maxStepsPerRun)).toEqual([1, 2]);
    // the per-run call budget lowers a variant's own step budget, never raises it
    expect((await a.estimate(priced({ budgets: { perRun: { calls: 1 } } }))).calls.max).toBe(8);
    expect((await a.estimate(priced({ budgets: { experiment: { calls: 5 } } }))).calls).toEqual({ min: 5, max: 5, cappedByExperimentBudget: true });
    // a filter is resolved against the catalogue (every textkit bug)
    expect((await a.estimate(priced({ bugs: { filter: { libraries: ['textkit'] } } }))).bugs).toBe(4);
  });

  it('cost: bounded by cost or token budgets at the dearer price, capped by the experiment budget; unbounded or unknown said so', async () => {
    const a = api();
    const none = await a.estimate(priced());
    expect(none.costUsd.max).toBeNull();
    expect(none.method.join(' ')).toMatch(/no upper bound/);
    const perRun = await a.estimate(priced({ budgets: { perRun: { costUsd: 0.01 } } }));
    expect(perRun.costUsd.max).toBeCloseTo(0.08, 12);
    const tokens = await a.estimate(priced({ variants: [{ name: 'one', preset: 'oneshot', overrides: { budgets: { maxTokens: 1000 } } }] }));
    // 4 runs × 1000 tokens × $4 per million (the output price, the dearer)
    expect(tokens.costUsd.max).toBeCloseTo(4 * 0.004, 12);
    expect(tokens.variants[0]!.costBound).toBe('token budget');
    const capped = await a.estimate(priced({ budgets: { perRun: { costUsd: 0.01 }, experiment: { costUsd: 0.05 } } }));
    expect(capped.costUsd).toEqual({ max: 0.05, cappedByExperimentBudget: true });
    const unpriced = await a.estimate(spec({ budgets: { unpricedModel: 'count-as-free' } }));
    expect(unpriced.price).toBeUndefined();
    expect(unpriced.costUsd.max).toBeNull();
    expect(unpriced.method.join(' ')).toMatch(/has no price/);
  });

  it('refuses a bad spec the way create does, naming the field', async () => {
    await expect(api().estimate(spec({ samples: 0 }))).rejects.toThrow(/samples/);
    await expect(api().estimate(spec({ bugs: ['textkit-99'] }))).rejects.toThrow(/no bug "textkit-99"/);
  });
});
