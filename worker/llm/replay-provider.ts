// Replay provider: answers from a cassette in order, after checking that each prompt hashes to the
// one recorded for that call. A different prompt means the engine (or its configuration) changed:
// the run stops with 'cassette-divergence' naming the call and the first differing message.
import { LlmError, type CompletionRequest, type CompletionResponse, type LlmProvider } from '../contracts/llm.ts';
import type { Cassette } from '../contracts/cassette.ts';
import type { RecordingProvenance } from '../contracts/run-settings.ts';
import { PromptHasher } from './prompt-hash.ts';
import { describeDivergence } from './divergence.ts';
import { abortedCall } from './abort-reason.ts';

export interface ReplayOptions {
  /** false: answer in order even when the prompt differs (recorded as meta.diverged) */
  strict?: boolean;
  /**
   * the recording's name — a file name, or the recording a bundled run replayed: in the provider id and in what the
   * run's record calls the recording (config.model.recording.name)
   */
  name?: string;
  /** 0-based index of the first call to answer: a continued run goes on after the calls its steps made */
  firstCall?: number;
}

/** A replay provider; its `config` is what the run's record says about the model (publicModelConfig reads it). */
export interface ReplayProvider extends LlmProvider {
  readonly config: { recording: RecordingProvenance };
}

/** A file name as a recording's name: its folders and the `.cassette.json` / `.json` ending dropped. */
function recordingName(file: string): string {
  return file.split(/[\\/]/).pop()!.replace(/(\.cassette)?\.json$/, '');
}

/**
 * What the record names a replayed cassette: `name` (a file name, or the recording a bundled run replayed), and who
 * wrote its replies — the cassette's own provenance. Without a name it is called by when it was recorded, so two
 * cassettes of one model still differ.
 */
function cassetteRecording(cassette: Cassette, name?: string): RecordingProvenance {
  return { name: name ? recordingName(name) : `cassette of ${cassette.model} recorded ${cassette.provenance.recordedAt}`, source: cassette.provenance.source };
}

export function createReplayProvider(cassette: Cassette, opts: ReplayOptions = {}): ReplayProvider {
  const strict = opts.strict ?? true;
  let next = opts.firstCall ?? 0;
  const hasher = new PromptHasher();
  return {
    id: `replay:${opts.name ?? cassette.model}`,
    config: { recording: cassetteRecording(cassette, opts.name) },
    async complete(req: CompletionRequest): Promise<CompletionResponse> {
      if (req.signal?.aborted) throw abortedCall(req.signal);
      const started = performance.now();
      const call = cassette.calls[next];
      if (!call) {
        throw new LlmError(
          `the cassette is exhausted: it holds ${cassette.calls.length} recorded calls and the run asked for call ${next + 1}`,
          'cassette-exhausted',
          { call: next + 1, recorded: cassette.calls.length },
        );
      }
      const hash = await hasher.hashOrDigest(req.messages);
      let diverged = false;
      if (hash !== call.promptHash) {
        const report = describeDivergence(next + 1, call.promptHash, hash, call.messages, req.messages);
        if (strict) throw new LlmError(report.message, 'cassette-divergence', report);
        diverged = true;
      }
      next++;
      req.onDelta?.(call.response.content);
      return {
        content: call.response.content,
        model: call.response.model ?? cassette.model,
        usage: { ...call.response.usage },
        latencyMs: performance.now() - started,
        meta: { call: next, promptHash: hash, recordedLatencyMs: call.response.latencyMs, ...(diverged ? { diverged: true } : {}) },
      };
    },
  };
}
