// Chart's Defects4J revisions are Subversion numbers; its history is available as a git conversion without them.
// The importer finds the commits by the source patch. Checked on the generated Calc fixture with its active-bugs.csv
// (and the files keyed by revision) renumbered, against the same import by commit ids, with real git.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDefects4j, type ImportResult } from '../../../worker/node/defects4j/defects4j-import.ts';
import { revisionCommits } from '../../../worker/node/defects4j/svn-revisions.ts';
import { createDefects4jFixture, type Defects4jFixture } from './support/defects4j-fixture.ts';

const root = mkdtempSync(join(tmpdir(), 'repairlab-d4j-svn-'));
let fixture: Defects4jFixture;
let byCommit: ImportResult;
let byNumber: ImportResult;
const svnDir = join(root, 'defects4j-svn');

/** The fixture's Defects4J checkout with Subversion-style numbers in place of commit ids, as Chart's is. */
function renumber(numbers: Record<string, string>): void {
  cpSync(fixture.d4jDir, svnDir, { recursive: true });
  const projectDir = join(svnDir, 'framework', 'projects', 'Calc');
  for (const name of ['active-bugs.csv', 'dir-layout.csv']) {
    let text = readFileSync(join(projectDir, name), 'utf8');
    for (const [commit, n] of Object.entries(numbers)) text = text.split(commit).join(n);
    writeFileSync(join(projectDir, name), text);
  }
  for (const [commit, n] of Object.entries(numbers)) {
    try {
      renameSync(join(projectDir, 'failing_tests', commit), join(projectDir, 'failing_tests', n));
    } catch {
      // not every revision has broken tests
    }
  }
}

beforeAll(() => {
  fixture = createDefects4jFixture(root);
  const r = fixture.revisions;
  renumber({ [r.buggy1]: '104', [r.fixed1]: '106', [r.buggy3]: '130', [r.fixed3]: '131' });
  byCommit = importDefects4j({ projectRepo: fixture.projectRepo, d4jDir: fixture.d4jDir, project: 'Calc', bugs: '1,3', outDir: join(root, 'by-commit') });
  byNumber = importDefects4j({ projectRepo: fixture.projectRepo, d4jDir: svnDir, project: 'Calc', bugs: '1,3,4', outDir: join(root, 'by-number') });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const gitIn = (dir: string, args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });

describe('Defects4J revisions given as Subversion numbers', () => {
  it('maps them to the commits of the git history, and builds the same bug as from commit ids', () => {
    expect(byNumber.bugs.map((b) => b.spec.id)).toEqual(['Calc-1', 'Calc-3']);
    for (const bugId of ['Calc-1', 'Calc-3']) {
      const numbered = byNumber.bugs.find((b) => b.spec.id === bugId)!.spec;
      const original = byCommit.bugs.find((b) => b.spec.id === bugId)!.spec;
      // history (blame) starts at the original buggy commit; the excluded tests come from failing_tests/<number>
      expect(numbered.historyCommit).toBe(original.historyCommit);
      expect(numbered.layout.excludedTests).toEqual(original.layout.excludedTests);
      expect(numbered.groundTruth.patch).toBe(original.groundTruth.patch);
      expect(numbered.faultLocalization).toEqual(original.faultLocalization);
    }
    expect(byNumber.bugs[0]!.spec.historyCommit).toBe(fixture.revisions.buggy1);
    expect(byNumber.bugs[1]!.spec.historyCommit).toBe(fixture.revisions.buggy3);
  });

  it('reports a revision no commit holds as that bug’s failure, naming the patch and the revision, and as data the repository lacks', () => {
    const failure = byNumber.failures.find((f) => f.bugId === 'Calc-4');
    expect(failure?.message).toMatch(/no commit of .* holds Subversion revision \d+: .*4\.src\.patch applies to none of the commits that touch src\/main\/java\/org\/fixture\/Missing\.java/);
    // (Chart: 17 of its 26 bugs lie in Subversion history GitHub's repository does not have)
    expect(failure?.missingData).toMatch(/^the repository lacks Subversion revision \d+$/);
  });

  it('takes the commit before the first part of a fix spread over several commits as the buggy revision', () => {
    const repo = join(root, 'split');
    mkdirSync(repo);
    const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@x', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@x' };
    const run = (args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', env });
    const commit = (files: Record<string, string>, message: string) => {
      for (const [name, text] of Object.entries(files)) writeFileSync(join(repo, name), text);
      run(['add', '-A']);
      run(['commit', '-q', '-m', message]);
      return run(['rev-parse', 'HEAD']).trim();
    };
    run(['init', '-q']);
    const before = commit({ 'A.java': 'class A {\n  int x = 1;\n}\n', 'B.java': 'class B {\n  int y = 1;\n}\n' }, 'both buggy');
    const half = commit({ 'A.java': 'class A {\n  int x = 2;\n}\n' }, 'first half of the fix');
    const other = commit({ 'README': 'unrelated\n' }, 'unrelated');
    const full = commit({ 'B.java': 'class B {\n  int y = 2;\n}\n' }, 'second half of the fix');
    commit({ 'README': 'later\n' }, 'later');
    // Defects4J's patch goes from the fixed revision to the buggy one
    const patch = join(root, 'split.src.patch');
    writeFileSync(patch, gitIn(repo, ['diff', full, before]));
    const at = revisionCommits(join(repo, '.git'), { id: 1, buggyRevision: '10', fixedRevision: '14', reportId: '', reportUrl: '' }, patch, { repo, project: 'Split' });
    expect(at.fixed).toBe(full);
    expect(at.buggy).toBe(before);
    expect([half, other]).not.toContain(at.buggy);
    expect(at.mapped).toMatch(/Subversion revisions 10 → [0-9a-f]{12}, 14 → [0-9a-f]{12}/);
    // asked again (check, then import): the search is not run a second time
    expect(revisionCommits(join(repo, '.git'), { id: 1, buggyRevision: '10', fixedRevision: '14', reportId: '', reportUrl: '' }, patch, { repo, project: 'Split' })).toBe(at);
  });

  it('leaves commit ids as they are and names the repository when one is missing', () => {
    const bug = { id: 1, buggyRevision: fixture.revisions.buggy1, fixedRevision: fixture.revisions.fixed1, reportId: '', reportUrl: '' };
    const patch = join(fixture.d4jDir, 'framework', 'projects', 'Calc', 'patches', '1.src.patch');
    expect(revisionCommits(join(fixture.projectRepo, '.git'), bug, patch, { repo: 'calc', project: 'Calc' })).toEqual({ buggy: bug.buggyRevision, fixed: bug.fixedRevision });
    const missing = { ...bug, fixedRevision: 'f'.repeat(40) };
    expect(() => revisionCommits(join(fixture.projectRepo, '.git'), missing, patch, { repo: 'calc', project: 'Calc' })).toThrow(/revision f{40} is not in calc; is it the repository Defects4J uses for Calc\?/);
  });
});
