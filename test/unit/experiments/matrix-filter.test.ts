// The matrix's compare views (promptfoo's all / failures / passes / variants differ) over hand-made cell records.
import { describe, expect, it } from 'vitest';
import type { CellRecord } from '../../../worker/contracts/experiment.ts';
import { bugsInView } from '../../../src/components/experiments-view/matrix-filter.ts';

let index = 0;
const cell = (bugId: string, variant: string, sample: number, status: CellRecord['status']): CellRecord => ({
  experimentId: 'x', index: index++, bugId, variant, sample, runner: 0, status, runId: `r${index}`, startedAt: '', attempts: [], reason: '', costUsd: 0, calls: 0, steps: 0,
});

//          a                              b
// both     plausible, not-plausible       plausible
// onlyA    plausible                      not-plausible, budget
// none     not-plausible                  budget
// infra    infrastructure-error           not-run
// onlyB    not-run                        plausible (2nd sample; 1st infrastructure error)
const CELLS = [
  cell('both', 'a', 0, 'plausible'), cell('both', 'a', 1, 'not-plausible'), cell('both', 'b', 0, 'plausible'),
  cell('onlyA', 'a', 0, 'plausible'), cell('onlyA', 'b', 0, 'not-plausible'), cell('onlyA', 'b', 1, 'budget'),
  cell('none', 'a', 0, 'not-plausible'), cell('none', 'b', 0, 'budget'),
  cell('infra', 'a', 0, 'infrastructure-error'), cell('infra', 'b', 0, 'not-run'),
  cell('onlyB', 'a', 0, 'not-run'), cell('onlyB', 'b', 0, 'infrastructure-error'), cell('onlyB', 'b', 1, 'plausible'),
];
const BUGS = ['both', 'onlyA', 'none', 'infra', 'onlyB', 'queued'];
const view = (v: Parameters<typeof bugsInView>[3]) => bugsInView(BUGS, ['a', 'b'], CELLS, v);

describe('bugsInView', () => {
  it('all: every bug in order, also one without records yet', () => expect(view('all')).toEqual(BUGS));
  it('failures: a sample not plausible, out of budget or in an infrastructure error (an error is not a success; not-run is no failure)', () => expect(view('failures')).toEqual(['both', 'onlyA', 'none', 'infra', 'onlyB']));
  it('errors: a sample in an infrastructure error (what Retry runs again)', () => expect(view('errors')).toEqual(['infra', 'onlyB']));
  it('passes: a plausible sample', () => expect(view('passes')).toEqual(['both', 'onlyA', 'onlyB']));
  it('differ: some variant fixes the bug and another does not', () => expect(view('differ')).toEqual(['onlyA', 'onlyB']));
  it('differ with one variant: nothing can differ', () => expect(bugsInView(BUGS, ['a'], CELLS.filter((c) => c.variant === 'a'), 'differ')).toEqual([]));
});
