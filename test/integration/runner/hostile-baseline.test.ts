// A snapshot that does not compile as it is (no overlay): the verdict shows javac's errors on both paths, instead
// of "Compilation failed: 0 error(s)" with no diagnostics (issue 15). And a compile stopped before javac printed any
// error (the wall clock) names why (issue 27).
import { describe, expect, it } from 'vitest';
import { FakeWorkspace } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { BUGGY_CALC, CALC, FIXED_CALC, JUNIT4_PROJECT, LAYOUT } from './projects.ts';

const testRunner = useTestRunner({ workers: 1 });

describe.each(['warm', 'cold'] as const)('a baseline that does not compile, on the %s path', (path) => {
  it('reports its compile errors with file, line and message', async () => {
    const broken = { ...JUNIT4_PROJECT, [CALC]: BUGGY_CALC.replace('return a - b;', 'return a - b') };
    const r = await testRunner.client.validate(new FakeWorkspace(broken), LAYOUT, { mode: 'failing-first', tests: ['demo.CalcTest::add'] }, { path });
    expect(r.compiled).toBe(false);
    expect(r.plausible).toBe(false);
    expect(r.diagnostics).toEqual(expect.arrayContaining([expect.objectContaining({ file: CALC, line: 5, kind: 'error' })]));
    expect(r.report).toMatch(/Compilation failed: [1-9]\d* error\(s\)\n {2}src\/main\/java\/demo\/Calc\.java:5: /);
  });
});

describe('a compile the wall clock stops', () => {
  it('names the wall clock in a diagnostic instead of "0 error(s)"', async () => {
    // thousands of member classes keep javac busy for seconds; the wall clock of 1 ms gives it the minimum second
    const members = Array.from({ length: 4000 }, (_, i) => `  static class C${i} { int f${i} = ${i}; }\n`).join('');
    const ws = new FakeWorkspace(JUNIT4_PROJECT);
    await ws.write(CALC, FIXED_CALC.replace(/}\n$/, `${members}}\n`));
    const r = await testRunner.client.validate(ws, LAYOUT, { mode: 'all' }, { path: 'cold', limits: { wallClockMs: 1 } });
    expect(r.compiled).toBe(false);
    expect(r.stopped).toBe('wall-clock');
    const errors = r.diagnostics.filter((d) => d.kind === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]!.message).toMatch(/^javac did not finish compiling the main sources within the wall clock \(1 ms\): raise limits\.wallClockMs/);
    expect(r.report).toMatch(/^Compilation failed: 1 error\(s\)\n {2}javac did not finish/);
  });
});
