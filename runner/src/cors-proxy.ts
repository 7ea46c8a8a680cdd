// The git CORS proxy for cloning from the browser: @isomorphic-git/cors-proxy mounted at /cors-proxy, limited to an
// allow-list of git hosts, to clone and fetch (git-upload-pack) and to the runner's allowed origins. isomorphic-git
// calls it as `${runnerUrl}/cors-proxy/<host>/<path>` (its `corsProxy` option).
//
// The package re-parses the URL it is given (WHATWG rules: `%2e%2e` is `..`, `\` is `/`), so the host it connects to
// is not necessarily the first segment of the raw path. Every request is therefore decoded, checked and rebuilt here
// into a canonical URL that parses back to itself before the package sees it.
//
// A host name that does not resolve gets 502 `unreachable-host` naming the host and the resolver's answer: a refused
// host is looked up before its refusal, an allowed one after its connection failed. Refusing it as "not allowed" (403) sent people to --git-host for what is a typo in the URL or
// a machine without DNS, and isomorphic-git showed only the status ("HTTP 403"); the client now reads the JSON reason
// (worker/repo/repo-store.ts cloneUrl).
import { lookup } from 'node:dns/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import corsProxy from '@isomorphic-git/cors-proxy';

export const CORS_PROXY_PREFIX = '/cors-proxy';
export const DEFAULT_GIT_HOSTS = ['github.com', 'gitlab.com', 'bitbucket.org', 'codeberg.org'];

const USAGE = 'Use /cors-proxy/<git host>/<repository path>, e.g. /cors-proxy/github.com/owner/repo.git/info/refs?service=git-upload-pack';

export type ProxyDecision =
  | { ok: true; host: string; url: string }
  /** `host`: the git host the request named, when the path got that far (a refused host is still looked up) */
  | { ok: false; status: number; code: string; error: string; host?: string };

const refuse = (status: number, code: string, error: string, host?: string): ProxyDecision => ({ ok: false, status, code, error, ...(host ? { host } : {}) });

function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * Decides whether a proxy request may be forwarded, from its method, raw URL (starting with /cors-proxy/) and
 * content type. Forwards clone and fetch only: `GET …/info/refs?service=git-upload-pack` and `POST …/git-upload-pack`.
 */
export function checkProxyRequest(method: string, rawUrl: string, contentType: string | undefined, allowedHosts: string[]): ProxyDecision {
  if (!rawUrl.startsWith(`${CORS_PROXY_PREFIX}/`)) return refuse(400, 'bad-request', USAGE);
  const q = rawUrl.indexOf('?');
  const rawPath = rawUrl.slice(CORS_PROXY_PREFIX.length + 1, q === -1 ? undefined : q);
  const query = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    const seg = decodeSegment(raw);
    if (seg === undefined) return refuse(400, 'bad-request', `The git CORS proxy cannot decode the path segment "${raw}". ${USAGE}`);
    // dot segments (plain or percent-encoded), empty segments and anything a URL parser reads as a separator
    // would let the connected host differ from the checked one
    if (seg === '' || seg === '.' || seg === '..' || /[/\\?#@]/.test(seg) || [...seg].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
      return refuse(400, 'bad-request', `The git CORS proxy refuses the path segment "${raw}": no dot segments, empty segments, '\\', '@', '?' or '#'. ${USAGE}`);
    }
    segments.push(seg);
  }
  const host = segments[0]?.toLowerCase();
  if (!host || segments.length < 2) return refuse(400, 'bad-request', USAGE);
  if (!allowedHosts.some((h) => h.toLowerCase() === host)) {
    return refuse(403, 'forbidden-host', `refused: host not allowed — the git CORS proxy does not serve ${host}; allowed hosts are ${allowedHosts.join(', ')} (start the runner with --git-host ${host} to add it).`, host);
  }
  const repoPath = segments.slice(1);
  const last = repoPath.at(-1);
  const service = query.get('service');
  if (repoPath.includes('git-receive-pack') || service === 'git-receive-pack') {
    return refuse(403, 'forbidden', 'refused: the git CORS proxy does not forward pushes (git-receive-pack); it serves clone and fetch only.');
  }
  const infoRefs = method === 'GET' && last === 'refs' && repoPath.at(-2) === 'info' && service === 'git-upload-pack' && [...query.keys()].length === 1;
  const uploadPack = method === 'POST' && last === 'git-upload-pack' && contentType === 'application/x-git-upload-pack-request' && [...query.keys()].length === 0;
  if (!infoRefs && !uploadPack) {
    return refuse(403, 'forbidden', `refused: the git CORS proxy forwards clone and fetch only (GET …/info/refs?service=git-upload-pack, POST …/git-upload-pack with content type application/x-git-upload-pack-request), not ${method} ${rawUrl}.`);
  }
  // the host goes as allowed (it may carry a port); the repository path re-encoded
  const canonical = `/${[host, ...repoPath.map(encodeURIComponent)].join('/')}${infoRefs ? '?service=git-upload-pack' : ''}`;
  return { ok: true, host, url: canonical };
}

