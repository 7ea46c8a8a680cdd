// The metrics tables over a small experiment worked out by hand: 2 variants × 2 bugs (SL, SH) × 3 samples of real
// Passerine trajectories (runs.ts: every step costs $0.012 and 1,100 tokens; wall times set per script).
//
//            bug-sl (SL)                          bug-sh (SH)
//   A        fix, wrong, fixWithComment (+ one    wrong, wrong, searchy
//            unfinished run, left out)
//   B        wrong, wrong, wrong                  fix, wrong, wrong
//
// fix: 4 steps, plausible, exact + AST match · fixWithComment: 4 steps, plausible, AST match only ·
// wrong: 3 steps, implausible, edits Clamp.java · searchy: 5 steps, implausible, 3 searches then edits README.md
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeJavaWasm } from '../../../../worker/java/wasm-files.node.ts';
import { computeMetrics, filesToRead, loadJavaSyntax, type BugMeta, type JavaSyntax, type MetricsReport, type RunInput } from '../../../../worker/experiments/metrics/index.ts';
import { parseTrajectory, type Trajectory } from '../../../../worker/contracts/trajectory.ts';
import { demoBugAs, GROUND_TRUTH, scriptedRun, SCRIPTS, SRC, SRC_TEXT, TEST } from './runs.ts';

type Script = keyof typeof SCRIPTS;
const WALL: Record<Script, number> = { fix: 4000, fixWithComment: 4500, wrong: 3000, searchy: 5000 };
const PLAN: [variant: string, bugId: string, scripts: Script[]][] = [
  ['A', 'bug-sl', ['fix', 'wrong', 'fixWithComment']],
  ['A', 'bug-sh', ['wrong', 'wrong', 'searchy']],
  ['B', 'bug-sl', ['wrong', 'wrong', 'wrong']],
  ['B', 'bug-sh', ['fix', 'wrong', 'wrong']],
];
const CATEGORY = { 'bug-sl': 'SL', 'bug-sh': 'SH' } as const;

let syntax: JavaSyntax;
let runs: RunInput[];
let bugs: BugMeta[];
let unfinished: Trajectory;
let report: MetricsReport;

beforeAll(async () => {
  syntax = await loadJavaSyntax(await nodeJavaWasm());
  runs = [];
  for (const [variant, bugId, scripts] of PLAN) {
    for (const [sample, script] of scripts.entries()) {
      runs.push({ variant, bugId, sample, trajectory: await scriptedRun(SCRIPTS[script], { bug: demoBugAs(bugId, CATEGORY[bugId as 'bug-sl']), wallMs: WALL[script] }) });
    }
  }
  // a run still going: recorded, but without an outcome
  const going = structuredClone(runs[0]!.trajectory);
  delete going.outcome;
  going.status = 'running';
  unfinished = parseTrajectory(going);
  runs.push({ variant: 'A', bugId: 'bug-sl', sample: 3, trajectory: unfinished });
  // the engine reads the buggy text of every file a patch touches: Clamp.java, and README.md (searchy edits it)
  const toRead = filesToRead([GROUND_TRUTH, ...runs.map((r) => r.trajectory.outcome?.finalPatch ?? '')], ['src/test/java']);
  expect(toRead).toEqual(['README.md', SRC]);
  const buggyFiles = { [SRC]: SRC_TEXT, 'README.md': '# demo\n' };
  bugs = (['bug-sl', 'bug-sh'] as const).map((id) => ({ id, category: CATEGORY[id], groundTruthPatch: GROUND_TRUTH, buggyFiles, testDirs: ['src/test/java'] }));
  report = computeMetrics({ runs, bugs, ks: [1, 2, 5], baseline: 'A' }, { syntax });
});

const row = (variant: string, category: string) => report.summary.find((s) => s.variant === variant && s.category === category)!;
const close = (actual: number | null | undefined, expected: number) => expect(actual).toBeCloseTo(expected, 12);
const replyChars = (scripts: Script[]) => scripts.reduce((s, k) => s + SCRIPTS[k].reduce((m, r) => m + r.length, 0), 0);

