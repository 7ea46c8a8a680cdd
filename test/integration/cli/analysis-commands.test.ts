// The CLI's history, parsing, import and benchmark commands, run as a user runs them (a child process), and
// checked against an independent source where there is one (the git CLI, the Defects4J fixture, the runner).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner } from '../../../runner/src/index.ts';
import { createDefects4jFixture, type Defects4jFixture } from '../benchmarks/support/defects4j-fixture.ts';

const home = mkdtempSync(join(tmpdir(), 'repairlab-cli-analysis-'));
let runner: Awaited<ReturnType<typeof startRunner>>;

function cli(args: string[], stdin?: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('node', ['bin/repairlab.mjs', ...args], { env: { ...process.env, REPAIRLAB_HOME: home, ...env }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(stdin ?? '');
  });
}
const viaRunner = () => ['--runner', runner.url, '--token', runner.token];

beforeAll(async () => {
  runner = await startRunner({ port: 0 });
});
afterAll(async () => {
  await runner?.close();
});

interface BlameLine {
  line: number;
  commit: string;
  path: string;
  origLine: number;
}

/**
 * `git blame --porcelain`: a header `<sha> <orig> <final> [<n>]` per line, the content after a tab; a commit's
 * `filename` is printed with its details the first time it appears (again only when it is blamed under several paths).
 */
function gitBlame(dir: string, rev: string, file: string): BlameLine[] {
  const out: BlameLine[] = [];
  const paths = new Map<string, string>();
  let current: Omit<BlameLine, 'path'> | undefined;
  for (const l of execFileSync('git', ['-C', dir, 'blame', '--porcelain', rev, '--', file], { encoding: 'utf8' }).split('\n')) {
    const header = /^([0-9a-f]{40}) (\d+) (\d+)/.exec(l);
    if (header) current = { commit: header[1]!, origLine: Number(header[2]), line: Number(header[3]) };
    else if (l.startsWith('filename ') && current) paths.set(current.commit, l.slice('filename '.length));
    else if (l.startsWith('\t') && current) out.push({ ...current, path: paths.get(current.commit)! });
  }
  return out;
}

describe('repairlab blame', () => {
  const dir = mkdtempSync(join(tmpdir(), 'repairlab-cli-blame-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, '-c', 'commit.gpgSign=false', ...args], {
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z' },
    });
  const write = (file: string, lines: string[]) => writeFileSync(join(dir, file), lines.join('\n') + '\n');
  const commits: string[] = [];
  const commit = (...args: string[]) => {
    git('commit', '-q', ...args);
    commits.push(git('rev-parse', 'HEAD').trim());
  };

  beforeAll(() => {
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 't@example.org');
    git('config', 'user.name', 'T');
    // repeated lines (`}`), an edit, an insertion, a deletion, a rename, an edit after the rename
    write('A.java', ['class A {', '  int a = 1;', '  int b = 2;', '  void f() {', '  }', '  void g() {', '  }', '}']);
    git('add', '.');
    commit('-m', 'one');
    write('A.java', ['class A {', '  int a = 1;', '  int b = 3;', '  int c = 4;', '  void f() {', '  }', '  void g() {', '  }', '}']);
    commit('-am', 'two');
    git('mv', 'A.java', 'B.java');
    commit('-m', 'rename');
    write('B.java', ['class A {', '  int a = 10;', '  int b = 3;', '  int c = 4;', '  void g() {', '    f();', '  }', '}']);
    commit('-am', 'three');
  });

  it('agrees with git blame --porcelain on every line, across a rename (commit, path, original line)', async () => {
    const { code, stdout, stderr } = await cli(['blame', dir, 'B.java', '--json']);
    expect(code, stderr).toBe(0);
    const ours = stdout.trim().split('\n').map((l) => JSON.parse(l) as BlameLine);
    const theirs = gitBlame(dir, 'HEAD', 'B.java');
    expect(theirs).toHaveLength(8);
    expect(ours).toEqual(theirs);
    // the fixture really exercises what it should: three commits, lines attributed to the file's old name
    expect(new Set(ours.map((l) => l.commit))).toEqual(new Set([commits[0], commits[1], commits[3]]));
    expect(ours.filter((l) => l.path === 'A.java').length).toBeGreaterThan(0);
  });

  it('--rev blames an older revision, as git does', async () => {
    const { code, stdout } = await cli(['blame', dir, 'A.java', '--rev', commits[1]!, '--json']);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n').map((l) => JSON.parse(l) as BlameLine)).toEqual(gitBlame(dir, commits[1]!, 'A.java'));
  });

  it('prints one text line per file line without --json', async () => {
    const { code, stdout } = await cli(['blame', dir, 'B.java']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(8);
    expect(lines[1]).toBe(`2  ${commits[3]!.slice(0, 12)}  B.java:2`);
  });

  it('names a directory that is not a repository, a file missing at the revision, and an unknown revision', async () => {
    const notRepo = await cli(['blame', tmpdir(), 'x.java']);
    expect(notRepo.code).toBe(1);
    expect(notRepo.stderr).toContain(`${tmpdir()} is not a git repository`);
    const missing = await cli(['blame', dir, 'A.java']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/A\.java does not exist at HEAD/);
    const badRev = await cli(['blame', dir, 'B.java', '--rev', 'no-such-branch']);
    expect(badRev.code).toBe(1);
    expect(badRev.stderr).toMatch(/"no-such-branch" not found/);
  });
});

