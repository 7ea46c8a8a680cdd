// The middleware, as a table: malformed or sloppy replies → the command the engine runs (with the
// rectifications it records) or the format error the model is told.
import { describe, expect, it } from 'vitest';
import { parseReply } from '../../../worker/strategies/parse-reply.ts';
import { matchName, normalisedDistance, rectifyCommand } from '../../../worker/strategies/middleware/rectify.ts';
import { demoWorkspace, SRC } from './fixtures.ts';

const json = (o: unknown) => JSON.stringify(o);

interface Row {
  preset: string;
  variants?: string[];
  reply: string;
  command?: { name: string; args?: Record<string, unknown> };
  error?: RegExp;
  rect?: string[];
}

const table: Row[] = [
  // RepairAgent JSON commands
  { preset: 'repairagent', reply: json({ thoughts: 't', command: { name: 'read_range', args: { filepath: 'A.java', startline: 1, endline: 2 } } }), command: { name: 'read_range', args: { filepath: 'A.java', startline: 1, endline: 2 } }, rect: [] },
  { preset: 'repairagent', reply: '```json\n{"thoughts": "t", "command": {"name": "read_range", "args": {"filepath": "A.java", "startline": 1, "endline": 2,}}}\n```', command: { name: 'read_range' }, rect: ['json-repair'] },
  { preset: 'repairagent', reply: 'Sure! {"thoughts": "t", "command": {"name": "extract_tests", "args": {"test_file_path": "T.java"}}} Hope this helps.', command: { name: 'extract_tests' }, rect: [] },
  { preset: 'repairagent', reply: "{'thoughts': 't', 'command': {'name': 'extract_tests', 'args': {'test_file_path': 'T.java'}}}", command: { name: 'extract_tests' }, rect: ['json-repair'] },
  { preset: 'repairagent', reply: json({ command: { name: 'read_rang', args: { filepath: 'A.java', startline: 1, endline: 2 } } }), command: { name: 'read_range' }, rect: ['tool-name'] },
  { preset: 'repairagent', reply: json({ command: { name: 'extract_method_code', args: { filepath: 'A.java', method_name: 'm' } } }), command: { name: 'extract_method' }, rect: ['tool-name'] },
  { preset: 'repairagent', reply: json({ command: { name: 'search', args: { key_words: ['x'] } } }), command: { name: 'search_code_base' }, rect: ['tool-name'] },
  { preset: 'repairagent', reply: json({ command: { name: 'read_range', args: { file_path: 'A.java', start_line: 1, end_line: 2 } } }), command: { name: 'read_range', args: { filepath: 'A.java', startline: 1, endline: 2 } }, rect: ['arg-name', 'arg-name', 'arg-name'] },
  { preset: 'repairagent', reply: json({ command: { name: 'express_hypothesis', args: { hypo: 'h' } } }), command: { name: 'express_hypothesis', args: { hypothesis: 'h' } }, rect: ['arg-name'] },
  { preset: 'repairagent', reply: json({ command: { name: 'fly_to_moon', args: {} } }), error: /unknown command "fly_to_moon"\. Available commands: read_range/ },
  { preset: 'repairagent', reply: json({ command: { name: 'read_range', args: { filepath: 'A.java' } } }), error: /missing required argument\(s\) startline, endline/ },
  { preset: 'repairagent', reply: json({ thoughts: 'only thinking' }), error: /has no "command"/ },
  { preset: 'repairagent', reply: 'I will read the file now.', error: /no JSON object found/ },
  { preset: 'repairagent', reply: json({ command: { name: 'read_range', args: ['A.java', 1, 2] } }), error: /must be a JSON object of named arguments/ },
  // released code: exact tool names; argument names by substring
  { preset: 'repairagent', variants: ['code'], reply: json({ command: { name: 'read_rang', args: {} } }), error: /unknown command "read_rang"/ },
  { preset: 'repairagent', variants: ['code'], reply: json({ command: { name: 'express_hypothesis', args: { hypothesis_text: 'h' } } }), command: { name: 'express_hypothesis', args: { hypothesis: 'h' } }, rect: ['arg-name'] },
  // HAFixAgent bash blocks
  { preset: 'hafixagent', reply: 'THOUGHT: look\n```bash\nls -la\n```', command: { name: 'bash', args: { command: 'ls -la' } }, rect: [] },
  { preset: 'hafixagent', reply: 'THOUGHT: look\n```bash   \r\nls -la\r\n  ```  ', command: { name: 'bash', args: { command: 'ls -la' } }, rect: ['whitespace'] },
  { preset: 'hafixagent', reply: '```sh\ngrep -rn x src\n```', command: { name: 'bash', args: { command: 'grep -rn x src' } }, rect: ['other'] },
  { preset: 'hafixagent', reply: '```bash\nls\n```\nthen\n```bash\npwd\n```', error: /found 2 bash code blocks/ },
  { preset: 'hafixagent', reply: 'I would run ls.', error: /found 0 bash code blocks/ },
  { preset: 'hafixagent', reply: '```bash\n\n```', error: /the bash block is empty/ },
  // Passerine THOUGHT/ACTION
  { preset: 'passerine', reply: 'THOUGHT: read\nACTION: cat src/A.java', command: { name: 'cat', args: { file: 'src/A.java' } }, rect: [] },
  { preset: 'passerine', reply: 'THOUGHT: search\nACTION: code_search clamp upper', command: { name: 'code_search', args: { terms: ['clamp', 'upper'] } }, rect: [] },
  { preset: 'passerine', reply: '**THOUGHT:** fix\n**ACTION:** edit src/A.java 3 4\n```\n  a();\n  b();\n```', command: { name: 'edit', args: { file: 'src/A.java', start: 3, end: 4, replacement: '  a();\n  b();' } }, rect: [] },
  { preset: 'passerine', reply: 'THOUGHT: json\nACTION: {"name": "test", "args": {}}', command: { name: 'test', args: {} }, rect: ['other'] },
  { preset: 'passerine', reply: 'THOUGHT: I am thinking only', error: /no ACTION found/ },
  { preset: 'passerine', reply: 'THOUGHT: x\nACTION: compile everything', error: /unknown command "compile"/ },
  // one-shot diffs
  { preset: 'oneshot', reply: 'No diff, sorry.', error: /no unified diff found/ },
];

