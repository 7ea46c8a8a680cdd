// `repairlab review` as a user runs it: a real CLI process over a REPAIRLAB_HOME holding an experiment of the bundled
// textkit-1 bug (its real repository and developers' fix), whose runs ended with plausible patches. The runs are
// written as records here (the review never re-validates: plausibility is the run's re-check), so this test needs no
// model and no runner. Two of the patches are one normalised patch (whitespace apart); one is the developers' fix.
//   a#1 fix (exact match: not in the queue)   a#2 "<= →  !(… > …)"   b#1 "maxLength >= s.length()"   b#2 = a#2 re-spaced
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRecordStore } from '../../../worker/platform/node.ts';
import { ExperimentStore } from '../../../worker/experiments/experiment-store.ts';
import { EXPERIMENT_SCHEMA_VERSION } from '../../../worker/contracts/experiment.ts';
import { recordPlausibleRuns } from './plausible-runs.ts';

const ID = 'exp-review-1';
let home: string;
let truth: string;

function cli(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('node', ['bin/repairlab.mjs', ...args], { env: { ...process.env, REPAIRLAB_HOME: home }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(input ?? '');
  });
}

const variantOf = (line: string, spaced = false) =>
  truth.replace('+        if (s.length() <= maxLength) {', `+        ${spaced ? line.replace(/ /g, '  ') : line}`);

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'review-cli-'));
  truth = (JSON.parse(await readFile('public/benchmarks/bugs/textkit-1.json', 'utf8')) as { groundTruth: { patch: string } }).groundTruth.patch;
  const records = createNodeRecordStore(join(home, 'records'));
  const patches = [truth, variantOf('if (!(s.length() > maxLength)) {'), variantOf('if (maxLength >= s.length()) {'), variantOf('if (!(s.length() > maxLength)) {', true)];
  const runIds = await recordPlausibleRuns(records, patches);
  const now = new Date(0).toISOString();
  const spec = { schemaVersion: 1, bugs: ['textkit-1'], variants: [{ name: 'a', preset: 'oneshot', variants: [], overrides: {} }, { name: 'b', preset: 'oneshot', variants: [], overrides: {} }], samples: 2, model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'm' } };
  await records.put('experiments', ID, { schemaVersion: EXPERIMENT_SCHEMA_VERSION, kind: 'repairlab-experiment', id: ID, createdAt: now, updatedAt: now, status: 'finished', spec, bugs: [{ id: 'textkit-1', category: 'SL' }], runnerOfBug: { 'textkit-1': 0 }, cells: 4, wallMsBefore: 0 });
  const store = new ExperimentStore(records);
  for (const [i, runId] of runIds.entries()) {
    await store.putCell({ experimentId: ID, index: i, bugId: 'textkit-1', variant: i < 2 ? 'a' : 'b', sample: i % 2, runner: 0, status: 'plausible', runId, startedAt: now, finishedAt: now, attempts: [], reason: '', costUsd: 0, calls: 1, steps: 1 });
  }
}, 120_000);
afterAll(() => rm(home, { recursive: true, force: true }));

