import { describe, expect, it } from 'vitest';
import { findTool, toolkit } from '../../../worker/tools/registry.ts';
import type { ToolContext } from '../../../worker/contracts/tools.ts';
import { DEMO_FILES, RANGE_PATH, RANGE_SOURCE, TEST_PATH, demoContext } from './fixtures.ts';

const bash = (command: unknown, ctx: ToolContext) => findTool('hafixagent', 'bash')!.run({ command }, ctx);
const out = async (command: string, ctx: ToolContext) => {
  const r = await bash(command, ctx);
  return { code: r.data?.exitCode as number, stdout: r.data?.stdout as string, stderr: r.data?.stderr as string, result: r };
};

describe('hafixagent bash tool', () => {
  it('is the only tool of the toolkit', () => {
    expect(toolkit('hafixagent').map((t) => t.definition.name)).toEqual(['bash']);
  });

  it('wraps output with the return code', async () => {
    const r = await bash('echo hello', demoContext());
    expect(r.output).toBe('<returncode>0</returncode>\n<output>\nhello\n</output>');
  });

  it('grep -rn finds lines across the repository', async () => {
    const { stdout, code } = await out('grep -rn "x > min" src', demoContext());
    expect(code).toBe(0);
    expect(stdout).toBe(`${RANGE_PATH}:17:        return x > min && x <= max;\n`);
    expect((await out('grep -rn "no such text" src', demoContext())).code).toBe(1);
  });

  it('sed -n prints a line range', async () => {
    const { stdout } = await out(`sed -n '16,18p' ${RANGE_PATH}`, demoContext());
    expect(stdout).toBe('    public boolean contains(int x) {\n        return x > min && x <= max;\n    }\n');
  });

  it('sed -i edits the file in the workspace overlay', async () => {
    const ctx = demoContext();
    const { code } = await out(`sed -i 's/x > min/x >= min/' ${RANGE_PATH}`, ctx);
    expect(code).toBe(0);
    expect(await ctx.workspace.read(RANGE_PATH)).toBe(RANGE_SOURCE.replace('x > min', 'x >= min'));
    expect(Object.keys(ctx.workspace.overlay())).toEqual([RANGE_PATH]);
  });

  it('find, head, tail, cat, wc', async () => {
    const ctx = demoContext();
    expect((await out('find src -name "*.java" | sort', ctx)).stdout).toBe(
      'src/main/java/org/demo/Range.java\nsrc/main/java/org/demo/util/MathUtil.java\nsrc/test/java/org/demo/RangeTest.java\n',
    );
    expect((await out(`head -n 1 ${RANGE_PATH}`, ctx)).stdout).toBe('package org.demo;\n');
    expect((await out(`tail -n 2 ${RANGE_PATH}`, ctx)).stdout).toBe('    }\n}\n');
    expect((await out('cat README.md', ctx)).stdout).toBe('# demo\nA range library.\n');
    expect((await out(`wc -l < ${RANGE_PATH}`, ctx)).stdout.trim()).toBe('31');
  });

  it('pipes, redirection, && and ||', async () => {
    const ctx = demoContext();
    expect((await out(`cat ${RANGE_PATH} | grep -c return`, ctx)).stdout).toBe('4\n');
    await out('echo "notes" > notes.txt && echo more >> notes.txt', ctx);
    expect(await ctx.workspace.read('notes.txt')).toBe('notes\nmore\n');
    expect((await out('cat missing.txt 2>/dev/null || echo fallback', ctx)).stdout).toBe('fallback\n');
    expect((await out('false && echo never', ctx)).stdout).toBe('');
    expect((await out('echo scratch > /tmp/x && cat /tmp/x', ctx)).stdout).toBe('scratch\n');
    expect(Object.keys(ctx.workspace.overlay())).toEqual(['notes.txt']); // /tmp is not the repository
  });

  it('heredocs keep indentation and multi-line commands run in order', async () => {
    const ctx = demoContext();
    await out("cat > Snippet.java <<'EOF'\nclass Snippet {\n    int x;\n}\nEOF\necho written", ctx);
    expect(await ctx.workspace.read('Snippet.java')).toBe('class Snippet {\n    int x;\n}\n');
  });

  it('globs, ls and grep --include see the repository tree', async () => {
    const ctx = demoContext();
    expect((await out('ls src/main/java/org/demo/*.java', ctx)).stdout).toBe('src/main/java/org/demo/Range.java\n');
    expect((await out('ls src/main/java/org/demo', ctx)).stdout).toBe('Range.java\nutil\n');
    expect((await out('grep -rln --include=*.java "MathUtil" src', ctx)).stdout.split('\n').filter(Boolean).sort()).toEqual([
      'src/main/java/org/demo/Range.java', 'src/main/java/org/demo/util/MathUtil.java',
    ]);
  });

  it('mkdir, mv, cp and rm map onto overlay writes and deletions', async () => {
    const ctx = demoContext();
    const r = await out('mkdir -p notes/deep && echo x > notes/deep/a.txt && mv notes/deep/a.txt b.txt && cp -r src/main/java/org/demo/util copy && rm README.md && ls', ctx);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('b.txt\ncopy\nnotes\nsrc\n');
    expect(await ctx.workspace.listFiles()).toEqual(['b.txt', 'copy/MathUtil.java', ...Object.keys(DEMO_FILES).filter((f) => f !== 'README.md').sort()]);
    expect(await ctx.workspace.read('b.txt')).toBe('x\n');
    expect(ctx.workspace.overlay()['README.md']).toBeNull();
    expect((await out('echo y > nodir/f.txt', ctx)).code).not.toBe(0);
    expect((await out('rm src', ctx)).code).not.toBe(0);
    expect(await ctx.workspace.exists(RANGE_PATH)).toBe(true);
  });

  it('reports errors of missing files with a non-zero exit code', async () => {
    const { code, stderr, result } = await out('cat nope.java', demoContext());
    expect(code).toBe(1);
    expect(stderr).toMatch(/nope\.java: No such file or directory/);
    expect(result.ok).toBe(true);
  });

  it('compile and defects4j compile call the runner', async () => {
    const ctx = demoContext();
    expect((await out('compile', ctx)).stdout).toBe('Compilation succeeded.\n');
    expect((await out('defects4j compile', ctx)).code).toBe(0);
    expect(ctx.validator.calls).toHaveLength(2);
    await out(`sed -i '31d' ${RANGE_PATH}`, ctx);
    const broken = await out('compile', ctx);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('Compilation failed:');
    expect(broken.result.validation?.compiled).toBe(false);
  });

  it('test, test <id>, defects4j test -r, defects4j test, defects4j test -t', async () => {
    const ctx = demoContext();
    const plain = await out('test', ctx);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('Failing tests: 1');
    expect(ctx.validator.calls.at(-1)!.selection).toEqual({ mode: 'listed', tests: ['org.demo.RangeTest::testContainsMin'] });
    await out('test org.demo.RangeTest::testLength', ctx);
    expect(ctx.validator.calls.at(-1)!.selection).toEqual({ mode: 'listed', tests: ['org.demo.RangeTest::testLength'] });
    await out('defects4j test -r', ctx);
    expect(ctx.validator.calls.at(-1)!.selection.mode).toBe('listed');
    await out('defects4j test', ctx);
    expect(ctx.validator.calls.at(-1)!.selection.mode).toBe('failing-first');
    await out('defects4j test -t org.demo.RangeTest::testLength', ctx);
    expect(ctx.validator.calls.at(-1)!.selection).toEqual({ mode: 'listed', tests: ['org.demo.RangeTest::testLength'] });
    expect((await out('defects4j info', ctx)).code).toBe(1);
    expect(ctx.validator.calls).toHaveLength(5);
  });

  it('keeps the builtin test for expressions', async () => {
    const ctx = demoContext();
    expect((await out(`test -f ${TEST_PATH} && echo present`, ctx)).stdout).toBe('present\n');
    expect((await out('[ -d src/main ] && echo dir', ctx)).stdout).toBe('dir\n');
    expect(ctx.validator.calls).toHaveLength(0);
  });

  it('a fix with sed -i followed by test passes', async () => {
    const ctx = demoContext();
    const r = await out(`sed -i 's/x > min/x >= min/' ${RANGE_PATH} && test`, ctx);
    expect(r.stdout).toContain('Failing tests: 0');
    expect(r.result.validation?.plausible).toBe(true);
  });

  it('the completion sentinel finishes the run', async () => {
    const r = await bash('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT', demoContext());
    expect(r.finished).toEqual({ success: true, reason: 'COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT' });
    expect((await bash('echo COMPLETE_REPAIR_SIGNAL', demoContext())).finished?.success).toBe(true);
    expect((await bash('echo not yet', demoContext())).finished).toBeUndefined();
  });

  it('keeps the first and last 7,500 characters of long output', async () => {
    const files = { 'big.txt': Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n') + '\n' };
    const r = await bash('cat big.txt', demoContext({}, files));
    expect(r.output.length).toBeGreaterThan(20_000);
    expect(r.shown).toMatch(/^<returncode>0<\/returncode>\n<output>\nline 0\n/);
    expect(r.shown).toMatch(/\[output cut: \d+ characters \(about \d+ lines\) omitted from the middle/);
    expect(r.shown).toMatch(/line 2999\n<\/output>$/);
    expect(r.shown.length).toBeLessThan(15_500);
  });

  it('refuses an empty or missing command and survives syntax errors', async () => {
    const ctx = demoContext();
    expect((await bash('', ctx)).ok).toBe(false);
    expect((await findTool('hafixagent', 'bash')!.run({}, ctx)).output).toMatch(/missing argument 'command'/);
    const syntax = await out('if then fi (', ctx);
    expect(syntax.code).not.toBe(0);
    expect(ctx.workspace.overlay()).toEqual({});
  });
});
