// The real model provider: any OpenAI-compatible endpoint through the `openai` SDK. Runs in a browser
// module worker (dangerouslyAllowBrowser; the SDK's x-stainless-* headers removed so CORS preflights of
// servers like Ollama/vLLM pass) and in Node. Retries 429/5xx itself so each retry is visible in meta.
import OpenAI from 'openai';
import { LlmError, type CompletionRequest, type CompletionResponse, type LlmProvider } from '../contracts/llm.ts';
import { redactKnownSecrets, redactSecrets } from './redact.ts';
import { estimateUsage } from './usage-estimate.ts';
import { abortedCall } from './abort-reason.ts';

export interface OpenAiProviderConfig {
  baseURL: string;
  apiKey?: string;
  model: string;
  temperature?: number;
  topP?: number;
  seed?: number;
  maxTokens?: number;
  /** default true: stream with stream_options.include_usage */
  stream?: boolean;
  /** retries after 429/5xx (default 3) */
  maxRetries?: number;
  /** first backoff in ms, doubled each retry (default 1000); a Retry-After header wins, capped at 30 s */
  retryBaseMs?: number;
  /** per request timeout (default 600 s) */
  timeoutMs?: number;
  /** for tests: how to probe whether a failed endpoint is reachable at all (browser CORS diagnosis) */
  corsProbe?: (url: string) => Promise<boolean>;
  /** for tests: pretend to be (or not be) a browser */
  browserLike?: boolean;
}

/** What may be written to a trajectory: everything except the key. */
export interface PublicOpenAiConfig {
  kind: 'openai';
  baseURL: string;
  model: string;
  temperature?: number;
  topP?: number;
  seed?: number;
  maxTokens?: number;
  stream: boolean;
  maxRetries: number;
  keyProvided: boolean;
}

export interface OpenAiProvider extends LlmProvider {
  readonly config: PublicOpenAiConfig;
}

/** Headers the SDK adds that a CORS preflight must allow; null removes them. */
const STAINLESS_HEADERS_REMOVED: Record<string, null> = {
  'X-Stainless-Lang': null,
  'X-Stainless-Package-Version': null,
  'X-Stainless-OS': null,
  'X-Stainless-Arch': null,
  'X-Stainless-Runtime': null,
  'X-Stainless-Runtime-Version': null,
  'X-Stainless-Retry-Count': null,
  'X-Stainless-Timeout': null,
};

function isBrowserLike(): boolean {
  const g = globalThis as Record<string, unknown>;
  return typeof g.document !== 'undefined' || typeof g.WorkerGlobalScope !== 'undefined';
}

/** A no-cors request succeeds (opaque) whenever the server answers at all, whatever its CORS policy. */
async function defaultCorsProbe(url: string): Promise<boolean> {
  try {
    await fetch(url, { mode: 'no-cors', cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedCall(signal));
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(abortedCall(signal));
    }, { once: true });
  });
}

function retryDelayMs(err: InstanceType<typeof OpenAI.APIError>, attempt: number, baseMs: number): number {
  const header = err.headers?.get?.('retry-after');
  const seconds = header ? Number(header) : NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 30_000);
  return Math.min(baseMs * 2 ** attempt, 30_000) * (0.75 + Math.random() * 0.5);
}

function isRetryable(err: unknown): err is InstanceType<typeof OpenAI.APIError> {
  return err instanceof OpenAI.APIError && typeof err.status === 'number' && (err.status === 429 || err.status >= 500);
}

/** Turn whatever the SDK threw into an LlmError with a message a user can act on (never containing the key). */
export async function mapOpenAiError(
  err: unknown,
  ctx: { baseURL: string; model: string; apiKey?: string; browserLike: boolean; corsProbe: (url: string) => Promise<boolean>; retries: number },
): Promise<LlmError> {
  const red = (s: string) => redactSecrets(s, ctx.apiKey);
  const endpoint = ctx.baseURL;
  const after = ctx.retries ? ` (after ${ctx.retries} retr${ctx.retries === 1 ? 'y' : 'ies'})` : '';
  if (err instanceof LlmError) return new LlmError(red(err.message), err.code, err.detail);
  if (err instanceof OpenAI.APIUserAbortError) return new LlmError('the model call was aborted', 'aborted');
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new LlmError(`the endpoint ${endpoint} did not answer in time; check that the server is up or raise the timeout`, 'network');
  }
  if (err instanceof OpenAI.APIConnectionError) {
    const cause = (err as { cause?: unknown }).cause;
    const causeText = cause instanceof Error ? `${cause.message}${(cause as { cause?: { code?: string } }).cause?.code ? ` (${(cause as { cause?: { code?: string } }).cause?.code})` : ''}` : '';
    if (ctx.browserLike && (await ctx.corsProbe(endpoint))) {
      const origin = (globalThis as { location?: { origin?: string } }).location?.origin ?? 'this page';
      return new LlmError(
        `the endpoint ${endpoint} refused the browser's cross-origin request (CORS): the server answers, but not to scripts from ${origin}. ` +
          `Allow origin ${origin} on the server (Ollama: OLLAMA_ORIGINS=${origin}; vLLM: --allowed-origins) or use a proxy.`,
        'cors',
        { origin, endpoint },
      );
    }
    return new LlmError(red(`could not reach the model endpoint ${endpoint}${causeText ? `: ${causeText}` : ''}; check the base URL and that the server is running`), 'network', { endpoint });
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status ?? 0;
    const body = red(err.message);
    const code = String(err.code ?? '');
    if (code === 'cassette_divergence') return new LlmError(body.replace(/^409 /, ''), 'cassette-divergence', err.error);
    if (code === 'cassette_exhausted') return new LlmError(body.replace(/^409 /, ''), 'cassette-exhausted', err.error);
    if (status === 401 || status === 403) {
      return new LlmError(`the endpoint ${endpoint} rejected the API key (${status}): ${body}. Check the key for this provider.`, 'auth', { status });
    }
    if (status === 429) return new LlmError(`the endpoint ${endpoint} is rate-limiting requests${after}: ${body}`, 'rate-limit', { status });
    if (status >= 500) return new LlmError(`the endpoint ${endpoint} failed with a server error${after}: ${body}`, 'server', { status });
    if (status === 404) {
      return new LlmError(`the endpoint ${endpoint} answered 404 for model ${ctx.model}: ${body}. Check the model name and that the base URL ends with /v1.`, 'bad-request', { status });
    }
    return new LlmError(`the endpoint ${endpoint} refused the request (${status}): ${body}`, 'bad-request', { status });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new LlmError(red(`model call to ${endpoint} failed: ${message}`), 'other');
}

