// `repairlab defects4j setup` end to end on the generated fixture, as a user runs it: Defects4J and the project's
// history cloned by URL (file://) or reused, every active bug imported with progress and registered, bug reports from
// a file in HAFixAgent's bug_description.json shape, deprecated bugs and failures named with why, and the bugs
// Defects4J v3 added told apart (a v2.0.0 tag in the checkout). Real git; no runner needed.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefects4jFixture, type Defects4jFixture } from './support/defects4j-fixture.ts';
import { cli } from './support/repairlab-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'repairlab-d4j-setup-'));
let fixture: Defects4jFixture;
let d4j: string;
const git = (cwd: string, args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example', '-c', 'commit.gpgSign=false', ...args], { cwd, encoding: 'utf8' }).trim();

interface Setup {
  project: string;
  d4jDir: string;
  d4jCommit?: string;
  projectRepo: string;
  active: number;
  addedInV3?: number[];
  imported: { id: string; environmentExcluded: number }[];
  unavailable: { bugId: string; kind: string; why: string }[];
  described: number;
  out: string;
}

beforeAll(() => {
  fixture = createDefects4jFixture(root);
  // a Defects4J checkout as git history: v2.0.0 without Calc-7, then v3 adding it and deprecating a Calc-8
  d4j = join(root, 'd4j-git');
  cpSync(fixture.d4jDir, d4j, { recursive: true });
  const csv = join(d4j, 'framework/projects/Calc/active-bugs.csv');
  const all = readFileSync(csv, 'utf8');
  writeFileSync(csv, all.split('\n').filter((l) => !l.startsWith('7,')).join('\n'));
  git(d4j, ['init', '--quiet', '--initial-branch=master']);
  git(d4j, ['add', '-A']);
  git(d4j, ['commit', '--quiet', '-m', 'v2']);
  git(d4j, ['tag', 'v2.0.0']);
  writeFileSync(csv, all);
  writeFileSync(join(d4j, 'framework/projects/Calc/deprecated-bugs.csv'), 'bug.id,revision.id.buggy,revision.id.fixed,report.id,report.url,deprecated.version,deprecated.reason\n8,aaa,bbb,CALC-20,https://issues.example/CALC-20,3.0.0,JVM11.Not.Reproducible\n');
  mkdirSync(join(d4j, 'framework/core/Project'), { recursive: true });
  writeFileSync(join(d4j, 'framework/core/Project/Calc.pm'), 'my $PID  = "Calc";\n    my $name = "calc";\n');
  git(d4j, ['add', '-A']);
  git(d4j, ['commit', '--quiet', '-m', 'v3']);
}, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('repairlab defects4j setup', () => {
  const home = join(root, 'home');
  const cache = join(root, 'cache');
  const hafix = join(root, 'bug_description.json');

  it('clones Defects4J and the history by URL, imports every active bug with progress and HAFixAgent\'s reports, and names what is unavailable and why', async () => {
    writeFileSync(hafix, JSON.stringify({
      Calc_1: { description: 'Calc.isPositive(0) is true\nZero is not positive, yet isPositive says so.', desc_source: 'jira' },
      Calc_3: { description: 'Sign.of(0) is -1\nThe sign of zero should be 0.', desc_source: 'github' },
      Other_1: { description: 'not ours\n', desc_source: 'jira' },
    }));
    const r = await cli(['defects4j', 'setup', '--project', 'Calc', '--d4j', `file://${d4j}`, '--repo', `file://${fixture.projectRepo}`, '--descriptions', hafix, '--cache', cache, '--json'], home);
    const result = JSON.parse(r.stdout) as Setup;
    expect(result.d4jDir).toBe(join(cache, 'defects4j'));
    expect(result.d4jCommit).toBe(git(d4j, ['rev-parse', 'HEAD']));
    expect(result.projectRepo).toBe(join(cache, 'calc.git'));
    expect(result.active).toBe(7);
    expect(result.addedInV3).toEqual([7]);
    expect(result.imported.map((b) => b.id)).toEqual(['Calc-1', 'Calc-2', 'Calc-3', 'Calc-5', 'Calc-6', 'Calc-7']);
    expect(result.unavailable).toEqual([
      { bugId: 'Calc-8', kind: 'deprecated', why: 'deprecated by Defects4J 3.0.0: JVM11 Not Reproducible (deprecated-bugs.csv)' },
      { bugId: 'Calc-4', kind: 'failed', why: expect.stringMatching(/^Calc-4: patches\/4\.src\.patch does not apply to the fixed revision [0-9a-f]{40}: .*\(input at fault: .*patches\/4\.src\.patch\)$/s) },
    ]);
    expect(result.described).toBe(2);
    expect(r.code).toBe(1); // Calc-4 failed
    // progress, one line per bug, on stderr
    for (let i = 1; i <= 7; i++) expect(r.stderr).toContain(`[${i}/7] Calc-${i}: building the buggy version`);
    // HAFixAgent's description: the first line is the title
    const calc1 = JSON.parse(readFileSync(join(result.out, 'bugs/Calc-1.json'), 'utf8')) as { report: { title: string; body: string } };
    expect(calc1.report).toEqual({ title: 'Calc.isPositive(0) is true', body: 'Zero is not positive, yet isPositive says so.' });
    expect(result.out).toBe(join(home, 'defects4j', 'Calc'));
    // registered: the CLI's catalogue lists them
    const listed = JSON.parse((await cli(['bugs', '--json'], home)).stdout) as { id: string; title: string }[];
    expect(listed.find((b) => b.id === 'Calc-3')?.title).toBe('Sign.of(0) is -1');
    expect(listed.map((b) => b.id)).toEqual(expect.arrayContaining(['Calc-1', 'Calc-2', 'Calc-5', 'Calc-6', 'Calc-7']));

    // the text report says the same
    const again = await cli(['defects4j', 'setup', '--project', 'Calc', '--d4j', `file://${d4j}`, '--repo', `file://${fixture.projectRepo}`, '--cache', cache, '--bugs', '1,4'], home);
    expect(again.stderr).toContain(`--d4j: reusing ${join(cache, 'defects4j')} (cloned from file://${d4j} before; delete it to clone again)`);
    expect(again.stdout).toContain('Calc: 1 of 7 active bug(s) imported and registered (1 of the active bugs were added in Defects4J v3)');
    expect(again.stdout).toMatch(/unavailable \(2\):\n {2}Calc-8 +deprecated: deprecated by Defects4J 3\.0\.0/);
    expect(again.stdout).toMatch(/ {2}Calc-4 +failed: Calc-4: patches\/4\.src\.patch does not apply/);
  }, 300_000);

  it('uses local folders as they are, and the checkout\'s project_repos/<name>.git when no --repo is given', async () => {
    const local = join(root, 'd4j-local');
    cpSync(d4j, local, { recursive: true });
    execFileSync('git', ['clone', '--quiet', '--bare', fixture.projectRepo, join(local, 'project_repos', 'calc.git')]);
    const r = await cli(['defects4j', 'setup', '--project', 'Calc', '--d4j', local, '--bugs', '2', '--out', join(root, 'out-local'), '--json'], join(root, 'home-local'));
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as Setup;
    expect(result).toMatchObject({ d4jDir: local, projectRepo: join(local, 'project_repos', 'calc.git'), imported: [{ id: 'Calc-2', environmentExcluded: 0 }] });
  }, 120_000);

  it('refuses an unknown project, naming the projects the checkout has, and a missing folder', async () => {
    const r = await cli(['defects4j', 'setup', '--project', 'Nope', '--d4j', d4j, '--repo', fixture.projectRepo], join(root, 'home-bad'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`no Defects4J project "Nope" under ${join(d4j, 'framework', 'projects')} (found: Calc)`);
    const missing = await cli(['defects4j', 'setup', '--project', 'Calc', '--d4j', join(root, 'no-such-dir')], join(root, 'home-bad'));
    expect(missing.stderr).toContain(`--d4j ${join(root, 'no-such-dir')} does not exist: give a folder or a URL to clone`);
  }, 120_000);
});
