// A strategy's startup commands (RepairAgent runs the tests once before the first cycle): recorded in the
// trajectory's `startup` and given to the prompt as gathered facts, never as steps.
import type { StrategySpec } from '../contracts/strategy.ts';
import type { ToolContext, ToolResult } from '../contracts/tools.ts';
import type { RunnerOutage, Trajectory } from '../contracts/trajectory.ts';
import type { Workspace } from '../contracts/workspace.ts';
import type { AnyTool } from '../tools/agent-tool.ts';
import type { LoopMemory } from './loop-memory.ts';
import { trimObservation } from './observation.ts';
import { argsText } from '../strategies/prompt.ts';
import type { RunRecorder } from './run-recorder.ts';
import type { GuardedValidator } from './runner-outage.ts';
import type { RunnerWait } from './runner-wait.ts';
import { callTool } from './tool-call.ts';

export interface StartupRun {
  spec: StrategySpec;
  tools: readonly AnyTool[];
  workspace: Workspace;
  toolContext: () => ToolContext;
  guard: GuardedValidator;
  redactResult: (r: ToolResult) => ToolResult;
  traj: Trajectory;
  memory: LoopMemory;
  recorder: RunRecorder;
  runnerWait: RunnerWait;
  signal: AbortSignal;
}

/**
 * Runs the startup commands. When the runner was lost during them (and the run was not stopped) it returns that
 * outage, with the run still at the startup's start, for the caller to set the run aside: the startup runs again
 * when the run goes on.
 */
export async function runStartup(r: StartupRun): Promise<RunnerOutage | undefined> {
  const { spec, traj, memory } = r;
  const restart = () => {
    traj.startup = [];
    memory.gathered = [];
    memory.validations = 0;
  };
  restart();
  const base = { overlay: r.workspace.overlay(), seenCommands: memory.seenCommands.length, formatErrors: memory.formatErrors, startup: true as const };
  r.recorder.stepBase = base;
  for (const cmd of spec.startup) {
    const tool = r.tools.find((t) => t.definition.name === cmd.tool);
    if (!tool) throw new Error(`strategy ${spec.id}: startup command ${cmd.tool} is not among the run's tools (${r.tools.map((t) => t.definition.name).join(', ')})`);
    let result = await callTool(tool, cmd.args, r.toolContext(), `The startup command ${cmd.tool}`);
    const { lost } = r.runnerWait.collect(r.guard);
    if (lost) {
      // a stop ends the run as it would anyway
      r.workspace.setOverlay(base.overlay);
      restart();
      if (!r.signal.aborted) return lost;
      break;
    }
    result = r.redactResult(result);
    if (result.validation) memory.validations++;
    const shown = trimObservation(result.shown, spec.observation).text;
    traj.startup.push({ name: cmd.tool, args: cmd.args, ok: result.ok, output: result.output, shown, ...(result.validation ? { verdict: result.validation } : {}) });
    memory.gathered.push({ step: -1, tool: cmd.tool, args: cmd.args, argsText: argsText(cmd.args), ok: result.ok, shown });
  }
  r.recorder.stepBase = undefined;
  if (!r.signal.aborted) memory.startupPending = undefined;
  return undefined;
}
