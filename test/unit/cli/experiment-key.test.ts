// `repairlab experiment run`'s key (worker/cli/experiment-key.ts): a key from the environment is for one endpoint
// origin (--api-key-origin, default OpenAI's); a spec whose endpoint is another origin is refused while it is set,
// with a message naming the spec's origin and what to do — the key is never handed to the spec's endpoint.
import { describe, expect, it } from 'vitest';
import { experimentKeys } from '../../../worker/cli/experiment-key.ts';

const env = { apiKeyEnv: 'OPENAI_API_KEY' };

describe('experiment run: the key and the spec endpoint', () => {
  it("refuses a spec naming another endpoint than the key's, naming its origin and the ways out", () => {
    const refusal = () => experimentKeys('https://attacker.example:8443/v1', 'sk-secret-key-123', env);
    expect(refusal).toThrow(
      'The spec sends its model calls to https://attacker.example:8443, but the key in OPENAI_API_KEY is for https://api.openai.com (the default --api-key-origin): ' +
        'a key goes only to the endpoint it is for. If it is meant for https://attacker.example:8443, add --api-key-origin https://attacker.example:8443; ' +
        "if that endpoint needs no key, run with OPENAI_API_KEY unset; otherwise fix the spec's model.baseURL.",
    );
    expect(() => experimentKeys('http://api.openai.com/v1', 'sk-secret-key-123', env)).toThrow('sends its model calls to http://api.openai.com,');
    expect(() => experimentKeys('http://127.0.0.1:8001/v1', 'k', { ...env, apiKeyOrigin: 'http://127.0.0.1:8000' })).toThrow(/key in OPENAI_API_KEY is for http:\/\/127\.0\.0\.1:8000: a key/);
  });

  it("gives the key for its own origin only; no key, nothing to refuse", () => {
    expect(experimentKeys('https://api.openai.com/v1', 'sk-k', env)).toEqual({ 'https://api.openai.com': 'sk-k' });
    expect(experimentKeys('http://127.0.0.1:8000/v1', 'k', { ...env, apiKeyOrigin: 'http://127.0.0.1:8000/any/path' })).toEqual({ 'http://127.0.0.1:8000': 'k' });
    expect(experimentKeys('https://attacker.example/v1', undefined, env)).toEqual({});
    expect(experimentKeys('https://attacker.example/v1', '', env)).toEqual({});
    expect(() => experimentKeys('https://api.openai.com/v1', 'k', { ...env, apiKeyOrigin: 'api.openai.com' })).toThrow('--api-key-origin api.openai.com: give the origin');
  });
});
