// Everything after a step's tool ran: its record, validations (regression revert, stuck on the same error), state
// transitions, stop rules (finished, final state, completion sentinel), the memory the next prompt reads, and the
// feedback text the model sees.
import type { PublicBug } from '../contracts/bug.ts';
import type { ValidationResult } from '../contracts/runner-api.ts';
import type { StrategySpec } from '../contracts/strategy.ts';
import type { ToolResult } from '../contracts/tools.ts';
import type { Rectification, TrajStep } from '../contracts/trajectory.ts';
import type { Overlay, Workspace } from '../contracts/workspace.ts';
import type { End, LoopMemory } from './loop-memory.ts';
import { trimObservation } from './observation.ts';
import { argsText } from '../strategies/prompt.ts';
import { fileDiff } from './step-diff.ts';
import { renderTemplate } from '../strategies/templates.ts';
import { errorSignature, summarizeValidation } from '../tools/validation-summary.ts';

export interface ToolRun {
  name: string;
  args: Record<string, unknown>;
  result: ToolResult;
  overlayBefore: Overlay;
}

/** The feedback for the model, and the end of the run when a stop rule fired. Fills in `step` and `memory`. */
export async function afterTool(spec: StrategySpec, ws: Workspace, bug: PublicBug, memory: LoopMemory, step: TrajStep, run: ToolRun): Promise<{ feedback: string; end?: End }> {
  const { name, args, result, overlayBefore } = run;
  let end: End | undefined;
  if (!result.ok) step.status = 'tool-error';
  const extraRect = result.data?.rectifications;
  if (Array.isArray(extraRect)) step.rectifications.push(...(extraRect as Rectification[]));
  const trimmed = trimObservation(result.shown, spec.observation);
  step.tool = {
    name,
    args,
    ok: result.ok,
    output: result.output,
    shown: trimmed.text,
    ...(result.data ? { data: stripRectifications(result.data) } : {}),
    ...(result.finished ? { finished: result.finished } : {}),
  };
  const after = ws.overlay();
  const files = [...new Set([...Object.keys(after), ...Object.keys(overlayBefore)])].filter((p) => after[p] !== overlayBefore[p]).sort();
  if (files.length) step.overlayChange = { files, diff: await stepDiff(ws, overlayBefore, after, files) };
  let note = '';
  const v: ValidationResult | undefined = result.validation;
  if (v) {
    memory.validations++;
    step.verdict = v;
    const candidate = result.data?.candidateOverlay as Overlay | undefined;
    if (v.plausible) memory.plausibleOverlay = candidate ?? after;
    if (!v.plausible && spec.stop.regressionRevert) {
      const broke = v.failingTests.filter((t) => !bug.failingTests.includes(t));
      if (broke.length && v.compiled) {
        ws.setOverlay(overlayBefore);
        note = `\n\nThis change made tests fail that passed before (${broke.slice(0, 5).join(', ')}); it was reverted. Try a different fix.`;
        step.rectifications.push({ kind: 'other', message: `regression: reverted the change (newly failing: ${broke.join(', ')})` });
      }
    }
    const sig = errorSignature(v);
    if (spec.stop.sameErrorTwice && sig && sig === memory.lastErrorSignature) {
      end = { kind: 'stuck', reason: `stuck: the same error twice in a row (${summarizeValidation(v).split('\n')[0]})` };
    }
    memory.lastErrorSignature = sig;
    if (v.plausible && spec.stop.onPlausible) end = { kind: 'finished', reason: 'a plausible patch was found (all tests pass)' };
  }
  if (result.ok) {
    const t = spec.transitions.find((tr) => tr.tool === name && (tr.from === '*' || tr.from === memory.state));
    if (t) memory.state = t.to;
  }
  if (spec.memory.kind === 'dynamic-prompt') {
    memory.gathered.push({ step: step.index, tool: name, args, argsText: argsText(args), ok: result.ok, shown: trimmed.text, ...(result.data ? { data: stripRectifications(result.data) } : {}) });
    memory.last = { command: `${name} ${JSON.stringify(args)}`, result: trimmed.text };
  }
  if (result.finished) end ??= { kind: 'finished', reason: `the agent finished (${result.finished.success ? 'success' : 'failure'}): ${result.finished.reason}` };
  if (spec.finalStates.includes(memory.state)) end ??= { kind: 'finished', reason: `reached final state ${memory.state}` };
  const sentinel = spec.middleware.completionSentinel;
  if (sentinel && (firstLine(result.output.trimStart()).trim() === sentinel || sentinelEcho(sentinel).test(String(args.command ?? '')))) {
    end ??= { kind: 'finished', reason: `the agent signalled completion (${sentinel})` };
  }
  const vars = { result: { tool: name, ok: result.ok, output: trimmed.text, elided: trimmed.elided, returncode: result.data?.returncode ?? (result.ok ? 0 : 1) }, step: { index: step.index + 1 } };
  return { feedback: renderTemplate(spec.prompt.observation, vars, `${spec.id}.observation`) + note, ...(end ? { end } : {}) };
}

const sentinelEchoes = new Map<string, RegExp>();
/** `echo <sentinel>` as the whole command (the sentinel is used as written, as a pattern); made once per sentinel */
function sentinelEcho(sentinel: string): RegExp {
  let pattern = sentinelEchoes.get(sentinel);
  if (!pattern) sentinelEchoes.set(sentinel, (pattern = new RegExp(`^\\s*echo\\s+["']?${sentinel}["']?\\s*$`)));
  return pattern;
}

/** The change this step made (not the cumulative patch): before = the previous overlay, else the base file. */
async function stepDiff(ws: Workspace, before: Overlay, after: Overlay, files: string[]): Promise<string> {
  let base: Workspace | undefined;
  const parts: string[] = [];
  for (const path of files) {
    let old: string | null;
    if (path in before) old = before[path] ?? null;
    else {
      base ??= ws.fork();
      base.setOverlay({});
      old = (await base.exists(path)) ? await base.read(path) : null;
    }
    const now = path in after ? (after[path] ?? null) : old;
    parts.push(fileDiff(path, old, now));
  }
  return parts.join('');
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end);
}

function stripRectifications(data: Record<string, unknown>): Record<string, unknown> {
  const { rectifications: _r, candidateOverlay: _c, ...rest } = data;
  return rest;
}
