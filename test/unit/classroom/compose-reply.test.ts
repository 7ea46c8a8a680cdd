// The classroom's reply form as text, per preset: what the form composes is what the preset's parser reads as the
// chosen tool and arguments (through `repairlab parse`'s path, parseReply), so a form reply makes the same step as the
// text typed by hand. RepairAgent's form replies equal the hand-written demo replies byte for byte.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseReply } from '../../../worker/strategies/parse-reply.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { DEMO_CASSETTES } from '../../../worker/records/demo-cassettes.ts';
import { strategyOutline } from '../../../worker/strategies/strategy-outline.ts';
import type { StrategyOutline } from '../../../worker/contracts/strategy.ts';
import { argsFromFields, composeReply, outputFormatSection, ReplyFieldError, toolsAllowedIn } from '../../../src/components/classroom/compose-reply.ts';

const STRINGS = 'src/main/java/org/repairlab/textkit/Strings.java';

function outline(preset: string, variants: string[] = []): StrategyOutline {
  return strategyOutline(resolveStrategy(preset, { variants }));
}

/** fills the form of `tool` with `fields`, composes the reply, and parses it as the preset's run would */
async function roundTrip(preset: string, tool: string, fields: Record<string, string>, thought: string) {
  const o = outline(preset);
  const def = o.tools.find((t) => t.name === tool);
  if (!def) throw new Error(`${preset} has no tool ${tool}`);
  const args = argsFromFields(def, fields);
  const text = composeReply(o.format, { tool: def, args, thought });
  return { text, args, parsed: await parseReply(preset, text) };
}

