// Java 8 era Defects4J bugs on the runner's JDK 17 (issue 14), end to end on the generated fixture's Calc-7: ISO-8859-1
// sources (the encoding read from the build files), and a test that fails on the developer fix on any JDK but 8 — which `defects4j check --record-env-failures` records as an environment
// exclusion, apart from Defects4J's own, before checking again. Real git, runner (bubblewrap), ecj and JUnit.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeEncoding, sourceEncoding } from '../../../worker/node/defects4j/build-env.ts';
import { BugSpec } from '../../../worker/contracts/bug.ts';
import { EnvironmentExclusionsFile } from '../../../worker/contracts/environment-exclusions.ts';
import { startTestRunner, type TestRunner } from '../runner/helpers.ts';
import { createDefects4jFixture, type Defects4jFixture } from './support/defects4j-fixture.ts';
import { cli } from './support/repairlab-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'repairlab-d4j-jdk17-'));
let fixture: Defects4jFixture;
let runner: TestRunner;


interface Report {
  reproduced: number;
  environmentExcluded: number;
  results: { bugId: string; reproduced: boolean; reasons: string[]; fixedFailing?: string[]; environmentExcluded: number; environmentRecorded?: string[]; environmentExclusions?: { test: string; reason: string }[] }[];
}

const JAVA_VERSION_TEST = 'org.fixture.JavaVersionTest::testRecordedOnJava8';

