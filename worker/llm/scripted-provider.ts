// Scripted provider: answers from a fixed list, in order. For tests and keyless demonstrations;
// its token counts are estimates (meta.usageEstimated).
import { LlmError, type CompletionRequest, type CompletionResponse, type LlmProvider } from '../contracts/llm.ts';
import { estimateUsage } from './usage-estimate.ts';
import { abortedCall } from './abort-reason.ts';

export interface ScriptedReply {
  content: string;
  usage?: { inputTokens: number; outputTokens: number };
}

/** `firstCall`: 0-based index of the first reply to give (a continued run goes on after the calls its steps made) */
export function createScriptedProvider(replies: readonly (string | ScriptedReply)[], opts: { model?: string; firstCall?: number } = {}): LlmProvider {
  const queue = replies.map((r) => (typeof r === 'string' ? { content: r } : r));
  let next = opts.firstCall ?? 0;
  const model = opts.model ?? 'scripted';
  return {
    id: 'scripted',
    async complete(req: CompletionRequest): Promise<CompletionResponse> {
      if (req.signal?.aborted) throw abortedCall(req.signal);
      const reply = queue[next];
      if (!reply) {
        throw new LlmError(`the scripted provider has no reply left: all ${queue.length} scripted replies were used (call ${next + 1} asked for another)`, 'cassette-exhausted');
      }
      next++;
      req.onDelta?.(reply.content);
      return {
        content: reply.content,
        model,
        usage: reply.usage ?? estimateUsage(req.messages, reply.content),
        latencyMs: 0,
        meta: { call: next, usageEstimated: !reply.usage },
      };
    },
  };
}
