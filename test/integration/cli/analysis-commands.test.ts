// The CLI's history, parsing, import and benchmark commands, run as a user runs them (a child process).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner } from '../../../runner/src/index.ts';
import { createDefects4jFixture } from '../benchmarks/support/defects4j-fixture.ts';

const home = mkdtempSync(join(tmpdir(), 'repairlab-cli-analysis-'));
let runner: Awaited<ReturnType<typeof startRunner>>;

function cli(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('node', ['bin/repairlab.mjs', ...args], { env: { ...process.env, REPAIRLAB_HOME: home }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(stdin ?? '');
  });
}

beforeAll(async () => {
  runner = await startRunner({ port: 0 });
});
afterAll(async () => {
  await runner?.close();
});

describe('repairlab blame', () => {
  it('agrees with git blame --porcelain, across a rename', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'repairlab-cli-blame-'));
    const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z' } });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 't@example.org');
    git('config', 'user.name', 'T');
    writeFileSync(join(dir, 'A.java'), 'class A {\n  int a = 1;\n  int b = 2;\n}\n');
    git('add', '.');
    git('commit', '-qm', 'one');
    writeFileSync(join(dir, 'A.java'), 'class A {\n  int a = 1;\n  int b = 3;\n  int c = 4;\n}\n');
    git('commit', '-qam', 'two');
    git('mv', 'A.java', 'B.java');
    git('commit', '-qm', 'rename');
    writeFileSync(join(dir, 'B.java'), 'class A {\n  int a = 10;\n  int b = 3;\n  int c = 4;\n}\n');
    git('commit', '-qam', 'three');

    const { code, stdout } = await cli(['blame', dir, 'B.java', '--json']);
    expect(code).toBe(0);
    const ours = stdout.trim().split('\n').map((l) => JSON.parse(l) as { line: number; commit: string; path: string; origLine: number });
    const theirs = git('blame', '--porcelain', 'HEAD', '--', 'B.java')
      .split('\n')
      .filter((l) => /^[0-9a-f]{40} \d+ \d+/.test(l))
      .map((l) => l.split(' '))
      .map(([commit, orig, final]) => ({ line: Number(final), commit: commit!, origLine: Number(orig) }));
    expect(ours.map(({ line, commit, origLine }) => ({ line, commit, origLine }))).toEqual(theirs);
    expect(new Set(ours.map((l) => l.commit)).size).toBe(3);
    expect(ours.find((l) => l.line === 1)!.path).toBe('A.java');
  });

  it('names a directory that is not a repository', async () => {
    const { code, stderr } = await cli(['blame', tmpdir(), 'x.java']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/is not a git repository/);
  });
});

describe('repairlab history', () => {
  it('gives the blame commit of the demo bug with its fl_diff, capped', async () => {
    const { code, stdout } = await cli(['history', 'textkit-1', '--heuristic', 'fl_diff', '--json']);
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { heuristic: string; text: string; extraction: { primary: { blame: { commit: string; path: string } } } };
    expect(out.heuristic).toBe('fl_diff');
    const commit = out.extraction.primary.blame.commit;
    expect(out.text).toContain(`Commit: ${commit}`);
    expect(out.text).toContain('```diff');
    expect(out.text).toContain(out.extraction.primary.blame.path);
    const diff = out.text.slice(out.text.indexOf('```diff') + 8, out.text.lastIndexOf('```'));
    expect(diff.length).toBeLessThanOrEqual(3001);
  });

  it('refuses an unknown heuristic with the list of known ones', async () => {
    const { code, stderr } = await cli(['history', 'textkit-1', '--heuristic', 'fn_none']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/fn_all, fn_pair, fl_diff/);
  });
});

describe('repairlab parse', () => {
  const cases: [preset: string, reply: string, expected: { name?: string; rectified?: string[]; error?: RegExp }][] = [
    ['repairagent', '```json\n{"thoughts":"t","command":{"name":"read_range","args":{"filepath":"A.java","startline":1,"endline":2}}}\n```', { name: 'read_range', rectified: [] }],
    ['repairagent', '{"thoughts":"t","command":{"name":"read_rang","args":{"filepath":"A.java","startline":1,"endline":2}}}', { name: 'read_range', rectified: ['tool-name'] }],
    ['repairagent', "{'thoughts': 't', 'command': {'name': 'read_range', 'args': {'filepath': 'A.java', 'startline': 1, 'endline': 2,}}}", { name: 'read_range' }],
    ['hafixagent', 'THOUGHT: look\n\n```bash   \n   grep -n x A.java   \n```\n', { name: 'bash' }],
    ['hafixagent', 'two blocks\n```bash\nls\n```\n```bash\npwd\n```', { error: /one|exactly/i }],
    ['passerine', 'THOUGHT: read it\nACTION: cat A.java', { name: 'cat' }],
    ['passerine', 'I think the bug is in A.', { error: /ACTION/ }],
  ];
  it.each(cases)('%s: %j', async (preset, reply, expected) => {
    const { code, stdout } = await cli(['parse', '--preset', preset, '--json'], reply);
    const parsed = JSON.parse(stdout) as { command?: { name: string }; error?: string; rectifications: { kind: string }[] };
    if (expected.error) {
      expect(code).toBe(1);
      expect(parsed.error).toMatch(expected.error);
    } else {
      expect(code).toBe(0);
      expect(parsed.error).toBeUndefined();
      expect(parsed.command?.name).toBe(expected.name);
      if (expected.rectified) expect(parsed.rectifications.map((r) => r.kind)).toEqual(expected.rectified);
    }
  });

  it('says what to do with an empty stdin', async () => {
    const { code, stderr } = await cli(['parse', '--preset', 'hafixagent'], '');
    expect(code).toBe(1);
    expect(stderr).toMatch(/stdin is empty/);
  });
});

