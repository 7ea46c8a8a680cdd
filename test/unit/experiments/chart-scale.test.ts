// The charts' linear scale: ticks on 1-2-5 steps that cover the domain, whole-number ticks where asked.
import { describe, expect, it } from 'vitest';
import { linearScale, tickLabel, tickStep } from '../../../worker/experiments/charts/scale.ts';

describe('linearScale', () => {
  it('widens the domain to whole ticks of 1, 2 or 5 × 10^n and maps it onto the range', () => {
    const s = linearScale([0, 0.93], [300, 0], 5);
    expect(s.ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(s(0)).toBe(300);
    expect(s(1)).toBe(0);
    expect(s(0.5)).toBe(150);
    expect(linearScale([0, 11.5], [0, 100], 5).ticks).toEqual([0, 2, 4, 6, 8, 10, 12]);
  });
  it('gives whole-number ticks for counts and k where fractions would be drawn', () => {
    expect(linearScale([1, 2], [0, 100], 6, true).ticks).toEqual([1, 2]);
    expect(linearScale([1, 2], [0, 100], 6).ticks).toEqual([1, 1.2, 1.4, 1.6, 1.8, 2]);
  });
  it('turns an empty domain into one unit', () => {
    expect(linearScale([3, 3], [0, 10], 5, true).ticks).toEqual([3, 4]);
    expect(tickStep(0, 0, 5)).toBe(1);
  });
  it('labels ticks without float noise', () => {
    expect(linearScale([0, 0.3], [0, 1], 3).ticks.map(tickLabel)).toEqual(['0', '0.1', '0.2', '0.3']);
    expect(tickLabel(25_000)).toBe('25k');
  });
});
