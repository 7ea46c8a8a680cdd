// Bytes for links and bundles, the same in the page, the worker and Node: deflate-raw and gzip through the
// platform's CompressionStream where it has the format, else fflate (same formats, so either side reads the
// other's output), and base64url without Node's Buffer.
import { deflateSync, gunzipSync, gzipSync, inflateSync } from 'fflate';

export type CompressionFormat = 'deflate-raw' | 'gzip';
/** `native`: CompressionStream when the platform has the format (the default); `fflate`: always the library */
export type CompressionBackend = 'native' | 'fflate';

function hasNative(format: CompressionFormat): boolean {
  if (typeof CompressionStream === 'undefined' || typeof DecompressionStream === 'undefined') return false;
  try {
    new CompressionStream(format);
    new DecompressionStream(format);
    return true;
  } catch {
    // an older browser without deflate-raw
    return false;
  }
}

async function throughStream(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

export async function compress(bytes: Uint8Array, format: CompressionFormat, backend: CompressionBackend = 'native'): Promise<Uint8Array> {
  if (backend === 'native' && hasNative(format)) return throughStream(bytes, new CompressionStream(format));
  return format === 'gzip' ? gzipSync(bytes, { level: 9, mtime: 0 }) : deflateSync(bytes, { level: 9 });
}

/** Throws (either backend) when the data is not complete, valid `format` data. */
export async function decompress(bytes: Uint8Array, format: CompressionFormat, backend: CompressionBackend = 'native'): Promise<Uint8Array> {
  if (backend === 'native' && hasNative(format)) return throughStream(bytes, new DecompressionStream(format));
  return format === 'gzip' ? gunzipSync(bytes) : inflateSync(bytes);
}

const CHUNK = 0x8000;

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Throws naming the first character that is not base64url. */
export function fromBase64Url(text: string): Uint8Array {
  const bad = /[^A-Za-z0-9_-]/.exec(text);
  if (bad) throw new Error(`character ${JSON.stringify(bad[0])} at position ${bad.index} is not base64url`);
  if (text.length % 4 === 1) throw new Error(`${text.length} characters cannot be base64url (the text was cut short)`);
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