describe('RepairAgent (JSON command)', () => {
  it('typed fields become typed arguments the parser reads back unchanged', async () => {
    const { args, parsed } = await roundTrip('repairagent', 'read_range', { filepath: STRINGS, startline: '54', endline: ' 62 ' }, 'Read the method.');
    expect(args).toEqual({ filepath: STRINGS, startline: 54, endline: 62 });
    expect(parsed.error).toBeUndefined();
    expect(parsed.rectifications).toEqual([]);
    expect(parsed.command).toEqual({ name: 'read_range', args });
    expect(parsed.thought).toBe('Read the method.');
  });

  it('lists (one per line) and JSON arguments, quotes and newlines in text', async () => {
    const search = await roundTrip('repairagent', 'search_code_base', { key_words: 'truncate\n\n  maxLength \n' }, 'find "callers"\nof truncate');
    expect(search.parsed.command).toEqual({ name: 'search_code_base', args: { key_words: ['truncate', 'maxLength'] } });
    expect(search.parsed.thought).toBe('find "callers"\nof truncate');
    const changes = [{ file_name: STRINGS, insertions: [], deletions: [], modifications: [{ line_number: 58, modified_line: '        if (s.length() <= maxLength) {' }] }];
    const fix = await roundTrip('repairagent', 'write_fix', { changes: JSON.stringify(changes, null, 1) }, 'Use <=.');
    expect(fix.parsed.command).toEqual({ name: 'write_fix', args: { changes } });
  });

  it('the form composes the hand-written demo replies byte for byte', () => {
    const demo = DEMO_CASSETTES.find((c) => c.preset === 'repairagent')!;
    const o = outline('repairagent');
    for (const reply of demo.replies) {
      const { thoughts, command } = JSON.parse(reply) as { thoughts: string; command: { name: string; args: Record<string, unknown> } };
      const tool = o.tools.find((t) => t.name === command.name)!;
      // the fields as a person would type them: numbers as digits, JSON arguments as JSON text
      const fields = Object.fromEntries(Object.entries(command.args).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
      expect(composeReply(o.format, { tool, args: argsFromFields(tool, fields), thought: thoughts })).toBe(reply);
    }
  });

  it('offers the tools of the current state; one state with every tool when the state machine is off', () => {
    const o = outline('repairagent');
    expect(toolsAllowedIn(o, 'collect information to understand the bug').map((t) => t.name)).toEqual(
      o.tools.filter((t) => o.states[0]!.tools.includes(t.name)).map((t) => t.name),
    );
    expect(toolsAllowedIn(o, 'collect information to understand the bug').map((t) => t.name).sort()).toEqual(
      ['express_hypothesis', 'extract_tests', 'read_range', 'run_fault_localization', 'run_tests'],
    );
    const flat = outline('repairagent', ['no-state-machine']);
    expect(toolsAllowedIn(flat, 'repair')).toHaveLength(14);
    // a variant that removes tools removes them from the form too
    expect(outline('repairagent', ['no-search-tools']).tools.map((t) => t.name)).not.toContain('search_code_base');
  });

  it('shows the recorded prompt\'s output-format section whole', () => {
    const cassette = JSON.parse(readFileSync('public/cassettes/textkit-1.repairagent.fix.cassette.json', 'utf8')) as { calls: { messages: { role: string; content: string }[] }[] };
    const section = outputFormatSection(cassette.calls[1]!.messages, 'json-command');
    expect(section).toBe('Reply with one JSON object and nothing else:\n{"thoughts": "<your reasoning>", "command": {"name": "<command>", "args": {"<arg>": <value>}}}');
  });
});

describe('HAFixAgent (one bash block)', () => {
  it('a command field and a thought field make the bash reply', async () => {
    const o = outline('hafixagent');
    expect(o.tools.map((t) => t.name)).toEqual(['bash']);
    expect(o.completionSentinel).toBe('COMPLETE_REPAIR_SIGNAL');
    const command = `sed -i 's/if (s.length() < maxLength) {/if (s.length() <= maxLength) {/' ${STRINGS} && test`;
    const { text, parsed } = await roundTrip('hafixagent', 'bash', { command }, 'Use <= at the limit.');
    expect(text).toBe(`THOUGHT: Use <= at the limit.\n\n\`\`\`bash\n${command}\n\`\`\``);
    expect(parsed.command).toEqual({ name: 'bash', args: { command } });
    expect(parsed.thought).toBe('THOUGHT: Use <= at the limit.');
    expect(parsed.rectifications).toEqual([]);
  });

  it('the system prompt is the output-format section (it teaches the format there)', () => {
    const cassette = JSON.parse(readFileSync('public/cassettes/textkit-1.hafixagent.fix.cassette.json', 'utf8')) as { calls: { messages: { role: string; content: string }[] }[] };
    expect(outputFormatSection(cassette.calls[0]!.messages, 'bash-block')).toContain('exactly ONE bash code block');
  });
});

describe('Passerine (THOUGHT / ACTION)', () => {
  it('positional arguments, a multi-line replacement on the following lines', async () => {
    const replacement = '        if (s.length() <= maxLength) {\n            return s;';
    const edit = await roundTrip('passerine', 'edit', { file: STRINGS, start: '58', end: '59', replacement }, 'Use <=.');
    expect(edit.text).toBe(`THOUGHT: Use <=.\nACTION: edit ${STRINGS} 58 59\n${replacement}`);
    expect(edit.parsed.command).toEqual({ name: 'edit', args: { file: STRINGS, start: 58, end: 59, replacement } });
    const finish = await roundTrip('passerine', 'finish', { status: 'success' }, 'The tests pass.');
    expect(finish.text).toBe('THOUGHT: The tests pass.\nACTION: finish success');
    expect(finish.parsed.command).toEqual({ name: 'finish', args: { status: 'success' } });
    const search = await roundTrip('passerine', 'code_search', { terms: 'truncate\nellipsis' }, 'where');
    expect(search.parsed.command).toEqual({ name: 'code_search', args: { terms: ['truncate', 'ellipsis'] } });
    const test = await roundTrip('passerine', 'test', {}, 'run them');
    expect(test.parsed.command).toEqual({ name: 'test', args: {} });
  });

  it('arguments the positional form cannot carry (a path with a space before other arguments) go as the JSON the parser also reads', async () => {
    const fields = { file: 'docs/read me.txt', start: '3', end: '3', replacement: 'fixed' };
    const { text, args, parsed } = await roundTrip('passerine', 'edit', fields, 'look');
    expect(text).toBe('THOUGHT: look\nACTION: {"command":{"name":"edit","args":{"file":"docs/read me.txt","start":3,"end":3,"replacement":"fixed"}}}');
    expect(parsed.command).toEqual({ name: 'edit', args });
    expect(parsed.rectifications).toEqual([]);
    // a last text argument with spaces is fine positionally: it goes on the next line
    const cat = await roundTrip('passerine', 'cat', { file: 'docs/read me.txt' }, 'look');
    expect(cat.text).toBe('THOUGHT: look\nACTION: cat\ndocs/read me.txt');
    expect(cat.parsed.command).toEqual({ name: 'cat', args: { file: 'docs/read me.txt' } });
  });
});

describe('one-shot (unified diff)', () => {
  it('the diff field goes into a ```diff block after the thought', async () => {
    const diff = `--- a/${STRINGS}\n+++ b/${STRINGS}\n@@ -58,1 +58,1 @@\n-        if (s.length() < maxLength) {\n+        if (s.length() <= maxLength) {\n`;
    const { parsed } = await roundTrip('oneshot', 'apply_patch', { diff }, 'Off by one at the limit.');
    expect(parsed.command).toEqual({ name: 'apply_patch', args: { diff } });
    expect(parsed.thought).toBe('Off by one at the limit.');
  });
});

describe('bad fields are refused naming the field', () => {
  const o = outline('repairagent');
  const tool = (name: string) => o.tools.find((t) => t.name === name)!;
  it.each([
    ['read_range', { filepath: STRINGS, startline: 'fifty', endline: '62' }, 'startline', /must be a whole number, not "fifty"/],
    ['read_range', { filepath: '  ', startline: '1', endline: '2' }, 'filepath', /"filepath" is required/],
    ['write_fix', { changes: '[{"file_name": ' }, 'changes', /"changes" is not valid JSON/],
    ['write_fix', { changes: '{"file_name": "x"}' }, 'changes', /must be a JSON array of objects/],
  ])('%s %j', (name, fields, field, message) => {
    let error: unknown;
    try {
      argsFromFields(tool(name), fields);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ReplyFieldError);
    expect((error as ReplyFieldError).field).toBe(field);
    expect((error as Error).message).toMatch(message);
  });

  it('an empty optional field is left out', () => {
    expect(argsFromFields(tool('find_similar_api_calls'), { code_snippet: 'range.contains(x)', file_path: '' })).toEqual({ code_snippet: 'range.contains(x)' });
  });
});
