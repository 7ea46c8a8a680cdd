// The git CORS proxy for cloning from the browser: @isomorphic-git/cors-proxy mounted at /cors-proxy, limited to an
// allow-list of git hosts and to the runner's allowed origins. isomorphic-git calls it as
// `${runnerUrl}/cors-proxy/<host>/<path>` (its `corsProxy` option).
import type { IncomingMessage, ServerResponse } from 'node:http';
import corsProxy from '@isomorphic-git/cors-proxy';

export const CORS_PROXY_PREFIX = '/cors-proxy';
export const DEFAULT_GIT_HOSTS = ['github.com', 'gitlab.com', 'bitbucket.org', 'codeberg.org'];

export function handleCorsProxy(req: IncomingMessage, res: ServerResponse, allowedHosts: string[], origin: string | undefined): void {
  const rest = (req.url ?? '').slice(CORS_PROXY_PREFIX.length) || '/';
  const host = /^\/([^/?]+)\//.exec(rest)?.[1]?.toLowerCase();
  const send = (status: number, code: string, error: string) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    if (origin) res.setHeader('Access-Control-Allow-Origin', origin);
    res.end(JSON.stringify({ error, code }));
  };
  if (!host) return send(400, 'bad-request', 'Use /cors-proxy/<git host>/<repository path>, e.g. /cors-proxy/github.com/owner/repo.git/info/refs?service=git-upload-pack');
  if (!allowedHosts.includes(host)) {
    return send(403, 'forbidden-host', `The git CORS proxy does not serve ${host}: allowed hosts are ${allowedHosts.join(', ')} (start the runner with --git-host ${host} to add it).`);
  }
  req.url = rest;
  // the package answers `Access-Control-Allow-Origin: *` (or $ALLOW_ORIGIN); narrow it to the calling origin
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name: string, value: number | string | readonly string[]) =>
    setHeader(name, name.toLowerCase() === 'access-control-allow-origin' && origin ? origin : value);
  (corsProxy as (req: IncomingMessage, res: ServerResponse, next?: () => void) => void)(req, res, () =>
    send(403, 'forbidden', 'The git CORS proxy only forwards git smart-HTTP requests (info/refs, git-upload-pack).'),
  );
}
