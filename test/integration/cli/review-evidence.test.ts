// `repairlab review evidence` with a real runner, as a user runs it: the history-aware overfitting check. The home's
// textkit repository has real history after textkit-1's fix (test/helpers/later-history.ts: a branch whose commits add
// tests to StringsTest). An experiment's runs ended with two plausible patches no exact or AST match decides:
//   overfit  `s.length() < maxLength || s.equals("hello")` — passes the bug's own test (truncate("hello", 5)) only
//   same     `!(s.length() > maxLength)` — the developers' fix in other words
// A later StringsTest (truncate("world", 5)) passes on the developers' fix and fails on `overfit`: that is shown as
// evidence beside the item, never as a label. The oldest later revision on main tests Strings.center, which the fix's
// tree lacks: not applicable, with the compiler's message.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRecordStore } from '../../../worker/platform/node.ts';
import { ExperimentStore } from '../../../worker/experiments/experiment-store.ts';
import { EXPERIMENT_SCHEMA_VERSION } from '../../../worker/contracts/experiment.ts';
import type { PatchEvidence } from '../../../worker/contracts/patch-evidence.ts';
import { recordPlausibleRuns } from './plausible-runs.ts';
import { useRunManagerHome } from '../../helpers/run-manager-home.ts';
import { buildLaterHistory } from '../../helpers/later-history.ts';

const ID = 'exp-evidence-1';
const lab = useRunManagerHome('review-evidence');
const home = lab.home;
let scratch: string;
let later: string[];
let mainFirst: string;
let truth: string;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('node', ['bin/repairlab.mjs', ...args], { env: { ...process.env, REPAIRLAB_HOME: home }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end('');
  });
}
const runnerFlags = () => ['--runner', lab.runner.url, '--token', lab.runner.token];
const variantOf = (line: string) => truth.replace('+        if (s.length() <= maxLength) {', `+        ${line}`);
const OVERFIT = 'if (s.length() < maxLength || s.equals("hello")) {';
const SAME = 'if (!(s.length() > maxLength)) {';
const NEW_TEST = 'org.repairlab.textkit.StringsTest::truncateKeepsEveryStringThatFitsExactly';

beforeAll(async () => {
  const spec = JSON.parse(await readFile('public/benchmarks/bugs/textkit-1.json', 'utf8')) as { buggyCommit: string; groundTruth: { fixedCommit: string; patch: string } };
  truth = spec.groundTruth.patch;
  scratch = await mkdtemp(join(tmpdir(), 'review-evidence-git-'));
  const built = buildLaterHistory(scratch, spec.groundTruth.fixedCommit);
  later = built.later;
  const git = (...a: string[]) => execFileSync('git', ['-C', scratch, ...a], { encoding: 'utf8' }).trim();
  mainFirst = git('log', '--reverse', '--format=%H', 'main', `^${spec.buggyCommit}`, '--', 'src/test/java/org/repairlab/textkit/StringsTest.java').split('\n')[0]!;
  // the home's textkit repository is the one with later history (the engine imports the bundled one only when absent)
  const [imported] = await lab.engine().importFiles([{ name: 'textkit.bundle', bytes: new Uint8Array(readFileSync(built.bundle)) }]);
  expect(imported?.ok, imported?.message).toBe(true);
  const records = createNodeRecordStore(join(home, 'records'));
  const runIds = await recordPlausibleRuns(records, [variantOf(OVERFIT), variantOf(SAME)]);
  const now = new Date(0).toISOString();
  const expSpec = { schemaVersion: 1, bugs: ['textkit-1'], variants: [{ name: 'a', preset: 'oneshot', variants: [], overrides: {} }], samples: 2, model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'm' } };
  await records.put('experiments', ID, { schemaVersion: EXPERIMENT_SCHEMA_VERSION, kind: 'repairlab-experiment', id: ID, createdAt: now, updatedAt: now, status: 'finished', spec: expSpec, bugs: [{ id: 'textkit-1', category: 'SL' }], runnerOfBug: { 'textkit-1': 0 }, cells: 2, wallMsBefore: 0 });
  const store = new ExperimentStore(records);
  for (const [i, runId] of runIds.entries()) {
    await store.putCell({ experimentId: ID, index: i, bugId: 'textkit-1', variant: 'a', sample: i, runner: 0, status: 'plausible', runId, startedAt: now, finishedAt: now, attempts: [], reason: '', costUsd: 0, calls: 1, steps: 1 });
  }
}, 180_000);
afterAll(() => rm(scratch, { recursive: true, force: true }));

type Queue = { items: { patchKey: string; patch: string; label?: string; raterLabels: unknown[]; evidence?: PatchEvidence[] }[] };

