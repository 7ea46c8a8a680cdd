// A small static server for the built app (dist/) on 127.0.0.1. It also answers
// /runtime-config.json, which tells the app where this machine's runner and demo model endpoint
// are (so `npm start` needs no manual settings). Used by `npm start` and by the e2e tests.
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import type { ModelEndpointChoice } from '../src/state/settings.ts';

export interface RuntimeConfig {
  runner?: { url: string; token: string };
  /** OpenAI-compatible endpoints offered in Settings (e.g. the local cassette server for the keyless demo). */
  modelEndpoints?: ModelEndpointChoice[];
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
  '.bundle': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * `headers`: added to every response — e.g. the cross-origin isolation headers (COOP/COEP) a benchmark sets so that
 * the page's performance.now() has 5 µs resolution instead of 100 µs.
 */
export async function startAppServer(opts: {
  dir: string;
  port?: number;
  host?: string;
  runtimeConfig?: RuntimeConfig;
  headers?: Record<string, string>;
}): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const root = resolve(opts.dir);
  const host = opts.host ?? '127.0.0.1';
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/runtime-config.json') {
        res.writeHead(200, { 'content-type': TYPES['.json']!, 'cache-control': 'no-store', ...opts.headers });
        res.end(JSON.stringify(opts.runtimeConfig ?? {}));
        return;
      }
      let path = normalize(join(root, decodeURIComponent(url.pathname)));
      if (!path.startsWith(root)) {
        res.writeHead(403).end();
        return;
      }
      const s = await stat(path).catch(() => undefined);
      if (!s) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${url.pathname}`);
        return;
      }
      if (s.isDirectory()) path = join(path, 'index.html');
      const body = await readFile(path);
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-cache', ...opts.headers });
      res.end(body);
    } catch (e) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(e));
    }
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, host, () => ok());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  return {
    url: `http://${host}:${port}/`,
    server,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}
