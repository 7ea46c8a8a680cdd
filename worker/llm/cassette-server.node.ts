// A real OpenAI-compatible HTTP server that replays a cassette (or a list of replies): the keyless demo
// and the tests run the SDK, HTTP, SSE streaming and CORS paths for real against it. Node only.
// A cassette is answered by the conversation, statelessly: each request's prompt hash picks the recorded call
// (cassette-lookup.ts), so any number of runs replay one server's recording at once, as often as they like.
//
//   node --import tsx worker/llm/cassette-server.node.ts --cassette public/cassettes/x.cassette.json --port 8787
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ChatMessage } from '../contracts/llm.ts';
import { parseCassette, type Cassette } from '../contracts/cassette.ts';
import { CassetteLookup, type RecordedCall } from './cassette-lookup.ts';
import { describeDivergence } from './divergence.ts';
import { estimateUsage } from './usage-estimate.ts';

export interface CassetteServerOptions {
  cassette?: Cassette;
  /** instead of a cassette: answer these in order, whatever the prompt (the only mode with a cursor: see rewind) */
  replies?: string[];
  port?: number;
  host?: string;
  /** origins allowed by CORS (default '*') */
  allowedOrigins?: string[] | '*';
  /** request headers a preflight may ask for (default authorization, content-type, accept) — like a strict real server */
  allowedHeaders?: string[];
  /** default true: a prompt that is none of the recorded ones is answered 409 cassette_divergence; false: the closest recorded call answers */
  strict?: boolean;
  /** for error-path tests: answer no CORS headers at all (the browser blocks every call) */
  blockCors?: boolean;
  /** for error-path tests: refuse chat requests with this status (401, 429, 500 …), `times` times (default: always) */
  refuse?: { status: number; times?: number; retryAfterSeconds?: number };
  /** model name reported (default: the cassette's) */
  model?: string;
  /** split streamed replies into chunks of this many characters (default 16) */
  chunkChars?: number;
}

export interface ServedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  stream?: boolean;
  /** a chat request's sampling parameters as sent (temperature, top_p, seed, max_tokens) */
  sampling?: Record<string, unknown>;
  status: number;
}

export interface CassetteServer {
  url: string;
  /** `${url}/v1`, what the SDK takes as baseURL */
  baseURL: string;
  port: number;
  /** every request seen, for tests (headers included, so tests can check what the SDK sent) */
  requests: ServedRequest[];
  /** chat calls answered so far (by all conversations) */
  served(): number;
  /** `replies` mode: start again from the first reply (a cassette needs no rewinding: it answers by the conversation) */
  rewind(): void;
  close(): Promise<void>;
}

