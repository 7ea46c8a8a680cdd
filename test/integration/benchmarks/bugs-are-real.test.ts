// The bundled-benchmark check (issue 6), on the shipped bundles and through the real runner
// (bubblewrap + javac + JUnit): for every bug the runner fails exactly the listed failing tests on the
// buggy commit and passes every test on the fixed commit; fault localization, category and
// blameability agree with the ground-truth diff; the tip of main passes its whole suite.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BenchmarkIndex, BugSpec } from '../../../worker/contracts/bug.ts';
import type { ValidationResult } from '../../../worker/contracts/runner-api.ts';
import { classifyFix } from '../../../worker/diff/fix-classification.ts';
import { faultLocalizationFromDiff } from '../../../worker/diff/fix-locations.ts';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import { startRunner, type RunningRunner } from '../../../runner/src/index.ts';
import { fixDiff, DEFAULT_OUT_DIR } from '../../../benchmarks/build.ts';
import { git, openBundle } from '../../../benchmarks/git.ts';
import { GitCliWorkspace, overlayBetween } from '../../../benchmarks/verify/git-cli-workspace.ts';

const index = BenchmarkIndex.parse(JSON.parse(readFileSync(join(DEFAULT_OUT_DIR, 'index.json'), 'utf8')));
const bugs = index.bugs.map((p) => BugSpec.parse(JSON.parse(readFileSync(join(DEFAULT_OUT_DIR, p), 'utf8'))));
const work = mkdtempSync(join(tmpdir(), 'repairlab-bugcheck-'));
// the runner's data dir sits directly under the temp dir, as the runner's own tests do (the sandbox must reach it)
const runnerDataDir = mkdtempSync(join(tmpdir(), 'repairlab-runner-bugcheck-'));
const repoDir = (repoId: string) => join(work, 'repos', `${repoId}.git`);
const outcomes = new Map<string, { buggy: ValidationResult; fixed: ValidationResult }>();
const mainOutcomes = new Map<string, ValidationResult>();
let runner: RunningRunner | undefined;

const failing = (r: ValidationResult) => r.tests.filter((t) => t.status !== 'pass' && t.status !== 'skipped').map((t) => t.id).sort();
const explain = (r: ValidationResult) =>
  [r.diagnostics.map((d) => `${d.file}:${d.line}: ${d.message}`).join('\n'), r.tests.filter((t) => t.status !== 'pass').map((t) => `${t.id}: ${t.status} ${t.failure?.message ?? ''}`).join('\n')].join('\n');

/** Runs jobs two at a time (the runner has two workers on this 2-core machine). */
async function inPairs<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all([lane(), lane()]);
  return results;
}

beforeAll(async () => {
  runner = await startRunner({ port: 0, dataDir: runnerDataDir, allowedOrigins: [], sandbox: 'bwrap', workers: 2, log: () => undefined });
  const client = new RunnerClient({ url: runner.url, token: runner.token });
  for (const repo of index.repositories) openBundle(join(DEFAULT_OUT_DIR, repo.bundle), repoDir(repo.repoId));
  const layout = bugs[0]!.layout;
  const all = { mode: 'all' as const };
  // One runner snapshot per library (the tip of main), validated on the runner's warm path: each buggy and
  // fixed commit is that snapshot plus an overlay of the source and test files in which the commit differs,
  // so the compiled and tested files are exactly the commit's. Files outside the source and test
  // directories (README, pom.xml) take no part in compiling or testing and are checked to be the only rest.
  await inPairs(
    index.repositories.map((repo) => async () => {
      const dir = repoDir(repo.repoId);
      const workspace = new GitCliWorkspace(dir, git(dir, ['rev-parse', 'refs/heads/main']).trim());
      mainOutcomes.set(repo.repoId, await client.validate(workspace, layout, all));
      const codeOverlay = (target: string) => {
        const overlay = overlayBetween(dir, workspace.commit, target);
        const inCode = (p: string) => [...layout.sourceDirs, ...layout.testDirs].some((d) => p.startsWith(`${d}/`));
        const rest = Object.keys(overlay).filter((p) => !inCode(p));
        if (rest.some((p) => p.endsWith('.java'))) throw new Error(`${target}: Java files outside the layout: ${rest.join(', ')}`);
        return Object.fromEntries(Object.entries(overlay).filter(([p]) => inCode(p)));
      };
      for (const bug of bugs.filter((b) => b.repoId === repo.repoId)) {
        // the commits' own test files differ from the tip's: a trusted overlay (testEdits any), never a model's
        workspace.setOverlay(codeOverlay(bug.buggyCommit));
        const buggy = await client.validate(workspace, bug.layout, all, { testEdits: 'any' });
        workspace.setOverlay(codeOverlay(bug.groundTruth.fixedCommit!));
        const fixed = await client.validate(workspace, bug.layout, all, { testEdits: 'any' });
        outcomes.set(bug.id, { buggy, fixed });
      }
    }),
  );
}, 600_000);

afterAll(async () => {
  await runner?.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(runnerDataDir, { recursive: true, force: true });
});

describe.each(index.repositories.map((r) => [r.repoId] as const))('bundled library %s', (repoId) => {
  it('passes every test at the tip of main (no bug is exposed there)', () => {
    const tip = mainOutcomes.get(repoId)!;
    expect(tip.compiled, explain(tip)).toBe(true);
    expect(tip.tests.length).toBeGreaterThan(10);
    expect(failing(tip), explain(tip)).toEqual([]);
  });
});

describe.each(bugs.map((b) => [b.id, b] as const))('bundled bug %s', (_id, bug) => {
  it('fails exactly the listed tests on the buggy commit and passes every test on the fixed commit', () => {
    const { buggy, fixed } = outcomes.get(bug.id)!;
    expect(buggy.compiled, explain(buggy)).toBe(true);
    expect(failing(buggy), explain(buggy)).toEqual([...bug.failingTests].sort());
    expect(fixed.compiled, explain(fixed)).toBe(true);
    expect(failing(fixed), explain(fixed)).toEqual([]);
    expect(fixed.plausible).toBe(true);
    expect(fixed.tests.map((t) => t.id)).toEqual(expect.arrayContaining(bug.failingTests));
  });

  it('ships the ground truth as the diff between its refs', () => {
    const dir = repoDir(bug.repoId);
    expect(git(dir, ['rev-parse', `refs/repairlab/bugs/${bug.id}`]).trim()).toBe(bug.buggyCommit);
    expect(git(dir, ['rev-parse', `refs/repairlab/fixes/${bug.id}`]).trim()).toBe(bug.groundTruth.fixedCommit);
    expect(git(dir, ['rev-parse', `${bug.groundTruth.fixedCommit}^`]).trim()).toBe(bug.buggyCommit);
    expect(fixDiff(dir, bug.buggyCommit, bug.groundTruth.fixedCommit!)).toBe(bug.groundTruth.patch);
  });

  it('has fault localization, category and blameability that match the ground-truth diff', () => {
    const patch = bug.groundTruth.patch!;
    const strip = (fl: BugSpec['faultLocalization']) => fl.map(({ file, lines, kind }) => ({ file, lines, kind }));
    expect(strip(bug.faultLocalization)).toEqual(strip(faultLocalizationFromDiff(patch)));
    const { category, blameable } = classifyFix(patch);
    expect({ category: bug.category, blameable: bug.blameable }).toEqual({ category, blameable });
  });
});
