// HTTP layer: plain node:http, bearer-token auth on /v1, CORS for allowed origins only, zod-validated JSON bodies,
// errors as {error, code, detail?}.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { BlobUpload, SnapshotManifest, ValidateBatchRequest, ValidateRequest, type Health } from '../../worker/contracts/runner-api.ts';
import { CORS_PROXY_PREFIX, handleCorsProxy } from './cors-proxy.ts';
import { HttpError } from './errors.ts';
import type { SnapshotStore } from './store.ts';
import type { ValidationService } from './validation.ts';

export interface ServerDeps {
  token: string;
  allowedOrigins: string[];
  gitHosts: string[];
  store: SnapshotStore;
  validation: ValidationService;
  health: () => Health;
  log: (line: string) => void;
}

const MAX_BODY: Record<string, number> = {
  '/v1/blobs': 512 * 1024 * 1024,
  '/v1/snapshots': 64 * 1024 * 1024,
  '/v1/validate': 64 * 1024 * 1024,
  '/v1/validate-batch': 256 * 1024 * 1024,
};

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(text);
}

function readBody(req: IncomingMessage, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new HttpError(413, 'bad-request', `Request body exceeds ${limit} bytes: split blob uploads into smaller batches.`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text.length ? JSON.parse(text) : {});
      } catch {
        reject(new HttpError(400, 'bad-request', 'Request body is not valid JSON.'));
      }
    });
    req.on('error', reject);
  });
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
          res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'authorization, content-type');
          res.setHeader('Access-Control-Max-Age', '600');
          // Chrome's Private Network Access preflight for pages reaching 127.0.0.1
          if (req.headers['access-control-request-private-network'] === 'true') res.setHeader('Access-Control-Allow-Private-Network', 'true');
          res.statusCode = 204;
          res.end();
          return;
        }
      }
      if (url.pathname === CORS_PROXY_PREFIX || url.pathname.startsWith(`${CORS_PROXY_PREFIX}/`)) {
        handleCorsProxy(req, res, deps.gitHosts, origin);
        return;
      }
      if (!url.pathname.startsWith('/v1/')) throw new HttpError(404, 'not-found', `No route ${req.method} ${url.pathname}: the API lives under /v1 (see docs/runner-api.md).`);
      if (!tokenMatches(req.headers.authorization, deps.token)) {
        throw new HttpError(
          401,
          'unauthorized',
          req.headers.authorization
            ? 'The runner token is wrong: use the token the runner printed at start (REPAIRLAB_RUNNER_TOKEN).'
            : 'Missing runner token: send Authorization: Bearer <token> (the runner prints it at start).',
        );
      }
      const route = `${req.method} ${url.pathname}`;
      switch (route) {
        case 'GET /v1/health':
          return sendJson(res, 200, deps.health());
        case 'PUT /v1/snapshots': {
          const manifest = parse(SnapshotManifest, await readBody(req, MAX_BODY['/v1/snapshots']!), route);
          return sendJson(res, 200, await deps.store.putManifest(manifest));
        }
        case 'POST /v1/blobs': {
          const upload = parse(BlobUpload, await readBody(req, MAX_BODY['/v1/blobs']!), route);
          const stored: string[] = [];
          for (const [oid, b64] of Object.entries(upload.blobs)) {
            await deps.store.putBlob(oid, Buffer.from(b64, 'base64'));
            stored.push(oid);
          }
          return sendJson(res, 200, { stored });
        }
        case 'POST /v1/validate': {
          const body = parse(ValidateRequest, await readBody(req, MAX_BODY['/v1/validate']!), route);
          return sendJson(res, 200, await deps.validation.validate(body));
        }
        case 'POST /v1/validate-batch': {
          const body = parse(ValidateBatchRequest, await readBody(req, MAX_BODY['/v1/validate-batch']!), route);
          return sendJson(res, 200, { results: await deps.validation.validateBatch(body) });
        }
        default:
          throw new HttpError(404, 'not-found', `No route ${route}: see docs/runner-api.md for the API.`);
      }
    } catch (e) {
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
