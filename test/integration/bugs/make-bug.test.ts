// From an imported repository to a bug, on real git objects and a real runner: the bundled textkit bundle imported
// under another name (mytext) is browsed (history of every ref, a folder, a file — checked against the git CLI on a
// clone of the same bundle), its tests found at a commit, and a bug made at textkit-1's buggy commit with textkit-1's
// failing test and fixing commit. The made bug must equal what the benchmark builder made of the same commits
// (fault lines, category, blameability, ground truth), be stored (a JSON file in Node), listed, opened, validated
// and repaired by an agent like a bundled bug, and deleted. Without a fixing commit the fault lines come from the
// runner's coverage (Ochiai). Bad drafts are refused naming the field and what to do.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BugSpec } from '../../../worker/contracts/bug.ts';
import type { BugDraft } from '../../../worker/contracts/bug-from-repo.ts';
import type { Engine } from '../../../worker/bugs/engine.ts';
import { commitTests } from '../../../worker/bugs/repo-tests.ts';
import { makeBug, runSuite } from '../../../worker/bugs/make-bug.ts';
import { commitLog, fileAtCommit, treeListing } from '../../../worker/repo/repo-browse.ts';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { useRunManagerHome } from '../../helpers/run-manager-home.ts';

const lab = useRunManagerHome('make-bug');
const bare = join(lab.home, 'textkit.git');
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const git = (...args: string[]) => execFileSync('git', ['-C', bare, '-c', 'core.abbrev=7', ...args], { encoding: 'utf8', env, maxBuffer: 1 << 26 });

const REPO = 'mytext';
let engine: Engine;
let textkit1: BugSpec;
const FAILING = 'org.repairlab.textkit.StringsTest::truncateKeepsStringThatFitsExactly';
const PASSING = 'org.repairlab.textkit.StringsTest::truncateCutsLongStrings';

const draft = (over: Partial<BugDraft> = {}): BugDraft => ({
  repoId: REPO,
  id: 'mytext-1',
  buggyCommit: textkit1.buggyCommit,
  fixedCommit: textkit1.groundTruth.fixedCommit,
  failingTests: [FAILING],
  title: 'truncate() cuts strings that already fit',
  body: 'Strings.truncate("hello", 5) gives "he..."',
  ...over,
});

beforeAll(async () => {
  engine = lab.engine();
  const [imported] = await engine.importFiles([{ name: `${REPO}.bundle`, bytes: readFileSync('public/benchmarks/textkit.bundle') }]);
  expect(imported?.ok, imported?.message).toBe(true);
  textkit1 = await engine.catalog.bug('textkit-1');
  // every ref of the bundle, the benchmark's bug and fix refs included, as the store imported them
  execFileSync('git', ['init', '-q', '--bare', bare], { env });
  git('fetch', '-q', join(process.cwd(), 'public/benchmarks/textkit.bundle'), '+refs/*:refs/*');
}, 180_000);

