// Runs a script of tool calls on a bug's workspace, the same way in the browser worker and in Node, and returns
// the outcomes plus the workspace's final diff. Used by the parity e2e test and by people scripting the engine.
import { toPublicBug } from '../contracts/bug.ts';
import type { RunnerSettings } from '../contracts/run-settings.ts';
import type { Engine } from './engine.ts';
import { RunnerClient, runnerValidator } from '../runner-client/client.ts';
import { runToolScript, standardToolScript, type ToolCall, type ToolCallOutcome } from '../tools/script.ts';

export interface ToolScriptRun {
  outcomes: ToolCallOutcome[];
  /** the overlay's diff against the buggy commit after the script */
  diff: string;
}

export async function runToolScriptOnBug(
  engine: Engine,
  initJava: () => Promise<unknown>,
  bugId: string,
  runner: RunnerSettings,
  calls?: ToolCall[],
): Promise<ToolScriptRun> {
  await initJava();
  const { bug, workspace } = await engine.workspaceFor(bugId);
  const pub = toPublicBug(bug);
  const ctx = { workspace, bug: pub, validator: runnerValidator(new RunnerClient(runner), bug.layout), settings: {} };
  const outcomes = await runToolScript(ctx, calls ?? standardToolScript(pub, { withTests: true }));
  return { outcomes, diff: await workspace.diff() };
}
