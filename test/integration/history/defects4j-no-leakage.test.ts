// No leakage of the developer fix through history, for every bug imported from the generated Defects4J-like fixture.
// The importer's buggy commit is a reconstruction (fixed tree minus the minimised patch) whose diff holds the fix's
// other hunks; history must start at the original buggy revision. For each bug, every history section a run can be
// given (each heuristic; paper mode; code mode with each candidate line; paper mode with each blame commit chosen) and
// the output of HAFixAgent's bash for history commands must hold no line that only the fix has: a line the developer
// fix added that appears nowhere in the project's history up to the original buggy revision (lines the fix merely
// restores, e.g. the line a bug-introducing commit removed, are real history and may appear).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDefects4j, type ImportResult } from '../../../worker/node/defects4j/defects4j-import.ts';
import { Engine } from '../../../worker/bugs/engine.ts';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { extractHistory, type ExtractorOptions } from '../../../worker/history/extractor.ts';
import { HISTORY_HEURISTICS, historyContext } from '../../../worker/history/heuristics.ts';
import { openWorkspace } from '../../../worker/repo/git-workspace.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { runBash } from '../../../worker/tools/hafixagent/bash.ts';
import { toPublicBug, type BugSpec } from '../../../worker/contracts/bug.ts';
import type { Validator } from '../../../worker/contracts/tools.ts';
import { checkLeakage } from '../../../worker/node/defects4j/leakage.ts';
import { checkDefects4j } from '../../../worker/node/defects4j/defects4j-check.ts';
import { resolveGitDir } from '../../../worker/node/defects4j/git.ts';
import { createDefects4jFixture, type Defects4jFixture } from '../benchmarks/support/defects4j-fixture.ts';

const root = mkdtempSync(join(tmpdir(), 'repairlab-d4j-leak-'));
let fixture: Defects4jFixture;
let result: ImportResult;
let engine: Engine;

const gitIn = (dir: string, args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 });

/** Lines the developer fix added (original buggy → fixed revision) that occur nowhere in the history up to the buggy revision. */
function fixOnlyLines(bug: { buggy: string; fixed: string }): string[] {
  const meaningful = (l: string) => l.trim().length >= 6 && /[A-Za-z0-9]/.test(l);
  const added = gitIn(fixture.projectRepo, ['diff', bug.buggy, bug.fixed])
    .split('\n')
    .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
    .map((l) => l.slice(1).trim())
    .filter(meaningful);
  const history = new Set(
    gitIn(fixture.projectRepo, ['log', '-p', '--format=', bug.buggy])
      .split('\n')
      .map((l) => l.slice(1).trim()),
  );
  return [...new Set(added.filter((l) => !history.has(l)))];
}

/** Every history section a run of `bug` can be given. */
async function historySections(bug: BugSpec): Promise<{ label: string; text: string; commits: string[] }[]> {
  const session = await engine.ensureRepository(bug);
  const out: { label: string; text: string; commits: string[] }[] = [];
  const { candidates } = await extractHistory(session, bug, { mode: 'code' });
  const paperCommits = (await extractHistory(session, bug, { mode: 'paper' })).commits;
  const selections: { label: string; options: ExtractorOptions }[] = [
    { label: 'paper', options: { mode: 'paper' } },
    { label: 'code/first', options: { mode: 'code', selector: 'first' } },
    ...candidates.map((_, i) => ({ label: `code/judge line #${i}`, options: { mode: 'code' as const, selector: 'llm_judge' as const, judge: async () => i } })),
    ...paperCommits.map((_, i) => ({ label: `paper/judge commit #${i}`, options: { mode: 'paper' as const, judge: async () => i } })),
  ];
  for (const heuristic of HISTORY_HEURISTICS) {
    for (const { label, options } of selections) {
      const context = await historyContext(session, bug, heuristic, options);
      out.push({ label: `${heuristic} ${label}`, text: context.text, commits: context.extraction.commits.map((c) => c.oid) });
    }
  }
  return out;
}

// HAFixAgent's bash is just-bash over the workspace: a run's only other way to look at history.
const HISTORY_COMMANDS = ['git log -p', 'git log --all --oneline', 'git show HEAD', 'git blame src/main/java/org/fixture/Sign.java', 'ls -a', 'cat .git/HEAD'];
const notValidating: Validator = {
  validate: () => Promise.reject(new Error('history commands never validate')),
};

