// The incremental prompt hash (PromptHasher) gives exactly the one-shot promptHash — the definition recorded
// cassettes depend on — for growing lists, edited and removed earlier messages, unicode, and the bundled cassettes,
// with either SHA-256 (@noble/hashes, as in the browser; node:crypto, as in Node).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SHA256_BACKEND, PromptHasher, promptHash, type Sha256Backend } from '../../../worker/llm/prompt-hash.ts';
import type { ChatMessage } from '../../../worker/contracts/llm.ts';

const msg = (role: ChatMessage['role'], content: string): ChatMessage => ({ role, content });

it('uses the native SHA-256 in Node', () => {
  expect(DEFAULT_SHA256_BACKEND).toBe('native');
});

// noble is what the browser worker uses; native is Node's node:crypto
describe.each(['noble', 'native'] as Sha256Backend[])('PromptHasher (%s SHA-256)', (backend) => {
  class PromptHasherUnderTest extends PromptHasher {
    constructor() {
      super(backend);
    }
  }

  it('equals the one-shot hash over a growing full-history list', async () => {
    const h = new PromptHasherUnderTest();
    const list: ChatMessage[] = [msg('system', 'You are a helpful assistant.'), msg('user', 'Fix the bug in Strings.truncate.')];
    expect(h.hash([])).toBe(await promptHash([]));
    for (let i = 0; i < 12; i++) {
      expect(h.hash(list)).toBe(await promptHash(list));
      // as the loop does: a fresh array each cycle, the same leading message objects
      list.push(msg('assistant', `THOUGHT: step ${i}\n\`\`\`bash\nsed -n '${i},${i + 5}p' src/A.java\n\`\`\``), msg('user', `<returncode>0</returncode>\n<output>\n${'x'.repeat(i * 97)}\n</output>`));
    }
  });

  it('equals the one-shot hash after an earlier message is edited, removed or a role changes', async () => {
    const h = new PromptHasherUnderTest();
    const base = Array.from({ length: 8 }, (_, i) => msg(i % 2 ? 'user' : 'assistant', `message ${i} ${'-'.repeat(i * 13)}`));
    expect(h.hash(base)).toBe(await promptHash(base));
    const edited = base.map((m, i) => (i === 3 ? msg(m.role, `${m.content} (edited)`) : m));
    expect(h.hash(edited)).toBe(await promptHash(edited));
    const firstEdited = [msg('assistant', 'another system text'), ...edited.slice(1)];
    expect(h.hash(firstEdited)).toBe(await promptHash(firstEdited));
    const roleChanged = firstEdited.map((m, i) => (i === 5 ? msg('assistant', m.content) : m));
    expect(h.hash(roleChanged)).toBe(await promptHash(roleChanged));
    const shorter = roleChanged.slice(0, 4);
    expect(h.hash(shorter)).toBe(await promptHash(shorter));
    expect(h.hash(base)).toBe(await promptHash(base));
    // equal text in new string objects (a dynamic prompt re-rendered each cycle, a server parsing JSON)
    const copies = base.map((m) => msg(m.role, (' ' + m.content).slice(1)));
    expect(h.hash(copies)).toBe(await promptHash(copies));
  });

  it('equals the one-shot hash for unicode: multi-byte characters, astral planes, lone surrogates, escapes', async () => {
    const h = new PromptHasherUnderTest();
    const list = [
      msg('system', 'Grüße — naïve café, 日本語, Ελληνικά'),
      msg('user', 'emoji 🧪🔧 and a flag 🇩🇪, a combining e\u0301'),
      msg('assistant', 'lone surrogates \ud800 and \udfff, split pair \ud83e'),
      msg('user', '\udd2a after the split, quotes " \\ and controls \u0000\u001f\n\t\u2028\u2029'),
    ];
    for (let n = 0; n <= list.length; n++) expect(h.hash(list.slice(0, n))).toBe(await promptHash(list.slice(0, n)));
    // text long enough to cross several 64-byte blocks inside one message and across message boundaries
    const long = [msg('system', 'é'.repeat(1000)), msg('user', '🧪'.repeat(333)), msg('assistant', 'a'.repeat(63))];
    expect(h.hash(long)).toBe(await promptHash(long));
  });

  it('ignores fields other than role and content, as promptHash does', async () => {
    const withExtra = [{ role: 'user', content: 'x', name: 'n', extra: 1 } as ChatMessage];
    expect(new PromptHasherUnderTest().hash(withExtra)).toBe('7c5139ff349b5009ca51b90118aa039f0c9e60fa9bfb4010bc15a58439c7759f');
  });

  it('hashOrDigest: the incremental hash while lists grow; a re-rendered prompt goes to WebCrypto in the browser', async () => {
    const h = new PromptHasherUnderTest();
    const grow = [msg('system', 's'), msg('user', 'u')];
    const first = h.hashOrDigest(grow);
    expect(first).toBe(await promptHash(grow));
    const longer = [...grow, msg('assistant', 'a'), msg('user', 'f')];
    expect(h.hashOrDigest(longer)).toBe(await promptHash(longer));
    const rerendered = [msg('system', 's'), msg('user', 'u, now with more gathered information')];
    for (const list of [rerendered, [...rerendered, msg('assistant', 'a')], grow]) {
      const out = h.hashOrDigest(list);
      // native SHA-256 (Node) stays synchronous; JavaScript SHA-256 (the browser) hands re-rendered prompts to WebCrypto
      expect(typeof out === 'string').toBe(backend === 'native');
      expect(await out).toBe(await promptHash(list));
    }
    // hash() still works after hashOrDigest went over to WebCrypto
    expect(h.hash(longer)).toBe(await promptHash(longer));
  });

  it('reproduces every recorded prompt hash of the bundled cassettes, call after call', () => {
    const dir = fileURLToPath(new URL('../../../public/cassettes/', import.meta.url));
    const files = readdirSync(dir).filter((f) => f.endsWith('.cassette.json'));
    expect(files.length).toBeGreaterThan(0);
    let checked = 0;
    for (const file of files) {
      const cassette = JSON.parse(readFileSync(dir + file, 'utf8')) as { calls: { promptHash: string; messages?: ChatMessage[] }[] };
      const h = new PromptHasherUnderTest();
      for (const call of cassette.calls) {
        if (!call.messages) continue;
        expect(h.hash(call.messages), `${file}`).toBe(call.promptHash);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});
