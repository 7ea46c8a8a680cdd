// The history explorer renders a blamed file one page at a time (src/components/history-explorer/blame-pages.ts):
// the pages cover every line exactly once, a file opens on the page of its first fault-localized line, and every
// page starts with a full gutter entry.
import { describe, expect, it } from 'vitest';
import { BLAME_PAGE_LINES, blamePage, pageCount, pageOfLine, startsRun } from '../../../src/components/history-explorer/blame-pages.ts';

describe('blame pages', () => {
  it('cover a file of a few thousand lines exactly once, each page at most BLAME_PAGE_LINES long', () => {
    const lines = 3 * BLAME_PAGE_LINES + 17;
    expect(pageCount(lines)).toBe(4);
    const seen: number[] = [];
    for (let i = 0; i < pageCount(lines); i++) {
      const p = blamePage(lines, i);
      expect(p.last - p.first + 1).toBeLessThanOrEqual(BLAME_PAGE_LINES);
      for (let n = p.first; n <= p.last; n++) seen.push(n);
    }
    expect(seen).toEqual(Array.from({ length: lines }, (_, k) => k + 1));
  });

  it('clamps a page index out of range, and gives one empty page for an empty file', () => {
    expect(blamePage(10, 5)).toEqual({ index: 0, count: 1, first: 1, last: 10 });
    expect(blamePage(900, -1, 400)).toMatchObject({ index: 0, first: 1, last: 400 });
    expect(blamePage(900, 9, 400)).toMatchObject({ index: 2, first: 801, last: 900 });
    expect(blamePage(0, 0)).toEqual({ index: 0, count: 1, first: 0, last: 0 });
  });

  it("opens on the page of a line (the first fault-localized one), else the first page", () => {
    expect(pageOfLine(1, 400)).toBe(0);
    expect(pageOfLine(400, 400)).toBe(0);
    expect(pageOfLine(401, 400)).toBe(1);
    expect(pageOfLine(undefined)).toBe(0);
  });

  it('starts a gutter entry at each new commit and at the top of every page', () => {
    const commits = ['a', 'a', 'b', 'b', 'b', 'a'];
    expect(commits.map((_, i) => startsRun(commits, i, 0))).toEqual([true, false, true, false, false, true]);
    expect(startsRun(commits, 3, 3)).toBe(true);
  });
});
