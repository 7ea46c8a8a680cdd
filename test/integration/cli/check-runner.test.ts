// The runner `defects4j check` starts gives tests a heap as Defects4J's runs have (the JVM's default, a quarter of
// the machine's memory): with the runner's default 512 MB, Closure-12's fix ran out of memory in its 7,607-test suite
// (`os::commit_memory … Not enough space`), a crash the check reported as the fix's failure.
import { describe, expect, it } from 'vitest';
import { CHECK_RUNNER } from '../../../worker/cli/defects4j-commands.ts';
import { withRunner } from '../../../worker/cli/node-lab.ts';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import { FakeWorkspace } from '../runner/fake-workspace.ts';
import { LAYOUT } from '../runner/projects.ts';

// holds 1 GB at once, as a suite whose tests keep what they built in static fields does
const PROJECT: Record<string, string> = {
  'src/main/java/demo/Big.java': 'package demo;\npublic class Big {\n  public static byte[][] held = new byte[10][];\n}\n',
  'src/test/java/demo/BigTest.java': `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class BigTest {
  @Test public void holdsAGigabyte() {
    for (int i = 0; i < Big.held.length; i++) Big.held[i] = new byte[100 * 1024 * 1024];
    assertEquals(10, Big.held.length);
  }
}
`,
};

const outcome = (started: { jit?: 'c1' | 'tiered'; heapMb?: number }) =>
  withRunner({}, async ({ url, token }) => {
    const r = await new RunnerClient({ url, token }).validate(new FakeWorkspace(PROJECT), LAYOUT, { mode: 'all' });
    return r.tests.map((t) => `${t.id} ${t.status}${t.failure ? ` ${t.failure.exception}` : ''}`);
  }, started);

describe("the runner defects4j check starts", () => {
  it('runs a test that holds 1 GB, which the runner\'s default heap does not', async () => {
    expect(await outcome(CHECK_RUNNER)).toEqual(['demo.BigTest::holdsAGigabyte pass']);
    expect(await outcome({ jit: CHECK_RUNNER.jit })).toEqual(['demo.BigTest::holdsAGigabyte error java.lang.OutOfMemoryError']);
  }, 240_000);
});
