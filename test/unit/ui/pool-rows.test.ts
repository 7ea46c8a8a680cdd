// The Experiments view's runner table: state words and rates from the scheduler's pool status.
import { describe, expect, it } from 'vitest';
import { poolHeading, poolRows } from '../../../src/components/experiments-view/pool-rows.ts';
import { RunnerPool } from '../../../worker/experiments/runner-pool.ts';

describe('pool rows', () => {
  it('says which runner is lost, busy or idle, with its validations', async () => {
    const up = new Set(['http://a', 'http://b']);
    const pool = new RunnerPool(
      ['a', 'b', 'c'].map((id) => ({ id, runner: { url: `http://${id}`, token: '' }, capacity: 2 })),
      async (r) => up.has(r.url),
    );
    pool.take('bug-1');
    pool.noteValidation(0);
    pool.noteValidation(0);
    await pool.check(2);
    const rows = poolRows(pool.status());
    expect(rows.map((r) => [r.id, r.state, r.running, r.served, r.validations])).toEqual([
      ['a', 'busy', '1 / 2', 1, 2],
      ['b', 'idle', '0 / 2', 0, 0],
      ['c', 'lost', '0 / 2', 0, 0],
    ]);
    expect(Number(rows[0]!.perMinute)).toBeGreaterThan(0);
    expect(poolHeading(pool.status())).toBe('2 of 3 up');
  });
});
