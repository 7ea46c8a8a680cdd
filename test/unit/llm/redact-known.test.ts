// The configured key is replaced wherever it occurs in recorded text; ordinary text that merely looks like a key
// (code, "Bearer" in prose) is left alone by this exact-key redaction.
import { describe, expect, it } from 'vitest';
import { redactKnownSecrets } from '../../../worker/llm/redact.ts';
import { createRecordingProvider } from '../../../worker/llm/recording-provider.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';

const KEY = 'canary-key-0123456789';

describe('redactKnownSecrets', () => {
  it('replaces every occurrence of each secret and nothing else', () => {
    expect(redactKnownSecrets(`a ${KEY} b ${KEY}`, [KEY])).toBe('a [redacted key] b [redacted key]');
    expect(redactKnownSecrets('String sk = "sk-notakey-abcdef"; // Bearer tokens', [KEY])).toBe('String sk = "sk-notakey-abcdef"; // Bearer tokens');
    // too short to be a key: never redacted (it would blank out ordinary text)
    expect(redactKnownSecrets('abc', ['abc'])).toBe('abc');
  });
});

describe('recording provider', () => {
  it('records replies and prompts without the given secrets, and the run goes on with the recorded text', async () => {
    const rec = createRecordingProvider(createScriptedProvider([`the key is ${KEY}`]), { secrets: [KEY] });
    const res = await rec.complete({ messages: [{ role: 'user', content: `use ${KEY}` }] });
    expect(res.content).toBe('the key is [redacted key]');
    const cassette = JSON.stringify(rec.toCassette({ provenance: { source: 'model', note: 'test', recordedAt: '2026-01-01T00:00:00Z' } }));
    expect(cassette).not.toContain(KEY);
  });
});
