// Trajectory files: export a RepairLab trajectory, import one back, and convert mini-swe-agent
// (.traj.json) and SWE-agent (.traj) files into RepairLab's shape (worker/records/trajectory-import.ts stores them as
// runs). Converted records are marked `imported` and their outcome is 'unknown' (RepairLab did not validate their patch).
import { parseTrajectory, REPAIRLAB_VERSION, TRAJECTORY_SCHEMA_VERSION, Trajectory, type TrajStep } from '../contracts/trajectory.ts';
import type { ChatMessage } from '../contracts/llm.ts';
import { STRATEGY_SCHEMA_VERSION } from '../contracts/strategy.ts';
import { parseBashBlock } from '../strategies/middleware/parse.ts';
import { cassetteFromTrajectory } from './cassette-from-trajectory.ts';
import { parseCassette, type Cassette } from '../contracts/cassette.ts';

export type TrajectoryFileFormat = 'repairlab' | 'mini-swe-agent' | 'swe-agent';

export function exportTrajectory(t: Trajectory): string {
  return `${JSON.stringify(Trajectory.parse(t), null, 2)}\n`;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function asMessages(list: unknown): ChatMessage[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isObj).map((m) => {
    const role = m.role === 'system' || m.role === 'assistant' ? m.role : 'user';
    const c = m.content;
    const content = typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('') : '';
    return { role, content };
  });
}

function shell(format: 'mini-swe-agent' | 'swe-agent', file: string, info: Obj, model: unknown): Trajectory {
  const now = new Date().toISOString();
  return {
    schemaVersion: TRAJECTORY_SCHEMA_VERSION,
    kind: 'repairlab-trajectory',
    runId: `imported-${format}-${file.replace(/[^\w.-]/g, '_')}`,
    createdAt: now,
    updatedAt: now,
    status: 'finished',
    versions: { repairlab: REPAIRLAB_VERSION, trajectorySchema: TRAJECTORY_SCHEMA_VERSION, strategySchema: STRATEGY_SCHEMA_VERSION, runtime: format },
    config: { preset: `imported:${format}`, variants: [], overrides: {}, strategy: {}, model: isObj(model) ? { model: model.model_name ?? model.name } : {}, providerId: format, tools: ['bash'], trajectoryIndex: 0 },
    bug: { id: typeof info.instance_id === 'string' ? info.instance_id : file, library: '', buggyCommit: '', failingTests: [] },
    startup: [],
    steps: [],
    imported: { format, file, info },
  };
}

function step(index: number, prompt: ChatMessage[], reply: string, feedback: string | undefined): TrajStep {
  const parsed = parseBashBlock(reply);
  return {
    index,
    state: 'imported',
    stateAfter: 'imported',
    startedAt: '',
    status: parsed.error ? 'format-error' : 'ok',
    prompt: { messages: prompt, promptHash: '' },
    response: { content: reply, model: '' },
    parsed: { ...(parsed.thought ? { thought: parsed.thought } : {}), ...(parsed.command ? { command: parsed.command } : {}), ...(parsed.error ? { error: parsed.error } : {}) },
    rectifications: [],
    ...(feedback !== undefined ? { feedback } : {}),
    tokens: { input: 0, output: 0, estimated: true },
    costUsd: null,
    latencyMs: { model: 0, tool: 0, engine: 0 },
  };
}

function outcomeOf(info: Obj, steps: number): Trajectory['outcome'] {
  const stats = isObj(info.model_stats) ? info.model_stats : {};
  const cost = typeof stats.instance_cost === 'number' ? stats.instance_cost : null;
  return {
    status: 'unknown',
    reason: `imported; exit status ${String(info.exit_status ?? 'unknown')}`,
    finalPatch: typeof info.submission === 'string' ? info.submission : '',
    plausible: null,
    exactMatch: null,
    totals: { steps, inputTokens: Number(stats.tokens_sent ?? 0) || 0, outputTokens: Number(stats.tokens_received ?? 0) || 0, costUsd: cost, wallMs: 0, validations: 0, formatErrors: 0 },
  };
}

