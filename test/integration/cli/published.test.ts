// `repairlab published import` and `experiment report --with-published` as a user runs them: a real CLI process over a
// fresh REPAIRLAB_HOME, the fixtures of test/fixtures/published/ (HAFixAgent's and RepairAgent's published shapes,
// written for the bundled textkit-1, numkit-1 and textkit-3) re-validated on a real runner the command starts, then an
// experiment of a local variant (its runs written as records: no model needed) reported with the published one beside
// it, McNemar included. The tests build on each other, in order (the report reads the runs the first one imports).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRecordStore } from '../../../worker/platform/node.ts';
import { loadTrajectory, storeRecorder } from '../../../worker/records/persistence.ts';
import { ExperimentStore } from '../../../worker/experiments/experiment-store.ts';
import { EXPERIMENT_SCHEMA_VERSION } from '../../../worker/contracts/experiment.ts';
import { parseTrajectory } from '../../../worker/contracts/trajectory.ts';
import { scriptedRun, SCRIPTS } from '../../unit/experiments/metrics/runs.ts';

const ID = 'exp-published-1';
const FIX = 'test/fixtures/published';
let home: string;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', ['bin/repairlab.mjs', ...args], { env: { ...process.env, REPAIRLAB_HOME: home, REPAIRLAB_RUNNER_URL: '' }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

interface ImportResult {
  runs: { runId: string; bugId: string; entry: number; published: boolean; ours: boolean | null; agreement: boolean | null }[];
  bugs: { bugId: string; publishedPlausible: boolean; ourPlausible: boolean | null; agreement: boolean | null }[];
  agreed: number;
  compared: number;
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'published-cli-'));
}, 60_000);
afterAll(() => rm(home, { recursive: true, force: true }));

