// Request bodies with a size limit that holds before anything is buffered: a declared Content-Length over the limit
// is refused before the first byte is read, and a chunked body is refused as soon as it crosses the limit.
import type { IncomingMessage } from 'node:http';
import { MAX_OVERLAY_BYTES, MAX_OVERLAY_FILE_BYTES, overlayTooLarge } from '../../worker/contracts/overlay-limits.ts';
import { HttpError } from './errors.ts';

/** Largest body each route accepts (documented in docs/runner-api.md "HTTP limits and errors"). */
export const MAX_BODY_BYTES: Record<string, number> = {
  'PUT /v1/snapshots': 16 * 1024 * 1024,
  // the client sends 8 MB batches (base64 makes them ~11 MB); room for one large file on its own
  'POST /v1/blobs': 64 * 1024 * 1024,
  // the largest overlay a validation may carry (worker/contracts/overlay-limits.ts) with room for JSON's escapes:
  // Java text grows by a few percent, and even a file of nothing but newlines or quotes only doubles
  'POST /v1/validate': 2 * MAX_OVERLAY_BYTES,
  'POST /v1/validate-batch': 32 * 1024 * 1024,
};

/** A refused body: the caller answers 413 and then lets the rest of the body go by unkept (see discardBody). */
export class BodyTooLargeError extends HttpError {
  constructor(route: string, limit: number) {
    const advice = route === 'POST /v1/validate'
      ? `an overlay may hold at most ${MAX_OVERLAY_BYTES / (1024 * 1024)} MB of changed files (${MAX_OVERLAY_FILE_BYTES / (1024 * 1024)} MB per file): send only the files the patch changes`
      : 'split it (fewer blobs per /v1/blobs batch, fewer overlays per /v1/validate-batch)';
    super(413, 'too-large', `The body of ${route} exceeds the runner's limit of ${limit / (1024 * 1024)} MB: ${advice}.`, { limitBytes: limit });
  }
}

/**
 * Refuses (413) an overlay over the size limits before anything is compiled: javac spends minutes on a source of
 * megabytes only to fail. `where` prefixes the message (`overlays[3]: ` in a batch).
 */
export function checkOverlaySize(overlay: Record<string, string | null>, where = ''): void {
  const problem = overlayTooLarge(overlay);
  if (!problem) return;
  const { message, ...detail } = problem;
  throw new HttpError(413, 'too-large', `${where}The runner refuses this validation: ${message}`, detail);
}

export function readJsonBody(req: IncomingMessage, route: string, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError(route, limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.off('data', onData);
        chunks.length = 0;
        reject(new BodyTooLargeError(route, limit));
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => {
      if (size > limit) return;
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text.length ? JSON.parse(text) : {});
      } catch {
        reject(new HttpError(400, 'bad-request', `The body of ${route} is not valid JSON.`));
      }
    });
    req.on('error', reject);
  });
}

/**
 * After an early answer (413, 401 …) to a request whose body was not read: reads the rest of the body and throws it
 * away, so the client reads the answer instead of a connection reset (closing while it still sends would reset it).
 * A client that keeps sending past `maxDiscardBytes` is cut off.
 */
export function discardBody(req: IncomingMessage, maxDiscardBytes = 1024 * 1024 * 1024): void {
  let discarded = 0;
  req.on('data', (c: Buffer) => {
    discarded += c.length;
    if (discarded > maxDiscardBytes) req.socket.destroy();
  });
  req.resume();
}