export function createOpenAiProvider(config: OpenAiProviderConfig): OpenAiProvider {
  if (!config.baseURL) throw new LlmError('the OpenAI-compatible provider needs a base URL (e.g. https://api.openai.com/v1)', 'bad-request');
  if (!config.model) throw new LlmError(`the OpenAI-compatible provider needs a model name for ${config.baseURL}`, 'bad-request');
  const baseURL = config.baseURL.replace(/\/+$/, '');
  const stream = config.stream ?? true;
  const maxRetries = config.maxRetries ?? 3;
  const retryBaseMs = config.retryBaseMs ?? 1000;
  const client = new OpenAI({
    baseURL,
    // local servers (Ollama, vLLM, the cassette server) accept any key; the SDK insists on one
    apiKey: config.apiKey || 'no-key',
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    timeout: config.timeoutMs ?? 600_000,
    defaultHeaders: STAINLESS_HEADERS_REMOVED,
  });
  const errorContext = {
    baseURL,
    model: config.model,
    apiKey: config.apiKey,
    browserLike: config.browserLike ?? isBrowserLike(),
    corsProbe: config.corsProbe ?? defaultCorsProbe,
  };
  const publicConfig: PublicOpenAiConfig = {
    kind: 'openai',
    baseURL,
    model: config.model,
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.topP !== undefined ? { topP: config.topP } : {}),
    ...(config.seed !== undefined ? { seed: config.seed } : {}),
    ...(config.maxTokens !== undefined ? { maxTokens: config.maxTokens } : {}),
    stream,
    maxRetries,
    keyProvided: Boolean(config.apiKey),
  };

  const hideKey = (text: string) => (config.apiKey ? redactKnownSecrets(text, [config.apiKey]) : text);

  async function once(req: CompletionRequest): Promise<Omit<CompletionResponse, 'latencyMs'>> {
    const params = {
      model: config.model,
      messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
      temperature: req.temperature ?? config.temperature,
      top_p: req.topP ?? config.topP,
      seed: req.seed ?? config.seed,
      max_tokens: req.maxTokens ?? config.maxTokens,
    };
    if (!stream) {
      const { data, request_id } = await client.chat.completions.create({ ...params, stream: false }, { signal: req.signal }).withResponse();
      const content = data.choices[0]?.message?.content ?? '';
      req.onDelta?.(content);
      const usage = data.usage
        ? { inputTokens: data.usage.prompt_tokens, outputTokens: data.usage.completion_tokens }
        : estimateUsage(req.messages, content);
      return { content, model: data.model || config.model, usage, meta: { finishReason: data.choices[0]?.finish_reason, requestId: request_id, usageEstimated: !data.usage } };
    }
    const { data: chunks, request_id } = await client.chat.completions
      .create({ ...params, stream: true, stream_options: { include_usage: true } }, { signal: req.signal })
      .withResponse();
    let content = '';
    let model = config.model;
    let finishReason: string | null | undefined;
    let usage: { inputTokens: number; outputTokens: number } | undefined;
    for await (const chunk of chunks) {
      if (chunk.model) model = chunk.model;
      const choice = chunk.choices[0];
      const delta = choice?.delta?.content;
      if (delta) {
        content += delta;
        req.onDelta?.(delta);
      }
      if (choice?.finish_reason) finishReason = choice.finish_reason;
      if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
    }
    return {
      content,
      model,
      // the usage chunk is missing when a server ignores include_usage or the stream broke
      usage: usage ?? estimateUsage(req.messages, content),
      meta: { finishReason, requestId: request_id, usageEstimated: !usage, streamed: true },
    };
  }

  return {
    id: `openai:${config.model}`,
    config: publicConfig,
    async complete(req: CompletionRequest): Promise<CompletionResponse> {
      const started = performance.now();
      let retries = 0;
      const onDelta = req.onDelta;
      // streamed text shown as it comes: a key split across two chunks is caught in the whole reply only
      const keyless: CompletionRequest = onDelta ? { ...req, onDelta: (text) => onDelta(hideKey(text)) } : req;
      for (;;) {
        try {
          const res = await once(keyless);
          // a reply that echoes the key does not carry it any further (records, cassettes, the next prompt)
          return { ...res, content: hideKey(res.content), latencyMs: performance.now() - started, meta: { ...res.meta, retries } };
        } catch (err) {
          if (req.signal?.aborted) throw abortedCall(req.signal);
          if (isRetryable(err) && retries < maxRetries) {
            await sleep(retryDelayMs(err, retries, retryBaseMs), req.signal);
            retries++;
            continue;
          }
          throw await mapOpenAiError(err, { ...errorContext, retries });
        }
      }
    },
  };
}