describe('repairlab history', () => {
  const BUG = 'textkit-1';
  const spec = JSON.parse(readFileSync(`public/benchmarks/bugs/${BUG}.json`, 'utf8')) as { buggyCommit: string; faultLocalization: { file: string; lines: number[] }[] };
  const gitDir = mkdtempSync(join(tmpdir(), 'repairlab-cli-history-'));
  const git = (...args: string[]) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } });
  type History = { bug: string; heuristic: string; text: string; extraction: { primary: { blame: { commit: string; path: string } } } };
  const diffBody = (text: string) => text.slice(text.indexOf('```diff\n') + 8, text.lastIndexOf('\n```'));
  let full: History;

  beforeAll(async () => {
    git('init', '-q', '--bare');
    git('fetch', '-q', 'public/benchmarks/textkit.bundle', '+refs/*:refs/*');
    const r = await cli(['history', BUG, '--heuristic', 'fl_diff', '--json']);
    expect(r.code, r.stderr).toBe(0);
    full = JSON.parse(r.stdout) as History;
  });

  it("fl_diff: the blame commit git finds, its date and message in the header, and git's own diff of the file", async () => {
    const fl = spec.faultLocalization[0]!;
    const line = fl.lines[0]!;
    const gitCommit = git('blame', '--porcelain', '-L', `${line},${line}`, spec.buggyCommit, '--', fl.file).split(' ')[0]!;
    expect(full.extraction.primary.blame.commit).toBe(gitCommit);
    expect(full.text).toContain(`Commit: ${gitCommit}\n`);
    expect(full.text).toContain(`Commit date: ${git('show', '-s', '--date=format-local:%Y-%m-%d %H:%M:%S', '--format=%ad', gitCommit).trim()}\n`);
    expect(full.text).toContain(`Commit message: ${git('show', '-s', '--format=%s', gitCommit).trim()}\n`);
    const gitDiff = git('-c', 'core.abbrev=7', 'diff', `${gitCommit}~1`, gitCommit, '--', full.extraction.primary.blame.path).trimEnd();
    expect(diffBody(full.text)).toBe(gitDiff);
    expect(gitDiff.length).toBeLessThanOrEqual(3000); // under the released code's cap: shown whole
  });

  it('fl_diff is capped: --max-diff-chars keeps exactly that prefix of the diff', async () => {
    const { code, stdout } = await cli(['history', BUG, '--heuristic', 'fl_diff', '--max-diff-chars', '200', '--json']);
    expect(code).toBe(0);
    const capped = diffBody((JSON.parse(stdout) as History).text);
    expect(capped).toHaveLength(200);
    expect(diffBody(full.text).startsWith(capped)).toBe(true);
  });

  it('fn_pair: the enclosing function before and after the blame commit; the text output is the prompt section', async () => {
    const commit = full.extraction.primary.blame.commit;
    const path = full.extraction.primary.blame.path;
    const json = await cli(['history', BUG, '--heuristic', 'fn_pair', '--json']);
    expect(json.code).toBe(0);
    const text = (JSON.parse(json.stdout) as History).text;
    const [before, after] = text.split('```java\n').slice(1).map((s) => s.slice(0, s.indexOf('\n```')));
    expect(before).toContain('public static String truncate(');
    expect(after).toContain('public static String truncate(');
    // each version is the function as it stands in the parent / the blame commit
    expect(git('show', `${commit}~1:${path}`)).toContain(before!.split('\n').find((l) => l.includes('truncate('))!);
    expect(git('show', `${commit}:${path}`)).toContain(after!.split('\n').find((l) => l.includes('truncate('))!);
    expect(before).not.toBe(after);
    const plain = await cli(['history', BUG, '--heuristic', 'fn_pair']);
    expect(plain.stdout.trimEnd()).toBe(text.trimEnd());
  });

  it('a HAFixAgent run puts the history section of its variant in the prompt: the text `history` prints', async () => {
    const replies = join(home, 'sentinel-replies.json');
    writeFileSync(replies, JSON.stringify(['THOUGHT: done.\n\n```bash\necho COMPLETE_REPAIR_SIGNAL\n```']));
    const instance = async (...extra: string[]) => {
      const r = await cli(['run', BUG, '--preset', 'hafixagent', '--llm', `scripted:${replies}`, ...extra, ...viaRunner(), '--json']);
      expect(r.code, r.stderr).toBe(0);
      const t = JSON.parse(r.stdout) as { steps: { prompt: { messages: { role: string; content: string }[] } }[] };
      return t.steps[0]!.prompt.messages.find((m) => m.role === 'user')!.content;
    };
    const withHistory = await instance('--variant', 'fl_diff');
    expect(withHistory).toContain('## Historical context (fl_diff)\n');
    expect(withHistory).toContain(full.text.trimEnd());
    // the heuristic's caps come from toolSettings too
    const capped = await instance('--variant', 'fl_diff', '--overrides', '{"toolSettings":{"historyLimits":{"maxDiffChars":200}}}');
    expect(diffBody(capped.slice(capped.indexOf('## Historical context')))).toBe(diffBody(full.text).slice(0, 200));
    expect(await instance()).not.toContain('Historical context');
    // a history setting the extractor cannot take stops the run before it starts, naming the setting
    const bad = await cli(['run', BUG, '--preset', 'hafixagent', '--llm', `scripted:${replies}`, '--overrides', '{"toolSettings":{"historyContext":"fn_none"}}', ...viaRunner()]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/toolSettings\.historyContext "fn_none": use "non-history" or one of fn_all, fn_pair, fl_diff/);
  });

  it('refuses an unknown heuristic with the list, and explains that "none" is the preset default, not a heuristic', async () => {
    const unknown = await cli(['history', BUG, '--heuristic', 'fn_none']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/--heuristic fn_none: use one of fn_all, fn_pair, fl_diff/);
    const none = await cli(['history', BUG, '--heuristic', 'none']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/non-history/);
    const bug = await cli(['history', 'nope-1', '--heuristic', 'fl_diff']);
    expect(bug.code).toBe(1);
    expect(bug.stderr).toMatch(/No bug named "nope-1"/);
    const cap = await cli(['history', BUG, '--heuristic', 'fl_diff', '--max-diff-chars', 'lots']);
    expect(cap.code).toBe(1);
    expect(cap.stderr).toContain('--max-diff-chars lots');
  });
});

