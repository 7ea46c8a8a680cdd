// Recording a cassette by running a strategy against hand-written replies (the scripted provider):
// the run goes through the real engine, so every call stores the exact prompt the engine will send
// again on replay, with its hash. The demo cassettes in public/cassettes/ are made this way.
import { CASSETTE_SCHEMA_VERSION, type Cassette } from '../contracts/cassette.ts';
import type { Trajectory, TrajStep } from '../contracts/trajectory.ts';
import { createRecordingProvider } from '../llm/recording-provider.ts';
import { createScriptedProvider, type ScriptedReply } from '../llm/scripted-provider.ts';
import { runAgent, type RunAgentOptions } from './loop.ts';

export interface RecordCassetteOptions extends Omit<RunAgentOptions, 'llm'> {
  replies: readonly (string | ScriptedReply)[];
  /** the model name the cassette answers as */
  model?: string;
  /** says who wrote the replies; stored in provenance.note */
  note?: string;
}

export async function recordCassette(opts: RecordCassetteOptions): Promise<{ cassette: Cassette; trajectory: Trajectory }> {
  const model = opts.model ?? 'repairlab-demo-scripted';
  const recorder = createRecordingProvider(createScriptedProvider(opts.replies, { model }));
  const trajectory = await runAgent({ ...opts, llm: recorder });
  const cassette = recorder.toCassette({
    model,
    settings: {
      ...(opts.strategy.sampling.temperature !== undefined ? { temperature: opts.strategy.sampling.temperature } : {}),
      ...(opts.strategy.sampling.topP !== undefined ? { topP: opts.strategy.sampling.topP } : {}),
    },
    provenance: {
      source: 'hand-authored',
      note: opts.note ?? 'Replies written by hand and recorded through the RepairLab engine (not produced by a language model).',
      recordedAt: new Date().toISOString(),
      bugId: opts.bug.id,
      preset: opts.preset ?? opts.strategy.id,
    },
  });
  return { cassette, trajectory };
}

/**
 * The cassette of a recorded run: each step's prompt (with its hash) and the model's reply, in order, so the run can
 * be replayed exactly and a changed prompt reports its step. Steps whose model call failed have no reply and are left
 * out (such a step ends its run). Calls a tool made to a second model (RepairAgent's write_fix variants,
 * generate_method_body) are not steps, so a replay has no second model for them.
 */
export function cassetteFromTrajectory(t: Trajectory): Cassette {
  const answered = t.steps.filter((s) => s.response);
  const model = answered[0]?.response?.model ?? String(t.config.model.model ?? 'unknown-model');
  const sampling = t.config.model as { temperature?: number; topP?: number; seed?: number; maxTokens?: number };
  const provider = t.config.providerId;
  // a person or a script wrote the replies; a model endpoint produced them; a replayed run's came from another recording
  const source = provider === 'human' || provider.startsWith('scripted') ? 'hand-authored' : provider.startsWith('openai') ? 'model' : 'mixed';
  return {
    schemaVersion: CASSETTE_SCHEMA_VERSION,
    kind: 'repairlab-cassette',
    model,
    settings: {
      ...(typeof sampling.temperature === 'number' ? { temperature: sampling.temperature } : {}),
      ...(typeof sampling.topP === 'number' ? { topP: sampling.topP } : {}),
      ...(typeof sampling.seed === 'number' ? { seed: sampling.seed } : {}),
      ...(typeof sampling.maxTokens === 'number' ? { maxTokens: sampling.maxTokens } : {}),
    },
    provenance: {
      source,
      note:
        `Recorded from run ${t.runId} (${t.config.preset}${t.config.variants.length ? ` with ${t.config.variants.join(', ')}` : ''} on ${t.bug.id}, model provider ${provider}); ` +
        'replay it with the same preset, variants and overrides.',
      recordedAt: t.createdAt,
      bugId: t.bug.id,
      preset: t.config.preset,
      ...(Object.keys(t.config.overrides).length ? { overrides: t.config.overrides } : {}),
    },
    calls: answered.map((s) => ({
      promptHash: s.prompt.promptHash,
      messages: s.prompt.messages,
      purpose: 'agent',
      response: { content: s.response!.content, usage: { inputTokens: s.tokens.input, outputTokens: s.tokens.output }, ...(s.response!.model ? { model: s.response!.model } : {}), latencyMs: s.latencyMs.model },
    })),
  };
}

/** A step without what legitimately differs between two runs of the same thing (times, latency, provider meta). */
export function comparableStep(step: TrajStep): Omit<TrajStep, 'startedAt' | 'latencyMs' | 'response'> & { response?: { content: string } } {
  const { startedAt: _s, latencyMs: _l, response, ...rest } = step;
  const verdict = rest.verdict ? { ...rest.verdict, timingsMs: { total: 0, compile: 0, tests: 0 }, cached: false, tests: rest.verdict.tests.map((t) => ({ ...t, durationMs: 0 })) } : undefined;
  return { ...rest, ...(verdict ? { verdict } : {}), tokens: { ...rest.tokens, estimated: false }, ...(response ? { response: { content: response.content } } : {}) };
}
