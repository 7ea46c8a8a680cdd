// The runner pool the page runs experiments on: a pool descriptor (docs/formats/runner-pool.md) pasted or opened in
// Settings, the same file `repairlab pool up` writes and `experiment run --pool` reads. A descriptor never holds a
// token (parsePoolDescriptor refuses one); whatever its `tokenFrom` says (a file, a variable: things only the CLI can
// read, or `ask`), the page asks the person once and keeps that token like the single runner's — in this browser's
// settings, never in a link, a bundle or an export. The browser needs neither Slurm nor kubectl: it takes the
// runners' URLs and capacities as they are.
import { parsePoolDescriptor, poolMembers, type PoolMember, type RunnerPoolDescriptor } from '../../worker/contracts/pool-descriptor.ts';
import type { RunnerSettings } from '../../worker/contracts/run-settings.ts';
import { currentRunner } from './runner-session.ts';

export interface PagePool {
  descriptor: RunnerPoolDescriptor;
  /** the runners' token as the person gave it ('' until given) */
  token: string;
}

/** how often the page asks the pool's runners for their health while an experiment runs (as the CLI) */
export const PAGE_POOL_HEALTH_EVERY_MS = 2_000;

/** A descriptor's text (pasted, or a file's) as a pool, or an error naming `source` and what to fix. */
export function readPoolDescriptor(text: string, source: string): RunnerPoolDescriptor {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${source} is not JSON (${(e as Error).message}); paste the pool.json that \`repairlab pool up\` wrote (docs/formats/runner-pool.md).`);
  }
  return parsePoolDescriptor(json, source);
}

/** One line for people: the pool's name, its runners and their capacity. */
export function describePool(d: RunnerPoolDescriptor): string {
  const capacity = d.runners.reduce((n, r) => n + r.capacity, 0);
  return `${d.name} (${d.engine}): ${d.runners.length} runner${d.runners.length === 1 ? '' : 's'}, ${capacity} validation${capacity === 1 ? '' : 's'} at once`;
}

/**
 * What an experiment session runs on: the pool's runners with the token the person gave (each taking its capacity),
 * or else the single runner of Settings.
 */
export function experimentRunners(runner: RunnerSettings, pool: PagePool | undefined): { runners: RunnerSettings[]; pool?: { members: PoolMember[]; healthEveryMs: number } } {
  if (!pool) return { runners: [currentRunner(runner)] };
  if (!pool.token) throw new Error(`Runner pool ${pool.descriptor.name}: its runners' token is not given; enter it under Settings → Runner pool (the descriptor names where it is kept, never the token).`);
  const members = poolMembers(pool.descriptor, () => pool.token);
  return { runners: members.map((m) => m.runner), pool: { members, healthEveryMs: PAGE_POOL_HEALTH_EVERY_MS } };
}
