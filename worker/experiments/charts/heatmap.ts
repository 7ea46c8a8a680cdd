// The command-by-step heatmap (Passerine Fig. 8): per variant, one row per command, one column per step index, the
// cell's shade the number of runs that issued that command at that step (darkest = the variant's largest count).
import { colour, INK, text } from './frame.ts';
import { el, type ChartSvg, type SvgNode } from './svg-tree.ts';

export interface HeatBlock {
  variant: string;
  rows: { command: string; counts: readonly number[] }[];
}

const LEFT = 130;
const ROW = 14;

export function heatmap(blocks: readonly HeatBlock[], steps: number): ChartSvg {
  const cell = Math.max(3, Math.min(18, Math.floor(560 / Math.max(1, steps))));
  const width = LEFT + cell * steps + 16;
  // label every n-th step so the numbers do not collide
  const every = Math.ceil(16 / cell);
  let y = 20;
  const parts = blocks.flatMap((b, bi): SvgNode[] => {
    const top = y;
    const max = Math.max(1, ...b.rows.flatMap((r) => r.counts));
    y += 20 + b.rows.length * ROW + 10;
    return [
      text(0, top + 12, b.variant, { weight: 600, fill: colour(bi) }),
      ...Array.from({ length: steps }, (_, s) => s).filter((s) => (s + 1) % every === 0 || s === 0).map((s) => text(LEFT + s * cell + cell / 2, top + 12, String(s + 1), { anchor: 'middle', size: 9 })),
      ...b.rows.flatMap((r, ri) => {
        const ry = top + 18 + ri * ROW;
        return [
          text(LEFT - 6, ry + ROW - 4, r.command, { anchor: 'end', size: 10 }),
          ...r.counts.flatMap((n, s) => {
            if (!n) return [];
            const shade = 0.12 + 0.88 * (n / max);
            const rect = el('rect', { x: LEFT + s * cell, y: ry, width: cell - 0.5, height: ROW - 1, fill: colour(bi), 'fill-opacity': shade }, el('title', {}, `${b.variant} · ${r.command} · step ${s + 1}: ${n}`));
            // the count itself where a cell is wide enough to hold it
            return cell >= 14 ? [rect, text(LEFT + s * cell + cell / 2, ry + ROW - 4, String(n), { anchor: 'middle', size: 8, fill: shade > 0.55 ? '#fff' : INK })] : [rect];
          }),
        ];
      }),
      el('rect', { x: LEFT, y: top + 18, width: cell * steps, height: b.rows.length * ROW, fill: 'none', stroke: INK, 'stroke-opacity': 0.3 }),
    ];
  });
  return { width, height: y + 4, content: [...parts, text(LEFT, y, 'step index →', { size: 10 })] };
}
