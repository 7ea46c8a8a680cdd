// Spawning sandboxed processes and reading the harness protocol: one `@@REPAIRLAB@@ <hmac> {json}` line per answer,
// authenticated with a secret key the runner sent on the harness's stdin (docs/runner-api.md, "The result channel").
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { HttpError } from './errors.ts';
import type { Sandbox, SandboxCommand } from './sandbox.ts';

export const MARKER = '@@REPAIRLAB@@ ';
/** Longest line kept while looking for protocol lines (coverage answers can be large); longer junk is dropped. */
const MAX_LINE = 64 * 1024 * 1024;
const MAX_TEXT = 64 * 1024;

/** A fresh secret for one answer (or one harness start): 32 random bytes. */
export function newKey(): Buffer {
  return randomBytes(32);
}

/** The protocol line the harness would write for `json` under `key` (tests use it to check the reader). */
export function protocolLine(key: Buffer, json: string): string {
  return `${MARKER}${createHmac('sha256', key).update(json, 'utf8').digest('hex')} ${json}`;
}

/**
 * Splits a byte stream into lines, handing authenticated protocol messages to `onMessage` and keeping a capped text
 * tail. A line is a message only when its HMAC verifies under the key expected now (`key`); anything else — a marker
 * line printed by code under test, one authenticated under an earlier validation's key — is plain text.
 */
export class ProtocolReader {
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private dropping = false;
  text = '';
  /** marker lines that did not authenticate (forgeries, or lines from a validation already answered) */
  rejected = 0;

  constructor(
    private readonly onMessage: (msg: Record<string, unknown>) => void,
    /** the key the next answer must be authenticated with; undefined: accept nothing */
    public key: Buffer | undefined,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
      this.append(chunk.subarray(start, i));
      this.line();
      start = i + 1;
    }
    this.append(chunk.subarray(start));
  }

  private append(part: Buffer): void {
    if (this.dropping || part.length === 0) return;
    if (this.partialBytes + part.length > MAX_LINE) {
      this.dropping = true;
      this.partial = [];
      this.partialBytes = 0;
      return;
    }
    this.partial.push(Buffer.from(part));
    this.partialBytes += part.length;
  }

  private line(): void {
    const line = Buffer.concat(this.partial).toString('utf8');
    this.partial = [];
    this.partialBytes = 0;
    this.dropping = false;
    if (line.startsWith(MARKER)) {
      const msg = this.authenticate(line.slice(MARKER.length));
      if (msg) {
        this.onMessage(msg);
        return;
      }
      this.rejected++;
    }
    if (this.text.length < MAX_TEXT) this.text += line.slice(0, MAX_TEXT - this.text.length) + '\n';
  }

  private authenticate(rest: string): Record<string, unknown> | undefined {
    const space = rest.indexOf(' ');
    if (!this.key || space !== 64) return undefined;
    const json = rest.slice(space + 1);
    if (!verify(this.key, json, rest.slice(0, space))) return undefined;
    try {
      const msg: unknown = JSON.parse(json);
      return msg && typeof msg === 'object' && !Array.isArray(msg) ? (msg as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
}

function verify(key: Buffer, json: string, mac: string): boolean {
  const expected = createHmac('sha256', key).update(json, 'utf8').digest();
  const given = Buffer.from(mac, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  messages: Record<string, unknown>[];
}

export function killTree(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL'); // the whole process group (spawned detached)
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * Runs one command in the sandbox to completion (or until timeoutMs, then kills it). With `key`, the command is a
 * harness: it gets `KEY <hex>` on stdin, and only messages authenticated with that key are collected.
 */
export async function runSandboxed(sandbox: Sandbox, cmd: SandboxCommand, timeoutMs: number, key?: Buffer): Promise<RunResult> {
  const argv = await sandbox.command(cmd);
  return new Promise<RunResult>((resolve) => {
    const messages: Record<string, unknown>[] = [];
    const out = new ProtocolReader((m) => messages.push(m), key);
    const err = new ProtocolReader(() => undefined, undefined);
    const child = spawn(argv[0]!, argv.slice(1), { stdio: [key ? 'pipe' : 'ignore', 'pipe', 'pipe'], detached: true });
    if (key) {
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(`KEY ${key.toString('hex')}\n`);
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child);
    }, timeoutMs);
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: -1, signal: null, timedOut, stdout: out.text, stderr: `${err.text}${String(e)}`, messages });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      out.push(Buffer.from('\n'));
      err.push(Buffer.from('\n'));
      resolve({ code, signal, timedOut, stdout: out.text, stderr: err.text, messages });
    });
  }).then((r) => {
    // the sandbox itself failed (not the code inside it): a 503 the client reports as code `sandbox`
    if (r.code !== 0 && /^(bwrap|setpriv|prlimit): /m.test(r.stderr) && r.messages.length === 0 && !/\.java:\d+: /.test(r.stderr)) {
      throw new HttpError(503, 'sandbox', `The ${sandbox.backend} sandbox failed to run ${cmd.argv[0]}: ${r.stderr.trim().slice(0, 500)}`);
    }
    return r;
  });
}
