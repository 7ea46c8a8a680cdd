// The identity of a prompt: sha-256 over the canonical JSON of its messages (role + content only,
// object keys sorted, no whitespace). One-shot with WebCrypto, so the same code runs in a browser worker and
// Node; incrementally (PromptHasher) with @noble/hashes, whose SHA-256 state can be cloned.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
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

/** A running SHA-256 over UTF-8 text whose state can be copied. */
interface RunningSha256 {
  update(text: string): void;
  copy(): RunningSha256;
  /** finishes this state (use a copy to go on) */
  hex(): string;
}

const utf8 = new TextEncoder();

class NobleSha256 implements RunningSha256 {
  constructor(private readonly state = sha256.create()) {}
  update(text: string) {
    this.state.update(utf8.encode(text));
  }
  copy() {
    return new NobleSha256(this.state.clone());
  }
  hex() {
    return bytesToHex(this.state.digest());
  }
}

/** The part of node:crypto's Hash used here. */
interface NodeHash {
  update(text: string, encoding: 'utf8'): NodeHash;
  copy(): NodeHash;
  digest(encoding: 'hex'): string;
}
type CreateHash = (algorithm: 'sha256') => NodeHash;

class NodeSha256 implements RunningSha256 {
  constructor(private readonly state: NodeHash) {}
  update(text: string) {
    this.state.update(text, 'utf8');
  }
  copy() {
    return new NodeSha256(this.state.copy());
  }
  hex() {
    return this.state.digest('hex');
  }
}

/** node:crypto's createHash when running in Node (process.getBuiltinModule, Node ≥ 20.16), without importing it (the worker is bundled for the browser). */
const nodeCreateHash: CreateHash | undefined = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const crypto = proc?.getBuiltinModule?.('node:crypto') as { createHash?: CreateHash } | undefined;
  return typeof crypto?.createHash === 'function' ? crypto.createHash : undefined;
})();

export type Sha256Backend = 'native' | 'noble';

/** Which SHA-256 PromptHasher uses by default: Node's native one when there is one, else @noble/hashes (browsers). */
export const DEFAULT_SHA256_BACKEND: Sha256Backend = nodeCreateHash ? 'native' : 'noble';

function startSha256(backend: Sha256Backend): RunningSha256 {
  if (backend === 'native') {
    if (!nodeCreateHash) throw new Error('no native SHA-256 here (node:crypto is not available)');
    return new NodeSha256(nodeCreateHash('sha256'));
  }
  return new NobleSha256();
}

/**
 * promptHash, synchronously and without hashing the whole prompt again each call: the same hex digest of
 * `[` + m0 + `,` + m1 + … + `]` (each message as `{"content":…,"role":…}`). It keeps the SHA-256 state after the
 * previous call's messages; when a call starts with those same messages (role and content), only the messages
 * after them are hashed — a full-history prompt grows by the reply and the feedback each cycle. Any other list
 * (an earlier message edited, a dynamic prompt re-rendered) is hashed from the start, as promptHash would.
 * One instance per conversation (a run, a provider) keeps that saving. JSON.stringify escapes lone surrogates,
 * so each message's text is well-formed and its UTF-8 bytes are the same alone as inside the whole text.
 * WebCrypto has no running digest: in the browser the SHA-256 is @noble/hashes'; in Node, node:crypto's (the
 * same digest, without a cold JIT).
 */
export class PromptHasher {
  private roles: unknown[] = [];
  private contents: unknown[] = [];
  /** the state after `[` + m0 + `,` + … + m(k-1), k = contents.length */
  private state: RunningSha256;
  /** a list did not extend the previous one (see hashOrDigest) */
  private diverged = false;

  constructor(private readonly backend: Sha256Backend = DEFAULT_SHA256_BACKEND) {
    this.state = this.start();
  }

  private start(): RunningSha256 {
    const state = startSha256(this.backend);
    state.update('[');
    return state;
  }

  /** the list starts with the messages hashed last time (or nothing was hashed yet) */
  private extendsPrevious(messages: readonly ChatMessage[]): boolean {
    const known = this.contents.length;
    let same = known <= messages.length;
    for (let i = 0; same && i < known; i++) same = messages[i]!.content === this.contents[i] && messages[i]!.role === this.roles[i];
    return same;
  }

  /**
   * hash(), except where the SHA-256 is JavaScript (the browser) and the lists do not grow by appending (a dynamic
   * prompt, re-rendered each cycle): from the first list that does not extend the previous one on, each list is
   * hashed in one go with WebCrypto (promptHash) — native, and off the thread — instead.
   */
  hashOrDigest(messages: readonly ChatMessage[]): string | Promise<string> {
    if (this.backend === 'native') return this.hash(messages);
    if (!this.diverged) {
      if (this.extendsPrevious(messages)) return this.hash(messages);
      this.diverged = true;
      this.roles = [];
      this.contents = [];
      this.state = this.start();
    }
    return promptHash(messages);
  }

  hash(messages: readonly ChatMessage[]): string {
    let from = this.contents.length;
    if (!this.extendsPrevious(messages)) {
      this.state = this.start();
      this.roles = [];
      this.contents = [];
      from = 0;
    }
    if (from < messages.length) {
      let text = '';
      for (let i = from; i < messages.length; i++) {
        const m = messages[i]!;
        text += (i > 0 ? ',' : '') + JSON.stringify({ content: m.content, role: m.role });
        this.roles.push(m.role);
        this.contents.push(m.content);
      }
      this.state.update(text);
    }
    const end = this.state.copy();
    end.update(']');
    return end.hex();
  }
}
