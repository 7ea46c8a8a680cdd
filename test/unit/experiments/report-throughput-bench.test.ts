// The throughput benchmark's two measuring parts: the busy time as a union of request intervals, and the per-call
// patch that defeats the runner's verdict cache while staying the same fix.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { uniquePatch, unionMs } from '../../../benchmarks/perf/experiment-throughput.ts';

describe('unionMs', () => {
  it('counts overlapping requests once, clips to the window and skips gaps', () => {
    // [0,10] and [5,12] overlap → 12; [20,25] apart → 5; [30,40] clipped to the window end 35 → 5
    const intervals = [{ start: 5, end: 12 }, { start: 0, end: 10 }, { start: 20, end: 25 }, { start: 30, end: 40 }, { start: 21, end: 22 }];
    expect(unionMs(intervals, 0, 35)).toBe(22);
    expect(unionMs(intervals, 8, 21)).toBe(4 + 1);
    expect(unionMs([], 0, 10)).toBe(0);
  });
});

describe('uniquePatch', () => {
  it('makes each call a different patch that differs from the fix only by a trailing comment on its first added line', () => {
    const spec = JSON.parse(readFileSync('public/benchmarks/bugs/textkit-1.json', 'utf8')) as { groundTruth: { patch: string } };
    const a = uniquePatch(spec.groundTruth.patch, 1);
    const b = uniquePatch(spec.groundTruth.patch, 2);
    expect(a).not.toBe(b);
    expect(a.split('\n').filter((l, i) => l !== spec.groundTruth.patch.split('\n')[i])).toEqual([expect.stringMatching(/^\+.* \/\/ call 1$/)]);
  });
});
