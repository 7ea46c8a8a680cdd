// A project repository that lacks objects (issue 14: this machine's mirror of commons-csv has no blob for a 2 MB test
// resource, so 15 of Csv's 16 bugs cannot be built) is data, not the product's failure: `defects4j check` reports
// such bugs as unavailable, names the missing object and its file, counts them apart from the failures, and exits 0
// when nothing else fails.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingObject } from '../../../worker/node/defects4j/git.ts';
import { createDefects4jFixture, type Defects4jFixture } from './support/defects4j-fixture.ts';
import { cli } from './support/repairlab-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'repairlab-d4j-missing-'));
let fixture: Defects4jFixture;
let partialRepo: string;
let lostBlob: string;

beforeAll(() => {
  fixture = createDefects4jFixture(root);
  // a copy whose loose object of one file is gone: CalcTest.java as Calc-1's fix left it (no later commit has it)
  partialRepo = join(root, 'partial');
  cpSync(fixture.projectRepo, partialRepo, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-C', partialRepo, ...args], { encoding: 'utf8' }).trim();
  lostBlob = git('rev-parse', `${fixture.revisions.fixed1}:src/test/java/org/fixture/CalcTest.java`);
  rmSync(join(partialRepo, '.git', 'objects', lostBlob.slice(0, 2), lostBlob.slice(2)));
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('defects4j check on a repository that lacks objects', () => {
  it('reports the bugs whose trees need them as unavailable data, naming the object and the file, apart from the failures', async () => {
    const home = join(root, 'home');
    const args = ['defects4j', 'check', '--project-repo', partialRepo, '--d4j', fixture.d4jDir, '--project', 'Calc', '--bugs', '1,3,6', '--out', join(root, 'out'), '--history-only'];
    const text = await cli(args, home);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^Calc-1 +UNAVAILABLE \\(data: the repository lacks object ${lostBlob} \\(src/test/java/org/fixture/CalcTest\\.java\\)\\)$`, 'm'));
    // Calc-3's tree has the file no more, but its history does: its bundle cannot be made
    expect(text.stdout).toMatch(new RegExp(`^Calc-3 +UNAVAILABLE \\(data: the repository lacks object ${lostBlob}\\)\n +- import: Calc-3: git bundle create .* failed: fatal: unable to read ${lostBlob}$`, 'm'));
    // Calc-6 lives on a line of history of its own
    expect(text.stdout).toMatch(/^Calc-6 +passes$/m);
    expect(text.stdout).toContain('Calc (history only: blame and leakage): 1/1 pass, 0 fail; 2 more unavailable: the data lacks what they need (not failures)');

    const json = await cli([...args, '--json'], join(root, 'home-json'));
    const report = JSON.parse(json.stdout) as { bugs: number; reproduced: number; failed: number; unavailable: number; results: { bugId: string; unavailable?: string; reasons: string[] }[] };
    expect({ bugs: report.bugs, reproduced: report.reproduced, failed: report.failed, unavailable: report.unavailable }).toEqual({ bugs: 3, reproduced: 1, failed: 0, unavailable: 2 });
    const calc1 = report.results.find((r) => r.bugId === 'Calc-1')!;
    expect(calc1.unavailable).toBe(`the repository lacks object ${lostBlob} (src/test/java/org/fixture/CalcTest.java)`);
    expect(calc1.reasons[0]).toMatch(/an incomplete clone \(fetch the whole history, e\.g\. git clone --mirror\)/);
  }, 300_000);

  it('reports a bug as unavailable when Defects4J\'s lib/ lacks a jar its revision\'s build file lists (the version directory there, the jar not)', async () => {
    // a copy of the Defects4J checkout whose clone lost Calc-6's helper jar; the fixed revision's build file lists it
    const d4j = join(root, 'd4j-partial');
    cpSync(fixture.d4jDir, d4j, { recursive: true });
    const buildFiles = join(d4j, 'framework/projects/Calc/build_files', fixture.revisions.fixed6);
    mkdirSync(buildFiles, { recursive: true });
    writeFileSync(join(buildFiles, 'maven-build.xml'), '<project>\n  <path id="build.test.classpath">\n    <pathelement location="${maven.repo.local}/org/helper/calc-helper-1.0.jar"/>\n    <pathelement location="${maven.repo.local}/junit/junit/4.12/junit-4.12.jar"/>\n  </path>\n</project>\n');
    rmSync(join(d4j, 'framework/projects/Calc/lib/org/helper/calc-helper-1.0.jar'));
    const args = ['defects4j', 'check', '--project-repo', fixture.projectRepo, '--d4j', d4j, '--project', 'Calc', '--bugs', '6', '--out', join(root, 'out-jar'), '--history-only', '--json'];
    const r = await cli(args, join(root, 'home-jar'));
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { failed: number; unavailable: number; results: { bugId: string; unavailable?: string; reasons: string[] }[] };
    expect({ failed: report.failed, unavailable: report.unavailable }).toEqual({ failed: 0, unavailable: 1 });
    expect(report.results[0]!.unavailable).toBe("Defects4J's checkout lacks lib/org/helper/calc-helper-1.0.jar");
    expect(report.results[0]!.reasons[0]).toMatch(/an incomplete Defects4J checkout \(fetch rjust\/defects4j whole\)/);
  }, 300_000);

  it('reads what git says a repository lacks, and nothing else', () => {
    const oid = 'a'.repeat(40);
    expect(missingObject(`error: invalid object 100644 ${oid} for 'data/big.gz'\nerror: cannot read '${oid}'`)).toBe(`object ${oid} (data/big.gz)`);
    expect(missingObject(`fatal: unable to read ${oid}`)).toBe(`object ${oid}`);
    expect(missingObject("error: patch failed: src/A.java:3\nerror: src/A.java: patch does not apply")).toBeUndefined();
  });
});
