import { beforeAll, describe, expect, it } from 'vitest';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { findTool } from '../../../worker/tools/registry.ts';
import { applyChange, fuzzRatio, parseChanges } from '../../../worker/tools/repairagent/patch.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import type { ToolContext } from '../../../worker/contracts/tools.ts';
import { RANGE_PATH, RANGE_SOURCE, UTIL_PATH, UTIL_SOURCE, demoContext } from './fixtures.ts';

const writeFix = (args: Record<string, unknown>, ctx: ToolContext) => findTool('repairagent', 'write_fix')!.run(args, ctx);
const FIXED_LINE = '        return x >= min && x <= max;';
const rangeLines = RANGE_SOURCE.split('\n');

beforeAll(async () => {
  await initJavaForNode();
});

describe('write_fix', () => {
  it('applies a multi-hunk fix, validates it and keeps it when plausible', async () => {
    const ctx = demoContext({ writeFixMode: 'paper' });
    const result = await writeFix({
      changes: [{
        file_name: RANGE_PATH,
        insertions: [{ line_number: 16, new_lines: ['    // inclusive bounds'] }],
        deletions: [4],
        modifications: [{ line_number: 17, modified_line: FIXED_LINE }],
      }],
    }, ctx);
    expect(result.ok).toBe(true);
    expect(result.validation?.plausible).toBe(true);
    expect(result.output).toContain('The fix is plausible');
    expect(result.output).toContain(`-        return x > min && x <= max;\n+${FIXED_LINE}`);
    const expected = [...rangeLines];
    expected.splice(15, 2, '    // inclusive bounds', rangeLines[15]!, FIXED_LINE);
    expected.splice(3, 1);
    expect(await ctx.workspace.read(RANGE_PATH)).toBe(expected.join('\n'));
    expect(ctx.validator.calls).toHaveLength(1);
  });

  it('reverts a fix whose tests fail and reports the failure', async () => {
    const ctx = demoContext();
    const before = ctx.workspace.overlay();
    const result = await writeFix({ changes: [{ file_name: RANGE_PATH, modifications: [{ line_number: 17, modified_line: '        return x > min && x < max;' }] }] }, ctx);
    expect(result.ok).toBe(true);
    expect(result.data?.plausible).toBe(false);
    expect(result.output).toContain('Failing tests: 1');
    expect(result.output).toContain('it was reverted');
    expect(ctx.workspace.overlay()).toEqual(before);
    // the validator saw the patched file
    expect(ctx.validator.calls[0]!.overlay[RANGE_PATH]).toContain('x < max;');
  });

  it('applies multi-file fixes atomically and reverts all files together', async () => {
    const ctx = demoContext({ writeFixMode: 'paper' });
    const changes = [
      { file_name: UTIL_PATH, modifications: [{ line_number: 7, modified_line: '        return a - b + 0;' }] },
      { file_name: RANGE_PATH, modifications: [{ line_number: 17, modified_line: '        return x > min && x <= max && true;' }] },
    ];
    await writeFix({ changes }, ctx);
    expect(ctx.workspace.overlay()).toEqual({});
    expect(Object.keys(ctx.validator.calls[0]!.overlay).sort()).toEqual([RANGE_PATH, UTIL_PATH]);
    changes[1]!.modifications[0]!.modified_line = FIXED_LINE;
    const kept = await writeFix({ changes }, ctx);
    expect(kept.data?.plausible).toBe(true);
    expect(Object.keys(ctx.workspace.overlay()).sort()).toEqual([RANGE_PATH, UTIL_PATH]);
  });

  it('places insertions before and after deleted lines (paper mode removes, code mode blanks)', () => {
    const source = 'a\nb\nc\nd\n';
    const change = { file_name: 'f', deletions: [2], modifications: [], insertions: [{ line_number: 2, new_lines: ['X'] }, { line_number: 3, new_lines: ['Y'] }] };
    expect(applyChange(source, change, 'paper').content).toBe('a\nX\nY\nc\nd\n');
    expect(applyChange(source, change, 'code').content).toBe('a\nX\n\nY\nc\nd\n');
    const append = { file_name: 'f', deletions: [4], modifications: [], insertions: [{ line_number: 5, new_lines: ['END'] }] };
    expect(applyChange(source, append, 'paper').content).toBe('a\nb\nc\nEND\n');
  });

  it('code mode sorts insertions and keeps a running offset', () => {
    const change = { file_name: 'f', deletions: [], modifications: [], insertions: [{ line_number: 4, new_lines: ['Q', 'R'] }, { line_number: 1, new_lines: ['P'] }] };
    expect(applyChange('a\nb\nc\nd', change, 'code').content).toBe('P\na\nb\nc\nQ\nR\nd');
    expect(applyChange('a\nb\nc\nd', change, 'paper').content).toBe('P\na\nb\nc\nQ\nR\nd');
  });

  it('code mode silently skips modifications unlike the original line (similarity < 70)', async () => {
    const ctx = demoContext({ writeFixMode: 'code' });
    const result = await writeFix({
      changes: [{ file_name: RANGE_PATH, modifications: [{ line_number: 17, modified_line: 'throw new UnsupportedOperationException();' }] }],
    }, ctx);
    expect(result.ok).toBe(true);
    expect(result.output).not.toMatch(/skip/i);
    expect(result.data?.skippedModifications).toEqual([expect.objectContaining({ file: RANGE_PATH, line_number: 17 })]);
    expect(ctx.validator.calls[0]!.overlay[RANGE_PATH]).toBe(RANGE_SOURCE);
    const paper = demoContext({ writeFixMode: 'paper' });
    await writeFix({ changes: [{ file_name: RANGE_PATH, modifications: [{ line_number: 17, modified_line: 'throw new UnsupportedOperationException();' }] }] }, paper);
    expect(paper.validator.calls[0]!.overlay[RANGE_PATH]).toContain('throw new UnsupportedOperationException();');
  });

  it('code mode refuses a fix that leaves a perfect-FL line untouched, with a fill-in template', async () => {
    const ctx = demoContext({ writeFixMode: 'code' });
    const change = { changes: [{ file_name: RANGE_PATH, modifications: [{ line_number: 21, modified_line: '        return contains(other.min) || contains(other.max);' }] }] };
    const refused = await writeFix(change, ctx);
    expect(refused.ok).toBe(false);
    expect(refused.output).toContain(`${RANGE_PATH} line 17 untouched`);
    expect(refused.output).toContain('"modified_line": "        return x > min && x <= max;"');
    expect(ctx.validator.calls).toHaveLength(0);
    expect((await writeFix(change, demoContext({ writeFixMode: 'paper' }))).ok).toBe(true);
    expect((await writeFix(change, demoContext({ writeFixMode: 'code', requireFaultLines: false }))).ok).toBe(true);
  });

  it('accepts the patch as a JSON string and repairs slightly broken JSON', async () => {
    const ctx = demoContext();
    const text = `{"changes": [{"file_name": "${RANGE_PATH}", "modifications": [{"line_number": 17, "modified_line": "${FIXED_LINE}"}],}]`;
    const result = await writeFix({ changes: text }, ctx);
    expect(result.data?.plausible).toBe(true);
  });

  it('refuses malformed patches with a recovery hint and leaves the overlay untouched', async () => {
    const ctx = demoContext({ writeFixMode: 'paper' });
    await ctx.workspace.write(UTIL_PATH, `${UTIL_SOURCE}// earlier edit\n`);
    const before = ctx.workspace.overlay();
    const cases: [unknown, RegExp][] = [
      ['not json at all {{{', /not valid JSON|must be a non-empty list/],
      [[], /non-empty list/],
      [[{ modifications: [{ line_number: 1, modified_line: 'x' }] }], /file_name is missing/],
      [[{ file_name: 'src/Nope.java', deletions: [1] }], /file not found/],
      [[{ file_name: RANGE_PATH, deletions: [99] }], /the file has 31 lines/],
      [[{ file_name: RANGE_PATH, insertions: [{ line_number: 40, new_lines: ['x'] }] }], /use 32 to append/],
      [[{ file_name: RANGE_PATH, deletions: [17], modifications: [{ line_number: 17, modified_line: FIXED_LINE }] }], /changed twice/],
      [[{ file_name: RANGE_PATH, insertions: [{ line_number: 3, new_lines: ['a'] }, { line_number: 3, new_lines: ['b'] }] }], /two insertions at line 3/],
      [[{ file_name: RANGE_PATH, deletions: [1] }, { file_name: RANGE_PATH, deletions: [2] }], /appears in two changes/],
      [[{ file_name: RANGE_PATH, deletions: ['two'] }], /positive line number/],
      [[{ file_name: RANGE_PATH, modifications: [{ line_number: 17 }] }], /modified_line must be a string/],
      [[{ file_name: RANGE_PATH }], /changes nothing/],
      // second file bad: the first must not be written either
      [[{ file_name: UTIL_PATH, deletions: [1] }, { file_name: RANGE_PATH, deletions: [0] }], /positive line number/],
      [[{ file_name: UTIL_PATH, deletions: [1] }, { file_name: RANGE_PATH, deletions: [500] }], /has 31 lines/],
    ];
    for (const [changes, message] of cases) {
      const result = await writeFix({ changes }, ctx);
      expect(result.ok, JSON.stringify(changes)).toBe(false);
      expect(result.output).toMatch(message);
      expect(ctx.workspace.overlay()).toEqual(before);
    }
    expect((await writeFix({}, ctx)).output).toMatch(/missing argument 'changes'/);
    expect(ctx.validator.calls).toHaveLength(0);
  });

  it('samples variants through the auxiliary model, deduplicates them and validates each on a fork', async () => {
    const agentFix = { file_name: RANGE_PATH, modifications: [{ line_number: 17, modified_line: '        return x > min && x < max;' }] };
    const variantsReply = '```json\n' + JSON.stringify([
      { changes: [agentFix] }, // duplicate of the agent's fix
      { changes: [{ file_name: RANGE_PATH, modifications: [{ line_number: 17, modified_line: FIXED_LINE }] }] },
      { changes: [{ file_name: RANGE_PATH, modifications: [{ line_number: 17, modified_line: '        return x >= min && x <= max;  ' }] }] }, // same after trimming
      { changes: [{ file_name: RANGE_PATH, modifications: [{ line_number: 17, modified_line: '        return x > min || x <= max;' }] }] },
      { nonsense: true },
      { changes: [{ file_name: RANGE_PATH, deletions: [400] }] },
    ]) + '\n```';
    const requests: string[] = [];
    const scripted = createScriptedProvider([variantsReply]);
    const ctx = {
      ...demoContext({ sampleVariants: true, variants: 5, writeFixMode: 'paper' }),
      auxiliaryLlm: { id: 'scripted', complete: (r: Parameters<typeof scripted.complete>[0]) => (requests.push(r.purpose ?? ''), scripted.complete(r)) },
    };
    const result = await writeFix({ changes: [agentFix] }, ctx);
    expect(requests).toEqual(['write_fix-variants']);
    const variants = result.data?.variants as { status: string; plausible: boolean }[];
    expect(variants.map((v) => v.status)).toEqual(['duplicate', 'tested', 'duplicate', 'tested', 'invalid']); // capped at 5
    expect(variants.map((v) => v.plausible)).toEqual([false, true, false, false, false]);
    expect(result.data?.plausibleVariants).toBe(1);
    expect(result.output).not.toMatch(/variant/i);
    // agent's own fix still failed and was reverted; variants never touched the main workspace
    expect(result.data?.plausible).toBe(false);
    expect(ctx.workspace.overlay()).toEqual({});
    expect(ctx.validator.calls).toHaveLength(3);
  });

  it('sends the variants as one batch when the validator takes one, with the same outcomes', async () => {
    const variantsReply = '```json\n' + JSON.stringify([
      { changes: [{ file_name: RANGE_PATH, modifications: [{ line_number: 17, modified_line: FIXED_LINE }] }] },
      { changes: [{ file_name: RANGE_PATH, modifications: [{ line_number: 17, modified_line: '        return x > min || x <= max;' }] }] },
      { changes: [{ file_name: RANGE_PATH, modifications: [{ line_number: 17, modified_line: '        return x >= min && x < max;' }] }] },
    ]) + '\n```';
    const agentFix = { file_name: RANGE_PATH, modifications: [{ line_number: 17, modified_line: '        return x > min && x < max;' }] };
    const run = async (batched: boolean) => {
      const base = demoContext({ sampleVariants: true, variants: 3, writeFixMode: 'paper' });
      const batches: number[] = [];
      const validator = batched
        ? Object.assign(base.validator, {
            validateMany: async (workspaces: Parameters<typeof base.validator.validate>[0][], tests: Parameters<typeof base.validator.validate>[1]) => {
              batches.push(workspaces.length);
              return Promise.all(workspaces.map((w) => base.validator.validate(w, tests)));
            },
          })
        : base.validator;
      const scripted = createScriptedProvider([variantsReply]);
      const result = await writeFix({ changes: [agentFix] }, { ...base, validator, auxiliaryLlm: scripted });
      return { variants: result.data?.variants as { status: string; plausible: boolean }[], batches };
    };
    const alone = await run(false);
    const batched = await run(true);
    expect(batched.batches).toEqual([3]);
    expect(alone.batches).toEqual([]);
    expect(batched.variants).toEqual(alone.variants);
    expect(batched.variants.map((v) => v.status)).toEqual(['tested', 'tested', 'tested']);
  });

  it('a failing auxiliary model does not block the agent fix', async () => {
    const ctx = {
      ...demoContext({ sampleVariants: true }),
      auxiliaryLlm: { id: 'broken', complete: async () => { throw new Error('model unreachable'); } },
    };
    const result = await writeFix({ changes: [{ file_name: RANGE_PATH, modifications: [{ line_number: 17, modified_line: FIXED_LINE }] }] }, ctx);
    expect(result.ok).toBe(true);
    expect(result.data?.plausible).toBe(true);
    expect(result.data?.variantNote).toBe('variant sampling failed: model unreachable');
  });

  it('fuzzRatio follows fuzzywuzzy fuzz.ratio', () => {
    expect(fuzzRatio('this is a test', 'this is a test!')).toBe(97);
    expect(fuzzRatio('return a;', 'return a;')).toBe(100);
    expect(fuzzRatio('', '')).toBe(100);
    expect(fuzzRatio('abc', 'xyz')).toBe(0);
  });

  it('parseChanges accepts a bare file change and new_lines as one string', () => {
    expect(parseChanges({ file_name: 'a.java', insertions: [{ line_number: '3', new_lines: 'x\ny' }] })).toEqual([
      { file_name: 'a.java', insertions: [{ line_number: 3, new_lines: ['x', 'y'] }], deletions: [], modifications: [] },
    ]);
  });
});
