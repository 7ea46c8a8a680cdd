// Which rows of a long table to render: those in the scrolled viewport plus a margin above and below (the rest are
// stand-in space), so a matrix of a thousand bugs costs the DOM of a screenful.

export interface RowWindow {
  /** first row rendered */
  start: number;
  /** one past the last row rendered */
  end: number;
  /** space standing in for the rows above and below, in px */
  before: number;
  after: number;
}

export function rowWindow(scrollTop: number, viewportHeight: number, rowHeight: number, total: number, overscan = 10): RowWindow {
  // a position past the end (a filter just removed rows) shows the last rows, as the browser will scroll there
  scrollTop = Math.max(0, Math.min(scrollTop, total * rowHeight - viewportHeight));
  const start = Math.max(0, Math.min(total, Math.floor(scrollTop / rowHeight) - overscan));
  const end = Math.max(start, Math.min(total, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan));
  return { start, end, before: start * rowHeight, after: (total - end) * rowHeight };
}
