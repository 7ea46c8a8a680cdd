// Correct = plausible and an exact match, an AST match or labelled correct (docs/metrics.md, *Correct*). Worked by hand
// over real Passerine trajectories (runs.ts) without a Java parser, so the commented fix is no exact match and has no
// AST match: it waits for a label, and the same normalised patch in two runs is one patch to label.
//
//            bug-sl (SL)
//   A        fix, fixWithComment, wrong
//   B        fixWithComment, fixWithComment, wrong
import { beforeAll, describe, expect, it } from 'vitest';
import { computeMetrics, type BugMeta, type RunInput } from '../../../../worker/experiments/metrics/index.ts';
import { patchKey } from '../../../../worker/diff/normalised-patch.ts';
import { demoBugAs, GROUND_TRUTH, scriptedRun, SCRIPTS, SRC, SRC_TEXT } from './runs.ts';

const PLAN: [string, (keyof typeof SCRIPTS)[]][] = [
  ['A', ['fix', 'fixWithComment', 'wrong']],
  ['B', ['fixWithComment', 'fixWithComment', 'wrong']],
];
let runs: RunInput[];
let bugs: BugMeta[];
let commentedKey: string;

beforeAll(async () => {
  runs = [];
  for (const [variant, scripts] of PLAN)
    for (const [sample, script] of scripts.entries()) runs.push({ variant, bugId: 'bug-sl', sample, trajectory: await scriptedRun(SCRIPTS[script], { bug: demoBugAs('bug-sl', 'SL') }) });
  bugs = [{ id: 'bug-sl', category: 'SL', groundTruthPatch: GROUND_TRUTH, buggyFiles: { [SRC]: SRC_TEXT }, testDirs: ['src/test/java'] }];
  commentedKey = patchKey(runs[1]!.trajectory.outcome!.finalPatch, ['src/test/java']);
});

const summary = (labels: Record<string, 'correct' | 'overfitting' | 'unsure'>) => {
  const r = computeMetrics({ runs, bugs, ks: [1, 2, 3], labels: { 'bug-sl': labels } });
  return { A: r.summary.find((s) => s.variant === 'A' && s.category === 'all')!, B: r.summary.find((s) => s.variant === 'B' && s.category === 'all')!, r };
};

describe('correct from labels', () => {
  it('the two commented fixes are one normalised patch', () => {
    expect(patchKey(runs[3]!.trajectory.outcome!.finalPatch, ['src/test/java'])).toBe(commentedKey);
    expect(patchKey(runs[0]!.trajectory.outcome!.finalPatch)).not.toBe(commentedKey);
  });

  it('unlabelled: only the exact match is correct, and the waiting patches are counted', () => {
    const { A, B, r } = summary({});
    expect(A.correctAt1).toBeCloseTo(1 / 3, 12);
    expect([A.correctBugs, A.uniqueCorrect, A.unlabelledTrajectories, A.unlabelledPatches]).toEqual([1, 1, 1, 1]);
    expect([B.correctAt1, B.correctBugs, B.uniqueCorrect, B.unlabelledTrajectories, B.unlabelledPatches]).toEqual([0, 0, 0, 2, 1]);
    expect(r.trajectories.map((t) => t.correctBy)).toEqual(['exact-match', null, null, null, null, null]);
    expect(r.cells.map((c) => [c.variant, c.correct, c.unlabelled])).toEqual([['A', 1, 1], ['B', 0, 2]]);
  });

  it('labelled correct: every occurrence counts; correct@k is the unbiased estimator', () => {
    const { A, B, r } = summary({ [commentedKey]: 'correct' });
    expect(A.correctAt1).toBeCloseTo(2 / 3, 12);
    expect(B.correctAt1).toBeCloseTo(2 / 3, 12);
    // n = 3, c = 2: correct@2 = 1 − C(1, 2)/C(3, 2) = 1
    expect(B.correctAtK['2']).toBe(1);
    expect([A.correctBugs, A.uniqueCorrect, B.correctBugs, B.uniqueCorrect, A.unlabelledTrajectories, B.unlabelledTrajectories]).toEqual([1, 0, 1, 0, 0, 0]);
    expect(r.trajectories.filter((t) => t.label === 'correct').map((t) => t.correctBy)).toEqual(['label', 'label', 'label']);
  });

  it('labelled overfitting: not correct, no longer waiting; a label never makes an implausible run correct', () => {
    const { B } = summary({ [commentedKey]: 'overfitting' });
    expect([B.correctAt1, B.unlabelledTrajectories]).toEqual([0, 0]);
    const wrongKey = patchKey(runs[2]!.trajectory.outcome!.finalPatch);
    const { A } = summary({ [wrongKey]: 'correct' });
    expect(A.correctAt1).toBeCloseTo(1 / 3, 12);
  });
});
