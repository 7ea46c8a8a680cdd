// `experiment run`'s model key. It comes from an environment variable and belongs to one endpoint origin, but an
// experiment's endpoint is named by its spec file, which anyone may have written: the key's origin is said on the
// command line (--api-key-origin, default OpenAI's, the service OPENAI_API_KEY is for), and a spec naming another
// endpoint is refused while a key is set, rather than sending the key there. (`run` and `continue` send the key to
// their --base-url, typed on the same command line.)
import { endpointOrigin, type ApiKeys } from '../llm/key-origin.ts';

export const DEFAULT_KEY_ORIGIN = 'https://api.openai.com';

export interface KeyFlags {
  /** the environment variable the key came from (for the message) */
  apiKeyEnv: string;
  apiKeyOrigin?: string;
}

/** The keys by origin an experiment whose calls go to `specBaseURL` may use; refuses a key given for another origin. */
export function experimentKeys(specBaseURL: string, key: string | undefined, flags: KeyFlags): ApiKeys {
  const given = flags.apiKeyOrigin ?? DEFAULT_KEY_ORIGIN;
  const keyOrigin = endpointOrigin(given);
  if (!keyOrigin) throw new Error(`--api-key-origin ${given}: give the origin of the endpoint the key is for, e.g. https://api.openai.com or http://127.0.0.1:8000.`);
  if (!key) return {};
  const specOrigin = endpointOrigin(specBaseURL) ?? specBaseURL;
  if (specOrigin !== keyOrigin) {
    throw new Error(
      `The spec sends its model calls to ${specOrigin}, but the key in ${flags.apiKeyEnv} is for ${keyOrigin}${flags.apiKeyOrigin ? '' : ' (the default --api-key-origin)'}: ` +
        `a key goes only to the endpoint it is for. If it is meant for ${specOrigin}, add --api-key-origin ${specOrigin}; ` +
        `if that endpoint needs no key, run with ${flags.apiKeyEnv} unset; otherwise fix the spec's model.baseURL.`,
    );
  }
  return { [keyOrigin]: key };
}
