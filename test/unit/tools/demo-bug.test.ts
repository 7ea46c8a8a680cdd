// The tools on the bundled demo bug's real workspace: real git objects read by the repo store, no checkout.
// Validation uses a FakeValidator (the fix check below); the runner itself is tested by the runner's own suites.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BugSpec, toPublicBug, type PublicBug } from '../../../worker/contracts/bug.ts';
import type { TestSelection, ValidationResult } from '../../../worker/contracts/runner-api.ts';
import type { ToolContext, Validator } from '../../../worker/contracts/tools.ts';
import type { Workspace } from '../../../worker/contracts/workspace.ts';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RepoStore } from '../../../worker/repo/repo-store.ts';
import { openWorkspace } from '../../../worker/repo/git-workspace.ts';
import { findTool } from '../../../worker/tools/registry.ts';
import { runToolScript, standardToolScript } from '../../../worker/tools/script.ts';

const PUBLIC = join(import.meta.dirname, '../../../public/benchmarks');
const STRINGS = 'src/main/java/org/repairlab/textkit/Strings.java';
const STRINGS_TEST = 'src/test/java/org/repairlab/textkit/StringsTest.java';
const BUGGY_LINE = '        if (s.length() < maxLength) {';
const FIXED_LINE = '        if (s.length() <= maxLength) {';

/** Fake: the failing test passes iff Strings.java has the developer's fix. */
class TextkitFakeValidator implements Validator {
  calls: TestSelection[] = [];
  async validate(workspace: Workspace, tests: TestSelection): Promise<ValidationResult> {
    this.calls.push(tests);
    const fixed = (await workspace.read(STRINGS)).includes(FIXED_LINE);
    const id = 'org.repairlab.textkit.StringsTest::truncateKeepsStringThatFitsExactly';
    return {
      plausible: fixed, compiled: true, diagnostics: [], path: 'warm', cached: false, timingsMs: { total: 1, compile: 1, tests: 0 },
      tests: [fixed ? { id, status: 'pass', durationMs: 1 } : { id, status: 'fail', durationMs: 1, failure: { exception: 'org.junit.ComparisonFailure', message: 'expected:<he[llo]> but was:<he[...]>', frames: [], omittedFrames: 0 } }],
      failingTests: fixed ? [] : [id],
      report: fixed ? 'Failing tests: 0' : `Failing tests: 1\n  - ${id}`,
      stopped: 'none',
    };
  }
}

let work: string;
let bug: PublicBug;
let base: Workspace;
const context = (settings: Record<string, unknown> = {}): ToolContext & { validator: TextkitFakeValidator } => ({
  workspace: base.fork(), bug, validator: new TextkitFakeValidator(), settings,
});