describe('repairlab review evidence', () => {
  it("runs later revisions of StringsTest on each candidate and on the developers' fix: the overfitting candidate fails a test the fix passes", async () => {
    const r = await cli(['review', 'evidence', ID, ...runnerFlags(), '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const done = JSON.parse(r.stdout) as { items: number; evidence: PatchEvidence[] };
    expect(done.items).toBe(2);
    const q = JSON.parse((await cli(['review', 'queue', ID, '--json'])).stdout) as Queue;
    const overfit = q.items.find((i) => i.patch.includes('equals("hello")'))!;
    const same = q.items.find((i) => i.patch.includes('!(s.length() > maxLength)'))!;
    // default: 3 revisions of the test file — the two on the branch after the fix, then main's oldest
    expect(overfit.evidence!.map((e) => [e.commit, e.afterFix, e.status])).toEqual([
      [later[0], true, 'compared'],
      [later[2], true, 'compared'],
      [mainFirst, false, 'not-applicable'],
    ]);
    const [first, second, na] = overfit.evidence!;
    expect(first!.candidateFails).toEqual([expect.objectContaining({ id: NEW_TEST, status: 'fail', message: expect.stringContaining('wo[rld]') })]);
    expect(first!.fixPasses).toBe(first!.bothPass.length + 1);
    expect(first!.fixPasses).toBeGreaterThanOrEqual(5);
    expect(first!.fixFails).toEqual([]);
    expect(second!.candidateFails.map((f) => f.id)).toEqual([NEW_TEST]);
    expect(second!.bothPass).toContain('org.repairlab.textkit.StringsTest::truncateCutsOneOverTheLimit');
    expect(second!.fixPasses).toBe(first!.fixPasses + 1);
    expect(na!.reason).toMatch(/does not compile against the developers' fix: .*StringsTest\.java:\d+: .*center/);
    expect(na!.fixPasses).toBe(0);
    // the candidate equal to the fix in other words fails nothing the fix passes
    expect(same.evidence!.filter((e) => e.status === 'compared').map((e) => [e.candidateFails.length, e.bothPass.length === e.fixPasses])).toEqual([[0, true], [0, true]]);
    // evidence, never a label
    expect(q.items.every((i) => i.label === undefined && i.raterLabels.length === 0)).toBe(true);
    await expect(readdir(join(home, 'records', 'patch-labels'))).rejects.toThrow();
    expect((await readdir(join(home, 'records', 'patch-evidence'))).length).toBe(6);
  }, 600_000);

  it('prints the evidence beside each item in the queue listing', async () => {
    const r = await cli(['review', 'queue', ID]);
    expect(r.stdout).toContain('evidence (not a label):');
    expect(r.stdout).toContain(`later tests of StringsTest @ ${later[0]!.slice(0, 7)}: fix passes `);
    expect(r.stdout).toMatch(new RegExp(`later tests of StringsTest @ ${later[0]!.slice(0, 7)}: fix passes \\d+, candidate fails 1: truncateKeepsEveryStringThatFitsExactly`));
    expect(r.stdout).toContain(`later tests of StringsTest @ ${mainFirst.slice(0, 7)} (a branch beside the fix): not applicable — the later org.repairlab.textkit.StringsTest does not compile`);
  }, 120_000);

  it('one bug only, fewer revisions; a bug without items is refused', async () => {
    const r = await cli(['review', 'evidence', ID, '--bug', 'textkit-1', '--revisions', '1', ...runnerFlags(), '--json']);
    expect(r.code).toBe(0);
    const done = JSON.parse(r.stdout) as { evidence: PatchEvidence[] };
    expect(done.evidence.map((e) => e.commit)).toEqual([later[0], later[0]]);
    // computing again replaces the items' earlier evidence
    expect((await readdir(join(home, 'records', 'patch-evidence'))).length).toBe(2);
    const none = await cli(['review', 'evidence', ID, '--bug', 'textkit-2', ...runnerFlags()]);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('the queue has no item of textkit-2');
  }, 600_000);

  it('--history-repo: later revisions from a repository on disk (no fixed revision recorded: a note, time order); a directory that is no repository and a repository without the bug are refused', async () => {
    const r = await cli(['review', 'evidence', ID, '--bug', 'textkit-1', '--revisions', '1', '--history-repo', scratch, ...runnerFlags()]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('note: textkit-1: its bundle records no git commit id of the real fixed revision');
    const q = JSON.parse((await cli(['review', 'queue', ID, '--json'])).stdout) as Queue;
    const evidence = q.items.flatMap((i) => i.evidence ?? []);
    expect(evidence.length).toBe(2);
    expect(evidence.every((e) => !e.afterFix && [...later, mainFirst].includes(e.commit))).toBe(true);
    const notRepo = await cli(['review', 'evidence', ID, '--history-repo', join(scratch, 'no-such-dir'), ...runnerFlags()]);
    expect(notRepo.code).not.toBe(0);
    expect(notRepo.stderr).toContain('is not a git repository');
    const other = await mkdtemp(join(tmpdir(), 'review-evidence-other-'));
    try {
      execFileSync('git', ['-C', other, 'init', '-q']);
      execFileSync('git', ['-C', other, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x']);
      const wrong = await cli(['review', 'evidence', ID, '--history-repo', other, ...runnerFlags()]);
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).toMatch(/this repository does not hold [0-9a-f]{40}, the bug's original buggy revision \(textkit-1\): pass the project's repository/);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  }, 600_000);
});