describe('repairlab parse', () => {
  type Expected = { name?: string; args?: Record<string, unknown>; rectified?: string[]; error?: RegExp };
  const cases: [preset: string, reply: string, expected: Expected][] = [
    // RepairAgent: JSON commands
    ['repairagent', '```json\n{"thoughts":"t","command":{"name":"read_range","args":{"filepath":"A.java","startline":1,"endline":2}}}\n```', { name: 'read_range', args: { filepath: 'A.java', startline: 1, endline: 2 }, rectified: [] }],
    ['repairagent', "{'thoughts': 't', 'command': {'name': 'read_range', 'args': {'filepath': 'A.java', 'startline': 1, 'endline': 2,}}}", { name: 'read_range', args: { filepath: 'A.java', startline: 1, endline: 2 }, rectified: ['json-repair'] }],
    ['repairagent', '{"thoughts":"t","command":{"name":"read_rang","args":{"filepath":"A.java","startline":1,"endline":2}}}', { name: 'read_range', rectified: ['tool-name'] }],
    ['repairagent', '{"thoughts":"t","command":{"name":"read_range","args":{"file":"A.java","startline":1,"endline":2}}}', { name: 'read_range', args: { filepath: 'A.java', startline: 1, endline: 2 }, rectified: ['arg-name'] }],
    ['repairagent', 'I will read the file now.', { error: /no JSON object found/ }],
    ['repairagent', '{"thoughts":"t","command":{"name":"fly_to_moon","args":{}}}', { error: /unknown command "fly_to_moon"/ }],
    // HAFixAgent: one bash block
    ['hafixagent', 'THOUGHT: look\n\n```bash   \n   grep -n x A.java   \n```\n', { name: 'bash', args: { command: 'grep -n x A.java' }, rectified: ['whitespace'] }],
    ['hafixagent', 'two blocks\n```bash\nls\n```\n```bash\npwd\n```', { error: /found 2 bash code blocks/ }],
    ['hafixagent', 'no block here', { error: /found 0 bash code blocks/ }],
    // Passerine: THOUGHT / ACTION
    ['passerine', 'THOUGHT: read it\nACTION: cat A.java', { name: 'cat', args: { file: 'A.java' }, rectified: [] }],
    ['passerine', 'I think the bug is in A.', { error: /no ACTION found/ }],
    // One-shot: a unified diff
    ['oneshot', 'no diff', { error: /no unified diff found/ }],
  ];
  it.each(cases)('%s: %j', async (preset, reply, expected) => {
    const { code, stdout } = await cli(['parse', '--preset', preset, '--json'], reply);
    const parsed = JSON.parse(stdout) as { preset: string; command?: { name: string; args: Record<string, unknown> }; error?: string; rectifications: { kind: string }[] };
    expect(parsed.preset).toBe(preset);
    if (expected.error) {
      expect(code).toBe(1);
      expect(parsed.error).toMatch(expected.error);
    } else {
      expect(code).toBe(0);
      expect(parsed.error).toBeUndefined();
      expect(parsed.command?.name).toBe(expected.name);
      if (expected.args) expect(parsed.command?.args).toEqual(expected.args);
      if (expected.rectified) expect(parsed.rectifications.map((r) => r.kind)).toEqual(expected.rectified);
    }
  });

  it("applies the preset's variants: RepairAgent's released code does not rectify a misspelt tool name", async () => {
    const reply = '{"thoughts":"t","command":{"name":"read_rang","args":{"filepath":"A.java","startline":1,"endline":2}}}';
    const code = await cli(['parse', '--preset', 'repairagent', '--variant', 'code'], reply);
    expect(code.code).toBe(1);
    expect(code.stdout).toMatch(/error \(fed back to the model\): unknown command "read_rang"/);
    const paper = await cli(['parse', '--preset', 'repairagent'], reply);
    expect(paper.code).toBe(0);
    expect(paper.stdout).toContain('rectified (tool-name): unknown command read_rang read as read_range');
  });

  it('says what to do with an empty stdin, an unknown preset and an unknown variant', async () => {
    const empty = await cli(['parse', '--preset', 'hafixagent'], '');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/stdin is empty/);
    const preset = await cli(['parse', '--preset', 'swe-agent'], 'x');
    expect(preset.code).toBe(1);
    expect(preset.stderr).toMatch(/unknown preset "swe-agent": use one of repairagent, hafixagent, passerine/);
    const variant = await cli(['parse', '--preset', 'passerine', '--variant', 'nope'], 'x');
    expect(variant.code).toBe(1);
    expect(variant.stderr).toMatch(/no variant "nope"/);
  });
});

