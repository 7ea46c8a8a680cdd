// The Defects4J importer on a generated fixture laid out like Defects4J, checked with real git and
// real javac/JUnit: Defects4J's buggy version, real history for blame, no fix leaked into the bundle.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BenchmarkIndex, BugSpec } from '../../../worker/contracts/bug.ts';
import { classifyFix } from '../../../worker/diff/fix-classification.ts';
import { importDefects4j, Defects4jImportError, type ImportResult } from '../../../worker/node/defects4j/defects4j-import.ts';
import { git, openBundle } from '../../../benchmarks/git.ts';
import { failingIds, materializeCommit, runRevisions } from '../../../benchmarks/verify/direct-junit.ts';
import { createDefects4jFixture, type Defects4jFixture } from './support/defects4j-fixture.ts';

const root = mkdtempSync(join(tmpdir(), 'repairlab-d4j-test-'));
let fixture: Defects4jFixture;
let result: ImportResult;
const outDir = join(root, 'out');
const repo = (bugId: string) => join(root, 'unbundled', `${bugId}.git`);
const spec = (bugId: string) => result.bugs.find((b) => b.spec.id === bugId)!.spec;

beforeAll(() => {
  fixture = createDefects4jFixture(root);
  result = importDefects4j({ projectRepo: fixture.projectRepo, d4jDir: fixture.d4jDir, project: 'Calc', bugs: '1-2', outDir });
  for (const bug of result.bugs) openBundle(bug.bundlePath, repo(bug.spec.id));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('importDefects4j', () => {
  it('writes a valid BugSpec per bug, with failing tests from trigger_tests and the layout from dir-layout.csv', () => {
    const index = BenchmarkIndex.parse(JSON.parse(readFileSync(join(outDir, 'index.json'), 'utf8')));
    expect(index.bugs).toEqual(['bugs/Calc-1.json', 'bugs/Calc-2.json']);
    const onDisk = BugSpec.parse(JSON.parse(readFileSync(join(outDir, 'bugs/Calc-1.json'), 'utf8')));
    expect(onDisk.failingTests).toEqual(['org.fixture.CalcTest::testIsPositiveZero']);
    expect(onDisk.layout).toMatchObject({ sourceDirs: ['src/main/java'], testDirs: ['src/test/java'], junit: 'junit4' });
    expect(onDisk.report.title).toContain('CALC-1');
    expect(spec('Calc-2').failingTests).toEqual(['org.fixture.CalcTest::testSafeDivByZero']);
  });

  it('builds the buggy version on top of the original buggy revision, keeping the real history', () => {
    const dir = repo('Calc-1');
    expect(git(dir, ['rev-parse', `${spec('Calc-1').buggyCommit}^`]).trim()).toBe(fixture.revisions.buggy1);
    expect(git(dir, ['rev-parse', 'refs/heads/main']).trim()).toBe(fixture.revisions.buggy1);
    expect(git(dir, ['rev-list', '--count', fixture.revisions.buggy1]).trim()).toBe('4');
    // blame of the faulty line reaches the upstream commit that introduced it
    const fl = spec('Calc-1').faultLocalization[0]!;
    const blamed = git(dir, ['blame', '--porcelain', '-L', `${fl.lines[0]},${fl.lines[0]}`, spec('Calc-1').buggyCommit, '--', fl.file]).split(' ')[0];
    expect(blamed).toBe(fixture.revisions.introducesBug1);
  });

  it('takes the tests from the fixed revision and empties the broken ones, as Defects4J does', () => {
    const buggyTest = git(repo('Calc-1'), ['show', `${spec('Calc-1').buggyCommit}:src/test/java/org/fixture/CalcTest.java`]);
    expect(buggyTest).toContain('testIsPositiveZero');
    expect(buggyTest).toContain('public void testFlaky() {} // Defects4J: a broken test, emptied as rm_broken_tests.pl does');
    expect(buggyTest).not.toContain('depends on the wall clock');
    const imported = result.bugs.find((b) => b.spec.id === 'Calc-1')!;
    expect(imported.removedTests).toEqual(['org.fixture.CalcTest::testFlaky']);
    expect(imported.unmatchedTests).toEqual(['org.fixture.CalcTest::testNoSuchMethod']);
  });

  it('derives perfect fault localization, category and blameability from the fix', () => {
    const one = spec('Calc-1');
    const buggySource = git(repo('Calc-1'), ['show', `${one.buggyCommit}:${one.faultLocalization[0]!.file}`]).split('\n');
    expect(one.faultLocalization).toHaveLength(1);
    expect(one.faultLocalization[0]).toMatchObject({ kind: 'modify', method: 'isPositive', className: 'Calc' });
    expect(buggySource[one.faultLocalization[0]!.lines[0]! - 1]!.trim()).toBe('return v >= 0;');
    expect({ category: one.category, blameable: one.blameable }).toEqual({ category: 'SL', blameable: true });
    const two = spec('Calc-2');
    expect(two.faultLocalization[0]).toMatchObject({ kind: 'insert', method: 'safeDiv' });
    expect({ category: two.category, blameable: two.blameable }).toEqual({ category: 'SH', blameable: false });
    expect(classifyFix(two.groundTruth.patch!).category).toBe('SH');
    expect(two.groundTruth.patch).not.toContain('README');
  });

  it('never ships the original fixed revision or anything after the buggy revision', () => {
    for (const [bugId, fixedRevision] of [['Calc-1', fixture.revisions.fixed1], ['Calc-2', fixture.revisions.fixed2]] as const) {
      expect(() => git(repo(bugId), ['cat-file', '-e', `${fixedRevision}^{commit}`])).toThrow();
    }
    const refs = git(repo('Calc-1'), ['for-each-ref', '--format=%(refname)']).trim().split('\n').sort();
    // jars/: the tree of lib/'s jars (layout.jars), reachable from no commit
    expect(refs).toEqual(['refs/heads/main', 'refs/repairlab/bugs/Calc-1', 'refs/repairlab/fixes/Calc-1', 'refs/repairlab/jars/Calc-1']);
    expect(git(repo('Calc-1'), ['cat-file', '-t', 'refs/repairlab/jars/Calc-1']).trim()).toBe('tree');
  });

  it('gives a buggy version that fails exactly the trigger tests and a fix that passes them (real javac/JUnit)', async () => {
    const dirs: string[] = [];
    for (const bug of result.bugs) {
      for (const side of ['buggy', 'fixed'] as const) {
        const dir = join(root, 'rev', bug.spec.id, side);
        materializeCommit(repo(bug.spec.id), side === 'buggy' ? bug.spec.buggyCommit : bug.spec.groundTruth.fixedCommit!, dir);
        dirs.push(dir);
      }
    }
    const outcomes = await runRevisions(dirs, result.bugs[0]!.spec.layout);
    for (const bug of result.bugs) {
      const buggy = outcomes.get(join(root, 'rev', bug.spec.id, 'buggy'))!;
      const fixed = outcomes.get(join(root, 'rev', bug.spec.id, 'fixed'))!;
      expect(failingIds(buggy)).toEqual(bug.spec.failingTests);
      expect(failingIds(fixed)).toEqual([]);
    }
  }, 120_000);

  it('is deterministic: importing again, from a bare clone as Defects4J keeps them, gives the same commits', () => {
    const bare = join(root, 'project_repos', 'calc.git');
    execFileSync('git', ['clone', '--quiet', '--bare', fixture.projectRepo, bare]);
    const again = importDefects4j({ projectRepo: bare, d4jDir: fixture.d4jDir, project: 'Calc', bugs: [1], outDir: join(root, 'again') });
    expect(again.bugs[0]!.spec.buggyCommit).toBe(spec('Calc-1').buggyCommit);
    expect(again.bugs[0]!.spec.groundTruth).toEqual(spec('Calc-1').groundTruth);
  });

  it('names the input at fault', () => {
    const base = { projectRepo: fixture.projectRepo, d4jDir: fixture.d4jDir, project: 'Calc', outDir: join(root, 'bad') };
    expect(() => importDefects4j({ ...base, project: 'Nope' })).toThrow(/no Defects4J project "Nope".*found: Calc/);
    expect(() => importDefects4j({ ...base, bugs: '9' })).toThrow(Defects4jImportError);
    expect(() => importDefects4j({ ...base, bugs: '9' })).toThrow(/bugs 9 are not in Calc's active-bugs.csv/);
    expect(() => importDefects4j({ ...base, projectRepo: join(root, 'missing') })).toThrow(/--project-repo .* does not exist/);
  });
});
