// Java 8 era Defects4J bugs on the runner's JDK 17 (issue 14), end to end on the generated fixture's Calc-7: ISO-8859-1
// sources (the encoding read from the build files), and a test that fails on the developer fix on any JDK but 8 — which `defects4j check --record-env-failures` records as an environment
// exclusion, apart from Defects4J's own, before checking again. Real git, runner (bubblewrap), ecj and JUnit.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeEncoding, sourceEncoding } from '../../../worker/node/defects4j/build-env.ts';
import { BugSpec } from '../../../worker/contracts/bug.ts';
import { startTestRunner, type TestRunner } from '../runner/helpers.ts';
import { createDefects4jFixture, type Defects4jFixture } from './support/defects4j-fixture.ts';
import { cli } from './support/repairlab-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'repairlab-d4j-jdk17-'));
let fixture: Defects4jFixture;
let runner: TestRunner;


interface Report {
  reproduced: number;
  environmentExcluded: number;
  results: { bugId: string; reproduced: boolean; reasons: string[]; fixedFailing?: string[]; environmentExcluded: number; environmentRecorded?: string[] }[];
}

const JAVA_VERSION_TEST = 'org.fixture.JavaVersionTest::testRecordedOnJava8';

beforeAll(async () => {
  fixture = createDefects4jFixture(root);
  runner = await startTestRunner();
}, 60_000);
afterAll(async () => {
  await runner?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('Defects4J bugs on JDK 17', () => {
  const home = join(root, 'home');
  const out = join(root, 'out');
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
    const r = await check(['--json', '--record-env-failures']);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.results[0]!.reasons, r.stderr).toEqual([]);
    expect(report.results[0]).toMatchObject({ reproduced: true, environmentExcluded: 1, environmentRecorded: [JAVA_VERSION_TEST], fixedFailing: [] });
    expect(report.environmentExcluded).toBe(1);
    expect(r.code).toBe(0);
    const spec = BugSpec.parse(JSON.parse(readFileSync(join(out, 'bugs', 'Calc-7.json'), 'utf8')));
    expect(spec.layout.environmentExcludedTests).toEqual([{ test: JAVA_VERSION_TEST, reason: expect.stringMatching(/^fails on the developer fix in the runner's environment \(fail: junit\.framework\.ComparisonFailure: expected:<1\[\.8\]> but was:<.+>\)$/) }]);
    expect(spec.layout.excludedTests).toEqual(['org.fixture.CalcTest::testNoSuchMethod']); // Defects4J's own, unchanged

    // recorded once: a later check reuses the spec, excludes the test and says so in its text report
    const again = await check([]);
    expect(again.stdout).toMatch(/Calc-7 +reproduces \(reused\) — 1 test\(s\) excluded for the environment/);
    expect(again.stdout).toMatch(/Calc: 1\/1 reproduce, 0 fail, 1 test\(s\) excluded for the environment/);
    expect(again.code).toBe(0);
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
