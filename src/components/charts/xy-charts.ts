// Line and scatter charts: plausible@k / valid@k curves (one line per variant over k) and cost vs success with the
// Pareto frontier (one point per variant, the frontier dashed).
import { svg } from 'lit';
import { colour, legend, text, xAxis, yAxis, type ChartSvg } from './frame.ts';
import { linearScale } from './scale.ts';

const W = 520;
const H = 300;
const M = { left: 56, right: 16, top: 28, bottom: 48 };

export interface Series {
  name: string;
  /** null: no value at this x (the line breaks) */
  points: { x: number; y: number | null }[];
}

/** Lines over a shared x (k); y is a share in [0, 1]. */
export function lineChart(series: readonly Series[], xTitle: string, yTitle: string): ChartSvg {
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const x = linearScale([Math.min(...xs, 1), Math.max(...xs, 2)], [M.left, W - M.right], 6, true);
  const y = linearScale([0, 1], [H - M.bottom, M.top], 5);
  const content = svg`${yAxis(y, M.left, W - M.right, yTitle)}${xAxis(x, H - M.bottom, xTitle)}
    ${series.map((s, i) => {
      // a null breaks the line into segments
      const segments: { x: number; y: number }[][] = [[]];
      for (const p of s.points) {
        if (p.y === null) segments.push([]);
        else segments[segments.length - 1]!.push({ x: x(p.x), y: y(p.y) });
      }
      return svg`${segments.filter((g) => g.length > 1).map((g) => svg`<polyline points=${g.map((p) => `${p.x},${p.y}`).join(' ')} fill="none" stroke=${colour(i)} stroke-width="2" />`)}
        ${segments.flat().map((p) => svg`<circle cx=${p.x} cy=${p.y} r="3.5" fill=${colour(i)} />`)}`;
    })}
    ${legend(series.map((s) => s.name), M.left, 14)}`;
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
  const content = svg`${yAxis(y, M.left, W - M.right, yTitle)}${xAxis(x, H - M.bottom, xTitle)}
    ${line.length > 1 ? svg`<polyline points=${line.map((p) => `${x(p.x)},${y(p.y)}`).join(' ')} fill="none" stroke="#555" stroke-dasharray="4 4" stroke-width="1.5" />` : ''}
    ${points.map((p, i) => svg`<circle cx=${x(p.x)} cy=${y(p.y)} r="6" fill=${colour(i)} />${text(x(p.x) + 9, y(p.y) - 6, p.name, { size: 10 })}`)}
    ${legend([...points.map((p) => p.name)], M.left, 14)}`;
  return { width: W, height: H, content };
}
