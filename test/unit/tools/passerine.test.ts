import { describe, expect, it } from 'vitest';
import { findTool, toolkit } from '../../../worker/tools/registry.ts';
import type { ToolContext } from '../../../worker/contracts/tools.ts';
import { RANGE_PATH, RANGE_SOURCE, demoContext } from './fixtures.ts';

const run = (name: string, args: Record<string, unknown>, ctx: ToolContext) => findTool('passerine', name)!.run(args, ctx);

describe('passerine toolkit', () => {
  it('has the five commands of the paper', () => {
    expect(toolkit('passerine').map((t) => t.definition.name)).toEqual(['cat', 'code_search', 'edit', 'test', 'finish']);
  });

  it('cat numbers every line', async () => {
    const ctx = demoContext();
    const result = await run('cat', { file: RANGE_PATH }, ctx);
    expect(result.ok).toBe(true);
    const lines = result.output.split('\n');
    expect(lines).toHaveLength(RANGE_SOURCE.trimEnd().split('\n').length);
    expect(lines[16]).toBe('17         return x > min && x <= max;');
    expect(lines[0]).toBe(' 1 package org.demo;');
  });

  it('cat refuses a missing file and suggests the real path', async () => {
    const ctx = demoContext();
    const result = await run('cat', { file: 'Range.java' }, ctx);
    expect(result.ok).toBe(false);
    expect(result.output).toContain(`Did you mean: ${RANGE_PATH}`);
    expect((await run('cat', {}, ctx)).output).toMatch(/missing argument 'file'/);
    expect((await run('cat', { file: 'src/main' }, ctx)).output).toMatch(/is a directory/);
  });

  it('code_search ranks files by distinct terms and shows numbered snippets', async () => {
    const ctx = demoContext();
    const result = await run('code_search', { terms: ['difference', 'length'] }, ctx);
    expect(result.ok).toBe(true);
    const fileLines = result.output.split('\n').filter((l) => l.startsWith('src/') || l.startsWith('README'));
    expect(fileLines[0]).toMatch(/^src\/main\/java\/org\/demo\/Range\.java \(2\/2 terms/);
    expect(result.output).toContain('  29: return MathUtil.difference(max, min) + 1;');
    expect(result.data?.files).toContain('src/main/java/org/demo/util/MathUtil.java');
    expect((await run('code_search', { terms: 'nothingLikeThis' }, ctx)).output).toMatch(/No files contain/);
    expect((await run('code_search', { terms: [] }, ctx)).ok).toBe(false);
    // a string is split into terms, a list keeps phrases
    expect((await run('code_search', { terms: 'MathUtil clamp' }, ctx)).data?.terms).toEqual(['MathUtil', 'clamp']);
    const phrase = await run('code_search', { terms: ['x > min'] }, ctx);
    expect(phrase.data?.files).toEqual([RANGE_PATH]);
  });

  it('code_search returns at most five files', async () => {
    const files = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/F${i}.java`, `class F${i} { int needle; }\n`]));
    const result = await run('code_search', { terms: 'needle' }, demoContext({}, files));
    expect(result.output.split('\n')[0]).toBe('8 file(s) match; showing 5:');
    expect(result.data?.files).toHaveLength(5);
  });

  it('edit replaces a region and echoes it with ±3 lines in the new numbering', async () => {
    const ctx = demoContext();
    const result = await run('edit', { file: RANGE_PATH, start: 17, end: 17, replacement: '        // lower bound is inclusive\n        return x >= min && x <= max;' }, ctx);
    expect(result.ok).toBe(true);
    const shown = result.output.split('\n').slice(1);
    expect(shown[0]).toBe('14 ');
    expect(shown).toContain('18         return x >= min && x <= max;');
    expect(shown[shown.length - 1]).toBe('21     public boolean contains(Range other) {');
    const after = await ctx.workspace.read(RANGE_PATH);
    expect(after.split('\n')).toHaveLength(RANGE_SOURCE.split('\n').length + 1);
    expect(after.endsWith('}\n')).toBe(true);
  });

  it('edit inserts with end = start - 1 and deletes with an empty replacement', async () => {
    const ctx = demoContext();
    await run('edit', { file: RANGE_PATH, start: 3, end: 2, replacement: 'import java.util.List;' }, ctx);
    let lines = (await ctx.workspace.read(RANGE_PATH)).split('\n');
    expect(lines[2]).toBe('import java.util.List;');
    expect(lines[3]).toBe('import org.demo.util.MathUtil;');
    await run('edit', { file: RANGE_PATH, start: 3, end: 3, replacement: '' }, ctx);
    lines = (await ctx.workspace.read(RANGE_PATH)).split('\n');
    expect(lines[2]).toBe('import org.demo.util.MathUtil;');
    expect(await ctx.workspace.read(RANGE_PATH)).toBe(RANGE_SOURCE);
  });

  it('edit refuses bad ranges and arguments without touching the overlay', async () => {
    const ctx = demoContext();
    await run('edit', { file: RANGE_PATH, start: 1, end: 1, replacement: 'package org.demo; // edited' }, ctx);
    const before = ctx.workspace.overlay();
    const bad = [
      { file: RANGE_PATH, start: 0, end: 1, replacement: 'x' },
      { file: RANGE_PATH, start: 5, end: 3, replacement: 'x' },
      { file: RANGE_PATH, start: 30, end: 99, replacement: 'x' },
      { file: RANGE_PATH, start: 'two', end: 3, replacement: 'x' },
      { file: RANGE_PATH, start: 2, end: 3 },
      { file: 'nope/Missing.java', start: 1, end: 1, replacement: 'x' },
    ];
    for (const args of bad) {
      const result = await run('edit', args, ctx);
      expect(result.ok, JSON.stringify(args)).toBe(false);
      expect(ctx.workspace.overlay()).toEqual(before);
    }
    expect((await run('edit', bad[2]!, ctx)).output).toMatch(/past the end of .* which has 31 lines/);
  });

  it('test runs failing tests first through the validator and prints the report', async () => {
    const ctx = demoContext();
    const failing = await run('test', {}, ctx);
    expect(failing.ok).toBe(true);
    expect(failing.validation?.plausible).toBe(false);
    expect(failing.output).toContain('Failing tests: 1');
    expect(failing.output).toContain('at org.demo.RangeTest.testContainsMin(RangeTest.java:10)');
    expect(ctx.validator.calls[0]!.selection).toEqual({ mode: 'failing-first', tests: ['org.demo.RangeTest::testContainsMin'] });
    await run('edit', { file: RANGE_PATH, start: 17, end: 17, replacement: '        return x >= min && x <= max;' }, ctx);
    const passing = await run('test', { tests: ['org.demo.RangeTest::testContainsMin'] }, ctx);
    expect(passing.validation?.plausible).toBe(true);
    expect(ctx.validator.calls[1]!.selection.mode).toBe('listed');
    expect((await run('test', { tests: ['not a test'] }, ctx)).ok).toBe(false);
  });

  it('test reports compilation errors', async () => {
    const ctx = demoContext();
    await run('edit', { file: RANGE_PATH, start: 31, end: 31, replacement: '' }, ctx);
    const result = await run('test', {}, ctx);
    expect(result.output).toMatch(/^Compilation failed:\n {2}src\/main\/java\/org\/demo\/Range\.java:30: error: reached end of file/);
  });

  it('finish ends with success or failure only', async () => {
    const ctx = demoContext();
    expect((await run('finish', { status: 'success' }, ctx)).finished).toEqual({ success: true, reason: 'success' });
    expect((await run('finish', { status: 'FAILURE' }, ctx)).finished).toEqual({ success: false, reason: 'failure' });
    const bad = await run('finish', { status: 'done' }, ctx);
    expect(bad.ok).toBe(false);
    expect(bad.finished).toBeUndefined();
  });

  it('refuses non-object arguments', async () => {
    const ctx = demoContext();
    const result = await findTool('passerine', 'cat')!.run('file.java' as unknown as Record<string, unknown>, ctx);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('cat(file: string)');
  });
});
