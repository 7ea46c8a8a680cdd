// JUnit 3 / 4 / 5 projects, dependents recompiled after an API change, coverage + Ochiai, and 50 concurrent validations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import { ochiai } from '../../../worker/runner-client/ochiai.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { startTestRunner, type TestRunner, distinctJava } from './helpers.ts';
import { BUGGY_CALC, CALC, FIXED_CALC, JUNIT3_PROJECT, JUNIT4_PROJECT, JUNIT5_PROJECT, LAYOUT } from './projects.ts';

let runner: TestRunner;
let client: RunnerClient;

beforeAll(async () => {
  runner = await startTestRunner({ workers: 2 });
  client = new RunnerClient({ url: runner.url, token: runner.token });
});
afterAll(async () => {
  await runner?.stop();
});

describe('JUnit flavours', () => {
  it('runs JUnit 3 TestCase classes', async () => {
    const ws = new FakeWorkspace(JUNIT3_PROJECT);
    const layout = { ...LAYOUT, junit: 'junit3' as const };
    const buggy = await client.validate(ws, layout, { mode: 'failing-first', tests: ['demo.CalcTest::testAdd'] });
    expect(buggy.failingTests).toEqual(['demo.CalcTest::testAdd']);
    expect(buggy.tests[0]!.failure!.exception).toBe('junit.framework.AssertionFailedError');
    await ws.write(CALC, FIXED_CALC);
    const fixed = await client.validate(ws, layout, { mode: 'failing-first', tests: ['demo.CalcTest::testAdd'] });
    expect(fixed.plausible).toBe(true);
    expect(fixed.tests.map((t) => t.id).sort()).toEqual(['demo.CalcTest::testAdd', 'demo.CalcTest::testMul']);
  });

  it('runs JUnit 5 Jupiter tests (parameterized folded into one id) and vintage JUnit 4 tests', async () => {
    const ws = new FakeWorkspace(JUNIT5_PROJECT);
    const layout = { ...LAYOUT, junit: 'junit5' as const };
    for (const path of ['warm', 'cold'] as const) {
      const all = await client.validate(ws, layout, { mode: 'all' }, { path });
      expect(all.tests.map((t) => `${t.id}:${t.status}`).sort()).toEqual([
        'demo.CalcTest::add:fail',
        'demo.CalcTest::mulByOne:pass',
        'demo.LegacyTest::mul:pass',
      ]);
      expect(all.tests.find((t) => t.id === 'demo.CalcTest::add')!.failure!.exception).toBe('org.opentest4j.AssertionFailedError');
    }
    await ws.write(CALC, FIXED_CALC);
    const fixed = await client.validate(ws, layout, { mode: 'failing-first', tests: ['demo.CalcTest::add'] });
    expect(fixed.plausible).toBe(true);
  });
});

