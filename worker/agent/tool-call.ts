// Running one tool for the loop: a tool that throws is answered like one that failed, with the error as its output;
// what a tool returns is redacted before the run records it or shows it to the model.
import type { ToolContext, ToolResult } from '../contracts/tools.ts';
import { redactKnownSecrets } from '../llm/redact.ts';
import type { AnyTool } from '../tools/agent-tool.ts';

/** `what` names the call in the error text, e.g. "The command edit" or "The startup command run_tests". */
export async function callTool(tool: AnyTool, args: Record<string, unknown>, ctx: ToolContext, what: string): Promise<ToolResult> {
  try {
    return await tool.run(args, ctx);
  } catch (err) {
    const msg = `${what} failed: ${(err as Error)?.message ?? String(err)}`;
    return { ok: false, output: msg, shown: msg };
  }
}

/** The run's configured secrets (the model's key) replaced in text and tool results, before anything records or shows them. */
export function secretRedactor(secrets: readonly string[] | undefined): { text: (text: string) => string; result: (r: ToolResult) => ToolResult } {
  const known = (secrets ?? []).filter((k) => k.length >= 4);
  const text = (s: string) => (known.length ? redactKnownSecrets(s, known) : s);
  const result = (r: ToolResult): ToolResult => {
    if (!known.length) return r;
    return { ...r, output: text(r.output), shown: text(r.shown), ...(r.data ? { data: JSON.parse(text(JSON.stringify(r.data))) as Record<string, unknown> } : {}) };
  };
  return { text, result };
}
