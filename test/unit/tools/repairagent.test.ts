import { beforeAll, describe, expect, it } from 'vitest';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { findTool, toolkit } from '../../../worker/tools/registry.ts';
import { subtokens } from '../../../worker/tools/repairagent/search.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import type { ToolContext } from '../../../worker/contracts/tools.ts';
import type { CompletionRequest } from '../../../worker/contracts/llm.ts';
import type { ValidationResult } from '../../../worker/contracts/runner-api.ts';
import { RANGE_PATH, TEST_PATH, UTIL_PATH, demoContext } from './fixtures.ts';

const run = (name: string, args: Record<string, unknown>, ctx: ToolContext) => findTool('repairagent', name)!.run(args, ctx);

beforeAll(async () => {
  await initJavaForNode();
});

describe('repairagent toolkit', () => {
  it('has the 14 tools under paper names, with released-code aliases', () => {
    const names = toolkit('repairagent').map((t) => t.definition.name);
    expect(names).toHaveLength(14);
    expect(names).toEqual(expect.arrayContaining(['read_range', 'write_fix', 'search_code_base', 'run_fault_localization', 'goal_accomplished']));
    expect(findTool('repairagent', 'extract_test_code')?.definition.name).toBe('extract_tests');
    expect(findTool('repairagent', 'AI_generates_method_code')?.definition.name).toBe('generate_method_body');
    expect(findTool('repairagent', 'go_back_to_collect_more_info')?.definition.name).toBe('collect_more_information');
  });

  it('read_range prints "Line N:" lines and EOF past the end', async () => {
    const ctx = demoContext();
    const result = await run('read_range', { filepath: RANGE_PATH, startline: 16, endline: 17 }, ctx);
    expect(result.output).toBe('Line 16:    public boolean contains(int x) {\nLine 17:        return x > min && x <= max;');
    const tail = await run('read_range', { filepath: RANGE_PATH, startline: 30, endline: 40 }, ctx);
    expect(tail.output).toBe('Line 30:    }\nLine 31:}\nEOF');
    for (const args of [{ filepath: RANGE_PATH, startline: 40, endline: 41 }, { filepath: RANGE_PATH, startline: 5, endline: 2 }, { filepath: RANGE_PATH, startline: 0, endline: 2 }, { filepath: 'x/Nope.java', startline: 1, endline: 2 }]) {
      expect((await run('read_range', args, ctx)).ok, JSON.stringify(args)).toBe(false);
    }
    expect((await run('read_range', { filepath: RANGE_PATH, startline: 40, endline: 41 }, ctx)).output).toMatch(/has 31 lines/);
  });

  it('get_classes_and_methods lists classes and their methods', async () => {
    const result = await run('get_classes_and_methods', { file_path: RANGE_PATH }, demoContext());
    expect(result.output.split('\n')[0]).toBe('class Range (lines 6-31)');
    expect(result.output).toContain('  contains (lines 16-18): public boolean contains(int x)');
    expect(result.output).toContain('  length (lines 28-30): public int length()');
    expect((await run('get_classes_and_methods', { file_path: 'README.md' }, demoContext())).ok).toBe(false);
  });

  it('extract_method returns every overload as an implementation candidate', async () => {
    const result = await run('extract_method', { filepath: RANGE_PATH, method_name: 'contains' }, demoContext());
    expect(result.output).toMatch(/^Implementation candidate 0 \(class Range, lines 16-18\): public boolean contains\(int x\)\n/);
    expect(result.output).toContain('Implementation candidate 1 (class Range, lines 20-22): public boolean contains(Range other)');
    expect(result.output).toContain('Line 21:        return contains(other.min) && contains(other.max);');
    const missing = await run('extract_method', { filepath: RANGE_PATH, method_name: 'size' }, demoContext());
    expect(missing.ok).toBe(false);
    expect(missing.output).toContain('Its methods are: Range, contains, getMin, length');
  });

  it('extract_tests shows the failing test methods of a test file', async () => {
    const result = await run('extract_tests', { test_file_path: TEST_PATH }, demoContext());
    expect(result.output).toContain('org.demo.RangeTest::testContainsMin (lines 7-11)');
    expect(result.output).toContain('Line 10:        assertTrue(range.contains(1));');
    expect(result.output).not.toContain('testLength');
    const wrong = await run('extract_tests', { test_file_path: RANGE_PATH }, demoContext());
    expect(wrong.ok).toBe(false);
    expect(wrong.output).toContain(TEST_PATH);
  });

  it('search_code_base: code mode matches method names, paper mode matches subtokens in code', async () => {
    const code = await run('search_code_base', { key_words: ['MathUtil.difference'] }, demoContext());
    expect(code.data?.matches).toEqual({ [UTIL_PATH]: { MathUtil: { difference: ['MathUtil.difference'] } } });
    expect(code.output).toContain(`Files whose names match: ${UTIL_PATH}`);
    const paper = await run('search_code_base', { key_words: ['MathUtil.difference'] }, demoContext({ searchMode: 'paper' }));
    expect(paper.data?.matches).toEqual({
      [RANGE_PATH]: { Range: { length: ['MathUtil.difference'] } },
      [UTIL_PATH]: { MathUtil: { difference: ['MathUtil.difference'] } },
    });
    const overloads = await run('search_code_base', { key_words: ['contains'] }, demoContext());
    expect(Object.keys((overloads.data?.matches as Record<string, Record<string, object>>)[RANGE_PATH]!.Range!)).toEqual(['contains', 'contains (line 20)']);
    expect((await run('search_code_base', { key_words: [] }, demoContext())).ok).toBe(false);
    expect(subtokens('getMaxValue_orDefault.x')).toEqual(['get', 'max', 'value', 'or', 'default']);
  });

  it('find_similar_api_calls searches one file or the whole code base', async () => {
    const all = await run('find_similar_api_calls', { code_snippet: 'int d = MathUtil.difference(a, b);' }, demoContext());
    expect(all.output).toBe(`Calls to difference (1):\n  ${RANGE_PATH}:29:25 in Range.length: return MathUtil.difference(max, min) + 1;`);
    const inUtil = await run('find_similar_api_calls', { code_snippet: 'MathUtil.difference(a, b)', file_path: UTIL_PATH }, demoContext());
    expect(inUtil.output).toBe('Calls to difference (0):');
    expect((await run('find_similar_api_calls', { code_snippet: 'int x = 3;' }, demoContext())).ok).toBe(false);
  });

  it('generate_method_body asks the auxiliary model within the paper caps', async () => {
    const requests: CompletionRequest[] = [];
    const scripted = createScriptedProvider(['Here:\n```java\npublic int getMin() {\n    return this.min;\n}\n```']);
    const ctx = { ...demoContext(), auxiliaryLlm: { id: scripted.id, complete: (r: CompletionRequest) => (requests.push(r), scripted.complete(r)) } };
    const result = await run('generate_method_body', { filepath: RANGE_PATH, method_name: 'getMin' }, ctx);
    expect(result.output).toBe('Generated implementation of Range.getMin:\npublic int getMin() {\n    return this.min;\n}');
    expect(requests[0]!.maxTokens).toBe(4000);
    expect(requests[0]!.purpose).toBe('generate_method_body');
    expect(requests[0]!.messages[1]!.content).toContain('public int getMin() {');
    expect(requests[0]!.messages[1]!.content).not.toContain('return min;'); // the body itself is not given
    const noModel = await run('generate_method_body', { filepath: RANGE_PATH, method_name: 'getMin' }, demoContext());
    expect(noModel.ok).toBe(false);
    expect(noModel.output).toMatch(/no auxiliary model/);
  });

  it('run_tests shows the cleaned report', async () => {
    const result = await run('run_tests', {}, demoContext());
    expect(result.output).toContain('Failing tests: 1\n  - org.demo.RangeTest::testContainsMin');
    expect(result.output).toContain('... 20 more frames');
  });

  it('run_fault_localization gives perfect FL with the buggy method', async () => {
    const result = await run('run_fault_localization', {}, demoContext());
    expect(result.output).toContain(`${RANGE_PATH}#17#return x > min && x <= max;`);
    expect(result.output).toContain(`${RANGE_PATH}, class Range, lines 16-18: public boolean contains(int x)`);
  });

  it('run_fault_localization ranks lines by Ochiai from runner coverage', async () => {
    const ctx = demoContext({ faultLocalization: 'ochiai' });
    const coverage: NonNullable<ValidationResult['coverage']> = [
      { test: 'org.demo.RangeTest::testContainsMin', passed: false, lines: { [RANGE_PATH]: [10, 11, 17], [TEST_PATH]: [9] } },
      { test: 'org.demo.RangeTest::testLength', passed: true, lines: { [RANGE_PATH]: [10, 11, 29], [UTIL_PATH]: [7] } },
    ];
    ctx.validator.validate = async (ws, sel, opts) => ({ ...(await Object.getPrototypeOf(ctx.validator).validate.call(ctx.validator, ws, sel, opts)), coverage });
    const result = await run('run_fault_localization', {}, ctx);
    const lines = result.output.split('\n');
    expect(lines[1]).toBe(`${RANGE_PATH}#17#return x > min && x <= max; (1.000)`);
    expect(lines[2]).toBe(`${RANGE_PATH}#10#public Range(int min, int max) { (0.707)`);
    expect(result.output).not.toContain(TEST_PATH);
    expect(ctx.validator.calls[0]).toMatchObject({ selection: { mode: 'all' }, coverage: true });
  });

  it('hypothesis and state tools record their text and goal_accomplished finishes', async () => {
    const ctx = demoContext();
    const hyp = await run('express_hypothesis', { hypothesis: 'contains() excludes min' }, ctx);
    expect(hyp.data).toEqual({ hypothesis: 'contains() excludes min', nextState: 'collect information to fix the bug' });
    expect((await run('express_hypothesis', {}, ctx)).ok).toBe(false);
    expect((await run('discard_hypothesis', { reason: 'wrong' }, ctx)).data?.discarded).toBe('wrong');
    expect((await run('collect_more_information', {}, ctx)).ok).toBe(true);
    expect((await run('goal_accomplished', {}, ctx)).finished).toEqual({ success: true, reason: 'goal accomplished' });
  });

  it('caps what the model is shown and says what was cut', async () => {
    const ctx = demoContext({ outputCap: 120 });
    const result = await run('read_range', { filepath: RANGE_PATH, startline: 1, endline: 31 }, ctx);
    expect(result.output.length).toBeGreaterThan(500);
    expect(result.shown.length).toBeLessThan(300);
    expect(result.shown).toMatch(/\[output cut: showing the first \d+ of \d+ characters \(\d+ of 32 lines\)/);
  });
});
