// Scripted, replay, human and recording providers; prompt hashing; key redaction.
import { describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { createReplayProvider } from '../../../worker/llm/replay-provider.ts';
import { createRecordingProvider } from '../../../worker/llm/recording-provider.ts';
import { createHumanProvider, HumanChannel } from '../../../worker/llm/human-provider.ts';
import { canonicalJson, promptHash } from '../../../worker/llm/prompt-hash.ts';
import { redactSecrets } from '../../../worker/llm/redact.ts';
import { providerPreset, PROVIDER_PRESETS } from '../../../worker/llm/provider-presets.ts';
import { parseCassette } from '../../../worker/contracts/cassette.ts';
import { LlmError, type ChatMessage } from '../../../worker/contracts/llm.ts';

const m = (content: string): ChatMessage[] => [{ role: 'user', content }];

describe('prompt hash', () => {
  it('is canonical: key order and extra fields do not matter, content does', async () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    const a = await promptHash([{ role: 'user', content: 'x' }]);
    const b = await promptHash([{ content: 'x', role: 'user', extra: 1 } as ChatMessage]);
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await promptHash(m('y'))).not.toBe(a);
    // sha-256 of [{"content":"x","role":"user"}], computed independently with Python's hashlib
    expect(a).toBe('7c5139ff349b5009ca51b90118aa039f0c9e60fa9bfb4010bc15a58439c7759f');
  });
});

describe('scripted, recording and replay', () => {
  it('records calls with hashes and replays them in order', async () => {
    const rec = createRecordingProvider(createScriptedProvider(['one', 'two']));
    await rec.complete({ messages: m('a') });
    await rec.complete({ messages: m('b') });
    const cassette = parseCassette(JSON.parse(JSON.stringify(rec.toCassette({ model: 'x', provenance: { source: 'hand-authored', note: 'test', recordedAt: 'now' } }))));
    expect(cassette.calls[0]!.promptHash).toBe(await promptHash(m('a')));
    const replay = createReplayProvider(cassette);
    expect((await replay.complete({ messages: m('a') })).content).toBe('one');
    expect((await replay.complete({ messages: m('b') })).content).toBe('two');
    await expect(replay.complete({ messages: m('c') })).rejects.toMatchObject({ code: 'cassette-exhausted' });
    // a continued run starts after the calls it made, and messages count calls from the recording's start
    const continued = createReplayProvider(cassette, { firstCall: 1 });
    await expect(continued.complete({ messages: m('a') })).rejects.toThrow(/model call 2/);
    const goesOn = createReplayProvider(cassette, { firstCall: 1 });
    expect((await goesOn.complete({ messages: m('b') })).content).toBe('two');
    await expect(goesOn.complete({ messages: m('c') })).rejects.toThrow(/holds 2 recorded calls and the run asked for call 3/);
  });

  it('reports divergence with the call and first differing message; lenient replay goes on', async () => {
    const rec = createRecordingProvider(createScriptedProvider(['one']));
    await rec.complete({ messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'the original question' }] });
    const cassette = rec.toCassette({ provenance: { source: 'hand-authored', note: 't', recordedAt: 'now' } });
    const err = (await createReplayProvider(cassette)
      .complete({ messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'the changed question' }] })
      .catch((e: unknown) => e)) as LlmError;
    expect(err.code).toBe('cassette-divergence');
    expect(err.message).toMatch(/model call 1.*first differing message #1 \(user\) at character 4/);
    const lenient = await createReplayProvider(cassette, { strict: false }).complete({ messages: m('other') });
    expect(lenient.content).toBe('one');
    expect(lenient.meta?.diverged).toBe(true);
    const noMessages = rec.toCassette({ provenance: { source: 'hand-authored', note: 't', recordedAt: 'now' }, includeMessages: false });
    const e2 = (await createReplayProvider(noMessages).complete({ messages: m('z') }).catch((e: unknown) => e)) as LlmError;
    expect(e2.message).toMatch(/does not store messages/);
  });

  it('rejects a malformed cassette naming the field', () => {
    expect(() => parseCassette({ schemaVersion: 1, kind: 'repairlab-cassette', model: 'm', provenance: { source: 'hand-authored', note: '', recordedAt: '' }, calls: [{ promptHash: 'xyz', response: { content: '', usage: { inputTokens: 0, outputTokens: 0 } } }] }, 'demo.json')).toThrow(
      /demo.json is not a valid RepairLab cassette .*calls\.0\.promptHash/,
    );
  });
});

describe('human provider', () => {
  it('waits for the typed reply and estimates usage', async () => {
    const seen: string[] = [];
    const h = createHumanProvider(async (turn) => {
      seen.push(turn.messages[0]!.content);
      return 'typed reply';
    });
    const r = await h.complete({ messages: m('prompt shown to the human') });
    expect(r.content).toBe('typed reply');
    expect(seen).toEqual(['prompt shown to the human']);
    expect(r.meta?.usageEstimated).toBe(true);
  });

  it('a channel announces the turn and is answered from outside; abort ends the wait', async () => {
    let announced = 0;
    const ch = new HumanChannel(() => announced++);
    const pending = ch.provider.complete({ messages: m('q') });
    await Promise.resolve();
    expect(announced).toBe(1);
    expect(ch.pending()?.messages[0]!.content).toBe('q');
    ch.reply('a');
    expect((await pending).content).toBe('a');
    expect(() => ch.reply('again')).toThrow(/no prompt is waiting/);
    const ac = new AbortController();
    const waiting = ch.provider.complete({ messages: m('q2'), signal: ac.signal });
    ac.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('redaction and presets', () => {
  it('removes the key and key-like strings', () => {
    const key = 'sk-proj-abcdef123456';
    const text = redactSecrets(`bad key ${key}; also sk-or-v1-zzzzzzzzzz and Authorization: Bearer abc.def`, key);
    expect(text).not.toContain(key);
    expect(text).not.toContain('sk-or-v1-zzzzzzzzzz');
    expect(text).not.toContain('abc.def');
  });

  it('knows the five provider presets', () => {
    expect(PROVIDER_PRESETS.map((p) => p.id)).toEqual(['openai', 'deepseek', 'openrouter', 'ollama', 'vllm']);
    expect(providerPreset('ollama')).toMatchObject({ baseURL: 'http://127.0.0.1:11434/v1', needsKey: false });
    expect(() => providerPreset('x')).toThrow(/unknown provider preset "x"/);
  });
});