describe('repairlab review', () => {
  it('queues the two patches no exact or AST match decides, one item for the re-spaced duplicate, beside the developers’ fix', async () => {
    const r = await cli(['review', 'queue', ID, '--json']);
    expect(r.stderr).toBe('');
    const q = JSON.parse(r.stdout) as { items: { patchKey: string; runs: { variant: string }[]; developerPatch: string; faultLines: { file: string; lines: number[] }[]; passingTests: string[] }[]; decidedRuns: number; unlabelled: number };
    expect(q.decidedRuns).toBe(1);
    expect(q.items.map((i) => i.runs.map((x) => x.variant))).toEqual([['a', 'b'], ['b']]);
    expect(q.items[0]!.developerPatch).toBe(truth);
    expect(q.items[0]!.faultLines).toEqual([expect.objectContaining({ file: 'src/main/java/org/repairlab/textkit/Strings.java', lines: [58] })]);
    expect(q.items[0]!.passingTests).toEqual(['org.repairlab.textkit.StringsTest::truncateKeepsStringThatFitsExactly']);
    expect(q.unlabelled).toBe(2);
  }, 120_000);

  it('two raters label from the keyboard; kappa, the disagreement, its resolution and the report’s correct@1', async () => {
    const ana = await cli(['review', 'queue', ID, '--rater', 'ana'], 'x\nc\no flips the comparison the wrong way\n');
    expect(ana.stdout).toContain("── developers' fix");
    expect(ana.stdout).toContain('"x": answer c, o, u');
    expect(ana.stdout).toContain('ana: 2 labelled, 0 left');
    const ben = await cli(['review', 'queue', ID, '--rater', 'ben'], 'c\nc\n');
    expect(ben.stdout).toContain('ben: 2 labelled, 0 left');
    // ana c, o; ben c, c: p_o = 1/2, p_e = (1/2)(1) + (1/2)(0) = 1/2 → κ = 0
    const a = JSON.parse((await cli(['review', 'agreement', ID, '--json'])).stdout) as { method: string; kappa: { kappa: number; items: number }; disagreements: { patchKey: string; labels: Record<string, string> }[] };
    expect(a.method).toBe('cohen');
    expect(a.kappa.items).toBe(2);
    expect(a.kappa.kappa).toBeCloseTo(0, 12);
    expect(a.disagreements.map((d) => d.labels)).toEqual([{ ana: 'overfitting', ben: 'correct' }]);
    expect((await cli(['review', 'agreement', ID])).stdout).toContain('(unresolved)');

    // before the resolution: a is correct twice (fix + the labelled duplicate), b once of 2 plus an unresolved patch
    let md = (await cli(['experiment', 'report', ID, '--md'])).stdout;
    expect(md).toMatch(/\| b \| all \| 1 \| 1 \| 1 \| 0 \| 0\.5000 \| 1 \| 1 \| 1 \|/);
    const resolved = await cli(['review', 'resolve', 'textkit-1', a.disagreements[0]!.patchKey, 'correct', '--by', 'ana', '--note', 'equivalent for ints']);
    expect(resolved.stdout).toContain('resolved:');
    md = (await cli(['experiment', 'report', ID, '--md'])).stdout;
    expect(md).toMatch(/\| a \| all \| 1 \| 1 \| 1 \| 0 \| 1 \| 1 \| 0 \| 0 \|/);
    expect(md).toMatch(/\| b \| all \| 1 \| 1 \| 1 \| 0 \| 1 \| 1 \| 0 \| 0 \|/);
    expect(md).toContain("0 still unlabelled (0 runs, counted as not correct). Cohen's κ = 0 over 2 patches (ana, ben); 1 disagreement (0 unresolved)");
  }, 240_000);

  it('exports the labels as a file and refuses a malformed label file, naming it and the field', async () => {
    const out = join(home, 'labels.json');
    await cli(['review', 'export', '--out', out]);
    const file = JSON.parse(await readFile(out, 'utf8')) as { kind: string; raterLabels: unknown[]; resolved: unknown[] };
    expect([file.kind, file.raterLabels.length, file.resolved.length]).toEqual(['repairlab-labels', 4, 1]);
    expect((await cli(['review', 'import', out])).stdout).toContain('0 labels added, 5 already here kept');
    const bad = join(home, 'bad.json');
    await writeFile(bad, JSON.stringify({ ...file, raterLabels: [{ ...(file.raterLabels[0] as object), label: 'maybe' }] }));
    const r = await cli(['review', 'import', bad]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${bad} is not a label file: raterLabels.0.label:`);
    const label = await cli(['review', 'label', 'textkit-1', 'abc', 'right', '--rater', 'ana']);
    expect(label.stderr).toContain('<label> right: use one of correct, overfitting, unsure');
  }, 120_000);
});
