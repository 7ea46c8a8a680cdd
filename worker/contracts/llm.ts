// Model providers: one interface for the real OpenAI-compatible endpoint, cassette replay,
// scripted replies and a human playing the model. Implemented in worker/llm/.

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface SamplingSettings {
  temperature?: number;
  topP?: number;
  seed?: number;
  maxTokens?: number;
}

export interface CompletionRequest extends SamplingSettings {
  messages: ChatMessage[];
  /** free-form tag for the provider (e.g. 'agent', 'write_fix-variants', 'generate_method_body') */
  purpose?: string;
  signal?: AbortSignal;
  /** streamed text as it arrives */
  onDelta?: (text: string) => void;
}

export interface CompletionResponse {
  content: string;
  model: string;
  usage: { inputTokens: number; outputTokens: number };
  latencyMs: number;
  /** provider-specific detail kept in the trajectory (finish reason, request id, retries) */
  meta?: Record<string, unknown>;
}

export interface LlmProvider {
  /** e.g. 'openai:gpt-4o-mini', 'replay:demo.cassette.json', 'scripted', 'human' */
  readonly id: string;
  complete(req: CompletionRequest): Promise<CompletionResponse>;
}

export class LlmError extends Error {
  constructor(
    message: string,
    readonly code: 'network' | 'cors' | 'auth' | 'rate-limit' | 'server' | 'bad-request' | 'cassette-divergence' | 'cassette-exhausted' | 'aborted' | 'other',
    readonly detail?: unknown,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}
