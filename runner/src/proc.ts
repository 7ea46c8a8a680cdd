// Spawning sandboxed processes and reading the harness protocol (one `@@REPAIRLAB@@ {json}` line per answer).
import { spawn, type ChildProcess } from 'node:child_process';
import { HttpError } from './errors.ts';
import type { Sandbox, SandboxCommand } from './sandbox.ts';

export const MARKER = '@@REPAIRLAB@@ ';
/** Longest line kept while looking for protocol lines (coverage answers can be large); longer junk is dropped. */
const MAX_LINE = 64 * 1024 * 1024;
const MAX_TEXT = 64 * 1024;

/** Splits a byte stream into lines, handing protocol messages to `onMessage` and keeping a capped text tail. */
export class ProtocolReader {
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private dropping = false;
  text = '';

  constructor(private readonly onMessage: (msg: Record<string, unknown>) => void) {}

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
      try {
        this.onMessage(JSON.parse(line.slice(MARKER.length)) as Record<string, unknown>);
        return;
      } catch {
        // not a protocol line after all: keep it as text
      }
    }
    if (this.text.length < MAX_TEXT) this.text += line.slice(0, MAX_TEXT - this.text.length) + '\n';
  }
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

/** Runs one command in the sandbox to completion (or until timeoutMs, then kills it). */
export async function runSandboxed(sandbox: Sandbox, cmd: SandboxCommand, timeoutMs: number): Promise<RunResult> {
  const argv = await sandbox.command(cmd);
  return new Promise<RunResult>((resolve) => {
    const messages: Record<string, unknown>[] = [];
    const out = new ProtocolReader((m) => messages.push(m));
    const err = new ProtocolReader(() => undefined);
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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