describe('repairlab import-defects4j', () => {
  let fixture: Defects4jFixture;
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'repairlab-cli-d4j-'));
    fixture = createDefects4jFixture(root);
  });
  const base = () => ['import-defects4j', '--project-repo', fixture.projectRepo, '--d4j', fixture.d4jDir, '--project', fixture.project];

  it('writes bundles and BugSpecs for the listed bugs of a Defects4J-style checkout', async () => {
    const out = join(root, 'out');
    const { code, stdout, stderr } = await cli([...base(), '--bugs', '1', '--out', out, '--json']);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as { bugs: { id: string; failingTests: string[]; category: string; blameable: boolean; removedTests: string[]; spec: string; bundle: string }[] };
    expect(result.bugs).toHaveLength(1);
    expect(result.bugs[0]).toMatchObject({ id: 'Calc-1', failingTests: ['org.fixture.CalcTest::testIsPositiveZero'], category: 'SL', blameable: true, removedTests: ['org.fixture.CalcTest::testFlaky'] });
    const spec = JSON.parse(readFileSync(result.bugs[0]!.spec, 'utf8')) as { buggyCommit: string; failingTests: string[] };
    expect(spec.failingTests).toEqual(result.bugs[0]!.failingTests);
    // the bundle holds the buggy commit, and its parent is the original buggy revision (real history for blame)
    const refs = execFileSync('git', ['bundle', 'list-heads', result.bugs[0]!.bundle], { encoding: 'utf8' });
    expect(refs).toContain(spec.buggyCommit);
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as { bugs: string[] };
    expect(index.bugs).toEqual(['bugs/Calc-1.json']);
  });

  it('--register makes the bugs usable by the other commands: validate fails the trigger test, the fix passes, history blames the real commit', async () => {
    const regHome = mkdtempSync(join(tmpdir(), 'repairlab-cli-d4j-home-'));
    const env = { REPAIRLAB_HOME: regHome };
    const imported = await cli([...base(), '--bugs', '1-2', '--out', join(root, 'registered'), '--register'], '', env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/Calc-1 +SL +blameable/);
    expect(imported.stdout).toMatch(/Calc-2 +SH +blameless/);
    const bugs = JSON.parse((await cli(['bugs', '--json'], '', env)).stdout) as { id: string }[];
    expect(bugs.map((b) => b.id)).toEqual(expect.arrayContaining(['Calc-1', 'Calc-2']));

    const buggy = JSON.parse((await cli(['validate', 'Calc-1', '--patch', 'none', '--json', ...viaRunner()], '', env)).stdout) as { verdict: string; failingTests: string[] };
    expect(buggy).toMatchObject({ verdict: 'fail', failingTests: ['org.fixture.CalcTest::testIsPositiveZero'] });
    const fixed = JSON.parse((await cli(['validate', 'Calc-1', '--patch', 'ground-truth', '--json', ...viaRunner()], '', env)).stdout) as { verdict: string };
    expect(fixed.verdict).toBe('pass');
    const history = await cli(['history', 'Calc-1', '--heuristic', 'fl_diff', '--json'], '', env);
    expect(history.code, history.stderr).toBe(0);
    const h = JSON.parse(history.stdout) as { text: string; extraction: { primary: { commit: { oid: string; summary: string } } } };
    expect(h.extraction.primary.commit).toMatchObject({ oid: fixture.revisions.introducesBug1, summary: 'isPositive: simplify' });
    expect(h.text).toContain('Commit message: isPositive: simplify');
  }, 120_000);

  it('names the input at fault: a missing project, a malformed bug list, a directory that is not a repository', async () => {
    const out = join(root, 'bad');
    const project = await cli(['import-defects4j', '--project-repo', fixture.projectRepo, '--d4j', fixture.d4jDir, '--project', 'Nope', '--out', out]);
    expect(project.code).toBe(1);
    expect(project.stderr).toMatch(/Nope/);
    expect(project.stderr).toMatch(/Calc/); // the projects that do exist
    const list = await cli([...base(), '--bugs', '1-x', '--out', out]);
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('--bugs: "1-x" is not a bug id or a range like 1-5');
    const repo = await cli(['import-defects4j', '--project-repo', tmpdir(), '--d4j', fixture.d4jDir, '--project', fixture.project, '--out', out]);
    expect(repo.code).toBe(1);
    expect(repo.stderr).toContain(`--project-repo ${tmpdir()} is not a git repository`);
  });
});

