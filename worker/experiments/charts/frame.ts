// What every chart shares: colours per variant, axes with ticks, a legend. Presentation attributes only (no CSS
// classes), so a drawing looks the same on the page, in an exported SVG file and in the HTML report.
import { el, type SvgNode } from './svg-tree.ts';
import { tickLabel, type LinearScale } from './scale.ts';

export const COLOURS = ['#1a56db', '#c2410c', '#047857', '#7c3aed', '#b91c1c', '#0e7490', '#a16207', '#be185d'];
export const colour = (i: number) => COLOURS[i % COLOURS.length]!;
export const FONT = 'system-ui, sans-serif';
export const INK = '#222';
export const GRID = '#ddd';

export const text = (x: number, y: number, label: string, opts: { anchor?: 'start' | 'middle' | 'end'; size?: number; rotate?: boolean; weight?: number; fill?: string } = {}): SvgNode =>
  el(
    'text',
    { x, y, 'font-family': FONT, 'font-size': opts.size ?? 11, 'font-weight': opts.weight ?? 400, fill: opts.fill ?? INK, 'text-anchor': opts.anchor ?? 'start', transform: opts.rotate ? `rotate(-90 ${x} ${y})` : undefined },
    label,
  );

/** A vertical value axis at x with grid lines across to `right`. */
export function yAxis(scale: LinearScale, x: number, right: number, title: string): SvgNode[] {
  const [top, bottom] = [Math.min(...scale.ticks.map(scale)), Math.max(...scale.ticks.map(scale))];
  return [
    el('line', { x1: x, x2: x, y1: top, y2: bottom, stroke: INK }),
    ...scale.ticks.flatMap((t) => [el('line', { x1: x, x2: right, y1: scale(t), y2: scale(t), stroke: GRID }), text(x - 4, scale(t) + 4, tickLabel(t), { anchor: 'end', size: 10 })]),
    text(12, (top + bottom) / 2, title, { anchor: 'middle', rotate: true }),
  ];
}

/** A horizontal value axis at y. */
export function xAxis(scale: LinearScale, y: number, title: string): SvgNode[] {
  const xs = scale.ticks.map(scale);
  return [
    el('line', { x1: Math.min(...xs), x2: Math.max(...xs), y1: y, y2: y, stroke: INK }),
    ...scale.ticks.flatMap((t) => [el('line', { x1: scale(t), x2: scale(t), y1: y, y2: y + 4, stroke: INK }), text(scale(t), y + 15, tickLabel(t), { anchor: 'middle', size: 10 })]),
    text((Math.min(...xs) + Math.max(...xs)) / 2, y + 32, title, { anchor: 'middle' }),
  ];
}

/** One row of coloured swatches with names, starting at (x, y). */
export function legend(names: readonly string[], x: number, y: number): SvgNode[] {
  let at = x;
  return names.flatMap((name, i) => {
    const here = at;
    at += 24 + name.length * 6.5;
    return [el('rect', { x: here, y: y - 9, width: 10, height: 10, fill: colour(i) }), text(here + 14, y, name, { size: 10 })];
  });
}