describe('metrics report', () => {
  it('leaves out the unfinished run and says why', () => {
    expect(report.excluded).toEqual([{ variant: 'A', bugId: 'bug-sl', sample: 3, runId: unfinished.runId, reason: expect.stringMatching(/unfinished \(status running\)/) }]);
    expect(report.trajectories).toHaveLength(12);
    expect(report.variants).toEqual(['A', 'B']);
  });

  it('one row per trajectory: outcome, correctness, validity, usage, localization', () => {
    const [fix, wrong, commented] = report.trajectories.filter((t) => t.variant === 'A' && t.bugId === 'bug-sl');
    expect(fix).toMatchObject({ sample: 0, category: 'SL', plausible: true, exactMatch: true, astMatch: true, valid: true, validBy: 'ast-match', steps: 4, tokens: 4400, wallMs: 4000, llmCalls: 4, commands: ['cat', 'edit', 'test', 'finish'] });
    close(fix!.costUsd, 0.048);
    expect(wrong).toMatchObject({ plausible: false, exactMatch: false, astMatch: false, valid: false, validBy: 'not-plausible', steps: 3, tokens: 3300, editedFiles: [SRC], fileDistance: { min: 0, mean: 0 } });
    expect(commented).toMatchObject({ plausible: true, exactMatch: false, astMatch: true, valid: true });
    const searchy = report.trajectories.find((t) => t.variant === 'A' && t.bugId === 'bug-sh' && t.sample === 2)!;
    // README.md → root → src/main/java/org/demo/Clamp.java: 1 up, 6 down
    expect(searchy).toMatchObject({ editedFiles: ['README.md'], fileDistance: { min: 7, mean: 7 }, smells: { NO_TEST: 1, CONSECUTIVE_SEARCH: 1 }, toolCounts: { code_search: 3, edit: 1, finish: 1 } });
    expect(fix!.outputChars).toBe(replyChars(['fix']));
  });

  it('edits to test files are not localization', async () => {
    const t = await scriptedRun([`THOUGHT: t\nACTION: edit ${TEST} 1 1\npackage org.demo; // x`, 'THOUGHT: s\nACTION: edit README.md 1 1\n# x', 'THOUGHT: q\nACTION: finish failure'], { bug: demoBugAs('bug-sl', 'SL') });
    const one = computeMetrics({ runs: [{ variant: 'A', bugId: 'bug-sl', sample: 0, trajectory: t }], bugs }, { syntax });
    expect(one.trajectories[0]).toMatchObject({ editedFiles: ['README.md'], fileDistance: { min: 7, mean: 7 } });
  });

  it('per (variant, bug): counts, pass@k, and means split by success and failure', () => {
    const a1 = report.cells.find((c) => c.variant === 'A' && c.bugId === 'bug-sl')!;
    expect(a1).toMatchObject({ n: 3, plausible: 2, valid: 2, exactMatch: 1, astMatch: 2, pass: true });
    close(a1.plausibleAtK['1'], 2 / 3); // c/n
    expect(a1.plausibleAtK['2']).toBe(1); // one failure cannot fill a draw of 2
    expect(a1.plausibleAtK['5']).toBeNull(); // 3 samples < 5
    // cost: fix 0.048, wrong 0.036, fixWithComment 0.048
    close(a1.costUsd.all, (0.048 + 0.036 + 0.048) / 3);
    close(a1.costUsd.success, 0.048);
    close(a1.costUsd.failure, 0.036);
    expect(a1.steps).toEqual({ all: 11 / 3, success: 4, failure: 3 });
    expect(a1.wallMs).toEqual({ all: (4000 + 3000 + 4500) / 3, success: 4250, failure: 3000 });
    const b2 = report.cells.find((c) => c.variant === 'B' && c.bugId === 'bug-sh')!;
    // n=3, c=1, k=2: 1 − C(2,2)/C(3,2) = 1 − 1/3
    close(b2.plausibleAtK['2'], 2 / 3);
    expect(b2.steps).toEqual({ all: 10 / 3, success: 4, failure: 3 });
  });

  it('per variant: plausible@1, plausible@k, valid@k, #pass, #unique pass (against all and against the baseline)', () => {
    const a = row('A', 'all');
    const b = row('B', 'all');
    expect(a).toMatchObject({ bugs: 2, trajectories: 6, pass: 1, uniquePass: 1, uniquePassVsBaseline: 0, tooFewSamples: { 1: 0, 2: 0, 5: 2 }, validUnknownBugs: 0 });
    close(a.plausibleAt1, (2 / 3 + 0) / 2);
    close(a.plausibleAtK['2'], (1 + 0) / 2);
    expect(a.plausibleAtK['5']).toBeNull();
    close(a.validAtK['1'], (2 / 3 + 0) / 2);
    expect(a).toMatchObject({ exactMatchTrajectories: 1, astMatchTrajectories: 2, exactMatchBugs: 1, astMatchBugs: 1, validBugs: 1 });
    // B passes only bug-sh, which A does not: unique against A as well
    expect(b).toMatchObject({ pass: 1, uniquePass: 1, uniquePassVsBaseline: 1, exactMatchTrajectories: 1 });
    close(b.plausibleAt1, (0 + 1 / 3) / 2);
    close(b.plausibleAtK['2'], (0 + 2 / 3) / 2);
  });

  it('per category SL / SH', () => {
    expect(report.summary.map((s) => `${s.variant}/${s.category}`)).toEqual(['A/all', 'A/SL', 'A/SH', 'B/all', 'B/SL', 'B/SH']);
    expect(row('A', 'SL')).toMatchObject({ bugs: 1, trajectories: 3, pass: 1, uniquePass: 1, plausibleAtK: { 2: 1, 5: null } });
    close(row('A', 'SL').plausibleAt1, 2 / 3);
    expect(row('A', 'SH')).toMatchObject({ bugs: 1, pass: 0, uniquePass: 0, plausibleAt1: 0 });
    expect(row('B', 'SL')).toMatchObject({ pass: 0, plausibleAt1: 0 });
    close(row('B', 'SH').plausibleAt1, 1 / 3);
  });

  it('cost, tokens, steps and wall time split by success and failure; calls and characters per call', () => {
    const a = row('A', 'all');
    // successes: fix, fixWithComment · failures: wrong ×3, searchy
    expect(a.steps).toEqual({ all: { n: 6, mean: 22 / 6, median: 3.5 }, success: { n: 2, mean: 4, median: 4 }, failure: { n: 4, mean: 3.5, median: 3 } });
    close(a.costUsd.success.mean, 0.048);
    close(a.costUsd.failure.mean, (3 * 0.036 + 0.06) / 4);
    close(a.costUsd.failure.median, 0.036);
    expect(a.unpricedTrajectories).toBe(0);
    expect(a.tokens.failure).toEqual({ n: 4, mean: 3850, median: 3300 });
    expect(a.wallMs.success).toEqual({ n: 2, mean: 4250, median: 4250 });
    expect(a.wallMs.failure).toEqual({ n: 4, mean: 3500, median: 3000 });
    close(a.llmCallsPerTrajectory, 22 / 6);
    close(a.outputCharsPerCall, replyChars(['fix', 'wrong', 'fixWithComment', 'wrong', 'wrong', 'searchy']) / 22);
    const aRuns = runs.filter((r) => r.variant === 'A' && r.trajectory.outcome);
    const promptChars = aRuns.flatMap((r) => r.trajectory.steps).reduce((s, st) => s + st.prompt.messages.reduce((m, msg) => m + msg.content.length, 0), 0);
    close(a.inputCharsPerCall, promptChars / 22);
  });

  it('smell incidence by plausibility, and localization of the implausible trajectories', () => {
    const a = row('A', 'all');
    expect(a.smellIncidence.plausible).toEqual({ NO_TEST: 0, NO_OP_CAT: 0, CONSECUTIVE_SEARCH: 0, CONSECUTIVE_EDITS: 0 });
    // 4 implausible: wrong ×3 (NO_TEST), searchy (NO_TEST, CONSECUTIVE_SEARCH)
    expect(a.smellIncidence.notPlausible).toEqual({ NO_TEST: 1, NO_OP_CAT: 0, CONSECUTIVE_SEARCH: 0.25, CONSECUTIVE_EDITS: 0 });
    // distances 0, 0, 0 (wrong edits the fixed file) and 7 (searchy edits README.md)
    expect(a.fileDistance.notPlausible).toEqual({ trajectories: 4, meanMinDistance: 7 / 4, editedFixedFile: 3 / 4 });
    expect(a.fileDistance.all).toEqual({ trajectories: 6, meanMinDistance: 7 / 6, editedFixedFile: 5 / 6 });
  });

  it('command by step index and tool use', () => {
    const heat = report.commandsByStep.filter((c) => c.variant === 'A' && c.category === 'all').map((c) => [c.step, c.command, c.count]);
    expect(heat).toEqual([
      [0, 'cat', 5], [0, 'code_search', 1],
      [1, 'code_search', 1], [1, 'edit', 5],
      [2, 'code_search', 1], [2, 'finish', 3], [2, 'test', 2],
      [3, 'edit', 1], [3, 'finish', 2],
      [4, 'finish', 1],
    ]);
    const tools = report.toolUse.filter((t) => t.variant === 'A' && t.category === 'all').map((t) => [t.tool, t.count, t.trajectories]);
    expect(tools).toEqual([['edit', 6, 6], ['finish', 6, 6], ['cat', 5, 5], ['code_search', 3, 1], ['test', 2, 2]]);
  });

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });
});

