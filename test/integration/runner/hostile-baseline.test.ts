// A snapshot that does not compile as it is (no overlay): the verdict shows javac's errors on both paths, instead
// of "Compilation failed: 0 error(s)" with no diagnostics (issue 15).
import { describe, expect, it } from 'vitest';
import { FakeWorkspace } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { BUGGY_CALC, CALC, JUNIT4_PROJECT, LAYOUT } from './projects.ts';

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
