// The runner's token as the page's own server serves it now (/runtime-config.json, written by `npm start`): read again
// when the runner refuses the token a client has (401), because a restarted runner may have a new one. Used by the
// runner client (in the engine worker) and by the page's runner status (src/state/runner-session.ts). Global fetch
// only; no node: imports.

/** How long one read of the runtime config may take: it is the page's own static server, on the same machine. */
const READ_TIMEOUT_MS = 5_000;

/** Two runner URLs name the same runner: same origin and path, a trailing slash aside. */
export function sameRunnerUrl(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    return x.origin === y.origin && x.pathname.replace(/\/+$/, '') === y.pathname.replace(/\/+$/, '');
  } catch {
    return false;
  }
}

/**
 * Why `source` may not be read for a token, if it may not: only an http(s) address of the origin this code runs in
 * (the page's, which the engine worker shares) — a token is taken from the page's own server, never from an address
 * a link or a bundle could have named. Outside a browser (Node: the CLI, tests) there is no such origin to hold to.
 */
export function tokenSourceRefusal(source: string, here: string | undefined = (globalThis as { location?: { origin?: string } }).location?.origin): string | undefined {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return `the token source "${source}" is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `the token source ${source} is not an http(s) address`;
  // an opaque origin ('null': a sandboxed frame) has no server of its own to trust
  if (here !== undefined && url.origin !== here) return `the token source ${source} is not on this page's origin ${here}`;
  return undefined;
}

/**
 * The token `source` (a runtime-config.json: `{ runner: { url, token } }`) serves now for the runner at `runnerUrl`;
 * undefined when it cannot be read, serves no runner, serves another runner, or may not be read (tokenSourceRefusal).
 * Never throws: a failed re-read leaves the caller with the 401 it had.
 */
export async function readServedToken(source: string, runnerUrl: string, fetchFn: typeof fetch = (input, init) => globalThis.fetch(input, init)): Promise<string | undefined> {
  if (tokenSourceRefusal(source) !== undefined) return undefined;
  try {
    const res = await fetchFn(source, { cache: 'no-store', signal: AbortSignal.timeout(READ_TIMEOUT_MS) });
    if (!res.ok) return undefined;
    const config = (await res.json()) as { runner?: { url?: unknown; token?: unknown } } | null;
    const runner = config?.runner;
    if (typeof runner?.url !== 'string' || typeof runner.token !== 'string' || runner.token === '') return undefined;
    return sameRunnerUrl(runner.url, runnerUrl) ? runner.token : undefined;
  } catch {
    return undefined;
  }
}