describe('repairlab import-defects4j', () => {
  it('writes bundles and BugSpecs for the listed bugs of a Defects4J-style checkout', async () => {
    const root = mkdtempSync(join(tmpdir(), 'repairlab-cli-d4j-'));
    const fixture = createDefects4jFixture(root);
    const out = join(root, 'out');
    const { code, stdout, stderr } = await cli(['import-defects4j', '--project-repo', fixture.projectRepo, '--d4j', fixture.d4jDir, '--project', fixture.project, '--bugs', '1', '--out', out, '--json']);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as { bugs: { id: string; failingTests: string[]; spec: string; bundle: string }[] };
    expect(result.bugs.map((b) => b.id)).toHaveLength(1);
    const spec = JSON.parse(readFileSync(result.bugs[0]!.spec, 'utf8')) as { buggyCommit: string; failingTests: string[] };
    expect(spec.failingTests).toEqual(result.bugs[0]!.failingTests);
    expect(spec.failingTests.length).toBeGreaterThan(0);
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as { bugs: string[] };
    expect(index.bugs).toHaveLength(1);
  });

  it('names a missing Defects4J project', async () => {
    const root = mkdtempSync(join(tmpdir(), 'repairlab-cli-d4j-'));
    const fixture = createDefects4jFixture(root);
    const { code, stderr } = await cli(['import-defects4j', '--project-repo', fixture.projectRepo, '--d4j', fixture.d4jDir, '--project', 'Nope', '--out', join(root, 'out')]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/Nope/);
  });
});

describe('repairlab run with each preset', () => {
  const index = JSON.parse(readFileSync('public/cassettes/index.json', 'utf8')) as { cassettes: { file: string; preset: string; overrides: Record<string, unknown> }[] };
  it.each(['repairagent', 'hafixagent', 'passerine'])('%s replays its demo recording to a plausible patch', async (preset) => {
    const entry = index.cassettes.find((c) => c.preset === preset && c.file.includes('.fix.'))!;
    const args = ['run', 'textkit-1', '--preset', preset, '--llm', `replay:public/cassettes/${entry.file}`, '--runner', runner.url, '--token', runner.token, '--json'];
    if (Object.keys(entry.overrides).length) args.push('--overrides', JSON.stringify(entry.overrides));
    const { code, stdout, stderr } = await cli(args);
    expect(code, stderr).toBe(0);
    const trajectory = JSON.parse(stdout) as { outcome: { status: string; finalPatch: string }; steps: { tool?: { name: string } }[] };
    expect(trajectory.outcome.status).toBe('plausible');
    expect(trajectory.outcome.finalPatch).toContain('<=');
  });

  it('runs several independent trajectories and reports plausible@k', async () => {
    const args = ['run', 'textkit-1', '--preset', 'passerine', '--llm', 'replay:public/cassettes/textkit-1.passerine.fix.cassette.json', '--overrides', '{"sampling":{"trajectories":2}}', '--runner', runner.url, '--token', runner.token, '--json'];
    const { code, stdout, stderr } = await cli(args);
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout) as { trajectories: { runId: string; config: { trajectoryIndex: number } }[]; summary: { trajectories: number; plausible: number; plausibleAtK: Record<string, number> } };
    expect(out.trajectories.map((t) => t.config.trajectoryIndex)).toEqual([0, 1]);
    expect(new Set(out.trajectories.map((t) => t.runId)).size).toBe(2);
    expect(out.summary).toEqual({ trajectories: 2, plausible: 2, plausibleAtK: { 1: 1 } });
  });

  it('applies named variants and records them', async () => {
    const entry = index.cassettes.find((c) => c.preset === 'passerine')!;
    const args = ['run', 'textkit-1', '--preset', 'passerine', '--variant', 'single-trajectory', '--llm', `replay:public/cassettes/${entry.file}`, '--runner', runner.url, '--token', runner.token, '--json'];
    const { code, stdout, stderr } = await cli(args);
    expect(code, stderr).toBe(0);
    const t = JSON.parse(stdout) as { config: { variants: string[] }; outcome: { status: string } };
    expect(t.config.variants).toEqual(['single-trajectory']);
    expect(t.outcome.status).toBe('plausible');
  });

  it('lists the presets and the ablations', async () => {
    const { code, stdout } = await cli(['presets', '--json']);
    expect(code).toBe(0);
    const text = stdout;
    for (const name of ['repairagent', 'hafixagent', 'passerine']) expect(text).toContain(name);
    expect(text).toMatch(/no.search/i);
    expect(text).toMatch(/single.cycle/i);
  });
});

describe('repairlab bench validation', () => {
  it('prints cold and warm times side by side with their ratio', async () => {
    const { code, stdout, stderr } = await cli(['bench', 'validation', '--rounds', '1', '--json']);
    expect(code, stderr).toBe(0);
    const r = JSON.parse(stdout) as Record<string, number>;
    for (const key of ['cold_ms', 'warm_ms', 'ratio', 'variants_ms', 'variants_ratio']) expect(typeof r[key]).toBe('number');
    // ratios are printed rounded: agree to 1%
    expect(Math.abs(r.ratio! / (r.cold_ms! / r.warm_ms!) - 1)).toBeLessThan(0.01);
    expect(Math.abs(r.variants_ratio! / (r.variants_ms! / r.warm_ms!) - 1)).toBeLessThan(0.01);
  }, 180_000);
});
