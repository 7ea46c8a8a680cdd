// The matrix's row window: the rows in view and a margin, the rest as space of the same height.
import { describe, expect, it } from 'vitest';
import { rowWindow } from '../../../src/components/experiments-view/row-window.ts';

describe('rowWindow', () => {
  it('renders the rows in view plus the margin, and stands in for the others with their height', () => {
    // 1,000 rows of 26 px, a 520 px viewport scrolled to row 100: rows 90 … 130 (20 in view + 10 each side)
    expect(rowWindow(2600, 520, 26, 1000, 10)).toEqual({ start: 90, end: 130, before: 90 * 26, after: 870 * 26 });
  });
  it('keeps the total height: before + rendered rows + after = all rows', () => {
    for (const top of [0, 13, 2600, 25_000, 40_000]) {
      const w = rowWindow(top, 500, 26, 1000);
      expect(w.before + (w.end - w.start) * 26 + w.after).toBe(1000 * 26);
    }
  });
  it('renders everything when all rows fit, and nothing for no rows', () => {
    expect(rowWindow(0, 640, 26, 12)).toEqual({ start: 0, end: 12, before: 0, after: 0 });
    expect(rowWindow(0, 640, 26, 0)).toEqual({ start: 0, end: 0, before: 0, after: 0 });
  });
  it('shows the last rows for a scroll position past the end (rows just removed by a filter)', () => {
    expect(rowWindow(50_000, 500, 26, 20)).toEqual({ start: 0, end: 20, before: 0, after: 0 });
    expect(rowWindow(50_000, 520, 26, 100, 0)).toEqual({ start: 80, end: 100, before: 80 * 26, after: 0 });
  });
});
