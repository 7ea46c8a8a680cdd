// Which recorded call of a cassette answers a request — decided from the request alone, so a cassette server
// keeps no cursor: any number of runs (browsers, tabs, a class) can replay the same recording at the same time,
// as often as they like. A recorded call is identified by its prompt hash; when nothing matches, the closest
// recorded call is named (for the divergence report, or answered in lenient mode).
import type { ChatMessage } from '../contracts/llm.ts';
import { promptHash } from './prompt-hash.ts';

export interface RecordedCall {
  content: string;
  promptHash?: string;
  messages?: ChatMessage[];
  usage?: { inputTokens: number; outputTokens: number };
}

export type Lookup =
  /** the request's prompt is a recorded one (index: 0-based call number) */
  | { kind: 'match'; index: number; call: RecordedCall; hash: string }
  /** no recorded prompt equals it; `closest` is the recorded call it resembles most */
  | { kind: 'diverged'; index: number; call: RecordedCall; hash: string }
  /** the conversation has gone on past the recording's last call */
  | { kind: 'exhausted'; hash: string; callNumber: number };

const assistantTurns = (messages: readonly ChatMessage[]) => messages.filter((m) => m.role === 'assistant').length;

function commonPrefixChars(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * How much a request resembles a recorded prompt, compared in order: leading messages equal, then characters in
 * common at the start of the first differing message, then how close the number of earlier replies is.
 */
function resemblance(request: readonly ChatMessage[], recorded: readonly ChatMessage[]): number[] {
  let same = 0;
  while (same < request.length && same < recorded.length && request[same]!.role === recorded[same]!.role && request[same]!.content === recorded[same]!.content) same++;
  const chars = same < request.length && same < recorded.length ? commonPrefixChars(request[same]!.content, recorded[same]!.content) : 0;
  return [same, chars, -Math.abs(assistantTurns(request) - assistantTurns(recorded))];
}

const better = (a: number[], b: number[]) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
};

export class CassetteLookup {
  private readonly byHash = new Map<string, number>();
  /** the most earlier replies any recorded prompt holds (a full-history conversation's last call) */
  private readonly maxTurns: number;

  constructor(readonly calls: readonly RecordedCall[]) {
    // the first call with a hash wins: two calls with one prompt cannot be told apart by the request
    calls.forEach((c, i) => {
      if (c.promptHash && !this.byHash.has(c.promptHash)) this.byHash.set(c.promptHash, i);
    });
    const known = calls.filter((c) => c.messages).map((c) => assistantTurns(c.messages!));
    this.maxTurns = known.length ? Math.max(...known) : calls.length - 1;
  }

  async find(messages: readonly ChatMessage[]): Promise<Lookup> {
    const hash = await promptHash(messages);
    const index = this.byHash.get(hash);
    if (index !== undefined) return { kind: 'match', index, call: this.calls[index]!, hash };
    const turns = assistantTurns(messages);
    if (turns > this.maxTurns) return { kind: 'exhausted', hash, callNumber: turns + 1 };
    let best = Math.min(turns, this.calls.length - 1);
    let bestScore: number[] | undefined;
    this.calls.forEach((c, i) => {
      if (!c.messages) return;
      const score = resemblance(messages, c.messages);
      if (!bestScore || better(score, bestScore)) [best, bestScore] = [i, score];
    });
    return { kind: 'diverged', index: best, call: this.calls[best]!, hash };
  }
}
