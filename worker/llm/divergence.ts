// Explaining a replay divergence: which call, and the first message that differs from the recording.
import type { ChatMessage } from '../contracts/llm.ts';

export interface DivergenceReport {
  /** 1-based model call number in the run */
  call: number;
  expectedHash: string;
  actualHash: string;
  /** 0-based index of the first differing message, when the cassette stores messages */
  messageIndex?: number;
  message: string;
}

function excerptAround(a: string, b: string): { offset: number; expected: string; actual: string } {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 40);
  const cut = (s: string) => JSON.stringify(s.slice(from, i + 80)) + (s.length > i + 80 ? '…' : '');
  return { offset: i, expected: cut(a), actual: cut(b) };
}

export function describeDivergence(
  call: number,
  expectedHash: string,
  actualHash: string,
  expected: readonly ChatMessage[] | undefined,
  actual: readonly ChatMessage[],
): DivergenceReport {
  const head = `replay diverged at model call ${call}: the prompt differs from the recorded one (hash ${actualHash.slice(0, 12)}… vs recorded ${expectedHash.slice(0, 12)}…)`;
  if (!expected) {
    return { call, expectedHash, actualHash, message: `${head}. The cassette does not store messages for this call; re-record it with messages to see the difference.` };
  }
  const n = Math.max(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const e = expected[i];
    const a = actual[i];
    if (!e || !a) {
      const what = !e ? `the run sent an extra message #${i} (${a?.role})` : `the run is missing recorded message #${i} (${e.role})`;
      return { call, expectedHash, actualHash, messageIndex: i, message: `${head}; ${what}.` };
    }
    if (e.role !== a.role || e.content !== a.content) {
      if (e.role !== a.role) {
        return { call, expectedHash, actualHash, messageIndex: i, message: `${head}; first differing message #${i}: role ${a.role} vs recorded ${e.role}.` };
      }
      const x = excerptAround(e.content, a.content);
      return {
        call,
        expectedHash,
        actualHash,
        messageIndex: i,
        message: `${head}; first differing message #${i} (${a.role}) at character ${x.offset}: sent ${x.actual}, recorded ${x.expected}.`,
      };
    }
  }
  return { call, expectedHash, actualHash, message: `${head}; the messages are equal, so the cassette's hash was computed differently (re-record it).` };
}
