// Grouped horizontal bars: one group per category (a tool, a smell), one bar per variant — tool use per variant
// (RepairAgent Fig. 10) and smell counts (Passerine). Horizontal, so long tool names stay readable.
import { colour, INK, legend, text, xAxis } from './frame.ts';
import { linearScale } from './scale.ts';
import { el, type ChartSvg } from './svg-tree.ts';

export interface BarGroup {
  label: string;
  /** one value per series, in the series' order */
  values: readonly number[];
}

const W = 560;
const M = { left: 150, right: 40, top: 28, bottom: 48 };

export function groupedBars(series: readonly string[], groups: readonly BarGroup[], xTitle: string): ChartSvg {
  const bar = series.length > 4 ? 7 : 11;
  const groupHeight = bar * series.length + 8;
  const height = M.top + M.bottom + groupHeight * Math.max(1, groups.length);
  const x = linearScale([0, Math.max(1, ...groups.flatMap((g) => g.values))], [M.left, W - M.right], 5, true);
  const content = [
    ...legend(series, M.left, 14),
    ...xAxis(x, height - M.bottom, xTitle),
    el('line', { x1: M.left, x2: M.left, y1: M.top, y2: height - M.bottom, stroke: INK }),
    ...groups.flatMap((g, gi) => {
      const top = M.top + gi * groupHeight + 4;
      return [
        text(M.left - 6, top + (bar * series.length) / 2 + 4, g.label, { anchor: 'end', size: 10 }),
        ...g.values.flatMap((v, si) => [
          el('rect', { x: M.left, y: top + si * bar, width: Math.max(0, x(v) - M.left), height: bar - 1, fill: colour(si) }, el('title', {}, `${g.label} · ${series[si]}: ${v}`)),
          v > 0 ? text(x(v) + 3, top + si * bar + bar - 2, String(v), { size: 9 }) : '',
        ]),
      ];
    }),
  ].filter((n) => n !== '');
  return { width: W, height, content };
}
