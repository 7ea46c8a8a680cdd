// Recording a cassette by running a strategy against hand-written replies (the scripted provider):
// the run goes through the real engine, so every call stores the exact prompt the engine will send
// again on replay, with its hash. The demo cassettes in public/cassettes/ are made this way. A saved run's
// cassette (no loop involved) is worker/records/cassette-from-trajectory.ts.
import type { Cassette } from '../contracts/cassette.ts';
import type { Trajectory } from '../contracts/trajectory.ts';
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
