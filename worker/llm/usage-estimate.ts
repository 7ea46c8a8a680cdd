// A rough token count for providers that report none (scripted, human): ~4 characters per token.
// Steps carry `usageEstimated: true` in their meta so nobody mistakes it for a measured count.
import type { ChatMessage } from '../contracts/llm.ts';

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimateUsage(messages: readonly ChatMessage[], reply: string): { inputTokens: number; outputTokens: number } {
  return { inputTokens: messages.reduce((n, m) => n + estimateTokens(m.content) + 4, 0), outputTokens: estimateTokens(reply) };
}