/** The name part of a proxy host segment (`host`, `host:port`, `[v6]:port`), as the resolver takes it. */
function hostName(host: string): string {
  try {
    return new URL(`https://${host}/`).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return host;
  }
}

/**
 * Why `host` cannot be reached by name, or undefined when it resolves (an address literal always does). The
 * resolver's codes as getaddrinfo gives them: ENOTFOUND (no such name), EAI_AGAIN (no name server answered).
 */
async function unresolvedHost(host: string): Promise<string | undefined> {
  try {
    await lookup(hostName(host));
    return undefined;
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'unknown error';
    const why =
      code === 'ENOTFOUND'
        ? 'no such host name'
        : code === 'EAI_AGAIN'
          ? 'no name server answered (is this machine offline?)'
          : `the resolver answered ${code}`;
    return (
      `could not resolve ${host}: ${why} (DNS ${code}). The git CORS proxy cannot reach a host whose name does not resolve: ` +
      `check the host in the clone URL for a typo (e.g. https://github.com/owner/repo.git), and that the machine the runner runs on can resolve it.`
    );
  }
}

/** Checks, then forwards a git smart-HTTP request; what it throws is the server's to answer (server.ts awaits it). */
export async function handleCorsProxy(req: IncomingMessage, res: ServerResponse, allowedHosts: string[], origin: string | undefined): Promise<void> {
  const send = (status: number, code: string, error: string) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    if (origin) res.setHeader('Access-Control-Allow-Origin', origin);
    res.end(JSON.stringify({ error, code }));
  };
  const decision = checkProxyRequest(req.method ?? 'GET', req.url ?? '', req.headers['content-type'], allowedHosts);
  // A refused host's name is looked up (never connected to) before the refusal is answered: "not allowed, add
  // --git-host" is the wrong advice for a name that does not exist. An allowed host is looked up only when the
  // connection failed (below): the proxy library resolves it anyway, and a lookup per request would cost every clone.
  const unresolved = !decision.ok && decision.code === 'forbidden-host' && decision.host !== undefined ? await unresolvedHost(decision.host) : undefined;
  if (unresolved) {
    req.resume();
    return send(502, 'unreachable-host', unresolved);
  }
  if (!decision.ok) {
    req.resume();
    return send(decision.status, decision.code, decision.error);
  }
  // a URL parser must read the canonical form back unchanged, or the checked host is not the connected one
  if (new URL(decision.url, 'https://proxy.invalid').pathname !== decision.url.split('?')[0]) {
    return send(400, 'bad-request', `The git CORS proxy cannot forward ${req.url}: its path does not survive URL parsing unchanged.`);
  }
  req.url = decision.url;
  // the package answers `Access-Control-Allow-Origin: *` (or $ALLOW_ORIGIN); narrow it to the calling origin
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name: string, value: number | string | readonly string[]) =>
    setHeader(name, name.toLowerCase() === 'access-control-allow-origin' && origin ? origin : value);
  // The request passed every check the package makes, so the package calls next() only when its fetch to the host
  // failed (connection refused, DNS, TLS, or the answer broke off).
  const host = decision.host;
  corsProxy(req, res, () => {
    void unresolvedHost(host).then((why) =>
      send(
        502,
        'unreachable-host',
        why ??
          `could not connect to ${host}: the git host did not answer through the proxy (connection refused, TLS failure or the answer broke off; the runner's console shows the reason). Check the URL and that this machine can reach ${host}.`,
      ),
    );
  });
}
