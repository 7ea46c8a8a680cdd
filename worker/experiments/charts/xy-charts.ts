// Line and scatter charts: plausible@k / valid@k curves (one line per variant over k) and cost vs success with the
// Pareto frontier (one point per variant, the frontier dashed). Both axes are linear: a point's position is
// proportional to its value, so k = 1, 5, 10, 40 sit at their true distances (not evenly spaced, which would draw a
// steeper curve than the numbers give).
import { colour, legend, text, xAxis, yAxis } from './frame.ts';
import { linearScale } from './scale.ts';
import { coordinate, el, type ChartSvg, type SvgNode } from './svg-tree.ts';

const W = 520;
const H = 300;
const M = { left: 56, right: 16, top: 28, bottom: 48 };

export interface Series {
  name: string;
  /** null: no value at this x (the line breaks) */
  points: { x: number; y: number | null }[];
}

/** Lines over a shared x (k); y is a share in [0, 1]. Each point carries its values (`data-x`, `data-y`) and a tooltip. */
export function lineChart(series: readonly Series[], xTitle: string, yTitle: string): ChartSvg {
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const x = linearScale([Math.min(...xs, 1), Math.max(...xs, 2)], [M.left, W - M.right], 6, true);
  const y = linearScale([0, 1], [H - M.bottom, M.top], 5);
  const content: SvgNode[] = [
    ...yAxis(y, M.left, W - M.right, yTitle),
    ...xAxis(x, H - M.bottom, xTitle),
    ...series.flatMap((s, i) => {
      // a null breaks the line into segments
      const segments: { x: number; y: number; at: { x: number; y: number } }[][] = [[]];
      for (const p of s.points) {
        if (p.y === null) segments.push([]);
        else segments[segments.length - 1]!.push({ x: x(p.x), y: y(p.y), at: { x: p.x, y: p.y } });
      }
      return [
        ...segments.filter((g) => g.length > 1).map((g) => el('polyline', { points: g.map((p) => `${coordinate(p.x)},${coordinate(p.y)}`).join(' '), fill: 'none', stroke: colour(i), 'stroke-width': 2 })),
        ...segments.flat().map((p) => el('circle', { cx: p.x, cy: p.y, r: 3.5, fill: colour(i), 'data-x': p.at.x, 'data-y': p.at.y }, el('title', {}, `${s.name}: ${p.at.x} → ${Number(p.at.y.toFixed(4))}`))),
      ];
    }),
    ...legend(series.map((s) => s.name), M.left, 14),
  ];
  return { width: W, height: H, content };
}

export interface ScatterPoint {
  name: string;
  x: number;
  y: number;
}

/** One labelled point per variant; `frontier` (names, cheapest first) joined by a dashed line. */
export function scatterChart(points: readonly ScatterPoint[], frontier: readonly string[], xTitle: string, yTitle: string): ChartSvg {
  const x = linearScale([0, Math.max(...points.map((p) => p.x), 0)], [M.left, W - M.right - 40], 5);
  const y = linearScale([0, Math.max(...points.map((p) => p.y), 1)], [H - M.bottom, M.top], 5, true);
  const line = frontier.map((name) => points.find((p) => p.name === name)).filter((p): p is ScatterPoint => !!p);
  const content: SvgNode[] = [
    ...yAxis(y, M.left, W - M.right, yTitle),
    ...xAxis(x, H - M.bottom, xTitle),
    ...(line.length > 1 ? [el('polyline', { points: line.map((p) => `${coordinate(x(p.x))},${coordinate(y(p.y))}`).join(' '), fill: 'none', stroke: '#555', 'stroke-dasharray': '4 4', 'stroke-width': 1.5 })] : []),
    ...points.flatMap((p, i) => [el('circle', { cx: x(p.x), cy: y(p.y), r: 6, fill: colour(i) }, el('title', {}, `${p.name}: ${p.x}, ${p.y}`)), text(x(p.x) + 9, y(p.y) - 6, p.name, { size: 10 })]),
    ...legend(points.map((p) => p.name), M.left, 14),
  ];
  return { width: W, height: H, content };
}
