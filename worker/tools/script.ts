// runToolScript: run a fixed list of tool calls in order and collect their results. The e2e test runs the same
// script in Chromium and in Node and compares the outputs, so results must not depend on the platform.
import type { PublicBug } from '../contracts/bug.ts';
import type { ToolContext, ToolkitName, ToolResult } from '../contracts/tools.ts';
import { findTool } from './registry.ts';

export interface ToolCall {
  toolkit: ToolkitName;
  name: string;
  args: Record<string, unknown>;
}

export interface ToolCallOutcome {
  call: ToolCall;
  ok: boolean;
  output: string;
  shown: string;
  finished?: ToolResult['finished'];
  /** plausible/failing tests when the call validated (timings and cache flags left out: they differ run to run) */
  validation?: { plausible: boolean; compiled: boolean; failingTests: string[] };
}

export async function runToolScript(ctx: ToolContext, calls: ToolCall[]): Promise<ToolCallOutcome[]> {
  const outcomes: ToolCallOutcome[] = [];
  for (const call of calls) {
    const tool = findTool(call.toolkit, call.name);
    if (!tool) {
      const message = `unknown tool '${call.name}' in toolkit ${call.toolkit}`;
      outcomes.push({ call, ok: false, output: message, shown: message });
      continue;
    }
    const result = await tool.run(call.args, ctx);
    outcomes.push({
      call,
      ok: result.ok,
      output: result.output,
      shown: result.shown,
      ...(result.finished ? { finished: result.finished } : {}),
      ...(result.validation
        ? { validation: { plausible: result.validation.plausible, compiled: result.validation.compiled, failingTests: result.validation.failingTests } }
        : {}),
    });
  }
  return outcomes;
}

function packageOf(file: string, sourceDirs: string[]): string {
  const dir = sourceDirs.map((d) => d.replace(/\/$/, '')).find((d) => file.startsWith(`${d}/`)) ?? '';
  return file.slice(dir ? dir.length + 1 : 0, file.lastIndexOf('/')).replace(/\//g, '.');
}

/**
 * A fixed script over any bug that touches every toolkit: reads, searches, Java analysis, refusals, bash pipelines and
 * (with `withTests`) runner calls. The e2e runs it in Chromium and in Node and compares the outcomes.
 */
export function standardToolScript(bug: PublicBug, opts: { withTests?: boolean } = {}): ToolCall[] {
  const location = bug.faultLocalization[0]!;
  const file = location.file;
  const line = location.lines[0]!;
  const method = location.method ?? (file.split('/').pop() ?? file).replace(/\.java$/, '');
  const testClass = bug.failingTests[0]!.split('::')[0]!;
  const testFile = `${bug.layout.testDirs[0]!.replace(/\/$/, '')}/${testClass.replace(/\./g, '/')}.java`;
  const from = Math.max(1, line - 2);
  const calls: ToolCall[] = [
    { toolkit: 'passerine', name: 'cat', args: { file } },
    { toolkit: 'passerine', name: 'code_search', args: { terms: [method] } },
    { toolkit: 'repairagent', name: 'read_range', args: { filepath: file, startline: from, endline: line + 2 } },
    { toolkit: 'repairagent', name: 'get_classes_and_methods', args: { file_path: file } },
    { toolkit: 'repairagent', name: 'extract_method', args: { filepath: file, method_name: method } },
    { toolkit: 'repairagent', name: 'extract_tests', args: { test_file_path: testFile } },
    { toolkit: 'repairagent', name: 'search_code_base', args: { key_words: [method] } },
    { toolkit: 'repairagent', name: 'find_similar_api_calls', args: { code_snippet: `${method}(x)` } },
    { toolkit: 'repairagent', name: 'run_fault_localization', args: {} },
    { toolkit: 'repairagent', name: 'read_range', args: { filepath: file, startline: 100_000, endline: 100_001 } },
    { toolkit: 'repairagent', name: 'write_fix', args: { changes: '{"changes": [{"file_name": ' } },
    { toolkit: 'passerine', name: 'edit', args: { file, start: line, end: 100_000, replacement: '' } },
    { toolkit: 'hafixagent', name: 'bash', args: { command: `grep -n "${method}" ${file} | head -5 && wc -l < ${file}` } },
    { toolkit: 'hafixagent', name: 'bash', args: { command: `sed -n '${from},${line + 2}p' ${file}; find ${bug.layout.sourceDirs[0]} -name "*.java" | sort | head -20` } },
    { toolkit: 'hafixagent', name: 'bash', args: { command: `cat does/not/exist.java || echo "missing file handled"` } },
    // writes: both land in the overlay, and what later reads see must agree on every platform
    { toolkit: 'hafixagent', name: 'bash', args: { command: `sed -i '${line}s/$/ \\/\\/ checked/' ${file} && sed -n '${line}p' ${file}` } },
    // line 1 of a bundled source is its package declaration: rewrite it to itself plus a comment
    { toolkit: 'passerine', name: 'edit', args: { file, start: 1, end: 1, replacement: `package ${packageOf(file, bug.layout.sourceDirs)}; // reviewed` } },
    { toolkit: 'repairagent', name: 'read_range', args: { filepath: file, startline: from, endline: line + 3 } },
  ];
  if (opts.withTests) {
    calls.push({ toolkit: 'passerine', name: 'test', args: {} }, { toolkit: 'repairagent', name: 'run_tests', args: {} });
  }
  return calls;
}
