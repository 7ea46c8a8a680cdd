// What a trajectory may say about the model: a whitelist, so a key given to a provider can never
// reach a record, an export or a share link.
import type { LlmProvider } from '../contracts/llm.ts';

// `recording`: the recording a replayed or demo model answers from, { name, source } (RecordingProvenance in
// contracts/run-settings.ts) — what tells a `oneshot.wrong` demo run from a `oneshot.fix` one in the Runs list and reports
const PUBLIC_MODEL_FIELDS = ['kind', 'baseURL', 'model', 'temperature', 'topP', 'seed', 'maxTokens', 'stream', 'maxRetries', 'keyProvided', 'cassette', 'preset', 'recording'] as const;

export function publicModelConfig(llm: LlmProvider, given?: Record<string, unknown>): Record<string, unknown> {
  const source = given ?? ((llm as { config?: Record<string, unknown> }).config ?? {});
  const out: Record<string, unknown> = { providerId: llm.id };
  for (const k of PUBLIC_MODEL_FIELDS) if (source[k] !== undefined) out[k] = source[k];
  if (typeof out.baseURL === 'string') out.baseURL = stripCredentials(out.baseURL);
  return out;
}

/** https://user:pass@host/v1?key=… → https://host/v1 */
function stripCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//').split('?')[0]!;
  }
}
