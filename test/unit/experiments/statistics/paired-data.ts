// Seeded paired data for the scipy parity tests: the same seed gives the same tables on every machine.

/** mulberry32: a small, well-known 32-bit PRNG; uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface NamedTable {
  name: string;
  data: number[][];
}

const int = (rnd: () => number, lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
const rows = (n: number, row: (i: number) => number[]): number[][] => Array.from({ length: n }, (_, i) => row(i));

/** 0/1 outcomes for k variants with different success rates, so that some tables differ and some barely do. */
export function binaryTables(seed: number, sizes: number[], ks: number[]): NamedTable[] {
  const rnd = seededRandom(seed);
  const out: NamedTable[] = [];
  for (const n of sizes)
    for (const k of ks) {
      const rates = Array.from({ length: k }, () => 0.2 + 0.6 * rnd());
      out.push({ name: `binary n=${n} k=${k}`, data: rows(n, () => rates.map((r) => (rnd() < r ? 1 : 0))) });
    }
  return out;
}

/** Two paired columns of every kind the Wilcoxon test distinguishes: distinct, tied, with zero differences, both. */
export function pairedTables(seed: number, sizes: number[]): NamedTable[] {
  const rnd = seededRandom(seed);
  const out: NamedTable[] = [];
  for (const n of sizes) {
    // distinct nonzero differences (costs in dollars with many decimals): the exact method when n ≤ 50
    const shift = rnd() * 0.6 - 0.3;
    out.push({ name: `distinct n=${n}`, data: rows(n, () => { const x = rnd() * 10; return [x, x - shift - (rnd() - 0.5) * 4]; }) });
    // steps: small integers, so |differences| tie and some pairs are equal
    out.push({ name: `steps with ties and zeros n=${n}`, data: rows(n, () => [int(rnd, 3, 12), int(rnd, 2, 12)]) });
    // ties but no zero difference
    out.push({ name: `ties, no zeros n=${n}`, data: rows(n, () => { const x = int(rnd, 0, 20); const d = int(rnd, 1, 4) * (rnd() < 0.6 ? 1 : -1); return [x + d, x]; }) });
    // zeros but distinct nonzero differences
    out.push({ name: `zeros, no ties n=${n}`, data: rows(n, (i) => { const x = rnd() * 100; return i % 5 === 0 ? [x, x] : [x, x + (rnd() - 0.4) * 30]; }) });
  }
  return out;
}

/** k columns of measures (steps or cost) for Friedman: integers with ties within rows, and continuous values. */
export function measureTables(seed: number, sizes: number[], ks: number[]): NamedTable[] {
  const rnd = seededRandom(seed);
  const out: NamedTable[] = [];
  for (const n of sizes)
    for (const k of ks) {
      const effects = Array.from({ length: k }, () => int(rnd, 0, 3));
      out.push({ name: `steps n=${n} k=${k}`, data: rows(n, () => effects.map((e) => int(rnd, 1, 6) + e)) });
      out.push({ name: `cost n=${n} k=${k}`, data: rows(n, () => effects.map((e) => rnd() * 2 + e * 0.3)) });
    }
  return out;
}
