// HTTP layer: plain node:http, bearer-token auth on /v1, CORS for allowed origins only, zod-validated JSON bodies,
// errors as {error, code, detail?}.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { BlobUpload, SnapshotManifest, ValidateBatchRequest, ValidateRequest, type Health } from '../../worker/contracts/runner-api.ts';
import { checkOverlaySize, discardBody, MAX_BODY_BYTES, readJsonBody } from './body.ts';
import { CORS_PROXY_PREFIX, handleCorsProxy } from './cors-proxy.ts';
import { HttpError } from './errors.ts';
import { diskFullError, type SnapshotStore } from './store.ts';
import type { ValidationService } from './validation.ts';

export interface ServerDeps {
  token: string;
  allowedOrigins: string[];
  gitHosts: string[];
  store: SnapshotStore;
  validation: ValidationService;
  health: () => Health;
  log: (line: string) => void;
  /** named in 507 answers when a write fails for lack of space */
  dataDir: string;
}

/**
 * The request headers a preflight allows: a fixed list of what the app sends, never the preflight's own list echoed
 * back (that would allow any header a page asks for). The runner client sends authorization and content-type;
 * isomorphic-git, cloning through the git CORS proxy, sends content-type, git-protocol (protocol v2) and
 * authorization (credentials in the URL), which the proxy forwards to the git host.
 */
const ALLOWED_HEADERS = 'authorization, content-type';
const PROXY_ALLOWED_HEADERS = 'authorization, content-type, git-protocol';

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(text);
}

/** Reads a route's JSON body within its size limit (body.ts) and checks it against its zod schema. */
async function readParsed<T extends z.ZodType>(req: IncomingMessage, route: string, schema: T): Promise<z.output<T>> {
  return parse(schema, await readJsonBody(req, route, MAX_BODY_BYTES[route]!), route);
}

function parse<T extends z.ZodType>(schema: T, body: unknown, route: string): z.output<T> {
  const r = schema.safeParse(body);
  if (!r.success) {
    const first = r.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
    throw new HttpError(400, 'bad-request', `Invalid body for ${route}: ${first.join('; ')}`, r.error.issues);
  }
  return r.data;
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer (.+)$/i.exec(header ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]!);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createHandler(deps: ServerDeps) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://runner.invalid');
    const origin = req.headers.origin;
    try {
      // CORS: browsers send Origin; command-line clients do not. A page from another origin is refused outright.
      if (origin !== undefined) {
        if (!deps.allowedOrigins.includes(origin)) {
          throw new HttpError(
            403,
            'forbidden-origin',
            `This runner does not accept requests from ${origin}. Restart it with --allow-origin ${origin} (or add it to REPAIRLAB_RUNNER_ORIGINS).`,
          );
        }
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Vary', 'Origin');
        if (req.method === 'OPTIONS') {
          res.setHeader('Access-Control-Allow-Methods', 'GET, PUT, POST, OPTIONS');
          res.setHeader('Access-Control-Allow-Headers', req.url?.startsWith(`${CORS_PROXY_PREFIX}/`) ? PROXY_ALLOWED_HEADERS : ALLOWED_HEADERS);
          res.setHeader('Access-Control-Max-Age', '600');
          // Chrome's Private Network Access preflight for pages reaching 127.0.0.1
          if (req.headers['access-control-request-private-network'] === 'true') res.setHeader('Access-Control-Allow-Private-Network', 'true');
          res.statusCode = 204;
          res.end();
          return;
        }
      }
      // routed on the raw URL: the proxy decodes and checks the path itself (cors-proxy.ts)
      if (req.url === CORS_PROXY_PREFIX || req.url?.startsWith(`${CORS_PROXY_PREFIX}/`) || req.url?.startsWith(`${CORS_PROXY_PREFIX}?`)) {
        await handleCorsProxy(req, res, deps.gitHosts, origin);
        return;
      }
      if (!url.pathname.startsWith('/v1/')) throw new HttpError(404, 'not-found', `No route ${req.method} ${url.pathname}: the API lives under /v1 (see docs/runner-api.md).`);
      if (!tokenMatches(req.headers.authorization, deps.token)) {
        throw new HttpError(
          401,
          'unauthorized',
          req.headers.authorization
            ? 'The runner token is wrong: use the token this runner printed at start (`Token: …`), kept in the file runner-token of its data directory unless it was given with --token or REPAIRLAB_RUNNER_TOKEN.'
            : 'Missing runner token: send Authorization: Bearer <token> (the runner prints it at start, `Token: …`).',
        );
      }
      const route = `${req.method} ${url.pathname}`;
      switch (route) {
        case 'GET /v1/health':
          return sendJson(res, 200, deps.health());
        case 'PUT /v1/snapshots': {
          const manifest = await readParsed(req, route, SnapshotManifest);
          return sendJson(res, 200, await deps.store.putManifest(manifest));
        }
        case 'POST /v1/blobs': {
          const upload = await readParsed(req, route, BlobUpload);
          // all or nothing: one bad oid and none of the batch is stored
          const stored = await deps.store.putBlobs(Object.entries(upload.blobs).map(([oid, b64]) => [oid, Buffer.from(b64, 'base64')]));
          return sendJson(res, 200, { stored });
        }
        case 'POST /v1/validate': {
          const body = await readParsed(req, route, ValidateRequest);
          checkOverlaySize(body.overlay);
          await deps.store.checkOverlay(body.treeId, body.overlay);
          return sendJson(res, 200, await deps.validation.validate(body));
        }
        case 'POST /v1/validate-batch': {
          const body = await readParsed(req, route, ValidateBatchRequest);
          for (const [i, overlay] of body.overlays.entries()) {
            checkOverlaySize(overlay, `overlays[${i}]: `);
            await deps.store.checkOverlay(body.treeId, overlay).catch((e: unknown) => {
              if (e instanceof HttpError && e.status === 400) throw new HttpError(400, e.code, `overlays[${i}]: ${e.message}`, e.detail);
              throw e;
            });
          }
          return sendJson(res, 200, { results: await deps.validation.validateBatch(body) });
        }
        default:
          throw new HttpError(404, 'not-found', `No route ${route}: see docs/runner-api.md for the API.`);
      }
    } catch (caught) {
      // answered before the body was read (401, 413 …): the rest is read and discarded (not kept), so the client
      // reads the answer instead of a reset that closing early would cause
      if (!req.complete) discardBody(req);
      const e = diskFullError(caught, deps.dataDir) ?? caught;
      if (e instanceof HttpError) {
        const body: Record<string, unknown> = { error: e.message, code: e.code };
        if (e.detail !== undefined) body.detail = e.detail;
        return sendJson(res, e.status, body);
      }
      deps.log(`internal error on ${req.method} ${url.pathname}: ${(e as Error).stack ?? String(e)}`);
      return sendJson(res, 500, { error: `The runner failed: ${(e as Error).message}`, code: 'server' });
    }
  };
}
