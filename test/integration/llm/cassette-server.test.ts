// The real openai SDK over real HTTP against the cassette server: streaming and not, usage, CORS
// preflight, the x-stainless headers removed, divergence, exhaustion, refusals and retries; a cassette answered
// by the conversation, so interleaved runs of one recording each get their own replies, any number of times.
import { afterEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { startCassetteServer, type CassetteServer } from '../../../worker/llm/cassette-server.node.ts';
import { createOpenAiProvider } from '../../../worker/llm/openai-provider.ts';
import { createRecordingProvider } from '../../../worker/llm/recording-provider.ts';
import { createScriptedProvider } from '../../../worker/llm/scripted-provider.ts';
import { LlmError, type ChatMessage } from '../../../worker/contracts/llm.ts';
import type { Cassette } from '../../../worker/contracts/cassette.ts';

const servers: CassetteServer[] = [];
async function serve(opts: Parameters<typeof startCassetteServer>[0]) {
  const s = await startCassetteServer(opts);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const ask = (text: string): ChatMessage[] => [
  { role: 'system', content: 'You repair Java bugs.' },
  { role: 'user', content: text },
];

async function recordCassette(prompts: string[], replies: string[]): Promise<Cassette> {
  const rec = createRecordingProvider(createScriptedProvider(replies.map((content, i) => ({ content, usage: { inputTokens: 100 + i, outputTokens: 10 + i } }))));
  for (const p of prompts) await rec.complete({ messages: ask(p) });
  return rec.toCassette({ model: 'demo-model', provenance: { source: 'hand-authored', note: 'test replies', recordedAt: new Date(0).toISOString() } });
}

/** A full-history conversation: each call's prompt is the previous prompt + the reply + the next user turn. */
function conversationPrompts(turns: string[], replies: string[]): ChatMessage[][] {
  const prompts: ChatMessage[][] = [];
  let messages: ChatMessage[] = [{ role: 'system', content: 'You repair Java bugs.' }];
  turns.forEach((turn, i) => {
    if (i > 0) messages = [...messages, { role: 'assistant', content: replies[i - 1]! }];
    messages = [...messages, { role: 'user', content: turn }];
    prompts.push(messages);
  });
  return prompts;
}

async function recordConversation(turns: string[], replies: string[]): Promise<Cassette> {
  const rec = createRecordingProvider(createScriptedProvider(replies.map((content) => ({ content }))));
  for (const messages of conversationPrompts(turns, replies)) await rec.complete({ messages });
  return rec.toCassette({ model: 'demo-model', provenance: { source: 'hand-authored', note: 'test conversation', recordedAt: new Date(0).toISOString() } });
}

describe('cassette server + openai provider', () => {
  it('answers by the conversation: two interleaved runs of one recording, twice each, all get the recorded replies', async () => {
    const turns = ['fix the bug', 'the test still fails', 'now run the tests'];
    const replies = ['read the file', 'edit line 58', 'done'];
    const server = await serve({ cassette: await recordConversation(turns, replies) });
    const prompts = conversationPrompts(turns, replies);
    // four runs (two "browsers", each twice) advance one call at a time, in turn, against the same server
    const runs = [0, 1, 2, 3].map(() => ({ llm: createOpenAiProvider({ baseURL: server.baseURL, model: 'demo-model', stream: true }), got: [] as string[] }));
    for (let call = 0; call < turns.length; call++) {
      const answers = await Promise.all(runs.map((r) => r.llm.complete({ messages: prompts[call]! })));
      answers.forEach((a, i) => runs[i]!.got.push(a.content));
    }
    for (const r of runs) expect(r.got).toEqual(replies);
    expect(server.served()).toBe(12);
    // a fifth run afterwards starts from the first call again, with no rewind
    const late = createOpenAiProvider({ baseURL: server.baseURL, model: 'demo-model', stream: false });
    expect((await late.complete({ messages: prompts[0]! })).content).toBe('read the file');
  });

  it('streams a recorded reply with its usage and sends no x-stainless header', async () => {
    const cassette = await recordCassette(['first', 'second'], ['reply one, long enough to need several chunks', 'reply two']);
    const server = await serve({ cassette, chunkChars: 5 });
    const llm = createOpenAiProvider({ baseURL: server.baseURL, apiKey: 'sk-test-secret-key-123456', model: 'demo-model', stream: true });
    const deltas: string[] = [];
    const a = await llm.complete({ messages: ask('first'), onDelta: (d) => deltas.push(d) });
    expect(a.content).toBe('reply one, long enough to need several chunks');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(a.content);
    expect(a.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
    expect(a.meta?.usageEstimated).toBe(false);
    const b = await llm.complete({ messages: ask('second') });
    expect(b.content).toBe('reply two');
    const chat = server.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chat).toHaveLength(2);
    for (const r of chat) {
      expect(Object.keys(r.headers).filter((h) => h.startsWith('x-stainless'))).toEqual([]);
      expect(r.stream).toBe(true);
    }
  });

  it('answers non-streaming requests with usage', async () => {
    const cassette = await recordCassette(['q'], ['a plain answer']);
    const server = await serve({ cassette });
    const llm = createOpenAiProvider({ baseURL: server.baseURL, model: 'demo-model', stream: false });
    const r = await llm.complete({ messages: ask('q') });
    expect(r.content).toBe('a plain answer');
    expect(r.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
    expect(server.requests.at(-1)?.stream).toBe(false);
  });

  it('lists the model and answers a CORS preflight for the headers the provider sends', async () => {
    const server = await serve({ replies: ['x'], model: 'm1', allowedOrigins: ['http://localhost:5173'] });
    const models = await new OpenAI({ baseURL: server.baseURL, apiKey: 'k' }).models.list();
    expect(models.data.map((m) => m.id)).toEqual(['m1']);
    const pre = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const stainless = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-stainless-os,content-type' },
    });
    expect(stainless.status).toBe(403);
    const other = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('blockCors sends no CORS header at all', async () => {
    const server = await serve({ replies: ['x'], blockCors: true });
    const pre = await fetch(`${server.baseURL}/chat/completions`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('reports a divergence naming the call and the first differing message', async () => {
    const cassette = await recordCassette(['first', 'second'], ['one', 'two']);
    const server = await serve({ cassette });
    const llm = createOpenAiProvider({ baseURL: server.baseURL, model: 'demo-model' });
    await llm.complete({ messages: ask('first') });
    const err = await llm.complete({ messages: ask('second, but changed') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).code).toBe('cassette-divergence');
    expect((err as LlmError).message).toMatch(/model call 2/);
    expect((err as LlmError).message).toMatch(/message #1 \(user\)/);
    expect((err as LlmError).message).toContain('second, but changed');
  });

  it('reports exhaustion when a conversation goes on past the last recorded call', async () => {
    const cassette = await recordConversation(['only'], ['one']);
    const server = await serve({ cassette });
    const llm = createOpenAiProvider({ baseURL: server.baseURL, model: 'demo-model', stream: false });
    const [first] = conversationPrompts(['only'], ['one']);
    expect((await llm.complete({ messages: first! })).content).toBe('one');
    const more: ChatMessage[] = [...first!, { role: 'assistant', content: 'one' }, { role: 'user', content: 'more' }];
    const err = (await llm.complete({ messages: more }).catch((e: unknown) => e)) as LlmError;
    expect(err.code).toBe('cassette-exhausted');
    expect(err.message).toMatch(/holds 1 recorded calls and this is call 2/);
  });

  it('lenient: a changed prompt is answered by the closest recorded call of the conversation', async () => {
    const turns = ['fix the bug', 'the test still fails', 'now run the tests'];
    const replies = ['read the file', 'edit line 58', 'done'];
    const server = await serve({ cassette: await recordConversation(turns, replies), strict: false });
    const llm = createOpenAiProvider({ baseURL: server.baseURL, model: 'demo-model', stream: false });
    // the first user turn carries extra text (say, a history section): no recorded prompt matches
    const changed = conversationPrompts(['fix the bug\n## History\n…', ...turns.slice(1)], replies);
    const got = [];
    for (const messages of changed) got.push((await llm.complete({ messages })).content);
    expect(got).toEqual(replies);
  });

  it('maps a refused key to auth without echoing the key', async () => {
    const server = await serve({ replies: ['x'], refuse: { status: 401 } });
    const key = 'sk-proj-THISISASECRETKEY99';
    const llm = createOpenAiProvider({ baseURL: server.baseURL, model: 'm', apiKey: key });
    const err = (await llm.complete({ messages: ask('hi') }).catch((e: unknown) => e)) as LlmError;
    expect(err.code).toBe('auth');
    expect(err.message).toMatch(/rejected the API key \(401\)/);
    expect(JSON.stringify({ m: err.message, d: err.detail, s: err.stack })).not.toContain(key);
  });

  it('retries 500s with backoff and then succeeds, counting the retries', async () => {
    const server = await serve({ replies: ['finally'], refuse: { status: 500, times: 2 } });
    const llm = createOpenAiProvider({ baseURL: server.baseURL, model: 'm', retryBaseMs: 1, maxRetries: 3 });
    const r = await llm.complete({ messages: ask('hi') });
    expect(r.content).toBe('finally');
    expect(r.meta?.retries).toBe(2);
  });

  it('gives up on 429 after maxRetries with a rate-limit error', async () => {
    const server = await serve({ replies: ['never'], refuse: { status: 429, retryAfterSeconds: 0 } });
    const llm = createOpenAiProvider({ baseURL: server.baseURL, model: 'm', retryBaseMs: 1, maxRetries: 1 });
    const err = (await llm.complete({ messages: ask('hi') }).catch((e: unknown) => e)) as LlmError;
    expect(err.code).toBe('rate-limit');
    expect(err.message).toMatch(/after 1 retry/);
    expect(server.requests.filter((r) => r.status === 429)).toHaveLength(2);
  });

  it('names an unreachable endpoint as a network error', async () => {
    const server = await serve({ replies: ['x'] });
    const url = server.baseURL;
    await server.close();
    servers.length = 0;
    const llm = createOpenAiProvider({ baseURL: url, model: 'm', browserLike: false });
    const err = (await llm.complete({ messages: ask('hi') }).catch((e: unknown) => e)) as LlmError;
    expect(err.code).toBe('network');
    expect(err.message).toContain(url);
  });

  it('diagnoses CORS in a browser when the endpoint answers a no-cors probe', async () => {
    const server = await serve({ replies: ['x'] });
    const url = server.baseURL;
    await server.close();
    servers.length = 0;
    // the real browser failure is a fetch TypeError; here the endpoint is down and the probe says "reachable"
    const llm = createOpenAiProvider({ baseURL: url, model: 'm', browserLike: true, corsProbe: async () => true });
    const err = (await llm.complete({ messages: ask('hi') }).catch((e: unknown) => e)) as LlmError;
    expect(err.code).toBe('cors');
    expect(err.message).toMatch(/refused the browser's cross-origin request \(CORS\)/);
    expect(err.message).toMatch(/allow origin/i);
  });
});
