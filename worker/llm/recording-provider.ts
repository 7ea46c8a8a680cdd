// Wraps any provider and keeps every call (prompt hash, messages, response, usage) so the run can be
// saved as a cassette and replayed later.
import type { CompletionRequest, CompletionResponse, LlmProvider } from '../contracts/llm.ts';
import { CASSETTE_SCHEMA_VERSION, type Cassette, type CassetteCall } from '../contracts/cassette.ts';
import { PromptHasher } from './prompt-hash.ts';

export interface RecordingProvider extends LlmProvider {
  readonly calls: readonly CassetteCall[];
  toCassette(info: { model?: string; provenance: Cassette['provenance']; settings?: Cassette['settings']; includeMessages?: boolean }): Cassette;
}

export function createRecordingProvider(inner: LlmProvider): RecordingProvider {
  const calls: CassetteCall[] = [];
  let lastModel: string | undefined;
  const hasher = new PromptHasher();
  return {
    id: inner.id,
    calls,
    async complete(req: CompletionRequest): Promise<CompletionResponse> {
      const hash = await hasher.hashOrDigest(req.messages);
      const res = await inner.complete(req);
      lastModel = res.model;
      calls.push({
        promptHash: hash,
        messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
        ...(req.purpose ? { purpose: req.purpose } : {}),
        response: { content: res.content, usage: { ...res.usage }, model: res.model, latencyMs: Math.round(res.latencyMs) },
      });
      return res;
    },
    toCassette(info) {
      return {
        schemaVersion: CASSETTE_SCHEMA_VERSION,
        kind: 'repairlab-cassette',
        model: info.model ?? lastModel ?? inner.id,
        settings: info.settings ?? {},
        provenance: info.provenance,
        calls: calls.map((c) => (info.includeMessages === false ? { ...c, messages: undefined } : c)),
      };
    },
  };
}
