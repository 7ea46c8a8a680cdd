// POST /v1/validate-batch: write_fix's variants validated in one request. Variants that differ only inside method
// bodies of one file share one compile (the harness's VariantMerge + VariantSpecializer); every verdict must equal
// what /v1/validate answers for the same variant alone — statuses, diagnostics, and failure frames with the
// variant's own method names and line numbers.
import { describe, expect, it } from 'vitest';
import type { ValidationResult } from '../../../worker/contracts/runner-api.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { CALC as JUNIT4_CALC, FIXED_CALC, JUNIT4_PROJECT, LAYOUT } from './projects.ts';

const CALC = 'src/main/java/demo/Calc.java';
const BUGGY = `package demo;

/** Small arithmetic helpers. */
public class Calc {
  private static int calls;

  public static int add(int a, int b) {
    calls++;
    return a - b;
  }

  public static int mul(int a, int b) {
    return a * b;
  }

  public int scaled(int x) {
    return x * factor();
  }

  int factor() {
    return 2;
  }

  /** A member class: its methods can be variants too. */
  public static final class Clamp {
    public static int clamp(int x, int lo, int hi) {
      return x < lo ? lo : x > hi ? hi : x;
    }
  }
}
`;

const TESTS = {
  'src/test/java/demo/CalcTest.java': `package demo;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class CalcTest {
  @Test
  public void add() {
    assertEquals(5, Calc.add(2, 3));
  }

  @Test
  public void mul() {
    assertEquals(6, Calc.mul(2, 3));
  }

  @Test
  public void scaled() {
    assertEquals(8, new Calc().scaled(4));
  }

  @Test
  public void clamp() {
    assertEquals(3, Calc.Clamp.clamp(9, 0, 3));
  }
}
`,
};

const addBody = (body: string) => BUGGY.replace('    calls++;\n    return a - b;', body);

/** Variants of one fix; the comment says what each exercises. */
const VARIANTS: Array<{ name: string; content: string; merges: boolean }> = [
  { name: 'the fix', content: addBody('    calls++;\n    return a + b;'), merges: true },
  { name: 'still wrong', content: addBody('    calls++;\n    return a - b + 0;'), merges: true },
  {
    name: 'throws from a longer body (frame line inside the copy)',
    content: addBody('    calls++;\n    int s = a + b;\n    if (s == 5) {\n      throw new IllegalStateException("five");\n    }\n    return s;'),
    merges: true,
  },
  {
    name: 'a longer add and a mul that throws (lines after a replaced body shift)',
    content: addBody('    calls++;\n    int s = a;\n    s += b;\n    return s;').replace('    return a * b;', '    throw new ArithmeticException("mul " + a);'),
    merges: true,
  },
  { name: 'instance method calling another', content: addBody('    return a + b;').replace('return x * factor();', 'return x * factor() * factor();'), merges: true },
  { name: 'a member class method', content: addBody('    return a + b;').replace('return x < lo ? lo : x > hi ? hi : x;', 'return Math.max(lo, x);'), merges: true },
  { name: 'comments and spacing outside bodies differ', content: addBody('    calls++;\n    return b + a;').replace('/** Small arithmetic helpers. */', '// helpers').replace('  private static int calls;', '  private   static int calls; // counted') + '\n// end\n', merges: true },
  { name: 'an extra line outside bodies: alone (its lines would shift)', content: addBody('    return a + b;').replace('/** Small arithmetic helpers. */', '/**\n * Small arithmetic helpers.\n */'), merges: false },
  { name: 'a compile error in the body', content: addBody('    calls++;\n    return a + ;'), merges: false },
  // a variant that does not compile is answered from the failed merged compile when its diagnostics can be read off it
  { name: 'an unknown symbol in the body', content: addBody('    return a + missing;'), merges: true },
  { name: 'a parameter declared again (the message names the method): alone', content: addBody('    int a = 0;\n    return a + b;'), merges: false },
  { name: 'a missing return (found by flow analysis, after the others were cleared)', content: addBody('    calls++;'), merges: true },
  { name: 'a new field (outside bodies): alone', content: addBody('    return a + b + EXTRA;').replace('  private static int calls;', '  private static int calls;\n  private static final int EXTRA = 0;'), merges: false },
  { name: 'a lambda in the body: alone', content: addBody('    java.util.function.IntBinaryOperator op = (x, y) -> x + y;\n    return op.applyAsInt(a, b);'), merges: false },
  // variants that differ from the first in one body are parsed body-only: braces in strings and comments are text
  { name: 'braces in a string and a comment', content: addBody('    calls++;\n    String s = "}{"; // }\n    return a + b + s.length() - 2;'), merges: true },
  {
    name: 'a body that closes early and declares a method: alone (its declarations differ)',
    content: addBody('    return a + b;\n  }\n\n  public static int extra() {\n    return 0;'),
    merges: false,
  },
  { name: 'a block comment that swallows the closing brace', content: addBody('    return a + b; /* }'), merges: false },
  // …and variants that differ from the first only after the last declaration are parsed tail-only
  { name: 'the fix with a trailing comment', content: `${addBody('    calls++;\n    return a + b;')}// reviewed { twice\n/* and } again */\n`, merges: true },
  { name: 'the fix and a second top-level class after it: alone', content: `${addBody('    calls++;\n    return a + b;')}class Extra {}\n`, merges: false },
  { name: 'a module declaration after the class: alone', content: `${addBody('    calls++;\n    return a + b;')}module m {}\n`, merges: false },
  // javac counts a lone carriage return as a line break; merged line bookkeeping counts line feeds
  { name: 'a lone carriage return in a body: alone', content: addBody('    calls++;\r    int s = a + b;\r    if (s == 5) throw new IllegalStateException("five");\n    return s;'), merges: false },
];

