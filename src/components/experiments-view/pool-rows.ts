// The Experiments view's runner table as plain rows (the component only lays them out): each runner of the session
// with its state word — lost (its health check failed), busy (cells on it now) or idle — and its validations per minute.
import type { PoolRunnerStatus } from '../../../worker/experiments/runner-pool.ts';

export interface PoolRow {
  id: string;
  url: string;
  state: 'lost' | 'busy' | 'idle';
  /** "running / capacity" */
  running: string;
  served: number;
  validations: number;
  perMinute: string;
}

export function poolRows(runners: readonly PoolRunnerStatus[]): PoolRow[] {
  return runners.map((r) => ({
    id: r.id,
    url: r.url,
    state: !r.alive ? 'lost' : r.busy ? 'busy' : 'idle',
    running: `${r.busy} / ${r.capacity}`,
    served: r.served,
    validations: r.validations,
    perMinute: r.validationsPerMinute.toFixed(1),
  }));
}

/** "2 of 3 up" */
export function poolHeading(runners: readonly PoolRunnerStatus[]): string {
  return `${runners.filter((r) => r.alive).length} of ${runners.length} up`;
}
