// The bundled-benchmark check (issue 6): for every bug in public/benchmarks, on the shipped bundle,
// the real javac + JUnit fail exactly the listed failing tests on the buggy commit and pass everything
// on the fixed commit; fault localization, category and blameability agree with the ground-truth diff.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BenchmarkIndex, BugSpec } from '../../../worker/contracts/bug.ts';
import { classifyFix } from '../../../worker/benchmarks/classify.ts';
import { faultLocalizationFromDiff } from '../../../worker/benchmarks/fault-localization.ts';
import { fixDiff, DEFAULT_OUT_DIR } from '../../../benchmarks/build.ts';
import { git, openBundle } from '../../../benchmarks/git.ts';
import { failingIds, materializeCommit, missingJavaPrerequisites, runRevisions, type RevisionOutcome } from '../../../benchmarks/verify/direct-junit.ts';

const index = BenchmarkIndex.parse(JSON.parse(readFileSync(join(DEFAULT_OUT_DIR, 'index.json'), 'utf8')));
const bugs = index.bugs.map((p) => BugSpec.parse(JSON.parse(readFileSync(join(DEFAULT_OUT_DIR, p), 'utf8'))));
const work = mkdtempSync(join(tmpdir(), 'repairlab-bugcheck-'));
const repoDir = (repoId: string) => join(work, 'repos', `${repoId}.git`);
const outcomes = new Map<string, { buggy: RevisionOutcome; fixed: RevisionOutcome }>();

beforeAll(async () => {
  const missing = missingJavaPrerequisites();
  if (missing.length) throw new Error(`the bug check needs ${missing.join(', ')} (Debian: apt-get install default-jdk junit4)`);
  for (const repo of index.repositories) openBundle(join(DEFAULT_OUT_DIR, repo.bundle), repoDir(repo.repoId));
  const dirs: string[] = [];
  for (const bug of bugs) {
    for (const side of ['buggy', 'fixed'] as const) {
      const commit = side === 'buggy' ? bug.buggyCommit : bug.groundTruth.fixedCommit!;
      const dir = join(work, 'rev', bug.id, side);
      materializeCommit(repoDir(bug.repoId), commit, dir);
      dirs.push(dir);
    }
  }
  // every bundled library shares one layout, so one harness run covers all revisions
  const results = await runRevisions(dirs, bugs[0]!.layout);
  for (const bug of bugs) {
    outcomes.set(bug.id, {
      buggy: results.get(join(work, 'rev', bug.id, 'buggy'))!,
      fixed: results.get(join(work, 'rev', bug.id, 'fixed'))!,
    });
  }
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(bugs.map((b) => [b.id, b] as const))('bundled bug %s', (_id, bug) => {
  it('fails exactly the listed tests on the buggy commit and passes every test on the fixed commit', () => {
    const { buggy, fixed } = outcomes.get(bug.id)!;
    expect(buggy.compiled, buggy.diagnostics.join('\n')).toBe(true);
    const describe = (o: RevisionOutcome) => o.tests.filter((t) => t.status !== 'pass').map((t) => `${t.id}: ${t.message}`).join('\n');
    expect(failingIds(buggy), describe(buggy)).toEqual([...bug.failingTests].sort());
    expect(fixed.compiled, fixed.diagnostics.join('\n')).toBe(true);
    expect(failingIds(fixed), describe(fixed)).toEqual([]);
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
