// Box plots with every run drawn as a point over its box (a box-and-strip plot), one per variant: the cost and step
// distributions. The box numbers are the engine's (quartiles by linear interpolation, whiskers at min and max).
import { colour, INK, text, yAxis } from './frame.ts';
import { linearScale } from './scale.ts';
import { el, type ChartSvg } from './svg-tree.ts';

export interface BoxRow {
  name: string;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  values: readonly number[];
}

const H = 300;
const M = { left: 60, right: 16, top: 16, bottom: 40 };

export function boxChart(rows: readonly BoxRow[], yTitle: string): ChartSvg {
  const band = Math.max(60, Math.min(120, 460 / Math.max(1, rows.length)));
  const width = M.left + M.right + band * rows.length;
  const y = linearScale([Math.min(0, ...rows.map((r) => r.min)), Math.max(...rows.map((r) => r.max), 0)], [H - M.bottom, M.top], 5);
  const content = [
    ...yAxis(y, M.left, width - M.right, yTitle),
    el('line', { x1: M.left, x2: width - M.right, y1: H - M.bottom, y2: H - M.bottom, stroke: INK }),
    ...rows.flatMap((r, i) => {
      const cx = M.left + band * (i + 0.5);
      const half = band * 0.25;
      // points spread across the box by their index (a deterministic jitter: the same picture every time)
      const strip = r.values.map((v, j) => el('circle', { cx: cx + (((j * 0.618034) % 1) - 0.5) * half * 1.6, cy: y(v), r: 2.2, fill: colour(i), 'fill-opacity': 0.45 }));
      return [
        el('line', { x1: cx, x2: cx, y1: y(r.min), y2: y(r.max), stroke: INK }),
        el('line', { x1: cx - half / 2, x2: cx + half / 2, y1: y(r.min), y2: y(r.min), stroke: INK }),
        el('line', { x1: cx - half / 2, x2: cx + half / 2, y1: y(r.max), y2: y(r.max), stroke: INK }),
        el('rect', { x: cx - half, y: y(r.q3), width: half * 2, height: Math.max(1, y(r.q1) - y(r.q3)), fill: colour(i), 'fill-opacity': 0.18, stroke: colour(i) }),
        el('line', { x1: cx - half, x2: cx + half, y1: y(r.median), y2: y(r.median), stroke: colour(i), 'stroke-width': 2.5 }),
        ...strip,
        text(cx, H - M.bottom + 16, r.name, { anchor: 'middle', size: 10 }),
      ];
    }),
  ];
  return { width, height: H, content };
}
