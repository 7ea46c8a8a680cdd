// Model API keys, kept in this browser's localStorage by endpoint origin (scheme://host:port of the base URL). A key
// is only ever looked up for the origin a request goes to, so switching the endpoint — in Settings, from a link's
// model or an experiment spec — never carries a key to another server: that endpoint's own key is asked for.
// Keys are never put in share links, exports, trajectories or logs.
import { endpointOrigin, keyForOrigin, type ApiKeys } from '../../worker/llm/key-origin.ts';

const KEYS_ENTRY = 'repairlab.apiKeys.v2';
/** the single key of earlier versions, sent to whatever endpoint Settings named */
const OLD_KEY_ENTRY = 'repairlab.apiKey.v1';

/** Every stored key by origin (handed to the engine, which picks the one for an experiment's endpoint). */
export function loadApiKeys(): ApiKeys {
  try {
    const saved = JSON.parse(localStorage.getItem(KEYS_ENTRY) ?? '{}') as unknown;
    if (!saved || typeof saved !== 'object' || Array.isArray(saved)) return {};
    return Object.fromEntries(Object.entries(saved).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
  } catch {
    return {};
  }
}

/** The key stored for `baseURL`'s origin ('' when there is none). */
export function keyForEndpoint(baseURL: string): string {
  return keyForOrigin(loadApiKeys(), baseURL) ?? '';
}

/** Stores `key` for `baseURL`'s origin (an empty key removes it); refuses a base URL that is not http(s). */
export function saveKeyForEndpoint(baseURL: string, key: string): void {
  const origin = endpointOrigin(baseURL);
  if (!origin) throw new Error(`"${baseURL}" is not an http(s) address: a key is stored for an endpoint's origin; fix the base URL first.`);
  const keys: Record<string, string> = { ...loadApiKeys() };
  if (key) keys[origin] = key;
  else delete keys[origin];
  localStorage.setItem(KEYS_ENTRY, JSON.stringify(keys));
}

/**
 * The old single key becomes the key of the endpoint Settings named when it was saved (the only one it was sent to),
 * unless that origin has a key already; then the old entry goes. A base URL with no origin: the key is dropped.
 */
export function migrateOldApiKey(settingsBaseURL: string): void {
  const old = localStorage.getItem(OLD_KEY_ENTRY);
  if (old === null) return;
  if (old && endpointOrigin(settingsBaseURL) && !keyForEndpoint(settingsBaseURL)) saveKeyForEndpoint(settingsBaseURL, old);
  localStorage.removeItem(OLD_KEY_ENTRY);
}