beforeAll(async () => {
  await initJavaForNode();
  work = mkdtempSync(join(tmpdir(), 'repairlab-tools-'));
  const spec = BugSpec.parse(JSON.parse(readFileSync(join(PUBLIC, 'bugs/textkit-1.json'), 'utf8')));
  bug = toPublicBug(spec);
  const store = new RepoStore(createNodePlatform({ root: work }));
  await store.importBundle(spec.repoId, new Uint8Array(readFileSync(join(PUBLIC, 'textkit.bundle'))));
  base = await openWorkspace(await store.openRepo(spec.repoId), spec.buggyCommit);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('tools on the textkit-1 demo bug', () => {
  it('passerine: cat, code_search, edit, test', async () => {
    const ctx = context();
    const cat = await findTool('passerine', 'cat')!.run({ file: STRINGS }, ctx);
    expect(cat.output.split('\n')[57]).toBe(`58 ${BUGGY_LINE}`);
    const search = await findTool('passerine', 'code_search')!.run({ terms: ['truncate'] }, ctx);
    expect(search.data?.files).toEqual([STRINGS_TEST, STRINGS, 'README.md']); // most matches first
    const edit = await findTool('passerine', 'edit')!.run({ file: STRINGS, start: 58, end: 58, replacement: FIXED_LINE }, ctx);
    expect(edit.output).toContain(`58 ${FIXED_LINE}`);
    expect(await ctx.workspace.diff()).toContain(`-${BUGGY_LINE}\n+${FIXED_LINE}`);
    const test = await findTool('passerine', 'test')!.run({}, ctx);
    expect(test.validation?.plausible).toBe(true);
  });

  it('repairagent: fault localization, method extraction, tests, search and a write_fix', async () => {
    const ctx = context();
    const fl = await findTool('repairagent', 'run_fault_localization')!.run({}, ctx);
    expect(fl.output).toContain(`${STRINGS}#58#if (s.length() < maxLength) {`);
    expect(fl.output).toContain(`${STRINGS}, class Strings, lines 54-62: public static String truncate(String s, int maxLength, String ellipsis)`);
    const methods = await findTool('repairagent', 'extract_method')!.run({ filepath: STRINGS, method_name: 'truncate' }, ctx);
    expect(methods.output.match(/Implementation candidate \d/g)).toEqual(['Implementation candidate 0', 'Implementation candidate 1']);
    const tests = await findTool('repairagent', 'extract_tests')!.run({ test_file_path: STRINGS_TEST }, ctx);
    expect(tests.output).toContain('Line 56:        assertEquals("hello", Strings.truncate("hello", 5));');
    const search = await findTool('repairagent', 'search_code_base')!.run({ key_words: ['truncate'] }, ctx);
    expect(Object.keys(search.data?.matches as object)).toEqual([STRINGS, STRINGS_TEST]);
    const failing = await findTool('repairagent', 'write_fix')!.run({ changes: [{ file_name: STRINGS, modifications: [{ line_number: 58, modified_line: '        if (s.length() < maxLength + 0) {' }] }] }, ctx);
    expect(failing.data?.plausible).toBe(false);
    expect(await ctx.workspace.diff()).toBe('');
    const fixed = await findTool('repairagent', 'write_fix')!.run({ changes: [{ file_name: STRINGS, modifications: [{ line_number: 58, modified_line: FIXED_LINE }] }] }, ctx);
    expect(fixed.data?.plausible).toBe(true);
    expect(Object.keys(ctx.workspace.overlay())).toEqual([STRINGS]);
  });

  it('hafixagent: grep, sed -i and test in the bash environment', async () => {
    const ctx = context();
    const grep = await findTool('hafixagent', 'bash')!.run({ command: 'grep -rn "s.length() < maxLength" src/main' }, ctx);
    expect(grep.data?.stdout).toBe(`${STRINGS}:58:${BUGGY_LINE}\n`);
    const fix = await findTool('hafixagent', 'bash')!.run({ command: `sed -i '58s/< maxLength/<= maxLength/' ${STRINGS} && sed -n '58p' ${STRINGS} && test` }, ctx);
    expect(fix.data?.stdout).toContain(`${FIXED_LINE}\nFailing tests: 0`);
    expect(await ctx.workspace.diff()).toContain(`+${FIXED_LINE}`);
  });

  it('runToolScript runs a fixed script and every refused call leaves the overlay untouched', async () => {
    const ctx = context();
    const outcomes = await runToolScript(ctx, [
      { toolkit: 'repairagent', name: 'read_range', args: { filepath: STRINGS, startline: 58, endline: 58 } },
      { toolkit: 'repairagent', name: 'read_range', args: { filepath: STRINGS, startline: 900, endline: 901 } },
      { toolkit: 'passerine', name: 'edit', args: { file: STRINGS, start: 58, end: 400, replacement: 'x' } },
      { toolkit: 'repairagent', name: 'write_fix', args: { changes: '{"changes": [{"file_name": "nope.java"' } },
      { toolkit: 'hafixagent', name: 'bash', args: { command: 'wc -l src/main/java/org/repairlab/textkit/*.java | tail -1' } },
      { toolkit: 'passerine', name: 'no_such_tool', args: {} },
      { toolkit: 'passerine', name: 'finish', args: { status: 'failure' } },
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, false, false, true, false, true]);
    expect(outcomes[0]!.output).toBe(`Line 58:${BUGGY_LINE}`);
    expect(outcomes[6]!.finished).toEqual({ success: false, reason: 'failure' });
    expect(ctx.workspace.overlay()).toEqual({});
  });

  it('the standard e2e tool script is deterministic and exercises every toolkit', async () => {
    const script = standardToolScript(bug, { withTests: true });
    const first = await runToolScript(context(), script);
    const second = await runToolScript(context(), script);
    expect(second).toEqual(first);
    expect(new Set(script.map((c) => c.toolkit))).toEqual(new Set(['passerine', 'repairagent', 'hafixagent']));
    expect(first.map((o) => o.ok)).toEqual([true, true, true, true, true, true, true, true, true, false, false, false, true, true, true, true, true, true, true, true]);
    expect(first[12]!.output).toContain('54:    public static String truncate(String s, int maxLength, String ellipsis) {');
    expect(first[13]!.output).toContain(`${BUGGY_LINE}\n            return s;`);
    expect(first[14]!.output).toContain('missing file handled');
    // the writes: sed -i, then an edit, both seen by the next read
    expect(first[15]!.output).toContain(`${BUGGY_LINE} // checked`);
    expect(first[17]!.output).toContain(`Line 58:${BUGGY_LINE} // checked`);
    expect(first[18]!.validation).toEqual({ plausible: false, compiled: true, failingTests: bug.failingTests });
  });
});