beforeAll(async () => {
  fixture = createDefects4jFixture(root);
  runner = await startTestRunner();
}, 180_000);
afterAll(async () => {
  await runner?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('Defects4J bugs on JDK 17', () => {
  const home = join(root, 'home');
  const out = join(root, 'out');
  const exclusions = join(root, 'exclusions');
  const check = (extra: string[]) =>
    cli(['defects4j', 'check', '--project-repo', fixture.projectRepo, '--d4j', fixture.d4jDir, '--project', 'Calc', '--bugs', '7', '--out', out, '--runner', runner.url, '--token', runner.token, ...extra], home);

  it('compiles ISO-8859-1 sources as their build files say: only the JDK-version test fails on the fix', async () => {
    const r = await check(['--json']);
    const report = JSON.parse(r.stdout) as Report;
    // Words' é read as UTF-8 would fail DatesTest::testCafe on the fix
    expect(report.results[0]!.fixedFailing, r.stderr).toEqual([JAVA_VERSION_TEST]);
    const spec = BugSpec.parse(JSON.parse(readFileSync(join(out, 'bugs', 'Calc-7.json'), 'utf8')));
    expect(spec.layout).toMatchObject({ encoding: 'ISO-8859-1', sourceLevel: '1.6' }); // the build's 1.5, raised as Defects4J builds it
    expect(spec.layout.localeData).toBeUndefined(); // JDK 17's COMPAT data is not JDK 8's (docs/defects4j-import.md)
    expect(spec.layout.environmentExcludedTests).toBeUndefined();
    expect(report.results[0]!.reasons).toEqual([
      `unpatched: fails 2 test(s), not exactly the trigger tests; also fails ${JAVA_VERSION_TEST}`,
      `fix: fails ${JAVA_VERSION_TEST}`,
    ]);
    expect(report.results[0]!.environmentExcluded).toBe(0);
    expect(r.code).toBe(1);
  });

  it('bench validation of a bug whose fix fails here says which tests fail and how to look (before any exclusion is recorded)', async () => {
    const r = await cli(['bench', 'validation', '--bug', 'Calc-7', '--rounds', '1'], home);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`benchmark fix of Calc-7 did not validate as expected (cold: plausible=false, path=cold, fails ${JAVA_VERSION_TEST}`);
    expect(r.stderr).toContain('repairlab validate <bug> --patch ground-truth --tests all');
  }, 300_000);

  it('--record-env-failures excludes the fix\'s environment failures, apart from Defects4J\'s, and checks again', async () => {
    // a stale entry (a test a faithful environment no longer fails) is applied by the import, then measured away
    mkdirSync(exclusions, { recursive: true });
    writeFileSync(join(exclusions, 'Calc.json'), JSON.stringify({
      schemaVersion: 1, project: 'Calc', measurements: { old: { jdk: '17.0.0', date: '2026-01-01', command: 'by hand' } },
      bugs: { 'Calc-7': [{ test: 'org.fixture.GoneTest::testOld', reason: 'failed once', measurement: 'old' }] },
    }));
    const r = await check(['--json', '--record-env-failures', '--reimport', '--exclusions', exclusions]);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.results[0]!.reasons, r.stderr).toEqual([]);
    expect(report.results[0]).toMatchObject({ reproduced: true, reused: false, environmentExcluded: 1, environmentRecorded: [JAVA_VERSION_TEST], fixedFailing: [] });
    expect(report.environmentExcluded).toBe(1);
    expect(r.code).toBe(0);
    const spec = BugSpec.parse(JSON.parse(readFileSync(join(out, 'bugs', 'Calc-7.json'), 'utf8')));
    expect(spec.layout.environmentExcludedTests).toEqual([{ test: JAVA_VERSION_TEST, reason: expect.stringMatching(/^fails on the developer fix in the runner's environment \(fail: junit\.framework\.ComparisonFailure: expected:<1\[\.8\]> but was:<.+>\)$/) }]);
    expect(spec.layout.excludedTests).toEqual(['org.fixture.CalcTest::testNoSuchMethod']); // Defects4J's own, unchanged
    // the results carry each exclusion's reason, and the project's exclusions file the measurement
    expect(report.results[0]!.environmentExclusions).toEqual(spec.layout.environmentExcludedTests);
    const file = EnvironmentExclusionsFile.parse(JSON.parse(readFileSync(join(exclusions, 'Calc.json'), 'utf8')));
    const jdk = ((await (await fetch(`${runner.url}/v1/health`, { headers: { authorization: `Bearer ${runner.token}` } })).json()) as { jdk: string }).jdk;
    const key = `${new Date().toISOString().slice(0, 10)}/jdk-${/\d[\w.+-]*/.exec(jdk)![0]}`; // health says "javac 17.0.15"
    expect(file.measurements).toEqual({ [key]: { jdk, date: new Date().toISOString().slice(0, 10), command: 'repairlab defects4j check --project Calc --record-env-failures' } });
    expect(file.bugs).toEqual({ 'Calc-7': [{ test: JAVA_VERSION_TEST, reason: spec.layout.environmentExcludedTests![0]!.reason, measurement: key }] });

    // recorded once: a later check reuses the spec, excludes the test and says so in its text report
    const again = await check([]);
    expect(again.stdout).toMatch(/Calc-7 +reproduces \(reused\) — 1 test\(s\) excluded for the environment/);
    expect(again.stdout).toMatch(/Calc: 1\/1 reproduce, 0 fail, 1 test\(s\) excluded for the environment/);
    expect(again.code).toBe(0);
  }, 300_000);
});

describe('shipped environment exclusions', () => {
  const home = join(root, 'home-shipped');
  const out = join(root, 'out-shipped');
  const file = {
    schemaVersion: 1,
    project: 'Calc',
    measurements: { 'fixture-day': { jdk: '17.0.0', date: '2026-11-28', command: 'repairlab defects4j check --project Calc --record-env-failures' } },
    bugs: { 'Calc-7': [{ test: JAVA_VERSION_TEST, reason: 'asserts java.specification.version 1.8 (Defects4J ran on Java 8)', measurement: 'fixture-day' }] },
  };

  it('a plain import applies them: the spec names each excluded test, why and where it was measured, and the developer fix validates', async () => {
    const dir = mkdtempSync(join(root, 'shipped-'));
    writeFileSync(join(dir, 'Calc.json'), JSON.stringify(file));
    const imported = await cli(['import-defects4j', '--project-repo', fixture.projectRepo, '--d4j', fixture.d4jDir, '--project', 'Calc', '--bugs', '7', '--out', out, '--register', '--exclusions', dir], home);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(`Calc-7: 1 test(s) excluded for the environment, as measured 2026-11-28 on JDK 17.0.0 (${join(dir, 'Calc.json')})`);
    const spec = BugSpec.parse(JSON.parse(readFileSync(join(out, 'bugs', 'Calc-7.json'), 'utf8')));
    expect(spec.layout.environmentExcludedTests).toEqual([{ test: JAVA_VERSION_TEST, reason: file.bugs['Calc-7'][0]!.reason, measured: file.measurements['fixture-day'] }]);
    const fix = await cli(['validate', 'Calc-7', '--patch', 'ground-truth', '--tests', 'all', '--runner', runner.url, '--token', runner.token, '--json'], home);
    expect((JSON.parse(fix.stdout) as { plausible: boolean; failingTests: string[] }), fix.stderr).toMatchObject({ plausible: true, failingTests: [] });
    const buggy = await cli(['validate', 'Calc-7', '--patch', 'none', '--tests', 'all', '--runner', runner.url, '--token', runner.token, '--json'], home);
    expect((JSON.parse(buggy.stdout) as { failingTests: string[] }).failingTests).toEqual(spec.failingTests);
  }, 300_000);

  it('--no-exclusions imports without them (Defects4J\'s own exclusions only)', async () => {
    const dir = mkdtempSync(join(root, 'shipped-'));
    writeFileSync(join(dir, 'Calc.json'), JSON.stringify(file));
    const plain = join(root, 'out-plain');
    const r = await cli(['import-defects4j', '--project-repo', fixture.projectRepo, '--d4j', fixture.d4jDir, '--project', 'Calc', '--bugs', '7', '--out', plain, '--no-exclusions'], join(root, 'home-plain'));
    expect(r.code, r.stderr).toBe(0);
    expect(BugSpec.parse(JSON.parse(readFileSync(join(plain, 'bugs', 'Calc-7.json'), 'utf8'))).layout.environmentExcludedTests).toBeUndefined();
  });

  it('a damaged exclusions file stops the import, naming the file, the place and the format', async () => {
    const dir = mkdtempSync(join(root, 'shipped-'));
    writeFileSync(join(dir, 'Calc.json'), JSON.stringify({ ...file, bugs: { 'Calc-7': [{ test: JAVA_VERSION_TEST, reason: 'x', measurement: 'no-such-day' }] } }));
    const r = await cli(['import-defects4j', '--project-repo', fixture.projectRepo, '--d4j', fixture.d4jDir, '--project', 'Calc', '--bugs', '7', '--out', join(root, 'out-bad'), '--exclusions', dir], join(root, 'home-bad'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(dir, 'Calc.json')}: at bugs.Calc-7.0.measurement: no measurement "no-such-day" in measurements (format: docs/formats/environment-exclusions.md)`);
    writeFileSync(join(dir, 'Calc.json'), '{"schemaVersion": 1,');
    const notJson = await cli(['import-defects4j', '--project-repo', fixture.projectRepo, '--d4j', fixture.d4jDir, '--project', 'Calc', '--bugs', '7', '--out', join(root, 'out-bad'), '--exclusions', dir], join(root, 'home-bad'));
    expect(notJson.stderr).toContain(`${join(dir, 'Calc.json')} is not JSON`);
  });
});

describe('the sources\' encoding from build files', () => {
  it('prefers what the compile task is given, then maven.compile.encoding, commons.encoding, project.build.sourceEncoding', () => {
    const dir = mkdtempSync(join(root, 'enc-'));
    const files = join(dir, 'build_files', 'r1');
    mkdirSync(files, { recursive: true });
    writeFileSync(join(files, 'maven-build.properties'), 'project.build.sourceEncoding=UTF-8\ncommons.encoding=iso-8859-1\n');
    expect(sourceEncoding(dir, ['r1'], () => undefined)).toEqual({ encoding: 'ISO-8859-1', from: join(files, 'maven-build.properties') });
    // the project's own pom when Defects4J ships no build file
    expect(sourceEncoding(dir, ['r2'], (p) => (p === 'pom.xml' ? '<properties><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>' : undefined)))
      .toEqual({ encoding: 'UTF-8', from: 'pom.xml at r2' });
    expect(sourceEncoding(dir, ['r2'], (p) => (p === 'build.xml' ? '<javac srcdir="src" encoding="${enc}"/><javac encoding="Latin1" destdir="x"/>' : undefined)).encoding).toBe('ISO-8859-1');
    // a name the runner does not know is said, and UTF-8 stays
    expect(sourceEncoding(dir, ['r2'], (p) => (p === 'build.properties' ? 'commons.encoding=Shift_JIS\n' : undefined))).toEqual({
      from: 'build.properties at r2 (says Shift_JIS, which the runner does not know: UTF-8 used)',
    });
    expect(sourceEncoding(dir, ['r2'], () => undefined)).toEqual({ from: 'no build file says (UTF-8)' });
    expect([normalizeEncoding('utf8'), normalizeEncoding('ISO8859_1'), normalizeEncoding('ascii'), normalizeEncoding('cp1252')]).toEqual(['UTF-8', 'ISO-8859-1', 'US-ASCII', undefined]);
  });
});
