// `bench pool`'s scheduler simulation: every cell is dispatched once, no runner ever holds more than its capacity
// (the virtual utilisation cannot pass 100%), and the overhead is reported against the validation time given.
import { describe, expect, it } from 'vitest';
import { simulateDispatch } from '../../../benchmarks/perf/pool.ts';

describe('bench pool simulation', () => {
  it('dispatches every cell once within the places there are', () => {
    const s = simulateDispatch({ runners: 10, capacity: 2, bugs: 30, perBug: 4, cellMs: [300, 900, 1500], medianValidationMs: 200 });
    expect(s.cells).toBe(120);
    expect(s.dispatched).toBe(120);
    expect(s.utilisation).toBeGreaterThan(0);
    expect(s.utilisation).toBeLessThanOrEqual(1);
    expect(s.overhead_share).toBeCloseTo(s.overhead_us_per_dispatch / 1000 / 200, 10);
  });

  it('with more runners than bugs, affinity leaves places idle (a bug runs on one runner at a time)', () => {
    const s = simulateDispatch({ runners: 20, capacity: 2, bugs: 4, perBug: 10, cellMs: [1000], medianValidationMs: 200 });
    // 4 bugs × capacity 2 = at most 8 of 40 places busy
    expect(s.utilisation).toBeCloseTo(8 / 40, 5);
  });
});