/** mini-swe-agent: the saved trajectory is the message list; every assistant message is one step. */
function fromMiniSweAgent(json: Obj, file: string): Trajectory {
  const info = isObj(json.info) ? json.info : {};
  const messages = asMessages(json.messages);
  const t = shell('mini-swe-agent', file, info, isObj(info.config) ? info.config.model : undefined);
  messages.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const next = messages[i + 1];
    t.steps.push(step(t.steps.length, messages.slice(0, i), m.content, next && next.role !== 'assistant' ? next.content : undefined));
  });
  t.outcome = outcomeOf(info, t.steps.length);
  return t;
}

/** SWE-agent: trajectory[] holds response / action / observation and (v1+) the exact query sent. */
function fromSweAgent(json: Obj, file: string): Trajectory {
  const info = isObj(json.info) ? json.info : {};
  const t = shell('swe-agent', file, info, undefined);
  const entries = Array.isArray(json.trajectory) ? json.trajectory.filter(isObj) : [];
  for (const e of entries) {
    const reply = typeof e.response === 'string' ? e.response : String(e.action ?? '');
    const s = step(t.steps.length, asMessages(e.query ?? e.messages), reply, typeof e.observation === 'string' ? e.observation : undefined);
    const action = typeof e.action === 'string' ? e.action.trim() : '';
    // SWE-agent actions are tool calls, not bash blocks: show the action as the command
    s.status = 'ok';
    s.parsed = { ...(typeof e.thought === 'string' && e.thought ? { thought: e.thought } : {}), command: { name: action.split(/\s+/)[0] ?? '', args: { command: action } } };
    if (typeof e.execution_time === 'number') s.latencyMs.tool = e.execution_time * 1000;
    t.steps.push(s);
  }
  t.outcome = outcomeOf(info, t.steps.length);
  return t;
}

export function detectTrajectoryFormat(json: unknown): TrajectoryFileFormat | undefined {
  if (!isObj(json)) return undefined;
  if (json.kind === 'repairlab-trajectory') return 'repairlab';
  if (typeof json.trajectory_format === 'string' && json.trajectory_format.startsWith('mini-swe-agent')) return 'mini-swe-agent';
  if (Array.isArray(json.trajectory)) return 'swe-agent';
  if (Array.isArray(json.messages) && isObj(json.info)) return 'mini-swe-agent';
  return undefined;
}

/** Read a trajectory file of any supported format; the error names the file and what was expected. */
export function importTrajectoryFile(text: string, file = 'trajectory file'): { format: TrajectoryFileFormat; trajectory: Trajectory } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not JSON (${(err as Error).message}); expected a RepairLab, mini-swe-agent or SWE-agent trajectory file`);
  }
  const format = detectTrajectoryFormat(json);
  if (!format) throw new Error(`${file} is JSON but not a trajectory RepairLab knows: expected kind "repairlab-trajectory", a mini-swe-agent file (messages + info) or a SWE-agent .traj (trajectory[])`);
  if (format === 'repairlab') return { format, trajectory: parseTrajectory(json, file) };
  const trajectory = format === 'mini-swe-agent' ? fromMiniSweAgent(json as Obj, file) : fromSweAgent(json as Obj, file);
  return { format, trajectory: Trajectory.parse(trajectory) };
}

/** A recording loaded as the model: the file it came from and what it holds. */
export interface RecordingSummary {
  file: string;
  model: string;
  calls: number;
  bugId?: string;
  preset?: string;
}

/**
 * A recording to replay as the model: a cassette file, or a RepairLab trajectory file (a run replays from its own
 * record). The error names the file and what was expected.
 */
export function readRecording(text: string, file = 'recording file'): { cassette: Cassette; summary: RecordingSummary } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not JSON (${(err as Error).message}); expected a RepairLab cassette or trajectory file`);
  }
  const cassette = isObj(json) && json.kind === 'repairlab-trajectory' ? cassetteFromTrajectory(parseTrajectory(json, file)) : parseCassette(json, file);
  const { bugId, preset } = cassette.provenance;
  return { cassette, summary: { file, model: cassette.model, calls: cassette.calls.length, ...(bugId ? { bugId } : {}), ...(preset ? { preset } : {}) } };
}
