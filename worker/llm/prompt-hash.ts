// The identity of a prompt: sha-256 over the canonical JSON of its messages (role + content only,
// object keys sorted, no whitespace). WebCrypto, so the same code runs in a browser worker and Node.
import type { ChatMessage } from '../contracts/llm.ts';

/** JSON with object keys sorted recursively, so equal values always serialize to equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Only role and content take part: extra fields a caller attaches never change the hash. */
export function promptHash(messages: readonly ChatMessage[]): Promise<string> {
  // keys written in sorted order ("content" < "role"), so native JSON.stringify gives the canonical text
  return sha256Hex(JSON.stringify(messages.map((m) => ({ content: m.content, role: m.role }))));
}