function callsOf(opts: CassetteServerOptions): RecordedCall[] {
  if (opts.cassette) return opts.cassette.calls.map((c) => ({ content: c.response.content, promptHash: c.promptHash, messages: c.messages, usage: c.response.usage }));
  if (opts.replies) return opts.replies.map((content) => ({ content }));
  throw new Error('startCassetteServer needs a cassette or a list of replies');
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startCassetteServer(opts: CassetteServerOptions): Promise<CassetteServer> {
  const replies = callsOf(opts);
  const lookup = opts.cassette ? new CassetteLookup(replies) : undefined;
  const strict = opts.strict ?? true;
  const model = opts.model ?? opts.cassette?.model ?? 'cassette';
  const allowedHeaders = (opts.allowedHeaders ?? ['authorization', 'content-type', 'accept']).map((h) => h.toLowerCase());
  const chunkChars = Math.max(1, opts.chunkChars ?? 16);
  const requests: ServedRequest[] = [];
  /** `replies` mode's cursor */
  let next = 0;
  let answered = 0;
  let refusals = 0;

  function corsHeaders(req: IncomingMessage): Record<string, string> {
    if (opts.blockCors) return {};
    const origin = req.headers.origin;
    const allowed = opts.allowedOrigins ?? '*';
    if (allowed === '*') return { 'access-control-allow-origin': '*' };
    if (origin && allowed.includes(origin)) return { 'access-control-allow-origin': origin, vary: 'Origin' };
    return {};
  }

  function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): number {
    res.writeHead(status, { 'content-type': 'application/json', ...corsHeaders(req), ...extra });
    res.end(JSON.stringify(body));
    return status;
  }

  function apiError(req: IncomingMessage, res: ServerResponse, status: number, message: string, type: string, code: string, extra: Record<string, string> = {}) {
    return sendJson(req, res, status, { error: { message, type, code, param: null } }, extra);
  }

  const SAMPLING = ['temperature', 'top_p', 'seed', 'max_tokens'] as const;

  async function chat(req: IncomingMessage, res: ServerResponse, seen: { sampling?: Record<string, unknown> }): Promise<{ status: number; stream?: boolean }> {
    let body: { messages?: ChatMessage[]; stream?: boolean; stream_options?: { include_usage?: boolean }; model?: string } & Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return { status: apiError(req, res, 400, 'the request body is not JSON', 'invalid_request_error', 'invalid_json') };
    }
    seen.sampling = Object.fromEntries(SAMPLING.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
    const stream = Boolean(body.stream);
    if (!Array.isArray(body.messages)) return { status: apiError(req, res, 400, 'messages must be an array', 'invalid_request_error', 'invalid_messages'), stream };
    if (opts.refuse && (opts.refuse.times === undefined || refusals < opts.refuse.times)) {
      refusals++;
      const { status } = opts.refuse;
      const extra: Record<string, string> = opts.refuse.retryAfterSeconds !== undefined ? { 'retry-after': String(opts.refuse.retryAfterSeconds) } : {};
      const [message, type] =
        status === 401 ? ['Incorrect API key provided (cassette server configured to refuse).', 'invalid_request_error'] : [`cassette server configured to answer ${status}`, 'server_error'];
      return { status: apiError(req, res, status, message, type, status === 401 ? 'invalid_api_key' : `http_${status}`, extra), stream };
    }
    const messages = body.messages.map((m) => ({ role: m.role, content: String(m.content ?? '') }));
    const exhausted = (callNumber: number) =>
      apiError(req, res, 409, `the cassette is exhausted: it holds ${replies.length} recorded calls and this is call ${callNumber}`, 'cassette_error', 'cassette_exhausted');
    let reply: RecordedCall;
    let callNumber: number;
    if (lookup) {
      const found = await lookup.find(messages);
      if (found.kind === 'exhausted') return { status: exhausted(found.callNumber), stream };
      if (found.kind === 'diverged' && strict) {
        const report = describeDivergence(found.index + 1, found.call.promptHash ?? '', found.hash, found.call.messages, messages);
        return { status: apiError(req, res, 409, report.message, 'cassette_error', 'cassette_divergence'), stream };
      }
      [reply, callNumber] = [found.call, found.index + 1];
    } else {
      const r = replies[next];
      if (!r) return { status: exhausted(next + 1), stream };
      [reply, callNumber] = [r, ++next];
    }
    answered++;
    const usage = reply.usage ?? estimateUsage(messages, reply.content);
    const id = `chatcmpl-cassette-${callNumber}-${answered}`;
    const created = Math.floor(Date.now() / 1000);
    const usageBody = { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens };
    if (!stream) {
      const status = sendJson(req, res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: 'stop', logprobs: null }],
        usage: usageBody,
      });
      return { status, stream };
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...corsHeaders(req) });
    const send = (obj: unknown) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
    const base = { id, object: 'chat.completion.chunk', created, model };
    send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    for (let i = 0; i < reply.content.length; i += chunkChars) {
      send({ ...base, choices: [{ index: 0, delta: { content: reply.content.slice(i, i + chunkChars) }, finish_reason: null }] });
    }
    send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    if (body.stream_options?.include_usage) send({ ...base, choices: [], usage: usageBody });
    res.write('data: [DONE]\n\n');
    res.end();
    return { status: 200, stream };
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const seen: { sampling?: Record<string, unknown> } = {};
    const record = (status: number, stream?: boolean) =>
      requests.push({ method: req.method ?? '', path, headers: { ...req.headers }, status, ...(stream !== undefined ? { stream } : {}), ...(seen.sampling ? { sampling: seen.sampling } : {}) });
    void (async () => {
      try {
        if (req.method === 'OPTIONS') {
          const cors = corsHeaders(req);
          const asked = String(req.headers['access-control-request-headers'] ?? '')
            .split(',')
            .map((h) => h.trim().toLowerCase())
            .filter(Boolean);
          const refused = asked.filter((h) => !allowedHeaders.includes(h));
          if (opts.blockCors || !cors['access-control-allow-origin'] || refused.length) {
            // like strict real servers: no CORS headers, so the browser blocks the request
            res.writeHead(403, { 'content-type': 'text/plain' });
            res.end(refused.length ? `headers not allowed: ${refused.join(', ')}` : 'origin not allowed');
            return record(403);
          }
          res.writeHead(204, { ...cors, 'access-control-allow-methods': 'GET, POST, OPTIONS', 'access-control-allow-headers': allowedHeaders.join(', '), 'access-control-max-age': '600' });
          res.end();
          return record(204);
        }
        if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
          return record(sendJson(req, res, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'repairlab-cassette' }] }));
        }
        if (req.method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions')) {
          const { status, stream } = await chat(req, res, seen);
          return record(status, stream);
        }
        if (req.method === 'GET' && path === '/') {
          return record(sendJson(req, res, 200, { ok: true, server: 'repairlab-cassette', calls: replies.length, served: answered }));
        }
        record(apiError(req, res, 404, `no route ${req.method} ${path}; this server answers POST /v1/chat/completions and GET /v1/models`, 'invalid_request_error', 'not_found'));
      } catch (err) {
        if (!res.headersSent) record(apiError(req, res, 500, `cassette server error: ${(err as Error).message}`, 'server_error', 'internal'));
        else res.end();
      }
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const host = opts.host ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    port,
    requests,
    served: () => answered,
    rewind: () => {
      next = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

function usage(): string {
  return [
    'usage: node --import tsx worker/llm/cassette-server.node.ts --cassette <file.json> [--port N] [--host 127.0.0.1]',
    '       [--origin <allowed origin>]... [--lenient] [--block-cors] [--refuse <status>]',
    '  --lenient     answer with the closest recorded call when a prompt is none of the recorded ones (default: 409 cassette_divergence)',
  ].join('\n');
}

async function main(argv: string[]): Promise<void> {
  const get = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const file = get('--cassette');
  if (!file || argv.includes('--help')) {
    console.error(usage());
    process.exitCode = file ? 0 : 2;
    return;
  }
  let cassette: Cassette;
  try {
    cassette = parseCassette(JSON.parse(await readFile(file, 'utf8')), file);
  } catch (err) {
    console.error(`cannot load cassette ${file}: ${(err as Error).message}`);
    process.exitCode = 2;
    return;
  }
  const origins = argv.flatMap((a, i) => (a === '--origin' && argv[i + 1] ? [argv[i + 1] as string] : []));
  const refuse = get('--refuse');
  const server = await startCassetteServer({
    cassette,
    port: Number(get('--port') ?? 0),
    host: get('--host') ?? '127.0.0.1',
    allowedOrigins: origins.length ? origins : '*',
    strict: !argv.includes('--lenient'),
    blockCors: argv.includes('--block-cors'),
    ...(refuse ? { refuse: { status: Number(refuse) } } : {}),
  });
  console.log(`cassette server: ${server.baseURL} (model ${cassette.model}, ${cassette.calls.length} calls)`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  void main(process.argv.slice(2));
}