beforeAll(async () => {
  fixture = createDefects4jFixture(root);
  result = importDefects4j({ projectRepo: fixture.projectRepo, d4jDir: fixture.d4jDir, project: 'Calc', outDir: join(root, 'out') });
  engine = new Engine(createNodePlatform({ root: join(root, 'home') }));
  for (const bug of result.bugs) {
    const files = [
      { name: `${bug.spec.repoId}.bundle`, bytes: new Uint8Array(readFileSync(bug.bundlePath)) },
      { name: `${bug.spec.id}.json`, bytes: new Uint8Array(readFileSync(join(root, 'out', bug.specPath))) },
    ];
    for (const r of await engine.importFiles(files)) expect(r.ok, r.message).toBe(true);
  }
  await initJavaForNode();
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('no fix leaks through the history of imported Defects4J bugs', () => {
  it('imports every active bug of the fixture but the one with broken data', () => {
    expect(result.bugs.map((b) => b.spec.id)).toEqual(['Calc-1', 'Calc-2', 'Calc-3', 'Calc-5', 'Calc-6', 'Calc-7']);
    expect(result.failures.map((f) => f.bugId)).toEqual(['Calc-4']);
  });

  it('the fixture has a bug whose faulty line differs from the original revision (the leak this guards against)', () => {
    const calc3 = result.bugs.find((b) => b.spec.id === 'Calc-3')!.spec;
    expect(calc3.historyCommit).toBe(fixture.revisions.buggy3);
    // `git blame` at the reconstructed buggy commit attributes the faulty line to the reconstruction itself
    const dir = join(root, 'calc3.git');
    execFileSync('git', ['clone', '--quiet', '--bare', result.bugs.find((b) => b.spec.id === 'Calc-3')!.bundlePath, dir]);
    const fault = calc3.faultLocalization.find((f) => f.kind === 'modify' && f.method === 'of')!;
    const blamed = gitIn(dir, ['blame', '--porcelain', '-L', `${fault.lines[0]},${fault.lines[0]}`, calc3.buggyCommit, '--', fault.file]).split(' ')[0];
    expect(blamed).toBe(calc3.buggyCommit);
    expect(fixOnlyLines({ buggy: fixture.revisions.buggy3, fixed: fixture.revisions.fixed3 })).toContain('public static int of(int value) {');
  });

  it.each(['Calc-1', 'Calc-2', 'Calc-3', 'Calc-5', 'Calc-6'])('%s: no history section and no bash history command shows a line only the fix has', async (bugId) => {
    const imported = result.bugs.find((b) => b.spec.id === bugId)!;
    const bug = imported.spec;
    const n = bugId === 'Calc-5' ? '1' : bugId.split('-')[1]!; // Calc-5 shares Calc-1's revisions
    const rev = fixture.revisions as Record<string, string>;
    const fixOnly = fixOnlyLines({ buggy: rev[`buggy${n}`]!, fixed: rev[`fixed${n}`]! });
    expect(fixOnly.length).toBeGreaterThan(0);
    const synthetic = [bug.buggyCommit, bug.groundTruth.fixedCommit!];

    const sections = await historySections(bug);
    expect(sections.filter((s) => s.text).length, 'some history is shown (else this test proves nothing)').toBeGreaterThan(0);
    for (const section of sections) {
      for (const line of fixOnly) expect(section.text, `${bugId} ${section.label} shows "${line}"`).not.toContain(line);
      for (const oid of synthetic) {
        expect(section.commits, `${bugId} ${section.label}`).not.toContain(oid);
        expect(section.text).not.toContain(oid);
      }
    }

    const session = await engine.ensureRepository(bug);
    const ctx = { workspace: await openWorkspace(session, bug.buggyCommit), bug: toPublicBug(bug), validator: notValidating, settings: {} };
    for (const command of HISTORY_COMMANDS) {
      const outcome = await runBash(command, ctx);
      const shown = `${outcome.stdout}\n${outcome.stderr}`;
      for (const line of fixOnly) expect(shown, `${bugId} \`${command}\` shows "${line}"`).not.toContain(line);
      for (const oid of synthetic) expect(shown).not.toContain(oid.slice(0, 7));
    }
  });

  it('Calc-3: the faulty return line is blamed at the original revision, to the commit that wrote it', async () => {
    const bug = result.bugs.find((b) => b.spec.id === 'Calc-3')!.spec;
    const session = await engine.ensureRepository(bug);
    const extraction = await extractHistory(session, bug, { mode: 'paper' });
    expect(extraction.historyCommit).toBe(fixture.revisions.buggy3);
    expect(extraction.commits.map((c) => c.oid)).toEqual([fixture.revisions.introducesBug3]);
    const ret = extraction.blamed.find((b) => b.target.text.includes('return'))!;
    // the buggy version's line differs from the original; it maps to the original's return line
    expect(ret.target.text.trim()).toBe('return value > 0 ? 1 : ZERO_SIGN;');
    const original = gitIn(fixture.projectRepo, ['show', `${fixture.revisions.buggy3}:src/main/java/org/fixture/Sign.java`]).split('\n');
    expect(original[ret.blame.line - 1]!.trim()).toBe('return v > 0 ? 1 : ZERO_SIGN;');
  });
});

describe('fn_pair when the first blamed line sits in no function', () => {
  it('Calc-3 (paper mode): the first blamed line is a field, so fn_pair describes the next blamed line, which sits in `of`', async () => {
    const bug = result.bugs.find((b) => b.spec.id === 'Calc-3')!.spec;
    const session = await engine.ensureRepository(bug);
    const context = await historyContext(session, bug, 'fn_pair', { mode: 'paper' });
    const [field, ret] = context.extraction.blamed;
    expect(field!.target.text.trim()).toBe('static final int ZERO_SIGN = -1;');
    expect(context.extraction.primary!.target).toBe(field!.target);
    expect(context.text).toContain('The enclosing function of did not exist before this commit (this commit added the file src/main/java/org/fixture/Sign.java)');
    expect(context.text).toContain('public static int of(int v) {');
    // the header names the line the function was found from
    expect(context.text).toContain(`Blamed line: ${ret!.target.file}:${ret!.target.line} `);
    expect(context.text).toContain(`Commit: ${fixture.revisions.introducesBug3}`);
  });

  it('Calc-3 (code mode, the field chosen): no function to show, and the reason says so instead of "no blame commit"', async () => {
    const bug = result.bugs.find((b) => b.spec.id === 'Calc-3')!.spec;
    const session = await engine.ensureRepository(bug);
    const context = await historyContext(session, bug, 'fn_pair', { mode: 'code', selector: 'first' });
    expect(context.extraction.primary?.commit.oid).toBe(fixture.revisions.introducesBug3);
    expect(context.text).toBe('');
    expect(context.emptyReason).toMatch(/no blamed line sits inside a function/);
  });

});

describe('the leakage step of `defects4j check` (leakage.ts)', () => {
  // `defects4j check`'s step 4 (leakage.ts) is what measures this on real Defects4J data: it must agree here, and it
  // must see the leak this file guards against when history is read at the reconstruction.
  it.each(['Calc-1', 'Calc-2', 'Calc-3', 'Calc-6'])('%s: the check of `defects4j check` finds no leak', async (bugId) => {
    const bug = result.bugs.find((b) => b.spec.id === bugId)!.spec;
    const check = await checkLeakage(engine, bug, resolveGitDir(fixture.projectRepo));
    expect(check.leaks).toEqual([]);
    expect(check.nonEmptySections).toBeGreaterThan(0);
    // Calc-1's fix only restores a line its bug-introducing commit removed: history, not the fix
    expect(check.fixOnlyLines > 0).toBe(bugId !== 'Calc-1');
  });

  it('Calc-3: the check of `defects4j check` finds the leak when history is read at the reconstructed buggy commit', async () => {
    const bug = result.bugs.find((b) => b.spec.id === 'Calc-3')!.spec;
    const { historyCommit: _original, ...atReconstruction } = bug;
    const check = await checkLeakage(engine, atReconstruction, resolveGitDir(fixture.projectRepo), fixture.revisions.buggy3);
    expect(check.leaks.length).toBeGreaterThan(0);
    expect(check.leaks.some((l) => l.startsWith('history fl_diff') && l.includes(`synthetic commit ${bug.buggyCommit.slice(0, 12)}`))).toBe(true);
  });

  it('Calc-3: the check of `defects4j check` finds a line only the fix has, wherever it is shown', async () => {
    const bug = result.bugs.find((b) => b.spec.id === 'Calc-3')!.spec;
    const added = bug.groundTruth.patch!.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++') && l.trim().length > 8)[0]!.slice(1);
    const told = { ...bug, report: { ...bug.report, body: `${bug.report.body}\nhint:\n${added}` } };
    const check = await checkLeakage(engine, told, resolveGitDir(fixture.projectRepo));
    expect(check.leaks).toEqual([`bug report shows "${added.trim()}", which only the fix has`]);
  });

  it('a whole-project check (--history-only) passes the fixture\'s bugs and keeps no repository open behind it', async () => {
    // every bug has a repository of its own; with all their sessions kept, a 61-bug Lang check ran out of memory
    const fresh = new Engine(createNodePlatform({ root: join(root, 'home') }));
    const report = await checkDefects4j({ projectRepo: fixture.projectRepo, d4jDir: fixture.d4jDir, project: 'Calc', bugs: '1-3', outDir: join(root, 'out'), historyOnly: true, engine: fresh });
    expect(report.results.map((r) => [r.bugId, r.reused, r.reasons])).toEqual([['Calc-1', true, []], ['Calc-2', true, []], ['Calc-3', true, []]]);
    expect(report.results.every((r) => r.leakage && r.leakage.looked > 0)).toBe(true);
    expect(fresh.openRepositories()).toEqual([]);
  });
});
