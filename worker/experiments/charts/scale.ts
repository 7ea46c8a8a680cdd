// Linear scales and "nice" axis ticks for the charts (worker/experiments/charts/): the two pieces of d3-scale the charts
// use, small enough to keep here rather than add d3-scale and its five d3 dependencies (docs/ARCHITECTURE.md, Dependencies).

export interface LinearScale {
  (value: number): number;
  ticks: number[];
}

/** Tick step of 1, 2 or 5 × 10^n giving about `count` ticks over [lo, hi] (d3-array's tickIncrement rule). */
export function tickStep(lo: number, hi: number, count: number): number {
  const raw = (hi - lo) / Math.max(1, count);
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const error = raw / power;
  return power * (error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.sqrt(2) ? 2 : 1);
}

/** Maps [lo, hi] (widened to whole ticks) onto [from, to]; an empty domain becomes [lo, lo + 1]. `integer`: ticks on whole numbers only (k, counts). */
export function linearScale(domain: [number, number], range: [number, number], count = 5, integer = false): LinearScale {
  let [lo, hi] = domain;
  if (!(hi > lo)) hi = lo + 1;
  const step = integer ? Math.max(1, tickStep(lo, hi, count)) : tickStep(lo, hi, count);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  // rounding to the step's precision keeps 0.30000000000000004 out of the labels
  const digits = Math.max(0, -Math.floor(Math.log10(step)));
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Number(v.toFixed(digits)));
  const [from, to] = range;
  const scale = ((value: number) => from + ((value - lo) / (hi - lo)) * (to - from)) as LinearScale;
  scale.ticks = ticks;
  return scale;
}

/** A tick label: integers as they are, fractions without trailing zeros, large numbers with k. */
export function tickLabel(v: number): string {
  if (Math.abs(v) >= 10_000) return `${Number((v / 1000).toFixed(1))}k`;
  return String(Number(v.toPrecision(6)));
}
