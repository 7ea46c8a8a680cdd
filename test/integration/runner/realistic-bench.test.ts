// `bench validation --candidates realistic` / `bench fidelity` on the generated project, with a real runner: the set
// has the fix and at least 29 candidates of every kind, equal candidates share verdicts, and every fast-path verdict
// (failing-first with relevant classes first, deduplication, one batch) equals the plain whole-suite one.
import { describe, expect, it } from 'vitest';
import { benchRealistic } from '../../../runner/bench/realistic.ts';
import { generatedSubject } from '../../../runner/bench/validation.ts';

describe('realistic candidate bench', () => {
  it('validates the fix and 29 realistic candidates, and every fast-path verdict equals the whole suite one by one', { timeout: 300_000 }, async () => {
    const r = await benchRealistic(await generatedSubject(), { fidelity: true, coldMutants: 0, workers: 2 });
    expect(r.candidates).toBeGreaterThanOrEqual(30);
    expect(Object.keys(r.per_kind).sort()).toEqual(['exact-duplicate', 'fix', 'mutant', 'near-duplicate']);
    expect(r.rows[0]).toMatchObject({ kind: 'fix', verdict: 'plausible' });
    expect(r.per_kind.mutant!.verdicts.fails).toBeGreaterThan(0);
    // duplicates, exact or laid out differently, are answered from the first one's verdict
    expect(r.per_kind['exact-duplicate']!.shared).toBe(r.per_kind['exact-duplicate']!.count);
    expect(r.per_kind['near-duplicate']!.shared).toBe(r.per_kind['near-duplicate']!.count);
    expect(r.fidelity).toEqual({ checked: r.candidates, agree: r.candidates });
    expect(r.rows.filter((x) => !x.agrees).map((x) => `${x.label}: ${x.disagreement}`)).toEqual([]);
  });
});
