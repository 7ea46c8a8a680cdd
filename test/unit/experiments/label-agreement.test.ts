// Labels in the CLI's record store (JSON files) and what is made of them: each rater's label kept apart from the
// resolved one, a unanimous label resolving itself, the disagreements listed, Cohen's kappa for two raters and
// Fleiss' kappa for three, worked by hand.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeRecordStore } from '../../../worker/platform/node.ts';
import { PatchLabelStore } from '../../../worker/records/patch-label-store.ts';
import { agreement, labelKey, resolvedLabels } from '../../../worker/experiments/label-agreement.ts';
import type { LabelValue } from '../../../worker/contracts/patch-labels.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function store(): { labels: PatchLabelStore; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'labels-'));
  dirs.push(dir);
  return { labels: new PatchLabelStore(createNodeRecordStore(dir)), dir };
}
const key = (i: number) => i.toString(16).padStart(16, '0');

describe('patch labels', () => {
  it('stores each rater apart and the resolution apart; labelling again replaces the rater’s label', async () => {
    const { labels, dir } = store();
    await labels.label({ bugId: 'Lang-1', patchKey: key(1), rater: 'ana', label: 'correct', note: 'same guard' });
    await labels.label({ bugId: 'Lang-1', patchKey: key(1), rater: 'ben', label: 'unsure' });
    await labels.label({ bugId: 'Lang-1', patchKey: key(1), rater: 'ben', label: 'overfitting' });
    expect(readdirSync(join(dir, 'patch-labels')).sort()).toEqual([`Lang-1.${key(1)}.ana.json`, `Lang-1.${key(1)}.ben.json`]);
    let set = await labels.all();
    expect(set.raterLabels.map((l) => [l.rater, l.label, l.note])).toEqual([['ana', 'correct', 'same guard'], ['ben', 'overfitting', undefined]]);
    expect(resolvedLabels(set).has(labelKey('Lang-1', key(1)))).toBe(false);
    expect(agreement(set).disagreements).toEqual([{ bugId: 'Lang-1', patchKey: key(1), labels: { ana: 'correct', ben: 'overfitting' }, notes: { ana: 'same guard' } }]);

    await labels.resolve({ bugId: 'Lang-1', patchKey: key(1), label: 'correct', by: 'ana', note: 'discussed' });
    set = await labels.all();
    expect(set.raterLabels.find((l) => l.rater === 'ben')!.label).toBe('overfitting');
    expect(resolvedLabels(set).get(labelKey('Lang-1', key(1)))).toBe('correct');
    expect(agreement(set).disagreements[0]!.resolved).toBe('correct');
  });

  it('refuses a bad rater name, label or patch key, naming it', async () => {
    const { labels } = store();
    await expect(labels.label({ bugId: 'Lang-1', patchKey: key(1), rater: 'a b', label: 'correct' })).rejects.toThrow(/use letters, digits/);
    await expect(labels.label({ bugId: 'Lang-1', patchKey: key(1), rater: 'ana', label: 'right' as LabelValue })).rejects.toThrow(/correct.*overfitting.*unsure|Invalid option/);
    await expect(labels.label({ bugId: 'Lang-1', patchKey: 'zz', rater: 'ana', label: 'correct' })).rejects.toThrow(/16 lowercase hex/);
  });

  it("Cohen's kappa for two raters over the patches both labelled (hand-worked)", async () => {
    const { labels } = store();
    // 6 patches both labelled, 1 by ana only. ana: c c c o o u ; ben: c c o o o u
    const ana: LabelValue[] = ['correct', 'correct', 'correct', 'overfitting', 'overfitting', 'unsure', 'correct'];
    const ben: LabelValue[] = ['correct', 'correct', 'overfitting', 'overfitting', 'overfitting', 'unsure'];
    for (const [i, l] of ana.entries()) await labels.label({ bugId: 'B-1', patchKey: key(i), rater: 'ana', label: l });
    for (const [i, l] of ben.entries()) await labels.label({ bugId: 'B-1', patchKey: key(i), rater: 'ben', label: l });
    const a = agreement(await labels.all());
    // p_o = 5/6; p_e = (3/6)(2/6) + (2/6)(3/6) + (1/6)(1/6) = 13/36; κ = (5/6 − 13/36)/(1 − 13/36) = 17/23
    expect(a.method).toBe('cohen');
    expect(a.kappa!.items).toBe(6);
    expect(a.kappa!.kappa).toBeCloseTo(17 / 23, 12);
    expect(a.disagreements.map((d) => d.patchKey)).toEqual([key(2)]);
    // ana's lone label resolves itself; the disagreement does not
    const resolved = resolvedLabels(await labels.all());
    expect(resolved.get(labelKey('B-1', key(6)))).toBe('correct');
    expect(resolved.has(labelKey('B-1', key(2)))).toBe(false);
  });

  it("Fleiss' kappa for three raters (hand-worked)", async () => {
    const { labels } = store();
    // 3 patches × 3 raters: all correct · 2 correct + 1 overfitting · all overfitting
    const plan: [string, LabelValue[]][] = [['ana', ['correct', 'correct', 'overfitting']], ['ben', ['correct', 'correct', 'overfitting']], ['cy', ['correct', 'overfitting', 'overfitting']]];
    for (const [rater, ls] of plan) for (const [i, l] of ls.entries()) await labels.label({ bugId: 'B-1', patchKey: key(i), rater, label: l });
    const a = agreement(await labels.all());
    // P_i = 1, 1/3, 1 → P̄ = 7/9; p = (4/9, 5/9, 0) → P̄_e = 41/81; κ = (63/81 − 41/81)/(40/81) = 22/40
    expect(a.method).toBe('fleiss');
    expect(a.kappa!.kappa).toBeCloseTo(0.55, 12);
  });
});