describe('parseReply table', () => {
  it.each(table.map((r, i) => [i, r] as const))('row %i', async (_i, row) => {
    const out = await parseReply(row.preset, row.reply, { variants: row.variants });
    if (row.error) {
      expect(out.error).toMatch(row.error);
      return;
    }
    expect(out.error).toBeUndefined();
    expect(out.command?.name).toBe(row.command!.name);
    if (row.command!.args) expect(out.command?.args).toEqual(row.command!.args);
    if (row.rect) expect(out.rectifications.map((r) => r.kind)).toEqual(row.rect);
  });
});

describe('name matching', () => {
  it('uses substring either way, then normalised Levenshtein below the threshold', () => {
    expect(matchName('read_rang', ['read_range', 'write_fix'], 'paper', 0.1).match).toBe('read_range');
    expect(normalisedDistance('read_rnage', 'read_range')).toBeGreaterThan(0.1);
    expect(matchName('read_rnage', ['read_range', 'write_fix'], 'paper', 0.1).match).toBeUndefined();
    expect(matchName('read_rnage', ['read_range', 'write_fix'], 'paper', 0.3).match).toBe('read_range');
    expect(matchName('extract', ['extract_tests', 'extract_method'], 'paper', 0.1).ambiguous).toEqual(['extract_tests', 'extract_method']);
    expect(matchName('read_rang', ['read_range'], 'code', 0.1).match).toBeUndefined();
  });

  it('reports an ambiguous command back to the model', async () => {
    const out = await parseReply('repairagent', json({ command: { name: 'extract', args: {} } }));
    expect(out.error).toMatch(/ambiguous: it could be .*extract_method.* or .*extract_tests|ambiguous: it could be .*extract_tests.* or .*extract_method/);
  });
});

describe('file path repair', () => {
  const defs = [{ name: 'read_range', args: [{ name: 'filepath', type: 'string' as const, description: '', required: true }] }];
  const opts = { mode: 'paper' as const, threshold: 0.1, repairPaths: true };

  it('maps dotted class names and unique suffixes to repository paths', async () => {
    const ws = demoWorkspace();
    const dotted = await rectifyCommand({ name: 'read_range', args: { filepath: 'org.demo.Clamp' } }, defs, ws, opts);
    expect(dotted.command?.args.filepath).toBe(SRC);
    expect(dotted.rectifications[0]?.kind).toBe('file-path');
    const suffix = await rectifyCommand({ name: 'read_range', args: { filepath: 'demo/Clamp.java' } }, defs, ws, opts);
    expect(suffix.command?.args.filepath).toBe(SRC);
    const exact = await rectifyCommand({ name: 'read_range', args: { filepath: SRC } }, defs, ws, opts);
    expect(exact.rectifications).toEqual([]);
  });

  it('reports ambiguity instead of guessing', async () => {
    const ws = demoWorkspace();
    await ws.write('src/main/java/org/other/Clamp.java', 'class Clamp {}');
    const r = await rectifyCommand({ name: 'read_range', args: { filepath: 'Clamp.java' } }, defs, ws, opts);
    expect(r.error).toMatch(/matches several files: src\/main\/java\/org\/demo\/Clamp.java, src\/main\/java\/org\/other\/Clamp.java/);
  });
});