describe('browsing a stored repository', () => {
  it("lists every ref's commits newest first, with their messages and refs, a page at a time", async () => {
    const session = await engine.repoSession(REPO);
    const all = git('rev-list', '--all').trim().split('\n');
    const first = await commitLog(session, { limit: 25 });
    const rest = await commitLog(session, { skip: 25, limit: 500 });
    expect(first.more).toBe(true);
    expect(rest.more).toBe(false);
    const listed = [...first.commits, ...rest.commits];
    expect(listed.map((c) => c.oid).sort()).toEqual([...all].sort());
    for (let i = 1; i < listed.length; i++) expect(listed[i]!.timestamp).toBeLessThanOrEqual(listed[i - 1]!.timestamp);
    for (const c of listed) {
      const [subject, author, time] = git('log', '-1', '--format=%s%n%an%n%ct', c.oid).trim().split('\n');
      expect({ subject: c.subject, author: c.author.name, time: c.timestamp }).toEqual({ subject, author, time: Number(time) });
    }
    const buggy = listed.find((c) => c.oid === textkit1.buggyCommit)!;
    expect(buggy.refs).toEqual(['repairlab/bugs/textkit-1']);
    expect(buggy.message).toBe(git('log', '-1', '--format=%B', buggy.oid).replace(/\n+$/, ''));
    expect(listed[0]!.timestamp).toBe(Math.max(...listed.map((c) => c.timestamp)));
  });

  it('lists a folder and shows a file at a commit as git does, and names what is not there', async () => {
    const session = await engine.repoSession(REPO);
    const top = await treeListing(session, textkit1.buggyCommit);
    expect(top.entries.map((e) => e.name).sort()).toEqual(git('ls-tree', '--name-only', textkit1.buggyCommit).trim().split('\n').sort());
    expect(top.entries[0]!.kind).toBe('dir');
    const dir = 'src/main/java/org/repairlab/textkit';
    const listing = await treeListing(session, textkit1.buggyCommit, dir);
    expect(listing.entries.map((e) => e.path)).toEqual(git('ls-tree', '--name-only', `${textkit1.buggyCommit}:${dir}`).trim().split('\n').map((n) => `${dir}/${n}`));
    const file = await fileAtCommit(session, textkit1.buggyCommit, `${dir}/Strings.java`);
    expect(file).toMatchObject({ binary: false, truncated: false, commit: textkit1.buggyCommit });
    expect(file.text).toBe(git('show', `${textkit1.buggyCommit}:${dir}/Strings.java`));
    await expect(treeListing(session, textkit1.buggyCommit, 'src/nowhere')).rejects.toThrow(/There is no folder src\/nowhere at commit/);
    await expect(fileAtCommit(session, textkit1.buggyCommit, 'src')).rejects.toThrow(/is a folder/);
    await expect(treeListing(session, 'no-such-branch')).rejects.toThrow(/not found in repository mytext/);
  });

  it("finds the commit's layout and every test method tree-sitter sees, the bug's failing test among them", async () => {
    const tests = await commitTests(await engine.repoSession(REPO), await initJavaForNode(), textkit1.buggyCommit);
    expect(tests.layout).toMatchObject({ sourceDirs: ['src/main/java'], testDirs: ['src/test/java'], junit: 'junit4', javaRelease: 11 });
    const annotated = git('grep', '-h', '-A2', '@Test', textkit1.buggyCommit, '--', 'src/test')
      .split('\n')
      .map((l) => /void\s+(\w+)\s*\(/.exec(l)?.[1])
      .filter(Boolean);
    expect(tests.tests.map((t) => t.method).sort()).toEqual([...annotated].sort());
    expect(tests.tests.map((t) => t.id)).toContain(FAILING);
  });

  it('runs the suite at a commit on the runner and names the tests that fail there', async () => {
    const run = await runSuite(engine, REPO, textkit1.buggyCommit, lab.runner);
    expect(run).toMatchObject({ compiled: true, failing: [FAILING] });
    expect(run.ran).toBeGreaterThan(10);
  });
});

describe('making a bug', () => {
  it('with a fixing commit: the bug the benchmark builder made of the same commits, stored, listed, and run like a bundled one', async () => {
    const made = await makeBug(engine, draft(), lab.runner);
    expect(made).toMatchObject({ id: 'mytext-1', faultLinesFrom: 'fix', category: textkit1.category, blameable: textkit1.blameable });
    const bug = await engine.catalog.bug('mytext-1');
    expect(bug).toMatchObject({
      repoId: REPO,
      repository: { kind: 'imported', repoId: REPO },
      buggyCommit: textkit1.buggyCommit,
      failingTests: [FAILING],
      faultLocalization: textkit1.faultLocalization,
      category: textkit1.category,
      blameable: textkit1.blameable,
      groundTruth: { fixedCommit: textkit1.groundTruth.fixedCommit },
      layout: { sourceDirs: ['src/main/java'], testDirs: ['src/test/java'], junit: 'junit4' },
    });
    // the ground truth is the program files' diff, as git prints it
    expect(bug.groundTruth.patch).toBe(git('diff', '--no-renames', textkit1.buggyCommit, textkit1.groundTruth.fixedCommit!, '--', 'src/main/java'));

    // stored as a JSON file of the home's records, and read back by another engine over the same home
    expect(existsSync(join(lab.home, 'records', 'made-bugs', 'mytext-1.json'))).toBe(true);
    const reopened = lab.engine();
    expect((await reopened.listBugs()).find((b) => b.id === 'mytext-1')).toMatchObject({ origin: 'made', library: REPO, imported: true, failingTests: [FAILING] });
    expect((await reopened.listBugs()).find((b) => b.id === 'textkit-1')?.origin).toBe('bundled');
    const view = await reopened.bugView('mytext-1');
    expect(view.failingTestSources[0]!.excerpt?.lines.join('\n')).toContain('truncateKeepsStringThatFitsExactly');
    expect(view.buggyCode[0]!.highlight).toEqual(textkit1.faultLocalization[0]!.lines);
    expect('groundTruth' in view.bug).toBe(false);
    expect((await reopened.validatePatch('mytext-1', 'none', lab.runner)).failingTests).toEqual([FAILING]);
    expect((await reopened.validatePatch('mytext-1', 'ground-truth', lab.runner)).plausible).toBe(true);

    // an agent runs on it as on the bundled bug: the one-shot preset with the developers' fix as its reply
    const fix = `The early return must keep strings of exactly maxLength.\n\`\`\`diff\n${bug.groundTruth.patch}\`\`\``;
    const [run] = await lab.runs().start({ bugId: 'mytext-1', preset: 'oneshot', model: { kind: 'scripted', replies: [fix] }, runner: lab.runner }, () => undefined);
    expect(run!.outcome?.status).toBe('plausible');
    expect(run!.outcome?.exactMatch).toBe(true);

    await reopened.deleteBug('mytext-1');
    expect((await reopened.listBugs()).some((b) => b.id === 'mytext-1')).toBe(false);
    expect(existsSync(join(lab.home, 'records', 'made-bugs', 'mytext-1.json'))).toBe(false);
    await expect(reopened.deleteBug('textkit-1')).rejects.toThrow(/bundled bug: it ships with RepairLab/);
  }, 240_000);

  it('without a fixing commit: fault lines from Ochiai over the runner\'s coverage, the category read from them, no ground truth', async () => {
    const made = await makeBug(engine, draft({ id: 'mytext-ochiai', fixedCommit: undefined }), lab.runner);
    expect(made.faultLinesFrom).toBe('ochiai');
    expect(made.notes.join('\n')).toMatch(/Ochiai over \d+ tests \(1 failing\)/);
    const bug = await engine.catalog.bug('mytext-ochiai');
    expect(bug.groundTruth).toEqual({});
    const strings = bug.faultLocalization.find((l) => l.file === 'src/main/java/org/repairlab/textkit/Strings.java');
    // the failing test runs truncate: its lines rank first (the faulty line 58 among the lines it covers)
    expect(strings?.method).toBe('truncate');
    expect(bug.faultLocalization.flatMap((l) => l.lines).length).toBeGreaterThanOrEqual(1);
    expect(['SL', 'SH', 'SFMH', 'MFMH']).toContain(bug.category);
    await engine.deleteBug('mytext-ochiai');
  }, 240_000);

  it('refuses bad drafts naming the field and what to do', async () => {
    const refused = (over: Partial<BugDraft>) => makeBug(engine, draft(over), lab.runner);
    const parent = git('rev-parse', `${textkit1.buggyCommit}^`).trim();
    // a later commit of the main line: it changes program files (CaseFormat) but not truncate's bug
    const unrelated = git('log', '--all', '--format=%H', '--grep=^Add camelToKebab$').trim();
    await expect(refused({ buggyCommit: '0123456789012345678901234567890123456789' })).rejects.toThrow(/^buggyCommit: 0123456789012345678901234567890123456789 is not a commit of repository mytext .*pick a commit from its history/);
    await expect(refused({ fixedCommit: 'no-such-branch' })).rejects.toThrow(/^fixedCommit: no-such-branch is not a commit of repository mytext/);
    await expect(refused({ failingTests: ['org.repairlab.textkit.NoSuchTest::x'] })).rejects.toThrow(/^failingTests\[0\]: org\.repairlab\.textkit\.NoSuchTest::x does not exist at commit \w+: no org\/repairlab\/textkit\/NoSuchTest\.java under src\/test\/java/);
    await expect(refused({ failingTests: [FAILING, 'org.repairlab.textkit.StringsTest::noSuchMethod'] })).rejects.toThrow(/^failingTests\[1\]: .*StringsTest\.java declares no method noSuchMethod/);
    await expect(refused({ failingTests: [PASSING] })).rejects.toThrow(/^failingTests\[0\]: org\.repairlab\.textkit\.StringsTest::truncateCutsLongStrings passes at the buggy commit \w+: a bug needs a failing test/);
    await expect(refused({ fixedCommit: textkit1.buggyCommit })).rejects.toThrow(/^fixedCommit: is the buggy commit itself/);
    await expect(refused({ fixedCommit: parent })).rejects.toThrow(/^fixedCommit: \w+ changes no program file under src\/main\/java/);
    await expect(refused({ fixedCommit: unrelated })).rejects.toThrow(/^fixedCommit: with the program files of \w+, failingTests\[0\] .* still ends fail: this commit does not fix the bug/);
    await expect(refused({ id: 'textkit-1' })).rejects.toThrow(/^id: textkit-1 is already a bundled bug: choose another id\.$/);
    await expect(refused({ id: 'has space' })).rejects.toThrow(/^id: is not a bug id/);
    await expect(refused({ failingTests: ['truncate'] })).rejects.toThrow(/^failingTests\[0\]: test ids look like pkg\.Class::method/);
    await expect(refused({ failingTests: [] })).rejects.toThrow(/^failingTests: is empty: a bug needs a failing test/);
    await expect(refused({ title: '  ' })).rejects.toThrow(/^title: is empty/);
    await expect(refused({ repoId: 'nope' })).rejects.toThrow(/^repoId: Repository nope is not in the local store: import it first/);
    await expect(refused({ layout: { ...textkit1.layout, testDirs: ['tests'] } })).rejects.toThrow(/^layout\.testDirs: tests is not a folder at commit/);
    await expect(refused({ fixedCommit: undefined, faultLocalization: [{ file: 'src/main/java/org/repairlab/textkit/Strings.java', lines: [9999], kind: 'modify' }] })).rejects.toThrow(/^faultLocalization\[0\]\.lines: line 9999 is past the end of/);
    // nothing refused was stored
    expect((await engine.listBugs()).filter((b) => b.origin === 'made')).toEqual([]);
  }, 240_000);
});