// one worker: the whole batch is one harness exchange, so which variants merge does not depend on how it is split
const testRunner = useTestRunner({ workers: 1 });

/** What a verdict says, without timings and bookkeeping. */
function verdict(r: ValidationResult) {
  return {
    compiled: r.compiled,
    plausible: r.plausible,
    stopped: r.stopped,
    failingTests: r.failingTests,
    report: r.report,
    diagnostics: r.diagnostics.map((d) => ({ file: d.file, line: d.line, kind: d.kind, message: d.message })),
    tests: r.tests.map((t) => ({ id: t.id, status: t.status, failure: t.failure })),
  };
}

describe('batched variants', () => {
  it('answers every variant exactly as a validation of it alone does, sharing one compile where bodies differ', async () => {
    const base = new FakeWorkspace({ [CALC]: BUGGY, ...TESTS });
    const forks = VARIANTS.map((v) => {
      const ws = base.fork();
      ws.setOverlay({ [CALC]: v.content });
      return ws;
    });
    const tests = { mode: 'failing-first' as const, tests: ['demo.CalcTest::add'] };
    const batch = await testRunner.client.validateBatch(forks, LAYOUT, tests, { path: 'warm' });
    // a per-test timeout of each its own keeps the single validations out of the batch's cache entries and out of each
    // other's: variants equal after normalisation (comments, layout) would otherwise share one verdict (verdict-cache.ts)
    const alone = await Promise.all(forks.map((ws, i) => testRunner.client.validate(ws, LAYOUT, tests, { path: 'warm', limits: { perTestTimeoutMs: 9_999 - i } })));
    expect(alone.every((r) => !r.cached && r.compiledWith === undefined)).toBe(true);
    VARIANTS.forEach((v, i) => {
      expect(verdict(batch[i]!), v.name).toEqual(verdict(alone[i]!));
      expect(batch[i]!.compiledWith !== undefined, `${v.name}: compiled together`).toBe(v.merges);
    });

    // the verdicts are the variants' own, not merely equal to each other
    const at = (name: string) => VARIANTS.findIndex((v) => v.name.startsWith(name));
    const of = (name: string) => batch[at(name)]!;
    const lineOf = (name: string, needle: string) => VARIANTS[at(name)]!.content.split('\n').findIndex((l) => l.includes(needle)) + 1;
    expect(of('the fix').plausible).toBe(true);
    expect(of('still wrong').failingTests).toEqual(['demo.CalcTest::add']);
    expect(of('throws').tests[0]!.failure!.frames[0]).toBe(`at demo.Calc.add(Calc.java:${lineOf('throws', 'IllegalStateException')})`);
    const mul = of('a longer add').tests.find((t) => t.id === 'demo.CalcTest::mul')!;
    expect(mul.failure!.frames[0]).toBe(`at demo.Calc.mul(Calc.java:${lineOf('a longer add', 'ArithmeticException')})`);
    expect(of('instance method').failingTests).toEqual(['demo.CalcTest::scaled']);
    expect(of('a member class').failingTests).toEqual(['demo.CalcTest::clamp']);
    expect(of('comments').plausible).toBe(true);
    expect(of('an extra line').plausible).toBe(true);
    expect(of('a compile error').compiled).toBe(false);
    expect(of('a compile error').diagnostics.find((d) => d.kind === 'error')!.line).toBe(lineOf('a compile error', 'a + ;'));
    expect(of('an unknown symbol').diagnostics.some((d) => /missing/.test(d.message))).toBe(true);
    expect(of('a new field').plausible).toBe(true);
    expect(of('a lambda').plausible).toBe(true);
    expect(of('braces in a string').plausible).toBe(true);
    expect(of('a body that closes early').plausible).toBe(true);
    expect(of('a block comment').compiled).toBe(false);
    expect(of('the fix with a trailing comment').plausible).toBe(true);
    expect(of('the fix and a second').plausible).toBe(true);
    expect(of('a module declaration').compiled).toBe(false);
    expect(of('a lone carriage return').failingTests).toEqual(['demo.CalcTest::add']);
  });

  it('does not read verdicts off a failed merged compile whose reused javac context may be stale', async () => {
    // a patch compiles Calc from source in the worker's reused javac context; variants of a test file then compile
    // against the baseline Calc, which such a context may no longer find: its errors are confirmed variant by variant
    // (only the varying test body names Calc: an error in shared code would send every variant alone anyway)
    const testFile = 'src/test/java/demo/CalcTest.java';
    const project = { ...JUNIT4_PROJECT, [testFile]: JUNIT4_PROJECT[testFile]!.replace('assertEquals(6, Calc.mul(2, 3));', 'assertEquals(6, 2 * 3);') };
    const ws = new FakeWorkspace(project);
    await ws.write(JUNIT4_CALC, FIXED_CALC);
    expect((await testRunner.client.validate(ws, LAYOUT, { mode: 'all' }, { path: 'warm' })).compiled).toBe(true);
    const variant = (body: string) => {
      const v = new FakeWorkspace(project);
      v.setOverlay({ [testFile]: project[testFile]!.replace('assertEquals(5, Calc.add(2, 3));', body) });
      return v;
    };
    const batch = await testRunner.client.validateBatch(
      [variant('assertEquals(5, Calc.add(3, 2));'), variant('assertEquals(5, Calc.add(2, 3) + missing);')],
      LAYOUT,
      { mode: 'all' },
      // (trusted variants of a test file: what this checks is the merged compile)
      { path: 'warm', testEdits: 'any' },
    );
    expect(batch[0]!.compiled).toBe(true);
    expect(batch[0]!.failingTests).toEqual(['demo.CalcTest::add']);
    expect(batch[1]!.compiled).toBe(false);
    expect(batch[1]!.diagnostics.filter((d) => d.kind === 'error').map((d) => d.message.split('\n')[1]?.trim())).toEqual(['symbol:   variable missing']);
  });

  it('answers cached variants from the cache and keeps request order', async () => {
    const base = new FakeWorkspace({ [CALC]: BUGGY, ...TESTS });
    const make = (content: string) => {
      const ws = base.fork();
      ws.setOverlay({ [CALC]: content });
      return ws;
    };
    const tests = { mode: 'all' as const };
    const first = await testRunner.client.validate(make(VARIANTS[1]!.content), LAYOUT, tests);
    const batch = await testRunner.client.validateBatch([make(VARIANTS[0]!.content), make(VARIANTS[1]!.content), make(VARIANTS[2]!.content)], LAYOUT, tests);
    expect(batch.map((r) => r.cached)).toEqual([false, true, false]);
    expect(verdict(batch[1]!)).toEqual(verdict(first));
    expect(batch[0]!.plausible).toBe(true);
    expect(batch[2]!.failingTests).toEqual(['demo.CalcTest::add']);
  });

  it('refuses a batch without overlays and workspaces of different base trees', async () => {
    const res = await fetch(`${testRunner.runner.url}/v1/validate-batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${testRunner.runner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ treeId: '0'.repeat(40), overlays: [], layout: LAYOUT, tests: { mode: 'all' } }),
    });
    expect(res.status).toBe(400);
    const a = new FakeWorkspace({ [CALC]: BUGGY, ...TESTS });
    const b = new FakeWorkspace({ [CALC]: BUGGY.replace('Small', 'Tiny'), ...TESTS });
    await expect(testRunner.client.validateBatch([a, b], LAYOUT, { mode: 'all' })).rejects.toThrow(/one base tree/);
  });
});
