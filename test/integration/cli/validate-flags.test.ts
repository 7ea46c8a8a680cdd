// `repairlab validate` says what it did with its input: unknown --tests values are refused naming the valid ones,
// every patch error names the patch file, a patch applied at an offset or with fuzz — or decoded from bytes that
// were not UTF-8 — is reported with the verdict, and runner errors give the CLI's flags and environment variables
// (not the app's settings). A real child process, a real runner, real javac/JUnit.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner } from '../../../runner/src/index.ts';

const BUG = 'textkit-1';
const TRUTH = (JSON.parse(readFileSync('public/benchmarks/bugs/textkit-1.json', 'utf8')) as { groundTruth: { patch: string } }).groundTruth.patch;
let home: string;
let dir: string;
let runner: Awaited<ReturnType<typeof startRunner>>;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', ['bin/repairlab.mjs', ...args], { env: { ...process.env, REPAIRLAB_HOME: home, REPAIRLAB_RUNNER_URL: '', REPAIRLAB_RUNNER_TOKEN: '' }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const viaRunner = () => ['--runner', runner.url, '--token', runner.token];

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'repairlab-cli-flags-'));
  dir = await mkdtemp(join(tmpdir(), 'repairlab-cli-patches-'));
  runner = await startRunner({ port: 0 });
});
afterAll(async () => {
  await runner?.close();
});

describe('repairlab validate', () => {
  it('refuses an unknown --tests value, naming the valid ones, before anything runs', async () => {
    const r = await cli(['validate', BUG, '--tests', 'bogus', '--runner', 'http://127.0.0.1:9', '--token', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--tests bogus');
    expect(r.stderr).toContain('failing-first, all');
  });

  it('names the patch file in a patch error ("no hunks")', async () => {
    const file = join(dir, 'headers-only.diff');
    await writeFile(file, '--- a/src/main/java/org/repairlab/textkit/Strings.java\n+++ b/src/main/java/org/repairlab/textkit/Strings.java\n');
    const r = await cli(['validate', BUG, '--patch', file, ...viaRunner()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--patch ${file}`);
    expect(r.stderr).toContain('no hunks');
  });

  it('reports a hunk applied at an offset, and one applied with fuzz, with the verdict', async () => {
    const offset = join(dir, 'offset.diff');
    await writeFile(offset, TRUTH.replace('@@ -55,7 +55,7 @@', '@@ -52,7 +52,7 @@'));
    const moved = await cli(['validate', BUG, '--patch', offset, '--json', ...viaRunner()]);
    expect(moved.code).toBe(0);
    const movedJson = JSON.parse(moved.stdout) as { warnings: string[]; compiled: boolean };
    expect(movedJson.warnings).toEqual(['src/main/java/org/repairlab/textkit/Strings.java: hunk 1 applied 3 lines below where its header says (offset +3)']);
    expect(movedJson.compiled).toBe(true);

    const fuzzy = join(dir, 'fuzz.diff');
    await writeFile(fuzzy, TRUTH.replace('         if (maxLength < ellipsis.length()) {\n', '         if (maxLength < ellipsis.length()) { // not in the file\n'));
    const text = await cli(['validate', BUG, '--patch', fuzzy, ...viaRunner()]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('warning: src/main/java/org/repairlab/textkit/Strings.java: hunk 1 applied with fuzz');

    const exact = join(dir, 'exact.diff');
    await writeFile(exact, TRUTH);
    const clean = JSON.parse((await cli(['validate', BUG, '--patch', exact, '--json', ...viaRunner()])).stdout) as { warnings: string[] };
    expect(clean.warnings).toEqual([]);
  }, 180_000);

  it('reports a patch file that is not UTF-8 (decoded with replacement characters)', async () => {
    const file = join(dir, 'latin1.diff');
    // a Latin-1 "é" (0xE9) in the note above the diff: not UTF-8
    await writeFile(file, Buffer.concat([Buffer.from('Fix by Jos'), Buffer.from([0xe9]), Buffer.from('\n'), Buffer.from(TRUTH)]));
    const r = await cli(['validate', BUG, '--patch', file, '--json', ...viaRunner()]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { warnings: string[] };
    expect(json.warnings).toEqual([`${file} is not valid UTF-8: 1 byte sequence(s) were decoded as U+FFFD (lossy); save the patch as UTF-8`]);
  }, 120_000);

  it("gives the CLI's flags and environment variables for runner errors, not the app's settings", async () => {
    const gone = await cli(['validate', BUG, '--runner', 'http://127.0.0.1:9', '--token', 'x']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('--runner <url>');
    expect(gone.stderr).toContain('REPAIRLAB_RUNNER_URL');
    expect(gone.stderr).not.toContain('Settings');
    const wrong = await cli(['validate', BUG, '--runner', runner.url, '--token', 'wrong-token']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('--token <token>');
    expect(wrong.stderr).toContain('REPAIRLAB_RUNNER_TOKEN');
    expect(wrong.stderr).not.toContain('Settings');
  }, 60_000);
});
