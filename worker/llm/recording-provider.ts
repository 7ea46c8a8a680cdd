// Wraps any provider and keeps every call (prompt hash, messages, response, usage) so the run can be
// saved as a cassette and replayed later.
import type { CompletionRequest, CompletionResponse, LlmProvider } from '../contracts/llm.ts';
import { CASSETTE_SCHEMA_VERSION, type Cassette, type CassetteCall } from '../contracts/cassette.ts';
import { PromptHasher } from './prompt-hash.ts';
import { redactKnownSecrets } from './redact.ts';

export interface RecordingProvider extends LlmProvider {
  readonly calls: readonly CassetteCall[];
  toCassette(info: { model?: string; provenance: Cassette['provenance']; settings?: Cassette['settings']; includeMessages?: boolean }): Cassette;
}

/** `secrets`: replaced by "[redacted key]" in the recorded messages and replies (the cassette is a file people share) */
export function createRecordingProvider(inner: LlmProvider, opts: { secrets?: readonly string[] } = {}): RecordingProvider {
  const hide = (text: string) => redactKnownSecrets(text, opts.secrets ?? []);
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
      const content = hide(res.content);
      calls.push({
        promptHash: hash,
        messages: req.messages.map((m) => ({ role: m.role, content: hide(m.content) })),
        ...(req.purpose ? { purpose: req.purpose } : {}),
        response: { content, usage: { ...res.usage }, model: res.model, latencyMs: Math.round(res.latencyMs) },
      });
      // the run goes on with what was recorded, so a replay of the cassette sees the same prompts
      return content === res.content ? res : { ...res, content };
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
