// A recorded run as a cassette (docs/formats/cassette.md): each answered step's prompt, its hash and the model's reply,
// so the run replays exactly; and a step without what legitimately differs between two runs of the same thing, to
// compare a replay with its recording. Pure functions over the record: no loop, no provider.
import { CASSETTE_SCHEMA_VERSION, type Cassette } from '../contracts/cassette.ts';
import type { Trajectory, TrajStep } from '../contracts/trajectory.ts';
import { recordingOf } from '../contracts/run-settings.ts';

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
  // the recording the run replayed says who wrote its replies (a demo endpoint is an openai provider, yet its replies
  // were written by hand); else a person or a script wrote them, a model endpoint produced them, or a replay's came from
  // a recording that did not say
  const recorded = recordingOf(t.config.model)?.source;
  const source = recorded ?? (provider === 'human' || provider.startsWith('scripted') ? 'hand-authored' : provider.startsWith('openai') ? 'model' : 'mixed');
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
