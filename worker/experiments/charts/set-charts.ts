// Which variants fix which bugs: an UpSet plot (bars of the bugs each exact set of variants fixes, the sets as dots
// below) and, for at most three variants, a Venn diagram of the same counts. Both read the engine's fixedSets table.
import { colour, GRID, INK, text } from './frame.ts';
import { linearScale } from './scale.ts';
import { el, type ChartSvg } from './svg-tree.ts';

export interface FixedSet {
  /** the variants fixing exactly these bugs (empty: the bugs nobody fixes) */
  members: readonly string[];
  bugs: number;
}

export function upset(variants: readonly string[], sets: readonly FixedSet[]): ChartSvg {
  const shown = sets.filter((s) => s.members.length);
  const left = 150;
  const col = 34;
  const barTop = 16;
  const barHeight = 140;
  const width = left + col * Math.max(1, shown.length) + 16;
  const y = linearScale([0, Math.max(1, ...shown.map((s) => s.bugs))], [barTop + barHeight, barTop], 4, true);
  const dotsTop = barTop + barHeight + 14;
  const row = 20;
  const height = dotsTop + row * variants.length + 8;
  const setSize = (v: string) => sets.filter((s) => s.members.includes(v)).reduce((n, s) => n + s.bugs, 0);
  const content = [
    ...y.ticks.flatMap((t) => [el('line', { x1: left - 4, x2: width - 16, y1: y(t), y2: y(t), stroke: GRID }), text(left - 8, y(t) + 4, String(t), { anchor: 'end', size: 10 })]),
    text(12, barTop + barHeight / 2, 'bugs', { anchor: 'middle', rotate: true }),
    ...variants.flatMap((v, i) => [
      ...(i % 2 ? [] : [el('rect', { x: left - 4, y: dotsTop + i * row, width: width - left - 12, height: row, fill: '#f3f4f6' })]),
      text(left - 8, dotsTop + i * row + 14, `${v} (${setSize(v)})`, { anchor: 'end', size: 10, fill: colour(i) }),
    ]),
    ...shown.flatMap((s, c) => {
      const cx = left + col * c + col / 2;
      const on = variants.map((v, i) => ({ i, on: s.members.includes(v) }));
      const ys = on.filter((d) => d.on).map((d) => dotsTop + d.i * row + row / 2);
      return [
        el('rect', { x: cx - 10, y: y(s.bugs), width: 20, height: y(0) - y(s.bugs), fill: INK }, el('title', {}, `${s.members.join(' & ')}: ${s.bugs}`)),
        text(cx, y(s.bugs) - 3, String(s.bugs), { anchor: 'middle', size: 10 }),
        ...(ys.length > 1 ? [el('line', { x1: cx, x2: cx, y1: Math.min(...ys), y2: Math.max(...ys), stroke: INK, 'stroke-width': 2 })] : []),
        ...on.map((d) => el('circle', { cx, cy: dotsTop + d.i * row + row / 2, r: 5, fill: d.on ? INK : '#d1d5db' })),
      ];
    }),
  ];
  return { width, height, content };
}

/** Circle centres and where each region's count goes, for 1, 2 and 3 sets (regions keyed by member indices). */
const LAYOUT: Record<number, { circles: [number, number][]; regions: Record<string, [number, number]> }> = {
  1: { circles: [[200, 130]], regions: { '0': [200, 135] } },
  2: { circles: [[160, 130], [250, 130]], regions: { '0': [120, 135], '1': [290, 135], '0,1': [205, 135] } },
  3: {
    circles: [[160, 110], [250, 110], [205, 185]],
    regions: { '0': [125, 90], '1': [285, 90], '2': [205, 235], '0,1': [205, 85], '0,2': [160, 170], '1,2': [250, 170], '0,1,2': [205, 135] },
  },
};

export function venn(variants: readonly string[], sets: readonly FixedSet[]): ChartSvg {
  const layout = LAYOUT[variants.length]!;
  const count = (key: string) => sets.find((s) => s.members.map((m) => variants.indexOf(m)).sort().join(',') === key && s.members.length)?.bugs ?? 0;
  const none = sets.find((s) => !s.members.length)?.bugs ?? 0;
  const r = 78;
  const content = [
    ...layout.circles.map(([cx, cy], i) => el('circle', { cx, cy, r, fill: colour(i), 'fill-opacity': 0.15, stroke: colour(i), 'stroke-width': 2 })),
    ...layout.circles.map(([cx, cy], i) => text(cx + (i === 2 ? 0 : i === 0 ? -r * 0.6 : r * 0.6), i === 2 ? cy + r + 16 : cy - r - 6, variants[i]!, { anchor: 'middle', weight: 600, fill: colour(i) })),
    ...Object.entries(layout.regions).map(([key, [x, y]]) => text(x, y, String(count(key)), { anchor: 'middle', size: 13, weight: 600 })),
    text(8, 290, `fixed by none: ${none}`, { size: 10 }),
  ];
  return { width: 410, height: 300, content };
}