describe('warm compilation', () => {
  it('recompiles dependents when a patch changes an API (a constant inlined into a test)', async () => {
    const base = {
      [CALC]: BUGGY_CALC.replace('public class Calc {', 'public class Calc {\n  public static final int LIMIT = 10;\n'),
      'src/test/java/demo/LimitTest.java': `package demo;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class LimitTest {
  @Test
  public void limit() {
    assertEquals(20, Calc.LIMIT);
  }
}
`,
    };
    const ws = new FakeWorkspace(base);
    const before = await client.validate(ws, LAYOUT, { mode: 'listed', tests: ['demo.LimitTest::limit'] }, { path: 'warm' });
    expect(before.tests[0]!.status).toBe('fail');
    // javac inlines LIMIT into LimitTest: compiling Calc alone would leave the test seeing 10
    await ws.write(CALC, base[CALC]!.replace('LIMIT = 10', 'LIMIT = 20'));
    const after = await client.validate(ws, LAYOUT, { mode: 'listed', tests: ['demo.LimitTest::limit'] }, { path: 'warm' });
    expect(after.path).toBe('warm');
    expect(after.tests[0]!.status).toBe('pass');
  });

  it('never reuses a previous patch when patches alternate (compile errors included)', async () => {
    const ws = new FakeWorkspace(JUNIT4_PROJECT);
    const failing = { mode: 'failing-first' as const, tests: ['demo.CalcTest::add'] };
    const patches = [FIXED_CALC, BUGGY_CALC.replace('a - b', 'a +'), BUGGY_CALC.replace('a - b', 'b - a'), FIXED_CALC, BUGGY_CALC.replace('a - b', 'a +')];
    const verdicts: string[] = [];
    for (const [i, patch] of patches.entries()) {
      await ws.write(CALC, `${patch}// alternation ${i}\n`);
      const r = await client.validate(ws, LAYOUT, failing, { path: 'warm' });
      verdicts.push(r.compiled ? (r.plausible ? 'plausible' : 'fails') : `compile-error@${r.diagnostics[0]?.line}`);
    }
    expect(verdicts).toEqual(['plausible', 'compile-error@5', 'fails', 'plausible', 'compile-error@5']);
  });

  it('compiles a patched test against a class that an earlier patch compiled from source', async () => {
    // regression: a reused javac context forgot baseline classes it had once compiled from source
    const ws = new FakeWorkspace(JUNIT4_PROJECT);
    await ws.write(CALC, FIXED_CALC);
    const first = await client.validate(ws, LAYOUT, { mode: 'all' }, { path: 'warm' });
    expect(first.compiled).toBe(true);
    const testFile = Object.keys(JUNIT4_PROJECT).find((p) => p.includes('/test/'))!;
    ws.revert();
    await ws.write(testFile, `${JUNIT4_PROJECT[testFile]}// touched, Calc unpatched\n`);
    // (a trusted edit of a test file: what this checks is the warm compile)
    const second = await client.validate(ws, LAYOUT, { mode: 'all' }, { path: 'warm', testEdits: 'any' });
    expect(second.diagnostics).toEqual([]);
    expect(second.compiled).toBe(true);
    expect(second.failingTests).toEqual(['demo.CalcTest::add']);
  });

  it("compiles against the layout's --release API, warm as cold", async () => {
    // String.isBlank() came with Java 11: a Java 8 project must not see it (the warm path resolves --release itself)
    const patch = BUGGY_CALC.replace('return a - b;', 'return "".isBlank() ? a + b : 0;');
    const verdicts: string[] = [];
    for (const javaRelease of [8, 11]) {
      for (const path of ['warm', 'cold'] as const) {
        const ws = new FakeWorkspace(JUNIT4_PROJECT);
        await ws.write(CALC, patch);
        const r = await client.validate(ws, { ...LAYOUT, javaRelease }, { mode: 'listed', tests: ['demo.CalcTest::add'] }, { path });
        expect(r.path).toBe(path);
        verdicts.push(`${javaRelease} ${path}: ${r.compiled ? r.tests[0]!.status : r.diagnostics.map((d) => `${d.line} ${d.message.split('\n')[0]}`).join('; ')}`);
      }
    }
    expect(verdicts).toEqual(['8 warm: 5 cannot find symbol', '8 cold: 5 cannot find symbol', '11 warm: pass', '11 cold: pass']);
  });

  it('starts each test class uninterrupted even when an earlier one left its interrupt flag set', async () => {
    const ws = new FakeWorkspace({
      [CALC]: FIXED_CALC,
      'src/test/java/demo/AInterruptsTest.java': `package demo;

import org.junit.AfterClass;
import org.junit.Test;

public class AInterruptsTest {
  @Test
  public void leavesFlagSet() {}

  @AfterClass
  public static void interrupt() {
    // JUnit clears the flag after each test, not after class-level methods
    Thread.currentThread().interrupt();
  }
}
`,
      'src/test/java/demo/BSleepsTest.java': `package demo;

import org.junit.Test;

public class BSleepsTest {
  @Test
  public void sleeps() throws InterruptedException {
    Thread.sleep(1);
  }
}
`,
    });
    for (const path of ['warm', 'cold'] as const) {
      const r = await client.validate(ws, LAYOUT, { mode: 'all' }, { path });
      expect(r.tests.map((t) => `${t.id}:${t.status}`)).toEqual(['demo.AInterruptsTest::leavesFlagSet:pass', 'demo.BSleepsTest::sleeps:pass']);
    }
  });

  it('loads each validation in a fresh classloader (static state does not leak)', async () => {
    const base = {
      [CALC]: BUGGY_CALC.replace('public class Calc {', 'public class Calc {\n  public static int calls = 0;\n'),
      'src/test/java/demo/StaticTest.java': `package demo;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class StaticTest {
  @Test
  public void firstCall() {
    Calc.calls++;
    assertEquals(1, Calc.calls);
  }
}
`,
    };
    for (let i = 0; i < 3; i++) {
      const ws = new FakeWorkspace(base);
      await ws.write(CALC, `${base[CALC]}// variant ${i}\n`);
      const r = await client.validate(ws, LAYOUT, { mode: 'all' }, { path: 'warm' });
      expect(r.tests[0]!.status).toBe('pass');
    }
  });
});

describe('coverage and Ochiai', () => {
  it('collects per-test line coverage and ranks the buggy line first', async () => {
    const ws = new FakeWorkspace({
      [CALC]: BUGGY_CALC,
      'src/test/java/demo/CalcTest.java': JUNIT4_PROJECT['src/test/java/demo/CalcTest.java']!,
    });
    const r = await client.validate(ws, LAYOUT, { mode: 'all' }, { coverage: true });
    expect(r.coverage).toBeDefined();
    const add = r.coverage!.find((c) => c.test === 'demo.CalcTest::add')!;
    expect(add.passed).toBe(false);
    expect(add.lines[CALC]).toContain(5); // `return a - b;`
    expect(add.lines[CALC]).not.toContain(9);
    const ranking = ochiai(r.coverage!);
    expect(ranking[0]).toMatchObject({ file: CALC, line: 5, score: 1 });
  });
});

describe('concurrency', () => {
  it('answers 50 concurrent validations correctly', async () => {
    const jobs = Array.from({ length: 50 }, (_, i) => {
      const ws = new FakeWorkspace(JUNIT4_PROJECT);
      const good = i % 2 === 0;
      // distinct content per request, so none is served from the cache
      void ws.write(CALC, distinctJava(`${good ? FIXED_CALC : BUGGY_CALC}// concurrent variant ${i}\n`));
      return client.validate(ws, LAYOUT, { mode: 'failing-first', tests: ['demo.CalcTest::add'] }).then((r) => ({ good, r }));
    });
    const results = await Promise.all(jobs);
    for (const { good, r } of results) {
      expect(r.cached).toBe(false);
      expect(r.plausible).toBe(good);
      expect(r.failingTests).toEqual(good ? [] : ['demo.CalcTest::add']);
    }
  });
});
