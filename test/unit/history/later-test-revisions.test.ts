// Picking later revisions of a bug's test classes from its real history (worker/history/later-test-revisions.ts), on
// real git objects: the bundled textkit repository plus a branch `later` grown from textkit-1's fix (test/helpers/
// later-history.ts), read through the engine's repository store and checked against the git CLI on the same bundle.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BugSpec } from '../../../worker/contracts/bug.ts';
import { RepoStore } from '../../../worker/repo/repo-store.ts';
import type { RepoSession } from '../../../worker/repo/session.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { bundleHistory, evidenceTestFiles, fixChangedFiles, laterCommits, laterTestRevisions } from '../../../worker/history/later-test-revisions.ts';
import { buildLaterHistory, STRINGS_TEST } from '../../helpers/later-history.ts';

let work: string;
let bug: BugSpec;
let session: RepoSession;
let later: string[];
const git = (...args: string[]) => execFileSync('git', ['-C', join(work, 'git'), ...args], { encoding: 'utf8' }).trim();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'repairlab-later-'));
  bug = BugSpec.parse(JSON.parse(readFileSync('public/benchmarks/bugs/textkit-1.json', 'utf8')));
  execFileSync('mkdir', ['-p', join(work, 'git')]);
  const built = buildLaterHistory(join(work, 'git'), bug.groundTruth.fixedCommit!);
  later = built.later;
  const store = new RepoStore(createNodePlatform({ root: join(work, 'home') }));
  await store.importBundle(bug.repoId, new Uint8Array(readFileSync(built.bundle)));
  session = await store.openRepo(bug.repoId);
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('later revisions of the test classes', () => {
  it('names the trigger test class and the tests named after the classes the fix changes', async () => {
    expect(await fixChangedFiles(session, bug)).toEqual(['src/main/java/org/repairlab/textkit/Strings.java']);
    const files = evidenceTestFiles(bug, ['src/main/java/org/repairlab/textkit/Strings.java', 'src/main/java/org/repairlab/textkit/text/Slugs.java', 'README.md']);
    expect(files).toEqual([
      STRINGS_TEST,
      'src/test/java/org/repairlab/textkit/TestStrings.java',
      'src/test/java/org/repairlab/textkit/StringsTests.java',
      'src/test/java/org/repairlab/textkit/text/SlugsTest.java',
      'src/test/java/org/repairlab/textkit/text/TestSlugs.java',
      'src/test/java/org/repairlab/textkit/text/SlugsTests.java',
    ]);
  });

  it('takes commits on branches that are neither the bug, the fix nor their ancestors: descendants of the fix first, oldest first', async () => {
    const commits = await laterCommits(bundleHistory(session, bug));
    const fix = bug.groundTruth.fixedCommit!;
    // git: every branch's commits not reachable from the buggy or the fix commit
    const expected = git('rev-list', '--branches', `^${bug.buggyCommit}`, `^${fix}`).split('\n').sort();
    expect(commits.map((c) => c.oid).sort()).toEqual(expected);
    expect(commits.slice(0, 3).map((c) => c.oid)).toEqual(later);
    expect(commits.map((c) => c.afterFix)).toEqual(commits.map((c) => later.includes(c.oid)));
    const rest = commits.slice(3).map((c) => c.committer.timestamp);
    expect(rest).toEqual([...rest].sort((a, b) => a - b));
    expect(commits.map((c) => c.oid)).not.toContain(bug.buggyCommit);
  });

  it('takes up to N distinct contents of each test file, skipping commits that leave it alone', async () => {
    const two = await laterTestRevisions(session, bug, { revisions: 2 });
    expect(two.map((r) => [r.commit, r.testFile, r.afterFix])).toEqual([
      [later[0], STRINGS_TEST, true],
      [later[2], STRINGS_TEST, true],
    ]);
    expect(two[0]!.blob).toBe(git('rev-parse', `${later[0]}:${STRINGS_TEST}`));
    expect(two[0]!.testClass).toBe('org.repairlab.textkit.StringsTest');
    expect(two[0]!.subject).toBe('Test truncate at the limit with other strings');
    const all = await laterTestRevisions(session, bug, { revisions: 100 });
    // then main's revisions after the bug branched off, oldest first, each a content the fix's tree does not have
    const onMain = git('log', '--reverse', '--format=%H', 'main', `^${bug.buggyCommit}`, '--', STRINGS_TEST).split('\n');
    expect(all.map((r) => r.commit)).toEqual([later[0], later[2], ...onMain]);
    expect(new Set(all.map((r) => r.blob)).size).toBe(all.length);
    expect((await laterTestRevisions(session, bug)).length).toBe(3);
  });

  it('finds none in a history that ends at the bug (as Defects4J bundles do)', async () => {
    const noLater = { ...bug, buggyCommit: git('rev-parse', 'later'), groundTruth: { ...bug.groundTruth, fixedCommit: git('rev-parse', 'main') } } as BugSpec;
    expect(await laterTestRevisions(session, noLater)).toEqual([]);
  });
});
