// What real Defects4J bugs need from their build, end to end on the generated fixture's Calc-6 (a build naming Java 1.4
// beside a test with the annotation Defects4J's diffs add, a test that needs a jar of lib/, a whole test class failing_tests lists): the import writes them into the BugSpec's
// layout (jars by blob oid, carried in the bundle; source level; excluded tests; Defects4J's JVM environment), and
// `repairlab defects4j check` with a real runner (bubblewrap, ecj, JUnit) reproduces the bug.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BugSpec, DEFECTS4J_ADD_OPENS } from '../../../worker/contracts/bug.ts';
import { javaLevels, levelByEra, normalizeLevel, parseExcludedTests } from '../../../worker/node/defects4j/build-env.ts';
import { startTestRunner, type TestRunner } from '../runner/helpers.ts';
import { createDefects4jFixture, type Defects4jFixture } from './support/defects4j-fixture.ts';
import { cli } from './support/repairlab-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'repairlab-d4j-env-'));
let fixture: Defects4jFixture;
let runner: TestRunner;


beforeAll(async () => {
  fixture = createDefects4jFixture(root);
  runner = await startTestRunner();
}, 60_000);
afterAll(async () => {
  await runner?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('Defects4J build environment', () => {
  it('reproduces a bug whose build names Java 1.4, built at Defects4J\'s 1.6, whose test needs a lib/ jar, whose broken test class failing_tests lists, and whose source imports a JDK-internal class', async () => {
    const home = join(root, 'home');
    const out = join(root, 'out');
    const source = ['--project-repo', fixture.projectRepo, '--d4j', fixture.d4jDir, '--project', 'Calc'];
    const r = await cli(['defects4j', 'check', ...source, '--bugs', '6', '--out', out, '--runner', runner.url, '--token', runner.token, '--json'], home);
    const report = JSON.parse(r.stdout) as { reproduced: number; results: { bugId: string; reasons: string[] }[] };
    expect(report.results[0]!.reasons, r.stderr).toEqual([]);
    expect(report.reproduced).toBe(1);
    expect(r.code).toBe(0);

    const spec = BugSpec.parse(JSON.parse(readFileSync(join(out, 'bugs', 'Calc-6.json'), 'utf8')));
    const jarPath = join(fixture.d4jDir, 'framework/projects/Calc/lib/org/helper/calc-helper-1.0.jar');
    const oid = execFileSync('git', ['hash-object', jarPath], { encoding: 'utf8' }).trim();
    expect(spec.layout).toMatchObject({
      jars: [{ name: 'calc-helper-1.0.jar', oid }],
      sourceLevel: '1.6',
      targetLevel: '1.6',
      addOpens: [...DEFECTS4J_ADD_OPENS],
      timeZone: 'America/Los_Angeles',
      locale: 'en-US',
      excludedTests: ['org.fixture.LegacyClockTest', 'org.fixture.CalcTest::testNoSuchMethod'],
      // Catalog imports the JDK-internal SAX parser factory, which CatalogTest runs on the fix (it would not compile otherwise)
      jdkInternalPackages: ['com.sun.org.apache.xerces.internal.jaxp'],
    });
    // the bundle carries the jar's bytes under that oid, so a workspace of the bug can upload it
    const gitDir = join(root, 'clone.git');
    execFileSync('git', ['clone', '-q', '--bare', '--mirror', join(out, 'd4j-Calc-6.bundle'), gitDir]);
    expect(execFileSync('git', ['--git-dir', gitDir, 'cat-file', '-t', oid], { encoding: 'utf8' }).trim()).toBe('blob');
  }, 240_000);

  it('reads test lists with whole classes, and source levels from build files, the revision, or the era', () => {
    expect(parseExcludedTests('--- a.B::c\n\tat x\n--- a.D\n--- a.E$F::g\n')).toEqual(['a.B::c', 'a.D', 'a.E$F::g']);
    expect(['5', '1.5', '8', '1.2', '11', 'x', '${java.level}'].map(normalizeLevel)).toEqual(['1.5', '1.5', '1.8', '1.3', '11', undefined, undefined]);
    const projectDir = join(fixture.d4jDir, 'framework/projects/Calc');
    expect(javaLevels(projectDir, [fixture.revisions.fixed6], () => undefined, 2020)).toMatchObject({ source: '1.6', target: '1.6', from: expect.stringMatching(/maven-build\.properties: 1\.4, raised to 1\.6/) });
    const pom = '<project><properties><maven.compile.source>1.5</maven.compile.source><maven.compile.target>1.6</maven.compile.target></properties></project>';
    expect(javaLevels(projectDir, [fixture.revisions.fixed1], (p) => (p === 'pom.xml' ? pom : undefined), 2020)).toMatchObject({ source: '1.6', target: '1.6', from: `pom.xml at ${fixture.revisions.fixed1}: 1.5, raised to 1.6 as Defects4J builds it` });
    const pom8 = '<project><properties><maven.compile.source>1.7</maven.compile.source><maven.compile.target>1.8</maven.compile.target></properties></project>';
    expect(javaLevels(projectDir, [fixture.revisions.fixed1], (p) => (p === 'pom.xml' ? pom8 : undefined), 2020)).toEqual({ source: '1.7', target: '1.8', from: `pom.xml at ${fixture.revisions.fixed1}` });
    const ant = '<project><target name="compile"><javac srcdir="src" source="1.3" target="1.3"/></target></project>';
    expect(javaLevels(projectDir, [fixture.revisions.fixed1], (p) => (p === 'build.xml' ? ant : undefined), 2020)).toMatchObject({ source: '1.6', target: '1.6' });
    expect(javaLevels(projectDir, [fixture.revisions.fixed1], () => undefined, 2003)).toEqual({ source: '1.6', target: '1.6', from: 'default for 2003: 1.4, raised to 1.6 as Defects4J builds it' });
    expect([2004, 2008, 2012, 2016].map(levelByEra)).toEqual(['1.4', '1.5', '1.6', '1.8']);
  });
});
