// The estimate names the cells a demo recording endpoint cannot serve: a recording replays one conversation (its bug,
// preset, variants and overrides), so every other (variant, bug) pair would end in an infrastructure error.
import { describe, expect, it } from 'vitest';
import type { DemoRecording } from '../../../src/state/settings.ts';
import { sameEndpoint, unservableCells } from '../../../src/components/experiments-view/unservable-cells.ts';

const demo: DemoRecording = { bugId: 'textkit-1', preset: 'oneshot', overrides: {}, file: 'textkit-1.oneshot.fix', source: 'hand-authored' };

describe('unservableCells', () => {
  it('lists every (variant, bug) pair but the one recorded, in cell order, each with why', () => {
    const variants = [
      { name: 'oneshot', preset: 'oneshot', variants: [], overrides: {} },
      { name: 'short', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } },
      { name: 'passerine', preset: 'passerine' },
    ];
    const cells = unservableCells(demo, variants, ['textkit-1', 'textkit-2']);
    expect(cells.map((c) => `${c.variant} × ${c.bugId}`)).toEqual(['short × textkit-1', 'passerine × textkit-1', 'oneshot × textkit-2', 'short × textkit-2', 'passerine × textkit-2']);
    expect(cells[0]!.reason).toMatch(/recorded with the overrides \{\}/);
    expect(cells[1]!.reason).toMatch(/recorded with the oneshot preset, not passerine/);
    expect(cells[2]!.reason).toBe('textkit-1.oneshot.fix was recorded on textkit-1, not textkit-2');
    expect(unservableCells(demo, [variants[0]!], ['textkit-1'])).toEqual([]);
  });

  it('applies to the experiment only when its endpoint is the demo endpoint', () => {
    expect(sameEndpoint('http://127.0.0.1:8787/v1', 'http://127.0.0.1:8787/v1/')).toBe(true);
    expect(sameEndpoint('http://127.0.0.1:8787/v1', 'http://127.0.0.1:8788/v1')).toBe(false);
    expect(sameEndpoint('not a url', 'not a url')).toBe(false);
  });
});