describe('repairlab run with each preset', () => {
  const index = JSON.parse(readFileSync('public/cassettes/index.json', 'utf8')) as { cassettes: { file: string; preset: string; overrides: Record<string, unknown> }[] };
  let toolsByToolkit: Record<string, { name: string }[]>;
  beforeAll(async () => {
    toolsByToolkit = JSON.parse((await cli(['tools', '--json'])).stdout) as Record<string, { name: string }[]>;
  });

  it.each(['repairagent', 'hafixagent', 'passerine'])('%s replays its demo recording to a plausible patch that matches the fix', async (preset) => {
    const entry = index.cassettes.find((c) => c.preset === preset && c.file === `textkit-1.${preset}.fix.cassette.json`)!;
    const args = ['run', 'textkit-1', '--preset', preset, '--llm', `replay:public/cassettes/${entry.file}`, ...viaRunner(), '--json'];
    if (Object.keys(entry.overrides).length) args.push('--overrides', JSON.stringify(entry.overrides));
    const { code, stdout, stderr } = await cli(args);
    expect(code, stderr).toBe(0);
    const t = JSON.parse(stdout) as { config: { preset: string }; outcome: { status: string; finalPatch: string; exactMatch: boolean }; steps: { status: string; tool?: { name: string } }[] };
    expect(t.config.preset).toBe(preset);
    expect(t.outcome.status).toBe('plausible');
    expect(t.outcome.exactMatch).toBe(true);
    expect(t.outcome.finalPatch).toContain('+        if (s.length() <= maxLength) {');
    // every step ran a tool of the preset's own toolkit (the engine's apply-patch aside)
    const own = new Set((toolsByToolkit[preset] ?? []).map((d) => d.name));
    expect(t.steps.length).toBeGreaterThan(1);
    for (const s of t.steps) {
      expect(s.status).toBe('ok');
      expect(own.has(s.tool!.name), `${s.tool!.name} in ${preset}'s toolkit`).toBe(true);
    }
  });

  it('runs several independent trajectories and reports plausible@k', async () => {
    const args = ['run', 'textkit-1', '--preset', 'passerine', '--llm', 'replay:public/cassettes/textkit-1.passerine.fix.cassette.json', '--overrides', '{"sampling":{"trajectories":2}}', ...viaRunner(), '--json'];
    const { code, stdout, stderr } = await cli(args);
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout) as { trajectories: { runId: string; config: { trajectoryIndex: number } }[]; summary: { trajectories: number; plausible: number; plausibleAtK: Record<string, number> } };
    expect(out.trajectories.map((t) => t.config.trajectoryIndex)).toEqual([0, 1]);
    expect(new Set(out.trajectories.map((t) => t.runId)).size).toBe(2);
    expect(out.summary).toEqual({ trajectories: 2, plausible: 2, plausibleAtK: { 1: 1 } });
  });

  it('prices steps with the table given by --prices, and names a bad table', async () => {
    const replies = join(home, 'priced-replies.json');
    writeFileSync(replies, JSON.stringify(['THOUGHT: done.\n\n```bash\necho COMPLETE_REPAIR_SIGNAL\n```']));
    const prices = join(home, 'prices.json');
    writeFileSync(prices, JSON.stringify({ scripted: { inputPerMTok: 1_000_000, outputPerMTok: 2_000_000 } }));
    const { code, stdout, stderr } = await cli(['run', 'textkit-1', '--preset', 'hafixagent', '--llm', `scripted:${replies}`, '--prices', prices, ...viaRunner(), '--json']);
    expect(code, stderr).toBe(0);
    const t = JSON.parse(stdout) as { config: { prices: unknown }; outcome: { totals: { inputTokens: number; outputTokens: number; costUsd: number } } };
    expect(t.config.prices).toEqual({ scripted: { inputPerMTok: 1_000_000, outputPerMTok: 2_000_000 } });
    expect(t.outcome.totals.costUsd).toBe(t.outcome.totals.inputTokens + 2 * t.outcome.totals.outputTokens);
    writeFileSync(prices, JSON.stringify({ scripted: { inputPerMTok: 'free' } }));
    const bad = await cli(['run', 'textkit-1', '--preset', 'hafixagent', '--llm', `scripted:${replies}`, '--prices', prices, ...viaRunner()]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`--prices ${prices}: the price of "scripted" needs inputPerMTok and outputPerMTok`);
  });

  it('applies named variants and records them', async () => {
    const args = ['run', 'textkit-1', '--preset', 'passerine', '--variant', 'single-trajectory', '--llm', 'replay:public/cassettes/textkit-1.passerine.fix.cassette.json', ...viaRunner(), '--json'];
    const { code, stdout, stderr } = await cli(args);
    expect(code, stderr).toBe(0);
    const t = JSON.parse(stdout) as { config: { variants: string[] }; outcome: { status: string } };
    expect(t.config.variants).toEqual(['single-trajectory']);
    expect(t.outcome.status).toBe('plausible');
  });

  it('lists the presets with their ablations, in JSON and in text', async () => {
    const { code, stdout } = await cli(['presets', '--json']);
    expect(code).toBe(0);
    const presets = JSON.parse(stdout) as { id: string; toolkit: string; variants: { id: string; description: string }[] }[];
    expect(presets.map((p) => p.id)).toEqual(expect.arrayContaining(['repairagent', 'hafixagent', 'passerine', 'oneshot']));
    const variants = (id: string) => presets.find((p) => p.id === id)!.variants.map((v) => v.id);
    expect(variants('repairagent')).toEqual(expect.arrayContaining(['no-search-tools', 'no-state-machine', 'single-cycle-memory', 'realistic-fl']));
    expect(variants('hafixagent')).toEqual(expect.arrayContaining(['fn_all', 'fn_pair', 'fl_diff']));
    expect(variants('passerine')).toContain('single-trajectory');
    for (const p of presets) for (const v of p.variants) expect(v.description.length).toBeGreaterThan(0);
    const text = await cli(['presets']);
    expect(text.stdout).toMatch(/^ {2}--variant no-search-tools +ablation: without search_code_base/m);
  });
});

