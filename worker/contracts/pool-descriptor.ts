// A runner pool descriptor: the runners an experiment may use, as `repairlab pool up` writes it (docs/formats/
// runner-pool.md) and as the CLI (`experiment run --pool`) and the page's runner settings read it. It never holds a
// token: each runner names where its token comes from (an environment variable or a secret file for the CLI; the
// page asks the person once), so a descriptor can be shared, pasted or printed. The engine that started a runner
// (local process, Docker container, Slurm job, Kubernetes pod) and its id are for `pool status|down`; the browser only
// needs url, capacity and a token.
import { z } from 'zod';
import { findKeyLike } from './experiment.ts';
import type { RunnerSettings } from './run-settings.ts';

export const POOL_SCHEMA_VERSION = 1;

export const PoolEngine = z.enum(['local', 'docker', 'slurm', 'kubernetes', 'static']);
export type PoolEngine = z.infer<typeof PoolEngine>;

/** Where a runner's token comes from; never the token itself. */
export const TokenFrom = z.union([
  z.strictObject({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name') }),
  z.strictObject({ file: z.string().min(1) }),
  /** the person gives it (the page's runner token field, the CLI's --token) */
  z.strictObject({ ask: z.literal(true) }),
]);
export type TokenFrom = z.infer<typeof TokenFrom>;

export const PoolRunner = z.strictObject({
  /** stable within the pool (runner-1, …): cell records and the Experiments view name runners by it */
  id: z.string().regex(/^[A-Za-z0-9][\w.-]*$/, 'use letters, digits and . _ -'),
  url: z.url(),
  /** validations this runner takes at once (its warm JVMs); the scheduler never sends more */
  capacity: z.number().int().positive(),
  engine: PoolEngine,
  /** default: the pool's tokenFrom */
  tokenFrom: TokenFrom.optional(),
  /** what started it, for `pool status|down`: a process id, a container id, a Slurm job id, a pod name */
  job: z.strictObject({ kind: z.enum(['pid', 'container', 'slurm-job', 'pod']), id: z.string().min(1) }).optional(),
});
export type PoolRunner = z.infer<typeof PoolRunner>;

/** How `pool up` started the runners: a runner its engine ends is started again alike (worker/cli/pool/pool-keeper.ts). */
export const PoolStart = z.strictObject({
  sandbox: z.enum(['bwrap', 'docker', 'none']),
  /** each runner's capacity (its --workers) */
  capacity: z.number().int().positive(),
  /** Slurm: the partition, CPUs and memory per runner, and the jobs' time limit (sbatch --time) */
  partition: z.string().min(1).optional(),
  cpusPerRunner: z.number().int().positive().optional(),
  memoryMb: z.number().int().positive().optional(),
  timeLimit: z.string().min(1).optional(),
  /** Slurm: where a runner listens — loopback (one machine) or its node's name (a cluster; the runner's --host) */
  bindHost: z.enum(['loopback', 'node']).optional(),
  /** Docker: the runner service image the containers run (runner/service.Dockerfile) */
  image: z.string().min(1).optional(),
});
export type PoolStart = z.infer<typeof PoolStart>;

export const RunnerPoolDescriptor = z.strictObject({
  schemaVersion: z.literal(POOL_SCHEMA_VERSION),
  kind: z.literal('repairlab-runner-pool'),
  name: z.string().regex(/^[A-Za-z0-9][\w.-]*$/, 'use letters, digits and . _ -'),
  engine: PoolEngine,
  tokenFrom: TokenFrom,
  runners: z.array(PoolRunner).min(1),
  /** absent for a pool of runners started by hand (engine "static") */
  started: PoolStart.optional(),
});
export type RunnerPoolDescriptor = z.infer<typeof RunnerPoolDescriptor>;

/** `json` as a descriptor, or an error naming `source`, the field and what to give. */
export function parsePoolDescriptor(json: unknown, source = 'runner pool descriptor'): RunnerPoolDescriptor {
  const keyLike = findKeyLike(json);
  if (keyLike) throw new Error(`${source}: ${keyLike}. A pool descriptor never holds a token: name where it comes from instead ("tokenFrom": {"env": "NAME"} or {"file": "/path/to/secret"}).`);
  const r = RunnerPoolDescriptor.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const where = issue.path.join('.') || '(top level)';
    const what = issue.code === 'unrecognized_keys' ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}` : issue.message;
    throw new Error(`${source} is not a runner pool descriptor (schemaVersion ${POOL_SCHEMA_VERSION}, docs/formats/runner-pool.md): ${where}: ${what}`);
  }
  const ids = r.data.runners.map((x) => x.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new Error(`${source}: runners: two runners have the id "${dup}"; give each its own.`);
  const urls = r.data.runners.map((x) => x.url);
  const dupUrl = urls.find((u, i) => urls.indexOf(u) !== i);
  if (dupUrl) throw new Error(`${source}: runners: ${dupUrl} is listed twice; list each runner once (its capacity says how much it takes).`);
  return r.data;
}

/** A pool runner as the scheduler takes it: where to reach it, with which token, how much at once. */
export interface PoolMember {
  id: string;
  runner: RunnerSettings;
  capacity: number;
}

/**
 * The descriptor's runners with their tokens: `token(from, runnerId)` reads a TokenFrom (the CLI: environment or
 * file; the page: the token the person gave) and says what to do when it cannot.
 */
export function poolMembers(descriptor: RunnerPoolDescriptor, token: (from: TokenFrom, runnerId: string) => string): PoolMember[] {
  return descriptor.runners.map((r) => ({ id: r.id, runner: { url: r.url, token: token(r.tokenFrom ?? descriptor.tokenFrom, r.id) }, capacity: r.capacity }));
}
