// Paging of a blamed file: a few thousand lines rendered at once (each with its gutter) make the page sluggish, so
// the blame view renders one page of lines and a pager. Pure functions, so paging is tested without a browser.

/** Lines per page: enough to read a class, few enough that rendering a page stays instant. */
export const BLAME_PAGE_LINES = 400;

export interface BlamePage {
  /** 0-based page index */
  index: number;
  count: number;
  /** 1-based first and last line of the page (0, 0 for an empty file) */
  first: number;
  last: number;
}

export function pageCount(lines: number, size = BLAME_PAGE_LINES): number {
  return Math.max(1, Math.ceil(lines / size));
}

/** Page `index` (clamped into range) of a file of `lines` lines. */
export function blamePage(lines: number, index: number, size = BLAME_PAGE_LINES): BlamePage {
  const count = pageCount(lines, size);
  const i = Math.min(Math.max(0, Math.trunc(index)), count - 1);
  return { index: i, count, first: lines ? i * size + 1 : 0, last: Math.min(lines, (i + 1) * size) };
}

/** The page that shows 1-based `line` (the first page when there is no such line). */
export function pageOfLine(line: number | undefined, size = BLAME_PAGE_LINES): number {
  return line && line > 0 ? Math.floor((line - 1) / size) : 0;
}

/**
 * Whether the row at `i` starts a run of lines blamed on one commit (as `git blame` groups them), counting the
 * page's first row as a start so every page begins with a full gutter entry.
 */
export function startsRun(commits: readonly string[], i: number, pageFirstIndex: number): boolean {
  return i === pageFirstIndex || commits[i] !== commits[i - 1];
}
