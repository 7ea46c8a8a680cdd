// Fake tools with the real toolkits' definitions (names, arguments, aliases from worker/tools/registry.ts)
// but scripted behaviour, so the loop's transitions, gating and middleware can be tested without Java parsing.
import { allToolDefinitions } from '../../../worker/tools/registry.ts';
import type { ToolDefinition, ToolResult } from '../../../worker/contracts/tools.ts';
import type { ValidationResult } from '../../../worker/contracts/runner-api.ts';
import type { AgentTool } from '../../../worker/tools/agent-tool.ts';

export interface FakeToolCall {
  name: string;
  args: Record<string, unknown>;
}

function verdict(plausible: boolean, failing: string[] = plausible ? [] : ['org.demo.ClampTest::clampsToUpperBound']): ValidationResult {
  return {
    plausible,
    compiled: true,
    diagnostics: [],
    tests: failing.map((id) => ({ id, status: 'fail' as const, durationMs: 1, failure: { exception: 'java.lang.AssertionError', message: 'expected:<10> but was:<9>', frames: [], omittedFrames: 0 } })),
    failingTests: failing,
    report: `Failing tests: ${failing.length}`,
    stopped: 'none',
    path: 'warm',
    cached: false,
    timingsMs: { total: 1, compile: 1, tests: 0 },
  };
}

export function fakeToolkit(kit: ToolDefinition['toolkit'], behaviour: { plausibleFixes?: number[]; output?: (name: string, args: Record<string, unknown>) => string } = {}) {
  const calls: FakeToolCall[] = [];
  let fixes = 0;
  const tools: AgentTool[] = allToolDefinitions()
    .filter((d) => d.toolkit === kit)
    .map((definition) => ({
      definition,
      async run(args, ctx): Promise<ToolResult> {
        calls.push({ name: definition.name, args });
        const text = behaviour.output?.(definition.name, args) ?? `ran ${definition.name}`;
        const base = { ok: true, output: text, shown: text };
        switch (definition.name) {
          case 'write_fix':
          case 'edit': {
            const n = ++fixes;
            await ctx.workspace.write('src/main/java/org/demo/Clamp.java', `// fix attempt ${n}\n`);
            if (definition.name === 'edit') return base;
            const v = verdict(behaviour.plausibleFixes?.includes(n) ?? false);
            return { ...base, validation: v };
          }
          case 'test':
            return { ...base, validation: verdict(behaviour.plausibleFixes?.includes(fixes) ?? false) };
          case 'goal_accomplished':
            return { ...base, finished: { success: true, reason: 'done' } };
          case 'finish':
            return { ...base, finished: { success: args.status === 'success', reason: String(args.status) } };
          case 'bash': {
            const cmd = String(args.command);
            const echo = /^echo\s+(\S+)$/.exec(cmd.trim());
            const out = echo ? `${echo[1]}\n` : text;
            return { ...base, output: `<returncode>0</returncode>\n<output>\n${out}</output>`, shown: `<returncode>0</returncode>\n<output>\n${out}</output>` };
          }
          default:
            return base;
        }
      },
    }));
  return { tools, calls };
}
