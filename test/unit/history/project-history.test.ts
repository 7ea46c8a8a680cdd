// Later test revisions read from the project's real repository (`review evidence --history-repo`): a Defects4J-like
// import whose bundle stops at the original buggy revision (its branch `main` is that revision; the synthetic buggy and
// fixed commits sit on top, under refs/repairlab/…) and the upstream repository with the fix and later commits touching
// the test file. Both built here with the git CLI.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BugSpec } from '../../../worker/contracts/bug.ts';
import { openOnDiskRepo } from '../../../worker/cli/on-disk-repo.ts';
import { laterTestRevisions, projectHistory } from '../../../worker/history/later-test-revisions.ts';

const SRC = 'src/main/java/p/Foo.java';
const TEST = 'src/test/java/p/FooTest.java';
const foo = (body: string) => `package p;\npublic class Foo {\n  public static int f(int x) { ${body} }\n}\n`;
const fooTest = (tests: string[]) => `package p;\nimport org.junit.Test;\npublic class FooTest {\n${tests.map((t) => `  @Test public void ${t}() {}\n`).join('')}}\n`;

let work: string;
let upstream: string;
let bundle: string;
let c: Record<string, string>;
let bug: BugSpec;
const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  }).trim();
const write = (dir: string, path: string, text: string) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};
let tick = 0;
const commit = (dir: string, message: string) => {
  const when = `${1_600_000_000 + 1000 * ++tick} +0000`;
  execFileSync('git', ['-C', dir, 'add', '-A']);
  execFileSync('git', ['-C', dir, 'commit', '-q', '-m', message], { env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when } });
  return git(dir, 'rev-parse', 'HEAD');
};

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'repairlab-project-history-'));
  upstream = join(work, 'upstream');
  bundle = join(work, 'bundle');
  mkdirSync(upstream);
  git(upstream, 'init', '-q', '--initial-branch=master');
  c = {};
  write(upstream, SRC, foo('return x;'));
  write(upstream, TEST, fooTest(['a']));
  c.first = commit(upstream, 'first');
  write(upstream, 'README', 'readme\n');
  c.buggy = commit(upstream, 'the buggy revision');
  write(upstream, SRC, foo('return x + 1;'));
  write(upstream, TEST, fooTest(['a', 'trigger']));
  c.fix = commit(upstream, 'the fix');
  write(upstream, 'README', 'readme 2\n');
  c.unrelated = commit(upstream, 'unrelated');
  write(upstream, TEST, fooTest(['a', 'trigger', 'later1']));
  c.later1 = commit(upstream, 'later test 1');
  write(upstream, TEST, fooTest(['a', 'trigger', 'later1', 'later2']));
  c.later2 = commit(upstream, 'later test 2');

  // the import: main is the original buggy revision; the buggy version is the fixed tree with the source patch reverted
  git(upstream, 'branch', 'd4j-buggy', c.buggy);
  mkdirSync(bundle);
  git(bundle, 'init', '-q', '--initial-branch=main');
  git(bundle, 'fetch', '-q', '--update-head-ok', upstream, 'd4j-buggy:refs/heads/main');
  git(upstream, 'branch', '-D', 'd4j-buggy');
  git(bundle, 'checkout', '-q', '--detach', 'main');
  write(bundle, SRC, foo('return x;'));
  write(bundle, TEST, fooTest(['a', 'trigger']));
  c.synthBuggy = commit(bundle, `Defects4J P-1: buggy version\n\nFixed revision ${c.fix} with the source patch reverted and 0 broken test(s) removed.`);
  write(bundle, SRC, foo('return x + 1;'));
  c.synthFixed = commit(bundle, 'Defects4J P-1: developer fix (ground truth)');
  git(bundle, 'update-ref', 'refs/repairlab/bugs/P-1', c.synthBuggy);
  git(bundle, 'update-ref', 'refs/repairlab/fixes/P-1', c.synthFixed);
  git(bundle, 'checkout', '-q', 'main');

  const spec = JSON.parse(readFileSync('public/benchmarks/bugs/textkit-1.json', 'utf8')) as Record<string, unknown>;
  bug = BugSpec.parse({
    ...spec,
    id: 'P-1',
    library: 'p',
    repoId: 'p',
    buggyCommit: c.synthBuggy,
    historyCommit: c.buggy,
    failingTests: ['p.FooTest::trigger'],
    faultLocalization: [{ file: SRC, lines: [3], kind: 'modify' }],
    groundTruth: { fixedCommit: c.synthFixed, patch: git(bundle, 'diff', '--full-index', c.synthBuggy, c.synthFixed) + '\n' },
  });
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('later test revisions from the project repository', () => {
  it('finds none in the bundle alone: its history stops at the buggy revision', async () => {
    expect(await laterTestRevisions(openOnDiskRepo(bundle), bug)).toEqual([]);
  });

  it('reads them from the upstream repository: after the real fix, the fix\'s own test content excluded', async () => {
    const session = openOnDiskRepo(bundle);
    const project = await projectHistory(openOnDiskRepo(upstream), session, bug);
    expect(project.note).toBeUndefined();
    expect(project.history.fix).toBe(c.fix);
    const revisions = await laterTestRevisions(session, bug, { history: project.history, revisions: 5 });
    expect(revisions.map((r) => [r.commit, r.afterFix, r.testFile, r.testClass])).toEqual([
      [c.later1, true, TEST, 'p.FooTest'],
      [c.later2, true, TEST, 'p.FooTest'],
    ]);
    // the blob is the upstream content (read from that repository)
    expect(new TextDecoder().decode(await openOnDiskRepo(upstream).readBlob(revisions[0]!.blob))).toBe(fooTest(['a', 'trigger', 'later1']));
    expect((await laterTestRevisions(session, bug, { history: project.history, revisions: 1 })).map((r) => r.commit)).toEqual([c.later1]);
  });

  it('without the real fixed revision recorded, takes them in time order with a note and none after the fix', async () => {
    const session = openOnDiskRepo(bundle);
    const noFix = BugSpec.parse({ ...bug, buggyCommit: c.synthFixed }); // a buggy commit whose message names no fixed revision
    const project = await projectHistory(openOnDiskRepo(upstream), session, noFix);
    expect(project.note).toMatch(/records no git commit id of the real fixed revision/);
    expect(project.history.fix).toBeUndefined();
  });

  it('refuses a repository without the original buggy revision, and a directory that is no repository', async () => {
    const other = join(work, 'other');
    mkdirSync(other);
    git(other, 'init', '-q');
    write(other, 'x', 'x\n');
    commit(other, 'x');
    await expect(projectHistory(openOnDiskRepo(other), openOnDiskRepo(bundle), bug)).rejects.toThrow(
      `this repository does not hold ${c.buggy}, the bug's original buggy revision (P-1): pass the project's repository.`,
    );
    expect(() => openOnDiskRepo(join(work, 'nothing'))).toThrow(/is not a git repository/);
  });
});
