// The tests that define the bug are not the patch's to change (issue 27), against the real runner (bubblewrap, javac,
// JUnit): the attacks a hostile model made — the failing test's expectation changed, @Ignore, assumeTrue(false), a
// test class deleted under tests "all", a test class added whose @RunWith runner reports passes for other classes —
// are refused with 400 test-edit under testEdits "none" (the default) on the warm and the cold path, on /v1/validate
// and /v1/validate-batch, before anything is compiled; under "add" an added class runs and edits and deletions are
// still refused; "any" (a person's own patch) lets them through.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestEdits } from '../../../worker/contracts/test-edits.ts';
import type { TestSelection } from '../../../worker/contracts/runner-api.ts';
import { RunnerError } from '../../../worker/runner-client/client.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { BUGGY_CALC, CALC, FIXED_CALC, JUNIT4_PROJECT, LAYOUT } from './projects.ts';

const CALC_TEST = 'src/test/java/demo/CalcTest.java';
const ORIGINAL = JUNIT4_PROJECT[CALC_TEST]!;
const FAILING: TestSelection = { mode: 'failing-first', tests: ['demo.CalcTest::add'] };

/** A runner that answers "pass" for every test of CalcTest and MoreTest without running them. */
const FORGING_RUNNER = `package demo;

import org.junit.runner.Description;
import org.junit.runner.RunWith;
import org.junit.runner.Runner;
import org.junit.runner.notification.RunNotifier;

@RunWith(AllPass.Forger.class)
public class AllPass {
  public static class Forger extends Runner {
    public Forger(Class<?> c) {}
    private static final String[][] TESTS = {{"demo.CalcTest", "add"}, {"demo.CalcTest", "mul"}, {"demo.MoreTest", "mulByZero"}};
    @Override public Description getDescription() {
      Description d = Description.createSuiteDescription("demo.AllPass");
      for (String[] t : TESTS) d.addChild(Description.createTestDescription(t[0], t[1]));
      return d;
    }
    @Override public void run(RunNotifier n) {
      for (Description d : getDescription().getChildren()) { n.fireTestStarted(d); n.fireTestFinished(d); }
    }
  }
}
`;