describe('validity sources', () => {
  it('a manual judgement overrides the AST proxy; without a parser validity is unknown unless judged', () => {
    const commented = runs.find((r) => r.variant === 'A' && r.bugId === 'bug-sl' && r.sample === 2)!.trajectory.runId;
    const judged = computeMetrics({ runs, bugs, ks: [1], validity: { [commented]: false } }, { syntax });
    const cell = judged.cells.find((c) => c.variant === 'A' && c.bugId === 'bug-sl')!;
    expect(cell.valid).toBe(1); // fix (AST match) only
    close(cell.validAtK['1'], 1 / 3);

    const unparsed = computeMetrics({ runs, bugs, ks: [1] });
    const a = unparsed.summary.find((s) => s.variant === 'A' && s.category === 'all')!;
    // bug-sl has plausible samples whose validity is unknown; bug-sh has none plausible (valid = 0 by definition)
    expect(unparsed.cells.find((c) => c.variant === 'A' && c.bugId === 'bug-sl')!.valid).toBeNull();
    expect(a.validUnknownBugs).toBe(1);
    expect(a.validAtK['1']).toBe(0);
    expect(unparsed.trajectories[0]).toMatchObject({ astMatch: null, valid: null, correctnessNote: 'no Java parser given: AST match not computed' });
  });
});

