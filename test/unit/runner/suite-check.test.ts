// The runner's cross-check of a would-be pass against the suite (runner/src/results.ts).
import { describe, expect, it } from 'vitest';
import type { TestSelection } from '../../../worker/contracts/runner-api.ts';
import { crossChecked, readHarnessAnswer, suiteMismatch, toValidationResult } from '../../../runner/src/results.ts';

const ids = Array.from({ length: 15 }, (_, i) => `demo.BigTest::t${i}`);
const pass = (id: string) => ({ id, status: 'pass', durationMs: 1 });

function answer(tests: string[], suite: Record<string, string[]>) {
  return readHarnessAnswer({ compiled: true, stopped: 'none', tests: tests.map(pass), suite });
}

describe('suiteMismatch / crossChecked', () => {
  const all = { mode: 'all' } as const;

  it('refuses a pass that lists 1 test of a suite of 15', () => {
    const a = answer([ids[0]!], { 'demo.BigTest': ids });
    expect(suiteMismatch(a, { testClasses: ['demo.BigTest'] })).toMatch(/14 of the suite's 15 tests have no result/);
    const r = toValidationResult(crossChecked(a, all, { testClasses: ['demo.BigTest'] }), all, 'warm', 1);
    expect(r.plausible).toBe(false);
    expect(r.stopped).toBe('crash');
    expect(r.report).toMatch(/verdict refused/);
  });

  it('refuses a pass whose own listing shrank the suite below what a clean run listed', () => {
    const a = answer([ids[0]!], { 'demo.BigTest': [ids[0]!] });
    expect(suiteMismatch(a, { testClasses: ['demo.BigTest'] })).toBeNull();
    expect(suiteMismatch(a, { testClasses: ['demo.BigTest'], ids })).toMatch(/accounts for 1 tests, the suite has 15/);
  });

  it('refuses a pass that leaves out a test class the runner compiled', () => {
    const a = answer(ids, { 'demo.BigTest': ids });
    expect(suiteMismatch(a, { testClasses: ['demo.BigTest', 'demo.OtherTest'] })).toMatch(/demo\.OtherTest/);
  });

  it('refuses a pass without a suite listing, with duplicate results, or with results outside the plan', () => {
    expect(suiteMismatch(readHarnessAnswer({ compiled: true, stopped: 'none', tests: ids.map(pass) }), { testClasses: [] })).toMatch(/did not list/);
    expect(suiteMismatch(answer([...ids, ids[0]!], { 'demo.BigTest': ids }), { testClasses: [] })).toMatch(/more than one result/);
    expect(suiteMismatch(answer([...ids, 'demo.Fake::x'], { 'demo.BigTest': ids }), { testClasses: [] })).toMatch(/outside the suite/);
  });

  it('lets a pass that accounts for every test through, and leaves failures and listed runs alone', () => {
    const a = answer(ids, { 'demo.BigTest': ids, 'demo.Helper': [] });
    expect(crossChecked(a, all, { testClasses: ['demo.BigTest', 'demo.Helper'], ids })).toBe(a);
    expect(toValidationResult(a, all, 'cold', 1).plausible).toBe(true);
    const listed: TestSelection = { mode: 'listed', tests: [ids[0]!] };
    const one = answer([ids[0]!], {});
    expect(crossChecked(one, listed, { testClasses: ['demo.BigTest'] })).toBe(one);
  });
});
