// An API key belongs to the endpoint it was given for. Keys are kept by origin (scheme://host:port of the base URL)
// and a request's key is looked up by the origin of that request's own endpoint: whoever writes a link, bundle or
// experiment spec can name an endpoint, but a key given for another one never goes there.

/** API keys by endpoint origin (`https://api.openai.com` → key). */
export type ApiKeys = Readonly<Record<string, string>>;

/** The origin a key is bound to: scheme://host[:port] of an http(s) URL (default ports dropped); undefined otherwise. */
export function endpointOrigin(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The key given for `baseURL`'s own origin; a key for any other origin is never returned. */
export function keyForOrigin(keys: ApiKeys | undefined, baseURL: string): string | undefined {
  const origin = endpointOrigin(baseURL);
  return origin && keys && Object.hasOwn(keys, origin) ? keys[origin] || undefined : undefined;
}
