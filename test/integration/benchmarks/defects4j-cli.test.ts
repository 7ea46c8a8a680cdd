// The Defects4J commands end to end, as a user runs them (`node bin/repairlab.mjs …`), on the generated fixture:
// an import that goes on past a broken bug and registers what succeeded, bug reports from a descriptions file,
// `repairlab defects4j check` with a real runner (bubblewrap, javac, JUnit), fn_pair's message, and
// `repairlab bench validation` on an imported bug.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRunner, type TestRunner } from '../runner/helpers.ts';
import { createDefects4jFixture, type Defects4jFixture } from './support/defects4j-fixture.ts';
import { cli } from './support/repairlab-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'repairlab-d4j-cli-'));
let fixture: Defects4jFixture;
let runner: TestRunner;


const source = () => ['--project-repo', fixture.projectRepo, '--d4j', fixture.d4jDir, '--project', 'Calc'];
const viaRunner = () => ['--runner', runner.url, '--token', runner.token];
const home = join(root, 'home');
const out = join(root, 'out');

beforeAll(async () => {
  fixture = createDefects4jFixture(root);
  runner = await startTestRunner();
}, 60_000);
afterAll(async () => {
  await runner?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('repairlab import-defects4j', () => {
  it('goes on past a failing bug, names it with the input at fault once, and writes and registers every bug that imported', async () => {
    const descriptions = join(root, 'descriptions.json');
    writeFileSync(descriptions, JSON.stringify({ 'Calc-3': { title: 'Sign.of(0) is -1', body: 'The sign of zero should be 0.' }, 'Other-1': { title: 'x', body: '' } }));
    const r = await cli(['import-defects4j', ...source(), '--bugs', '1-5', '--out', out, '--register', '--descriptions', descriptions, '--json'], home);
    expect(r.code, r.stderr).toBe(1);
    const result = JSON.parse(r.stdout) as { bugs: { id: string }[]; failures: { bugId: string; message: string; input: string; command: string }[] };
    expect(result.bugs.map((b) => b.id)).toEqual(['Calc-1', 'Calc-2', 'Calc-3', 'Calc-5']);
    expect(result.failures).toHaveLength(1);
    const failure = result.failures[0]!;
    expect(failure).toMatchObject({ bugId: 'Calc-4', input: join(fixture.d4jDir, 'framework/projects/Calc/patches/4.src.patch') });
    expect(failure.message).toMatch(/^Calc-4: patches\/4\.src\.patch does not apply to the fixed revision [0-9a-f]{40}: git apply/);
    expect(failure.command).toMatch(/^git apply /);
    // git's own complaint is reported once, in the failure, not echoed to the terminal as well
    const gitComplaint = /Missing\.java: No such file or directory/g;
    expect(failure.message).toMatch(gitComplaint);
    expect(`${r.stdout}\n${r.stderr}`.match(gitComplaint)).toHaveLength(1);

    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as { bugs: string[] };
    expect(index.bugs).toEqual(['bugs/Calc-1.json', 'bugs/Calc-2.json', 'bugs/Calc-3.json', 'bugs/Calc-5.json']);
    const listed = JSON.parse((await cli(['bugs', '--json'], home)).stdout) as { id: string; title: string }[];
    expect(listed.map((b) => b.id)).toEqual(expect.arrayContaining(['Calc-1', 'Calc-2', 'Calc-3', 'Calc-5']));
    expect(listed.map((b) => b.id)).not.toContain('Calc-4');

    // the descriptions file gives Calc-3 its report; the others keep the trigger tests' failure
    const calc3 = JSON.parse(readFileSync(join(out, 'bugs/Calc-3.json'), 'utf8')) as { report: { title: string; body: string } };
    expect(calc3.report).toEqual({ title: 'Sign.of(0) is -1', body: 'The sign of zero should be 0.' });
    const calc1 = JSON.parse(readFileSync(join(out, 'bugs/Calc-1.json'), 'utf8')) as { report: { title: string; body: string } };
    expect(calc1.report.body).toContain('expected:<false> but was:<true>');
  }, 120_000);

  it('refuses a malformed descriptions file, naming it and the key at fault', async () => {
    const bad = join(root, 'bad-descriptions.json');
    writeFileSync(bad, JSON.stringify({ 'Calc-1': { title: '' , body: 'x' } }));
    const r = await cli(['import-defects4j', ...source(), '--bugs', '1', '--out', join(root, 'unused'), '--descriptions', bad], join(root, 'home-bad'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--descriptions ${bad}: at Calc-1.title:`);
    writeFileSync(bad, JSON.stringify({ 'first bug': { title: 't', body: 'b' } }));
    const key = await cli(['import-defects4j', ...source(), '--bugs', '1', '--out', join(root, 'unused'), '--descriptions', bad], join(root, 'home-bad'));
    expect(key.stderr).toContain('key "first bug" is not a bug id');
  });
});

describe('repairlab history fn_pair', () => {
  it('says why there is no function to show when the one blamed line is a field (not that nothing has a blame commit)', async () => {
    const r = await cli(['history', 'Calc-3', '--heuristic', 'fn_pair', '--mode', 'code'], home);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Calc-3: no fn_pair history context: no blamed line sits inside a function');
    expect(r.stdout).not.toContain('no fault-localization line has a blame commit');
    const paper = await cli(['history', 'Calc-3', '--heuristic', 'fn_pair'], home);
    expect(paper.stdout).toContain('The enclosing function of did not exist before this commit (this commit added the file src/main/java/org/fixture/Sign.java)');
  }, 60_000);
});

describe('repairlab defects4j check', () => {
  it('reuses the registered bugs, validates them through the runner and compares blame with git; every failure has its reason', async () => {
    const resultsFile = join(root, 'check-results.jsonl');
    const r = await cli(['defects4j', 'check', ...source(), '--bugs', '1-5', '--out', out, '--json', '--results', resultsFile, ...viaRunner()], home);
    expect(r.code, r.stderr).toBe(1); // Calc-4 and Calc-5 do not reproduce
    const report = JSON.parse(r.stdout) as { project: string; bugs: number; reproduced: number; failed: number; results: { bugId: string; reproduced: boolean; reused: boolean; reasons: string[]; blameChecked?: number; leakage?: { fixOnlyLines: number; leaks: string[] } }[] };
    expect({ project: report.project, bugs: report.bugs, reproduced: report.reproduced, failed: report.failed }).toEqual({ project: 'Calc', bugs: 5, reproduced: 3, failed: 2 });
    expect((report as unknown as { limits: unknown }).limits).toEqual({ wallClockMs: 1_800_000, perTestTimeoutMs: 30_000 }); // CHECK_LIMITS
    const by = new Map(report.results.map((x) => [x.bugId, x]));
    for (const id of ['Calc-1', 'Calc-2', 'Calc-3']) expect(by.get(id), id).toMatchObject({ reproduced: true, reused: true, reasons: [] });
    expect(by.get('Calc-1')!.blameChecked).toBe(1);
    // the buggy version runs Defects4J's relevant test classes where it names them (relevant_tests/1: CalcTest), else all
    expect(by.get('Calc-1')).toMatchObject({ unpatchedScope: { relevantClasses: 1 }, unpatchedFailing: ['org.fixture.CalcTest::testIsPositiveZero'] });
    expect(by.get('Calc-3')).toMatchObject({ unpatchedScope: 'all' });
    // each bug's result was appended as it was checked, one JSON line each, the same as the report's
    const lines = readFileSync(resultsFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { project: string; bugId: string; reproduced: boolean });
    expect(lines.map((l) => [l.project, l.bugId, l.reproduced]).sort()).toEqual(report.results.map((x) => ['Calc', x.bugId, x.reproduced]).sort());
    expect(by.get('Calc-3')!.blameChecked).toBe(2); // the field and the return line, the latter mapped to the original revision
    expect(by.get('Calc-3')).toMatchObject({ leakage: { leaks: [] } }); // step 4 looked and found nothing
    expect(by.get('Calc-3')!.leakage!.fixOnlyLines).toBeGreaterThan(0);
    expect(by.get('Calc-4')!.reasons.join('\n')).toMatch(/^import: Calc-4: patches\/4\.src\.patch does not apply .*input at fault: .*4\.src\.patch/s);
    expect(by.get('Calc-5')!.reasons).toEqual([
      'unpatched: fails 1 test(s), not exactly the trigger tests; also fails org.fixture.CalcTest::testIsPositiveZero; passes trigger test(s) org.fixture.CalcTest::testAdd',
    ]);
  }, 300_000);

  it('--resume carries the bugs a --results file holds into the report without checking them again', async () => {
    const resultsFile = join(root, 'check-results.jsonl'); // written by the check above: Calc-1…5
    // nothing is left to check, so the unreachable runner is never asked
    const r = await cli(['defects4j', 'check', ...source(), '--bugs', '1-3', '--out', out, '--json', '--results', resultsFile, '--resume', '--runner', 'http://127.0.0.1:9'], home);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Calc: 3 bug(s) checked before (resumed), not checked again');
    const report = JSON.parse(r.stdout) as { bugs: number; reproduced: number; results: { bugId: string }[] };
    expect({ bugs: report.bugs, reproduced: report.reproduced, ids: report.results.map((x) => x.bugId) }).toEqual({ bugs: 3, reproduced: 3, ids: ['Calc-1', 'Calc-2', 'Calc-3'] });
    // a damaged record is refused, naming the file and line; --resume without a file is refused
    const damaged = join(root, 'damaged.jsonl');
    writeFileSync(damaged, readFileSync(resultsFile, 'utf8') + '{"project":"Calc","bugId":\n');
    const bad = await cli(['defects4j', 'check', ...source(), '--bugs', '1', '--out', out, '--results', damaged, '--resume', '--runner', 'http://127.0.0.1:9'], home);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/damaged\.jsonl:6 is not a JSON line of `defects4j check --results`/);
    const noFile = await cli(['defects4j', 'check', ...source(), '--bugs', '1', '--out', out, '--resume'], home);
    expect(noFile.code).not.toBe(0);
    expect(noFile.stderr).toContain('--resume reads the results of an earlier check: give the file with --results FILE.');
  }, 120_000);

  it('imports bugs the catalogue does not hold, and prints per-project counts as text', async () => {
    const r = await cli(['defects4j', 'check', ...source(), '--bugs', '3', '--out', join(root, 'fresh-out'), ...viaRunner()], join(root, 'fresh-home'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Calc-3 +reproduces$/m);
    expect(r.stdout).toContain('Calc: 1/1 reproduce, 0 fail');
    expect(r.stderr).toContain('Calc: importing 1 bug(s)');
  }, 300_000);

  it('--per-test-timeout sets the limit of each test in the suite runs; a bad value is refused naming the flag', async () => {
    const r = await cli(['defects4j', 'check', ...source(), '--bugs', '1', '--out', out, '--json', '--per-test-timeout', '300', ...viaRunner()], home);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { limits: unknown }).limits).toEqual({ wallClockMs: 1_800_000, perTestTimeoutMs: 300_000 });
    const bad = await cli(['defects4j', 'check', ...source(), '--bugs', '1', '--out', out, '--per-test-timeout', 'soon'], home);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--per-test-timeout soon: give a whole number ≥ 1.');
  }, 300_000);

  it('--history-only checks blame and leakage without a runner', async () => {
    const r = await cli(['defects4j', 'check', ...source(), '--bugs', '1-3', '--out', out, '--history-only', '--runner', 'http://127.0.0.1:9'], home);
    expect(r.code, r.stderr).toBe(0); // the unreachable runner is never asked
    expect(r.stdout).toMatch(/^Calc-3 +passes \(reused\)$/m);
    expect(r.stdout).toContain('Calc (history only: blame and leakage): 3/3 pass, 0 fail');
    // an id that is not an active bug is that id's failure, not the end of the check
    const some = await cli(['defects4j', 'check', ...source(), '--bugs', '3,9', '--out', out, '--history-only'], home);
    expect(some.code, some.stderr).toBe(1);
    expect(some.stdout).toMatch(/^Calc-3 +passes \(reused\)$/m);
    expect(some.stdout).toMatch(/^Calc-9 +FAILS\n +- import: 9 is not an active bug of Calc \(deprecated or unknown; input at fault: .*active-bugs\.csv\)$/m);
  }, 300_000);
});

describe('repairlab bench validation', () => {
  it('measures any registered bug, e.g. an imported Defects4J bug', async () => {
    const r = await cli(['bench', 'validation', '--bug', 'Calc-1', '--rounds', '1', '--json'], home);
    expect(r.code, r.stderr).toBe(0);
    const bench = JSON.parse(r.stdout) as { bug: string; rounds: number; cold_ms: number; warm_ms: number; variants: number; variants_ms: number };
    expect(bench).toMatchObject({ bug: 'Calc-1', rounds: 1, variants: 30 });
    expect(bench.cold_ms).toBeGreaterThan(0);
    expect(bench.warm_ms).toBeGreaterThan(0);
    expect(bench.variants_ms).toBeGreaterThan(0);
  }, 600_000);

  it('refuses a bug that is not in the catalogue, listing those it can measure', async () => {
    const r = await cli(['bench', 'validation', '--bug', 'Calc-99'], home);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--bug Calc-99: not in the catalogue; use one of .*Calc-1/);
  }, 60_000);
});