describe('repairlab published import', () => {
  it("RepairAgent's plausible_patches files (HAFixAgent's re-run): each patch re-validated; the fix agrees, the wrong one is reported", async () => {
    const r = await cli(['published', 'import', '--format', 'hafix-repairagent', '--variant', 'ra-demo', `${FIX}/hafix-repairagent`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as ImportResult;
    expect(out.runs.map((x) => [x.bugId, x.entry, x.published, x.ours, x.agreement])).toEqual([
      ['numkit-1', 0, true, true, true], // deletion + insertion, applied as RepairAgent's code applies them
      ['textkit-1', 0, true, true, true], // the mutant that is the developers' fix
      ['textkit-1', 1, true, false, false], // published as plausible, fails here
      ['textkit-3', 0, false, null, null], // an empty list: attempted, nothing to re-validate
    ]);
    expect(out.bugs.find((b) => b.bugId === 'textkit-1')).toMatchObject({ publishedPlausible: true, ourPlausible: true, agreement: true });
    expect([out.agreed, out.compared]).toEqual([2, 2]);
    const records = createNodeRecordStore(join(home, 'records'));
    const run = await loadTrajectory(records, 'published-ra-demo-textkit-1-0');
    expect(run?.outcome).toMatchObject({ status: 'plausible', plausible: true, exactMatch: true });
    expect(run?.outcome?.finalPatch).toContain('+        if (s.length() <= maxLength) {');
    expect(run?.outcome?.recheck?.plausible).toBe(true);
    expect(run?.published).toMatchObject({ format: 'hafix-repairagent', variant: 'ra-demo', sourceBugId: 'textkit_1', source: 'mutant', publishedPlausible: true, revalidated: true, agreement: true });
  }, 300_000);

  it("HAFixAgent's own result files: the diff re-validated, success and failure agree; BIRCH's CSV imports its verdicts, not re-validated", async () => {
    const h = await cli(['published', 'import', '--format', 'hafix', '--variant', 'hafix-demo', `${FIX}/hafix`, '--json']);
    expect(h.code, h.stderr).toBe(0);
    const out = JSON.parse(h.stdout) as ImportResult;
    expect(out.runs.map((x) => [x.bugId, x.published, x.ours, x.agreement])).toEqual([
      ['numkit-1', false, false, true],
      ['textkit-1', true, true, true],
    ]);
    const b = await cli(['published', 'import', '--format', 'hafix-birch', '--variant', 'birch-demo', `${FIX}/hafix-birch/test_results_mode_4_merged.csv`, '--json']);
    expect(b.code, b.stderr).toBe(0);
    const birch = JSON.parse(b.stdout) as ImportResult;
    expect(birch.runs.map((x) => [x.bugId, x.published, x.ours])).toEqual([
      ['textkit-1', true, null],
      ['numkit-1', false, null],
    ]);
    const list = await cli(['published', 'list']);
    expect(list.stdout).toContain('ra-demo\thafix-repairagent\t4\t3\t2 of 3');
  }, 300_000);

  it('refuses a malformed file naming the file and the field', async () => {
    const bad = join(home, 'plausible_patches_textkit_1.json');
    await import('node:fs/promises').then((fs) => fs.writeFile(bad, JSON.stringify([{ source: 'write_fix', patch: [{ file_name: 'X.java', insertions: [], deletions: [], modifications: [{ line_number: 0, modified_line: 'x' }] }] }])));
    const r = await cli(['published', 'import', '--format', 'repairagent', '--variant', 'bad', bad]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('plausible_patches_textkit_1.json: [0].patch');
    expect(r.stderr).toContain('line_number must be a positive line number');
  }, 60_000);

  it('an experiment report puts the published variant beside a local one, McNemar included', async () => {
    const records = createNodeRecordStore(join(home, 'records'));
    const record = storeRecorder(records);
    const truth = (JSON.parse(await readFile('public/benchmarks/bugs/textkit-1.json', 'utf8')) as { groundTruth: { patch: string } }).groundTruth.patch;
    const category = async (id: string) => (JSON.parse(await readFile(`public/benchmarks/bugs/${id}.json`, 'utf8')) as { category: string }).category;
    // the local variant: textkit-1 fixed, numkit-1 and textkit-3 not
    const local: [string, boolean][] = [['textkit-1', true], ['numkit-1', false], ['textkit-3', false]];
    const runIds: string[] = [];
    for (const [bugId, plausible] of local) {
      const t = structuredClone(await scriptedRun(SCRIPTS.fix));
      t.runId = `local-${bugId}`;
      t.bug = { ...t.bug, id: bugId, library: bugId.split('-')[0]! };
      t.outcome = plausible ? { ...t.outcome!, status: 'plausible', plausible: true, finalPatch: truth } : { ...t.outcome!, status: 'implausible', plausible: false, finalPatch: '', exactMatch: false };
      await record(parseTrajectory(t));
      runIds.push(t.runId);
    }
    const now = new Date(0).toISOString();
    const spec = { schemaVersion: 1, bugs: local.map(([b]) => b), variants: [{ name: 'local', preset: 'oneshot', variants: [], overrides: {} }], samples: 1, model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'm' } };
    const bugs = await Promise.all(local.map(async ([id]) => ({ id, category: await category(id) })));
    await records.put('experiments', ID, { schemaVersion: EXPERIMENT_SCHEMA_VERSION, kind: 'repairlab-experiment', id: ID, createdAt: now, updatedAt: now, status: 'finished', spec, bugs, runnerOfBug: Object.fromEntries(bugs.map((b) => [b.id, 0])), cells: 3, wallMsBefore: 0 });
    const store = new ExperimentStore(records);
    for (const [i, runId] of runIds.entries()) {
      await store.putCell({ experimentId: ID, index: i, bugId: local[i]![0], variant: 'local', sample: 0, runner: 0, status: local[i]![1] ? 'plausible' : 'not-plausible', runId, startedAt: now, finishedAt: now, attempts: [], reason: '', costUsd: 0, calls: 1, steps: 1 });
    }
    const r = await cli(['experiment', 'report', ID, '--with-published', 'ra-demo', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      variants: { variant: string; plausible: number; attempted: number }[];
      statistics: { computed: boolean; result: { plausibility: { category: string; test: string; n: number; successes: number[]; pvalue?: number }[] } };
      cells: { variant: string; bugId: string; status: string; runId?: string }[];
    };
    expect(report.variants.map((v) => v.variant)).toEqual(['local', 'ra-demo']);
    expect(report.cells.filter((c) => c.variant === 'ra-demo').map((c) => [c.bugId, c.status, c.runId])).toEqual([
      ['textkit-1', 'plausible', 'published-ra-demo-textkit-1-0'],
      ['numkit-1', 'plausible', 'published-ra-demo-numkit-1-0'],
      ['textkit-3', 'not-plausible', 'published-ra-demo-textkit-3-0'],
    ]);
    expect(report.statistics.computed).toBe(true);
    // local fixes textkit-1; the published variant textkit-1 and numkit-1 (re-validated): one discordant pair of three
    const all = report.statistics.result.plausibility.find((row) => row.category === 'all');
    expect(all).toMatchObject({ test: 'mcnemar', n: 3, successes: [1, 2], pvalue: 1 });
    const text = await cli(['experiment', 'report', ID, '--with-published', 'ra-demo', '--md']);
    expect(text.stdout).toContain('ra-demo');
    const html = await cli(['experiment', 'report', ID, '--with-published', 'ra-demo', '--html']);
    expect(html.code, html.stderr).toBe(0);
    expect(html.stdout).toContain('published-ra-demo-textkit-1-0');
    const csv = await cli(['experiment', 'report', ID, '--with-published', 'ra-demo', '--csv', '--table', 'plausibility']);
    expect(csv.stdout).toMatch(/mcnemar/);
    const clash = await cli(['experiment', 'report', ID, '--with-published', 'local']);
    expect(clash.stderr).toContain('--with-published local');
  }, 300_000);
});