/** What a hostile model sent: each overlay, the tests it asked for, and the file its refusal must name. */
const ATTACKS: { name: string; overlay: Record<string, string | null>; tests: TestSelection; names: string; says: RegExp }[] = [
  { name: "changes the failing test's expectation", overlay: { [CALC_TEST]: ORIGINAL.replace('assertEquals(5, Calc.add(2, 3))', 'assertEquals(-1, Calc.add(2, 3))') }, tests: FAILING, names: CALC_TEST, says: /edits src\/test\/java\/demo\/CalcTest\.java, one of the bug's tests/ },
  { name: 'adds @Ignore', overlay: { [CALC_TEST]: ORIGINAL.replace('@Test\n  public void add()', '@org.junit.Ignore @Test\n  public void add()') }, tests: FAILING, names: CALC_TEST, says: /edits src\/test\/java\/demo\/CalcTest\.java/ },
  { name: 'adds assumeTrue(false)', overlay: { [CALC_TEST]: ORIGINAL.replace('public void add() {', 'public void add() {\n    org.junit.Assume.assumeTrue(false);') }, tests: FAILING, names: CALC_TEST, says: /edits src\/test\/java\/demo\/CalcTest\.java/ },
  { name: 'deletes a test class under tests "all"', overlay: { [CALC_TEST]: null }, tests: { mode: 'all' }, names: CALC_TEST, says: /deletes src\/test\/java\/demo\/CalcTest\.java, one of the bug's tests/ },
  { name: 'adds a test class whose @RunWith runner reports passes for other classes', overlay: { 'src/test/java/demo/AllPass.java': FORGING_RUNNER }, tests: { mode: 'all' }, names: 'src/test/java/demo/AllPass.java', says: /adds the test file src\/test\/java\/demo\/AllPass\.java/ },
];

const testRunner = useTestRunner({ workers: 1 });

function workspace(overlay: Record<string, string | null>): FakeWorkspace {
  const ws = new FakeWorkspace(JUNIT4_PROJECT);
  ws.setOverlay(overlay);
  return ws;
}

/** The runner's refusal of a call: 400 test-edit, naming the file, saying why and what to do. */
async function refusal(call: Promise<unknown>): Promise<RunnerError & { serverCode?: string }> {
  const e = (await call.then(() => undefined, (err: unknown) => err)) as RunnerError & { serverCode?: string };
  expect(e, 'the runner accepted it').toBeInstanceOf(RunnerError);
  expect(e.status).toBe(400);
  expect(e.serverCode).toBe('test-edit');
  return e;
}

async function noColdWork(): Promise<void> {
  const work = path.join(testRunner.runner.dataDir, 'work');
  expect((await readdir(work).catch(() => [])).filter((d) => d.startsWith('cold-'))).toEqual([]);
}

describe.each(['warm', 'cold'] as const)('under testEdits "none" (the default), on the %s path', (p) => {
  it.each(ATTACKS)('refuses an overlay that $name', async ({ overlay, tests, names, says }) => {
    const { client } = testRunner;
    // the default: no testEdits in the request
    const single = await refusal(client.validate(workspace(overlay), LAYOUT, tests, { path: p }));
    expect(single.message).toContain(names);
    expect(single.message).toMatch(says);
    expect(single.message).toMatch(/The tests define the bug: under testEdits "none" \(the default\) a patch may change program files only/);
    expect(single.message).toMatch(/Leave the tests as they are; send testEdits "add" to add new test files, or "any" only for a trusted patch/);
    expect((single.detail as { files: { path: string }[] }).files.map((f) => f.path)).toEqual([names]);
    await refusal(client.validate(workspace(overlay), LAYOUT, tests, { path: p, testEdits: 'none' }));
    // the batch endpoint: one hostile variant among honest ones refuses the request
    const batch = await refusal(client.validateBatch([workspace({ [CALC]: FIXED_CALC }), workspace({ [CALC]: FIXED_CALC, ...overlay })], LAYOUT, tests, { path: p }));
    expect(batch.message).toMatch(says);
    await noColdWork();
  });

  it('validates the program fix right afterwards', async () => {
    const r = await testRunner.client.validate(workspace({ [CALC]: `// after the refusals\n${FIXED_CALC}` }), LAYOUT, FAILING, { path: p });
    expect(r.plausible).toBe(true);
    expect(r.tests.map((t) => t.id).sort()).toEqual(['demo.CalcTest::add', 'demo.CalcTest::mul', 'demo.MoreTest::mulByZero']);
  });
});

describe.each(['warm', 'cold'] as const)('under testEdits "add", on the %s path', (p) => {
  const REPRO = 'src/test/java/demo/ReproTest.java';
  const repro = `package demo;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class ReproTest {
  @Test
  public void addsNegatives() {
    assertEquals(-5, Calc.add(-2, -3));
  }
}
`;

  it('runs an added test class with the suite', async () => {
    const { client } = testRunner;
    const buggy = await client.validate(workspace({ [REPRO]: repro }), LAYOUT, { mode: 'all' }, { path: p, testEdits: 'add' });
    expect(buggy.tests.find((t) => t.id === 'demo.ReproTest::addsNegatives')?.status).toBe('fail');
    expect(buggy.plausible).toBe(false);
    const [fixed] = await client.validateBatch([workspace({ [CALC]: FIXED_CALC, [REPRO]: repro })], LAYOUT, { mode: 'all' }, { path: p, testEdits: 'add' });
    expect(fixed!.tests.find((t) => t.id === 'demo.ReproTest::addsNegatives')?.status).toBe('pass');
    expect(fixed!.tests).toHaveLength(4);
    expect(fixed!.plausible).toBe(true);
  });

  it.each(ATTACKS.filter((a) => !a.name.startsWith('adds a test class')))('still refuses an overlay that $name', async ({ overlay, tests, says }) => {
    const { client } = testRunner;
    const e = await refusal(client.validate(workspace({ ...overlay, [REPRO]: repro }), LAYOUT, tests, { path: p, testEdits: 'add' }));
    expect(e.message).toMatch(says);
    expect(e.message).not.toContain(REPRO);
    expect(e.message).toMatch(/under testEdits "add" a patch may add test files of its own, but not edit, delete, replace or hide existing ones/);
    await refusal(client.validateBatch([workspace({ [REPRO]: repro }), workspace(overlay)], LAYOUT, tests, { path: p, testEdits: 'add' }));
  });

  it('refuses an added file that takes the name of an existing class (it would replace or hide it)', async () => {
    const { client } = testRunner;
    const standIn = await refusal(client.validate(workspace({ 'src/test/java/demo/Calc.java': FIXED_CALC }), LAYOUT, FAILING, { path: p, testEdits: 'add' }));
    expect(standIn.message).toContain('adds src/test/java/demo/Calc.java, which takes the name of src/main/java/demo/Calc.java and would replace or hide it');
    expect(standIn.message).toContain('Give the new file a name no existing class or resource has.');
    // a program class named like the test would run instead of it: refused whatever the policy short of any
    for (const testEdits of ['none', 'add'] as const) {
      const hidden = await refusal(client.validate(workspace({ 'src/main/java/demo/CalcTest.java': 'package demo;\npublic class CalcTest {}\n' }), LAYOUT, FAILING, { path: p, testEdits }));
      expect(hidden.message).toContain('which takes the name of src/test/java/demo/CalcTest.java');
    }
    await noColdWork();
  });
});

describe('under testEdits "any" (a person\'s own patch)', () => {
  it.each(['warm', 'cold'] as const)('lets a changed expectation through on the %s path: the check is what stands between it and a pass', async (p) => {
    const overlay = ATTACKS[0]!.overlay;
    const r = await testRunner.client.validate(workspace(overlay), LAYOUT, FAILING, { path: p, testEdits: 'any' satisfies TestEdits });
    expect(r.compiled).toBe(true);
    expect(r.plausible).toBe(true);
    expect(BUGGY_CALC).toContain('a - b'); // with the bug still in place
  });
});
