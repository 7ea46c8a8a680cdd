// `repairlab validate <bug> --patch file.diff` refuses a patch that touches the bug's test files (issue 27) — an
// edit of the failing test, a deleted test class, an added one — naming the file and the way out, before the runner
// is asked; `--allow-test-edits` (a person's own patch) lets it through to the runner, which is then told testEdits
// "any". A real child process, a real runner, real javac/JUnit.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner } from '../../../runner/src/index.ts';

const BUG = 'textkit-1';
const TEST_FILE = 'src/test/java/org/repairlab/textkit/StringsTest.java';
const SPEC = JSON.parse(await readFile('public/benchmarks/bugs/textkit-1.json', 'utf8')) as { buggyCommit: string; groundTruth: { patch: string } };
let home: string;
let dir: string;
let original: string;
let runner: Awaited<ReturnType<typeof startRunner>>;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', ['bin/repairlab.mjs', ...args], { env: { ...process.env, REPAIRLAB_HOME: home, REPAIRLAB_RUNNER_URL: '', REPAIRLAB_RUNNER_TOKEN: '' }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function patchFile(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

/** A git-style diff of one file (`after` null: deleted, `before` null: added). */
const diffOf = (path: string, before: string | null, after: string | null) =>
  createTwoFilesPatch(before === null ? '/dev/null' : `a/${path}`, after === null ? '/dev/null' : `b/${path}`, before ?? '', after ?? '');

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'repairlab-cli-test-edits-'));
  dir = await mkdtemp(join(tmpdir(), 'repairlab-cli-test-edit-patches-'));
  // the failing test as the bug's buggy commit has it, read from the bundled repository
  const clone = join(dir, 'textkit');
  execFileSync('git', ['clone', '-q', 'public/benchmarks/textkit.bundle', clone]);
  original = execFileSync('git', ['-C', clone, 'show', `${SPEC.buggyCommit}:${TEST_FILE}`], { encoding: 'utf8' });
  runner = await startRunner({ port: 0 });
}, 120_000);
afterAll(async () => {
  await runner?.close();
});

describe("repairlab validate and the bug's tests", () => {
  const skipped = () => original.replace('public void truncateKeepsStringThatFitsExactly() {', 'public void truncateKeepsStringThatFitsExactly() {\n        org.junit.Assume.assumeTrue(false);');

  it('refuses a patch that edits the failing test, naming the file and --allow-test-edits, before the runner is asked', async () => {
    expect(skipped()).not.toBe(original);
    const file = await patchFile('assume.diff', diffOf(TEST_FILE, original, skipped()));
    // a runner that is not there: the refusal comes first
    const r = await cli(['validate', BUG, '--patch', file, '--runner', 'http://127.0.0.1:9', '--token', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--patch ${file} edits ${TEST_FILE}, one of the bug's tests.`);
    expect(r.stderr).toContain('The tests define the bug, so a patch may change only program files (src/main/java).');
    expect(r.stderr).toContain('If this is your own patch and you mean to change the tests, pass --allow-test-edits.');
    expect(r.stderr).not.toContain('did not answer');
  });

  it('refuses a patch that deletes a test class or adds one', async () => {
    const deleted = await cli(['validate', BUG, '--patch', await patchFile('delete.diff', diffOf(TEST_FILE, original, null)), '--runner', 'http://127.0.0.1:9', '--token', 'x']);
    expect(deleted.code).toBe(1);
    expect(deleted.stderr).toContain(`deletes ${TEST_FILE}, one of the bug's tests`);
    const addedPath = 'src/test/java/org/repairlab/textkit/AllPassTest.java';
    const added = await cli(['validate', BUG, '--patch', await patchFile('add.diff', SPEC.groundTruth.patch + diffOf(addedPath, null, 'package org.repairlab.textkit;\npublic class AllPassTest {}\n')), '--runner', 'http://127.0.0.1:9', '--token', 'x']);
    expect(added.code).toBe(1);
    expect(added.stderr).toContain(`adds the test file ${addedPath}`);
  });

  it('lets a person\'s own patch change the tests with --allow-test-edits (the runner is told testEdits "any")', async () => {
    const file = await patchFile('own.diff', SPEC.groundTruth.patch + diffOf(TEST_FILE, original, original.replace('public class StringsTest', '// reviewed\npublic class StringsTest')));
    const r = await cli(['validate', BUG, '--patch', file, '--allow-test-edits', '--json', '--runner', runner.url, '--token', runner.token]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { verdict: string; compiled: boolean };
    expect(json.compiled).toBe(true);
    expect(json.verdict).toBe('pass');
  }, 180_000);
});
