// Spectrum-based fault localization with Ochiai: score(line) = ef / sqrt((ef + nf) · (ef + ep)), where ef/ep are the
// failing/passing tests that cover the line and nf the failing tests that do not. 0 when a denominator term is 0.
// Input: the per-test line coverage of a ValidationResult run with coverage on.
import type { ValidationResult } from '../contracts/runner-api.ts';

export interface SuspiciousLine {
  file: string;
  line: number;
  score: number;
  /** failing tests covering the line */
  ef: number;
  /** passing tests covering the line */
  ep: number;
  /** failing tests not covering the line */
  nf: number;
}

export type Coverage = NonNullable<ValidationResult['coverage']>;

export function ochiaiScore(ef: number, ep: number, nf: number): number {
  const denom = Math.sqrt((ef + nf) * (ef + ep));
  return denom === 0 ? 0 : ef / denom;
}

/** Lines ranked by Ochiai suspiciousness, highest first (ties: file, then line, for a stable order). */
export function ochiai(coverage: Coverage): SuspiciousLine[] {
  const totalFailed = coverage.filter((t) => !t.passed).length;
  const counts = new Map<string, { file: string; line: number; ef: number; ep: number }>();
  for (const t of coverage) {
    for (const [file, lines] of Object.entries(t.lines)) {
      for (const line of new Set(lines)) {
        const key = `${file}:${line}`;
        let c = counts.get(key);
        if (!c) counts.set(key, (c = { file, line, ef: 0, ep: 0 }));
        if (t.passed) c.ep++;
        else c.ef++;
      }
    }
  }
  return [...counts.values()]
    .map((c) => ({ ...c, nf: totalFailed - c.ef, score: ochiaiScore(c.ef, c.ep, totalFailed - c.ef) }))
    .sort((a, b) => b.score - a.score || a.file.localeCompare(b.file) || a.line - b.line);
}
