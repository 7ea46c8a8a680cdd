// What `repairlab pool` asks of an engine (local processes, Slurm jobs, …): start a runner and learn its address,
// tell whether the engine ended it, stop it so that nothing of it is left.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { PoolEngine, PoolRunner, PoolStart } from '../../contracts/pool-descriptor.ts';
import type { PoolDir } from './pool-files.ts';

export const CHECKOUT = fileURLToPath(new URL('../../../', import.meta.url));

/** capacity: the runner's --workers; the rest is the engine's (Slurm: partition, CPUs, memory, time) */
export type RunnerStartOptions = PoolStart;

export interface StartedRunner {
  url: string;
  job: NonNullable<PoolRunner['job']>;
}

export interface PoolEngineDriver {
  engine: PoolEngine;
  /** starts runner `id` and resolves once it listens (its URL learned from its log) */
  start(id: string, pool: PoolDir, opts: RunnerStartOptions): Promise<StartedRunner>;
  /** whether the engine has ended it (process gone, job no longer queued or running) */
  ended(job: StartedRunner['job']): Promise<boolean>;
  /** stops it and waits until nothing of it is left */
  stop(job: StartedRunner['job']): Promise<void>;
}

/** The runner's own command line (runner/src/main.ts) for one pool member: its data dir, the pool's token file. */
export function runnerArgs(id: string, pool: PoolDir, opts: RunnerStartOptions): string[] {
  return [
    '--import', 'tsx', `${CHECKOUT}runner/src/main.ts`,
    '--port', '0',
    '--data-dir', `${pool.dir}/${id}`,
    '--token-file', pool.tokenFile,
    '--workers', String(opts.capacity),
    '--sandbox', opts.sandbox,
    ...(opts.sandbox === 'none' ? ['--allow-unsandboxed'] : []),
  ];
}

export const logFile = (pool: PoolDir, id: string) => `${pool.dir}/${id}.log`;

/**
 * Waits until the runner's log says where it listens; `gone()` true means it ended first (then the log's tail says
 * why). The runner writes `RepairLab runner listening on <url>` once it serves.
 */
export async function urlFromLog(file: string, id: string, gone: () => Promise<boolean>, timeoutMs = 120_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    const m = /RepairLab runner listening on (\S+)/.exec(text);
    if (m) return m[1]!;
    if (await gone()) throw new Error(`runner ${id} ended before it listened; its log (${file}) ends:\n${text.split('\n').slice(-12).join('\n')}`);
    if (Date.now() > until) throw new Error(`runner ${id} did not listen within ${Math.round(timeoutMs / 1000)} s; see ${file}.`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The capabilities bubblewrap inside a runner's container needed on a real Docker engine (with no seccomp or AppArmor
 * filter and an unmasked /proc): `pool up --docker` adds them, and the Kubernetes manifests ask for the same.
 */
export const BWRAP_CAPABILITIES = ['SYS_ADMIN', 'SETUID', 'SETGID', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'KILL'];
