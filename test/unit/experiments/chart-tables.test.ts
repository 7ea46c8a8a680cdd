// The charts' tables (analyses.ts `chartTables`) over real scripted Passerine trajectories, worked out by hand:
// 3 variants × 3 bugs, one sample each (runs.ts: fix = 4 steps, plausible; wrong = 3 steps, NO_TEST; searchy = 5
// steps, NO_TEST + CONSECUTIVE_SEARCH; every step costs $0.012).
//
//            bug-1      bug-2    bug-3
//   A        fix        fix      wrong
//   B        fix        wrong    wrong
//   C        searchy    wrong    wrong
import { beforeAll, describe, expect, it } from 'vitest';
import { chartTables, type ChartTables } from '../../../worker/experiments/analyses.ts';
import { nodeJavaWasm } from '../../../worker/java/wasm-files.node.ts';
import { computeMetrics, loadJavaSyntax, type BugMeta, type RunInput } from '../../../worker/experiments/metrics/index.ts';
import { COST_PER_STEP, demoBugAs, GROUND_TRUTH, scriptedRun, SCRIPTS, SRC, SRC_TEXT } from './metrics/runs.ts';

type Script = keyof typeof SCRIPTS;
const PLAN: Record<string, Script[]> = { A: ['fix', 'fix', 'wrong'], B: ['fix', 'wrong', 'wrong'], C: ['searchy', 'wrong', 'wrong'] };
const BUGS = ['bug-1', 'bug-2', 'bug-3'];

let charts: ChartTables;

beforeAll(async () => {
  const runs: RunInput[] = [];
  for (const [variant, scripts] of Object.entries(PLAN))
    for (const [i, script] of scripts.entries()) runs.push({ variant, bugId: BUGS[i]!, sample: 0, trajectory: await scriptedRun(SCRIPTS[script], { bug: demoBugAs(BUGS[i]!, 'SL') }) });
  const bugs: BugMeta[] = BUGS.map((id) => ({ id, category: 'SL', groundTruthPatch: GROUND_TRUTH, buggyFiles: { [SRC]: SRC_TEXT, 'README.md': '# demo\n' }, testDirs: ['src/test/java'] }));
  charts = chartTables(computeMetrics({ runs, bugs, ks: [1] }, { syntax: await loadJavaSyntax(await nodeJavaWasm()) }));
});

const row = (t: { rows: unknown[][] }, first: string) => t.rows.find((r) => r[0] === first)!;

describe('chartTables', () => {
  it('groups the bugs by the exact set of variants that fix them, the bugs nobody fixes included (UpSet / Venn)', () => {
    expect(charts.fixedSets.columns).toEqual(['variants', 'A', 'B', 'C', 'bugs', 'bug ids']);
    expect(charts.fixedSets.rows).toEqual([
      ['A & B', 'yes', 'yes', 'no', 1, 'bug-1'],
      ['A', 'yes', 'no', 'no', 1, 'bug-2'],
      ['(none)', 'no', 'no', 'no', 1, 'bug-3'],
    ]);
  });

  it('gives box-plot numbers of steps and cost per variant, and every run for the strip', () => {
    expect(charts.stepValues).toEqual({ A: [4, 4, 3], B: [4, 3, 3], C: [5, 3, 3] });
    // A's steps sorted 3, 4, 4: q1 at position 0.5 (3.5), median 4, q3 at 1.5 (4)
    expect(row(charts.stepDistribution, 'A')).toEqual(['A', 3, 3, 3.5, 4, 4, 4, 11 / 3]);
    expect(row(charts.stepDistribution, 'C')).toEqual(['C', 3, 3, 3, 3, 4, 5, 11 / 3]);
    const cost = row(charts.costDistribution, 'B') as number[];
    expect(cost[1]).toBe(3);
    [3, 3, 3, 3.5, 4, 10 / 3].forEach((steps, i) => expect(cost[i + 2]).toBeCloseTo(steps * COST_PER_STEP, 12));
  });

  it('counts tool calls per variant, busiest tool first (RepairAgent Fig. 10)', () => {
    expect(charts.toolUse.columns).toEqual(['tool', 'A', 'B', 'C']);
    expect(row(charts.toolUse, 'cat')).toEqual(['cat', 3, 3, 2]);
    expect(row(charts.toolUse, 'test')).toEqual(['test', 2, 1, 0]);
    expect(row(charts.toolUse, 'code_search')).toEqual(['code_search', 0, 0, 3]);
    const totals = charts.toolUse.rows.map((r) => (r.slice(1) as number[]).reduce((a, b) => a + b, 0));
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
  });

  it('counts each command at each step index per variant (Passerine Fig. 8)', () => {
    // the longest run (searchy) has 5 steps
    expect(charts.commandsByStep.columns).toEqual(['variant', 'command', 'step 1', 'step 2', 'step 3', 'step 4', 'step 5']);
    const of = (variant: string, command: string) => charts.commandsByStep.rows.find((r) => r[0] === variant && r[1] === command);
    expect(of('A', 'cat')).toEqual(['A', 'cat', 3, 0, 0, 0, 0]);
    expect(of('A', 'test')).toEqual(['A', 'test', 0, 0, 2, 0, 0]);
    expect(of('C', 'code_search')).toEqual(['C', 'code_search', 1, 1, 1, 0, 0]);
    // rows are grouped by variant in the experiment's order
    expect([...new Set(charts.commandsByStep.rows.map((r) => r[0]))]).toEqual(['A', 'B', 'C']);
  });

  it('counts runs with each smell and its occurrences per variant', () => {
    expect(charts.smells.columns.slice(0, 6)).toEqual(['variant', 'runs', 'NO_TEST runs', 'NO_OP_CAT runs', 'CONSECUTIVE_SEARCH runs', 'CONSECUTIVE_EDITS runs']);
    expect(row(charts.smells, 'A').slice(0, 6)).toEqual(['A', 3, 1, 0, 0, 0]);
    expect(row(charts.smells, 'C').slice(0, 6)).toEqual(['C', 3, 3, 0, 1, 0]);
  });

  it('lays out valid@k per k and variant from the summary', () => {
    expect(charts.validAtK.columns).toEqual(['k', 'A', 'B', 'C']);
    // valid = plausible and an AST match with the developers' fix: both of A's fixes, B's one, none of C's
    expect(charts.validAtK.rows).toEqual([[1, 2 / 3, 1 / 3, 0]]);
  });
});