describe('repairlab bench', () => {
  it('validation: cold and warm times side by side with their ratio', async () => {
    const { code, stdout, stderr } = await cli(['bench', 'validation', '--rounds', '1', '--json']);
    expect(code, stderr).toBe(0);
    const r = JSON.parse(stdout) as Record<string, number | string>;
    for (const key of ['cold_ms', 'warm_ms', 'ratio', 'variants_ms', 'variants_ratio']) expect(typeof r[key], key).toBe('number');
    const n = (k: string) => r[k] as number;
    expect(r).toMatchObject({ bug: 'textkit-1', rounds: 1, variants: 30 });
    // ratios are printed rounded to 0.01: agree to 1%
    expect(Math.abs(n('ratio') / (n('cold_ms') / n('warm_ms')) - 1)).toBeLessThan(0.01);
    expect(Math.abs(n('variants_ratio') / (n('variants_ms') / n('warm_ms')) - 1)).toBeLessThan(0.01);
  }, 180_000);

  it('validation refuses a bug it cannot measure instead of silently measuring another', async () => {
    const { code, stderr } = await cli(['bench', 'validation', '--bug', 'nope-1', '--rounds', '1']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/--bug nope-1: not in the catalogue; use one of .*textkit-1.*import-defects4j --register.*'generated'/);
  });

  it("blame: RepairLab's and git's time on one file and their ratio", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'repairlab-cli-bench-blame-'));
    const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=T', '-c', 'user.email=t@example.org', '-c', 'commit.gpgSign=false', ...args], { encoding: 'utf8' });
    git('init', '-q');
    for (let i = 1; i <= 4; i++) {
      writeFileSync(join(dir, 'F.java'), Array.from({ length: 10 * i }, (_, j) => `// line ${j} of version ${j % i === 0 ? i : 1}`).join('\n') + '\n');
      git('add', '.');
      git('commit', '-q', '-m', `v${i}`);
    }
    const { code, stdout, stderr } = await cli(['bench', 'blame', dir, 'F.java', '--runs', '1', '--json']);
    expect(code, stderr).toBe(0);
    const r = JSON.parse(stdout) as { lines: number; commitsTouchingFile: number; repairlabMs: number; gitMs: number; ratio: number };
    expect(r).toMatchObject({ lines: 40, commitsTouchingFile: 4 });
    expect(r.ratio).toBeCloseTo(r.repairlabMs / r.gitMs, 6);
    const bad = await cli(['bench', 'blame', tmpdir(), 'F.java']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not a git repository');
  });
});
