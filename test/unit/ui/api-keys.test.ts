// API keys in the browser, kept by endpoint origin (src/state/api-keys.ts): a key is found only for the origin it was
// saved for, the single key of earlier versions is bound to the endpoint Settings named then, and the model settings a
// request is built from carry the key of that request's own endpoint — none after a link's model names another one.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keyForEndpoint, loadApiKeys, migrateOldApiKey, saveKeyForEndpoint } from '../../../src/state/api-keys.ts';
import { loadSettings, modelSettingsFor, needsNoKey, type Settings } from '../../../src/state/settings.ts';
import { settingsWithLinkModel } from '../../../src/state/url-state.ts';

/** localStorage as the browser has it, for Node. */
class MemoryStorage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.items.set(k, String(v));
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
  clear() {
    this.items.clear();
  }
}

const OPENAI = 'https://api.openai.com/v1';
const LOCAL = 'http://127.0.0.1:8000/v1';

beforeEach(() => vi.stubGlobal('localStorage', new MemoryStorage()));
afterEach(() => vi.unstubAllGlobals());

describe('API keys by endpoint origin', () => {
  it('finds a key only for the origin (scheme, host, port) it was saved for', () => {
    saveKeyForEndpoint(OPENAI, 'sk-for-openai');
    saveKeyForEndpoint(LOCAL, 'key-for-local');
    expect(JSON.parse(localStorage.getItem('repairlab.apiKeys.v2')!)).toEqual({ 'https://api.openai.com': 'sk-for-openai', 'http://127.0.0.1:8000': 'key-for-local' });
    expect(keyForEndpoint('https://api.openai.com/other/path')).toBe('sk-for-openai');
    expect(keyForEndpoint('https://API.OPENAI.COM:443/v1')).toBe('sk-for-openai');
    for (const other of ['http://api.openai.com/v1', 'https://api.openai.com.attacker.example/v1', 'http://127.0.0.1:8001/v1', 'http://localhost:8000/v1', 'not a url', '']) {
      expect(keyForEndpoint(other), other).toBe('');
    }
    // an empty key removes that origin's key only
    saveKeyForEndpoint(OPENAI, '');
    expect(loadApiKeys()).toEqual({ 'http://127.0.0.1:8000': 'key-for-local' });
    expect(() => saveKeyForEndpoint('ftp://example.org/v1', 'k')).toThrow('"ftp://example.org/v1" is not an http(s) address');
  });

  it('binds the old single key to the endpoint Settings named when it was saved, then removes the old entry', () => {
    localStorage.setItem('repairlab.settings.v1', JSON.stringify({ model: { baseURL: 'https://api.deepseek.com/v1', model: 'deepseek-chat' }, modelKind: 'endpoint' }));
    localStorage.setItem('repairlab.apiKey.v1', 'sk-old-single-key');
    expect(loadSettings({}).model.baseURL).toBe('https://api.deepseek.com/v1');
    expect(loadApiKeys()).toEqual({ 'https://api.deepseek.com': 'sk-old-single-key' });
    expect(localStorage.getItem('repairlab.apiKey.v1')).toBeNull();
    // an origin that has a key already keeps it; the old entry goes all the same
    localStorage.setItem('repairlab.apiKey.v1', 'sk-older');
    migrateOldApiKey('https://api.deepseek.com/v1');
    expect(loadApiKeys()).toEqual({ 'https://api.deepseek.com': 'sk-old-single-key' });
    expect(localStorage.getItem('repairlab.apiKey.v1')).toBeNull();
  });

  it("builds a request's model settings with its own endpoint's key: a link's model naming another endpoint gets none", () => {
    saveKeyForEndpoint(OPENAI, 'sk-for-openai');
    const settings: Settings = { runner: { url: 'http://127.0.0.1:1', token: 't' }, modelKind: 'endpoint', model: { baseURL: OPENAI, model: 'gpt-4o-mini' } };
    expect(modelSettingsFor(settings)).toEqual({ kind: 'openai', baseURL: OPENAI, model: 'gpt-4o-mini', apiKey: 'sk-for-openai' });
    const linked = settingsWithLinkModel(settings, { provider: 'custom', baseURL: 'https://attacker.example/v1', model: 'x' });
    expect(modelSettingsFor(linked)).toEqual({ kind: 'openai', baseURL: 'https://attacker.example/v1', model: 'x' });
    // a link naming a provider preset: that provider's endpoint, not Settings' (and not Settings' key)
    const byProvider = settingsWithLinkModel(settings, { provider: 'deepseek', model: 'deepseek-chat' });
    expect(modelSettingsFor(byProvider)).toEqual({ kind: 'openai', baseURL: 'https://api.deepseek.com/v1', model: 'deepseek-chat' });
  });

  it('asks for no key where none is needed: endpoints the serving machine lists, local service presets', () => {
    const served = [{ name: 'Demo recording', baseURL: 'http://127.0.0.1:5175/v1', model: 'demo' }];
    expect(needsNoKey('http://127.0.0.1:5175/v1', served)).toBe(true);
    expect(needsNoKey('http://127.0.0.1:11434/v1', served)).toBe(true); // Ollama's preset
    expect(needsNoKey('http://127.0.0.1:5176/v1', served)).toBe(false);
    expect(needsNoKey(OPENAI, served)).toBe(false);
    expect(needsNoKey('not a url', served)).toBe(false);
  });
});