describe('bad input', () => {
  it('is refused with a message naming the entry and what to do', () => {
    const one = runs[0]!;
    expect(() => computeMetrics({ runs: [one, { ...one }], bugs })).toThrow(/runs\[1\] \(variant 'A', bug 'bug-sl', sample 0\): the same \(variant, bug, sample\) appears twice/);
    expect(() => computeMetrics({ runs: [{ ...one, bugId: 'nope' }], bugs })).toThrow(/bug 'nope' is not in bugs\[\]: add its metadata/);
    expect(() => computeMetrics({ runs: [{ ...one, bugId: 'bug-sh' }], bugs })).toThrow(/is of bug 'bug-sl', not 'bug-sh'/);
    expect(() => computeMetrics({ runs: [one], bugs, baseline: 'Z' })).toThrow(/baseline 'Z' has no runs: use one of A/);
    expect(() => computeMetrics({ runs: [one], bugs, ks: [0] })).toThrow(/ks holds 0: each k must be a positive integer/);
    expect(() => computeMetrics({ runs: [one], bugs: [...bugs, bugs[0]!] })).toThrow(/bug 'bug-sl' is listed twice/);
    expect(() => computeMetrics({ runs: [one], bugs: [{ ...bugs[0]!, category: 'XL' as 'SL' }] })).toThrow(/category 'XL': use one of SL, SH, SFMH, MFMH/);
  });
});
