// Every tool refuses bad arguments with a message that names the problem, and a refused call never changes the overlay.
import { beforeAll, describe, expect, it } from 'vitest';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { TOOLKIT_NAMES, toolkit } from '../../../worker/tools/registry.ts';
import { RANGE_PATH, TEST_PATH, demoContext } from './fixtures.ts';

const NOT_AN_OBJECT = 'not an object' as unknown as Record<string, unknown>;

/** Bad calls per tool (beyond NOT_AN_OBJECT, which every tool gets) and what the refusal must mention. */
const BAD_CALLS: Record<string, [Record<string, unknown>, RegExp][]> = {
  'passerine/cat': [[{ file: 'src/Missing.java' }, /file not found/], [{}, /missing argument 'file'/]],
  'passerine/code_search': [[{ terms: [] }, /at least one/], [{ terms: { a: 1 } }, /list of strings/]],
  'passerine/edit': [[{ file: RANGE_PATH, start: 3, end: 1, replacement: '' }, /before start/], [{ file: RANGE_PATH, start: 1, end: 99, replacement: '' }, /past the end/]],
  'passerine/test': [[{ tests: ['Range'] }, /pkg\.Class::method/]],
  'passerine/finish': [[{ status: 'maybe' }, /"success" or "failure"/]],
  'repairagent/read_range': [[{ filepath: RANGE_PATH, startline: 'a', endline: 2 }, /whole number/], [{ filepath: RANGE_PATH, startline: 99, endline: 100 }, /past the end/]],
  'repairagent/get_classes_and_methods': [[{ file_path: 'nope/X.java' }, /file not found/]],
  'repairagent/extract_method': [[{ filepath: RANGE_PATH }, /missing argument 'method_name'/], [{ filepath: RANGE_PATH, method_name: 'nope' }, /no method named/]],
  'repairagent/extract_tests': [[{ test_file_path: RANGE_PATH }, /none of the failing tests/], [{ test_file_path: 'x' }, /file not found/]],
  'repairagent/search_code_base': [[{ key_words: [''] }, /at least one keyword/]],
  'repairagent/find_similar_api_calls': [[{ code_snippet: 'x = 1;' }, /no method call/], [{ code_snippet: 'f(x)', file_path: 'Nope.java' }, /file not found/]],
  'repairagent/generate_method_body': [[{ filepath: RANGE_PATH, method_name: 'contains' }, /no auxiliary model/]],
  'repairagent/run_tests': [],
  'repairagent/run_fault_localization': [],
  'repairagent/write_fix': [[{ changes: '{{' }, /not valid JSON|non-empty list/], [{ changes: [{ file_name: RANGE_PATH, deletions: [5], modifications: [{ line_number: 5, modified_line: '' }] }] }, /changed twice/]],
  'repairagent/express_hypothesis': [[{ hypothesis: '   ' }, /state the hypothesis/]],
  'repairagent/discard_hypothesis': [],
  'repairagent/collect_more_information': [],
  'repairagent/goal_accomplished': [],
  'hafixagent/bash': [[{ command: '' }, /empty/], [{ command: ['ls'] }, /must be a string/]],
};

beforeAll(async () => {
  await initJavaForNode();
});

describe('refusals', () => {
  const all = TOOLKIT_NAMES.flatMap((kit) => toolkit(kit).map((tool) => ({ key: `${kit}/${tool.definition.name}`, tool })));

  it('every registered tool has refusal cases listed here', () => {
    expect(all.map((t) => t.key).sort()).toEqual(Object.keys(BAD_CALLS).sort());
  });

  it.each(all)('$key refuses bad arguments and leaves the overlay as it was', async ({ key, tool }) => {
    const ctx = demoContext({ writeFixMode: 'paper' });
    await ctx.workspace.write(TEST_PATH, '// edited before the call\n');
    await ctx.workspace.delete('README.md');
    const before = ctx.workspace.overlay();
    for (const [args, message] of [[NOT_AN_OBJECT, /arguments/] as const, ...(BAD_CALLS[key] ?? [])]) {
      const result = await tool.run(args, ctx);
      expect(result.ok, `${key} ${JSON.stringify(args)}`).toBe(false);
      expect(result.output).toMatch(message);
      expect(result.shown).toBe(result.output);
      expect(ctx.workspace.overlay()).toEqual(before);
    }
    expect(ctx.validator.calls).toHaveLength(0);
  });
});

describe('registry', () => {
  it('lists every definition once, grouped by toolkit, with unique names and aliases per toolkit', async () => {
    const { allToolDefinitions, toolDefinitionsByToolkit, findTool } = await import('../../../worker/tools/registry.ts');
    const grouped = toolDefinitionsByToolkit();
    expect(Object.values(grouped).flat()).toEqual(allToolDefinitions());
    expect(grouped.repairagent).toHaveLength(14);
    for (const [kit, defs] of Object.entries(grouped)) {
      const names = defs.flatMap((d) => [d.name, ...(d.aliases ?? [])]);
      expect(new Set(names).size, kit).toBe(names.length);
      for (const d of defs) {
        expect(d.toolkit).toBe(kit);
        expect(d.description.length).toBeGreaterThan(20);
        expect(d.follows).toBeTruthy();
      }
    }
    expect(findTool('passerine', 'write_fix')).toBeUndefined();
    expect(() => toolDefinitionsByToolkit() && findTool('nope' as never, 'cat')).toThrow(/unknown toolkit 'nope'/);
  });
});
