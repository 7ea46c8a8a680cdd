// The middleware between the model's reply and a tool: parse by the strategy's output format → rectify tool, argument
// and path names → gate by the state machine's state → refuse repeats. A reply that gets through names a tool to
// run; one that does not is answered with feedback (a format error or a refusal), as mini-swe-agent answers its
// non-terminating errors — and too many unusable replies in a row end the run.
import type { StrategySpec } from '../contracts/strategy.ts';
import type { ParsedCommand, Rectification, TrajStep } from '../contracts/trajectory.ts';
import type { Workspace } from '../contracts/workspace.ts';
import { canonicalJson } from '../llm/prompt-hash.ts';
import type { AnyTool } from '../tools/agent-tool.ts';
import type { End, LoopMemory } from './loop-memory.ts';
import { parseByFormat } from '../strategies/middleware/parse.ts';
import { rectifyCommand } from '../strategies/middleware/rectify.ts';
import { renderTemplate } from '../strategies/templates.ts';

export interface ReplyContext {
  spec: StrategySpec;
  /** the state the prompt was built in, and the tools it allows */
  stateSpec: StrategySpec['states'][number];
  allowed: readonly AnyTool['definition'][];
  tools: readonly AnyTool[];
  workspace: Workspace;
  memory: LoopMemory & { bannedCommands: string[] };
  /** the step being taken: its parse, rectifications and status are filled in */
  step: TrajStep;
}

export type ReplyReading = { tool: AnyTool; command: ParsedCommand } | { feedback: string; end?: End };

export async function commandFromReply(reply: string, c: ReplyContext): Promise<ReplyReading> {
  const { spec, step, memory } = c;
  const defs = c.tools.map((t) => t.definition);
  // ---- parse + rectify ----
  const parsed = parseByFormat(spec.output.format, reply, { tools: defs });
  step.rectifications.push(...parsed.rectifications);
  step.parsed = { ...(parsed.thought ? { thought: parsed.thought } : {}), ...(parsed.command ? { command: parsed.command } : {}), ...(parsed.error ? { error: parsed.error } : {}) };
  let problem = parsed.error;
  let command = parsed.command;
  if (command && !problem) {
    const r = await rectifyCommand(command, defs, c.workspace, {
      mode: spec.middleware.rectifyNames,
      threshold: spec.middleware.levenshteinThreshold,
      repairPaths: spec.middleware.repairPaths,
    });
    step.rectifications.push(...r.rectifications);
    if (r.error && !r.tool && !memory.bannedCommands.includes(command.name)) memory.bannedCommands.push(command.name);
    if (r.error) problem = r.error;
    else command = r.command!;
    step.parsed.command = command;
  }
  if (problem) {
    memory.formatErrors++;
    step.status = 'format-error';
    step.rectifications.push({ kind: 'format-error', message: problem });
    const feedback = renderTemplate(spec.prompt.formatError, { error: problem, step: { index: step.index + 1 } }, `${spec.id}.formatError`);
    if (memory.formatErrors < spec.middleware.maxConsecutiveFormatErrors) return { feedback };
    return { feedback, end: { kind: 'error', reason: `${memory.formatErrors} consecutive replies could not be used (last: ${problem})` } };
  }
  memory.formatErrors = 0;
  const cmd = command!;
  // ---- gate by state, refuse repeats ----
  const { stateSpec } = c;
  if (spec.stateEnforcement === 'enforced' && !stateSpec.tools.includes('*') && !stateSpec.tools.includes(cmd.name)) {
    const message = `The command ${cmd.name} is not available in state "${stateSpec.name}". Available now: ${c.allowed.map((d) => d.name).join(', ')}.`;
    return refused(step, { kind: 'state-refused', from: cmd.name, message });
  }
  // the commands run so far, kept only where repeats are refused
  const key = spec.middleware.refuseRepeats ? canonicalJson(cmd) : undefined;
  if (key !== undefined && memory.seenCommands.includes(key)) {
    const message = `You already ran exactly this command (${cmd.name} with the same arguments); its result is above. Try something different.`;
    return refused(step, { kind: 'repeat-refused', from: cmd.name, message });
  }
  if (key !== undefined) memory.seenCommands.push(key);
  return { tool: c.tools.find((t) => t.definition.name === cmd.name)!, command: cmd };
}

function refused(step: TrajStep, rectification: Rectification): ReplyReading {
  step.status = 'refused';
  step.rectifications.push(rectification);
  return { feedback: rectification.message };
}
