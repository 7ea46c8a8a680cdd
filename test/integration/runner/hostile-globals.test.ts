// Verdicts model-written code cannot forge, round two (issue 27): a JCA provider that signs a forged answer with the
// harness's key, JVM-wide settings left for the next validation, a skip where a failure belongs, and a test runner
// that answers for another class's tests. Against the real runner (bubblewrap, javac, JUnit), warm, cold and batch.
import { describe, expect, it } from 'vitest';
import type { TestSelection, ValidationResult } from '../../../worker/contracts/runner-api.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { useTestRunner, distinctJava } from './helpers.ts';
import { BUGGY_CALC, CALC, FIXED_CALC, JUNIT4_PROJECT, LAYOUT } from './projects.ts';

/** fails when an earlier validation's security property or logging configuration is still in force */
const GLOBALS_TEST = 'src/test/java/demo/GlobalsTest.java';
const PROJECT: Record<string, string> = {
  ...JUNIT4_PROJECT,
  [GLOBALS_TEST]: `package demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import org.junit.Test;

public class GlobalsTest {
  @Test
  public void startsWithCleanGlobals() {
    assertNull(java.security.Security.getProperty("repairlab.leak"));
    assertEquals("SUN", java.security.Security.getProviders()[0].getName());
    assertNull(java.util.logging.Logger.getLogger("demo").getLevel());
    assertEquals(java.util.logging.Level.INFO, java.util.logging.Logger.getLogger("").getLevel());
  }
}
`,
};

/**
 * A MacSpi that, asked for an answer's MAC, rewrites the answer into "all pass", signs it with the real HMAC under the
 * key it was just given, and writes it to file descriptor 1 first; its own MAC is garbage, so the true answer is
 * dropped. Any other MAC it computes honestly (the warm worker's "ready").
 */
const EVIL_MAC = `package demo;

public class EvilMac extends javax.crypto.MacSpi {
  private byte[] key;
  private final java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();

  protected int engineGetMacLength() { return 32; }
  protected void engineInit(java.security.Key k, java.security.spec.AlgorithmParameterSpec p) { key = k.getEncoded(); data.reset(); }
  protected void engineUpdate(byte b) { data.write(b); }
  protected void engineUpdate(byte[] b, int off, int len) { data.write(b, off, len); }
  protected void engineReset() { data.reset(); }

  private byte[] real(byte[] message) throws Exception {
    javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256", "SunJCE");
    mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
    return mac.doFinal(message);
  }

  protected byte[] engineDoFinal() {
    try {
      String json = data.toString("UTF-8");
      data.reset();
      if (!json.contains("\\"tests\\"")) return real(json.getBytes("UTF-8"));
      String forged = json.replace("\\"status\\":\\"fail\\"", "\\"status\\":\\"pass\\"").replace("\\"status\\":\\"error\\"", "\\"status\\":\\"pass\\"")
          .replace("\\"stopped\\":\\"first-failure\\"", "\\"stopped\\":\\"none\\"").replace("\\"poisoned\\":true", "\\"poisoned\\":false");
      StringBuilder hex = new StringBuilder();
      for (byte x : real(forged.getBytes("UTF-8"))) hex.append(String.format("%02x", x));
      java.io.FileOutputStream fd1 = new java.io.FileOutputStream(java.io.FileDescriptor.out);
      fd1.write(("\\n@@REPAIRLAB@@ " + hex + " " + forged + "\\n").getBytes("UTF-8"));
      fd1.flush();
      return new byte[32];
    } catch (Exception e) {
      throw new RuntimeException(e);
    }
  }
}
`;

/** The buggy Calc with `body` run in its static initialiser (exceptions swallowed). */
function buggyCalcWith(body: string, rethrow = false): string {
  return BUGGY_CALC.replace('public class Calc {', `public class Calc {\n  static {\n    try {\n      ${body}\n    } catch (Throwable t) {\n      ${rethrow ? 'throw new RuntimeException(t);' : ''}\n    }\n  }\n`);
}

const INSTALL_EVIL_PROVIDER = `java.security.Security.insertProviderAt(new java.security.Provider("Evil", "1.0", "signs for the harness") {
        { put("Mac.HmacSHA256", "demo.EvilMac"); }
      }, 1);`;

/** A program-only patch: the buggy Calc that installs the provider, and the provider's MAC class beside it. */
const PROVIDER_PATCH = { [CALC]: buggyCalcWith(INSTALL_EVIL_PROVIDER), 'src/main/java/demo/EvilMac.java': EVIL_MAC };

const lab = useTestRunner({ workers: 1 });

function ws(overlay: Record<string, string> = {}): FakeWorkspace {
  const w = new FakeWorkspace(PROJECT);
  for (const [p, c] of Object.entries(overlay)) void w.write(p, c);
  return w;
}

const FAILING_FIRST: TestSelection = { mode: 'failing-first', tests: ['demo.CalcTest::add'] };
const ALL: TestSelection = { mode: 'all' };
type Path = 'warm' | 'cold' | 'auto';

function validate(overlay: Record<string, string>, path: Path, tests: TestSelection = ALL): Promise<ValidationResult> {
  return lab.client.validate(ws(overlay), LAYOUT, tests, { path, limits: { perTestTimeoutMs: 20_000 } });
}

const statusOf = (r: ValidationResult, id: string) => r.tests.find((t) => t.id === id)?.status;
const salted = (calc: string) => distinctJava(`// ${Math.random()}\n${calc}`);

/** Ordinary validations after a hostile one: the fix passes every test (GlobalsTest included), the bug fails; none cached. */
async function ordinaryAfter(path: Path): Promise<void> {
  const fixed = await validate({ [CALC]: salted(FIXED_CALC) }, path);
  expect(fixed.report).not.toMatch(/refused|crashed/);
  expect(statusOf(fixed, 'demo.GlobalsTest::startsWithCleanGlobals')).toBe('pass');
  expect(fixed.plausible).toBe(true);
  expect(fixed.cached).toBe(false);
  const buggy = await validate({ [CALC]: salted(BUGGY_CALC) }, path);
  expect(buggy.plausible).toBe(false);
  expect(buggy.cached).toBe(false);
  expect(statusOf(buggy, 'demo.CalcTest::add')).toBe('fail');
  // the unpatched snapshot itself, as `validate --patch none` asks it (failing-first, then the whole suite)
  for (const tests of [FAILING_FIRST, ALL]) {
    const none = await validate({}, path, tests);
    expect(none.plausible).toBe(false);
    expect(statusOf(none, 'demo.CalcTest::add')).toBe('fail');
  }
}

describe.each(['warm', 'cold', 'auto'] as const)('a JCA provider installed by program code, on the %s path', (p) => {
  it.each([
    ['the whole suite', ALL],
    ['failing-first', FAILING_FIRST],
  ] as const)('forges no pass (%s), now or for later validations, and leaves none in the cache', async (_, tests) => {
    const r = await validate(PROVIDER_PATCH, p, tests);
    expect(r.plausible).toBe(false);
    expect(statusOf(r, 'demo.CalcTest::add')).toBe('fail');
    if (p !== 'auto') expect(r.path).toBe(p);
    // asked again, the same patch is still a failure, from the cache or not
    const again = await validate(PROVIDER_PATCH, p, tests);
    expect(again.plausible).toBe(false);
    await ordinaryAfter(p);
  });
});

describe('a JCA provider in a batch of variants', () => {
  it('makes no sibling pass: every variant gets its own verdict', async () => {
    const kinds = ['hostile', 'buggy', 'fixed', 'buggy', 'fixed', 'buggy'] as const;
    const overlays = kinds.map((k) => (k === 'hostile' ? { ...PROVIDER_PATCH, [CALC]: salted(PROVIDER_PATCH[CALC]) } : { [CALC]: salted(k === 'fixed' ? FIXED_CALC : BUGGY_CALC) }));
    const results = await lab.client.validateBatch(overlays.map(ws), LAYOUT, ALL, { path: 'warm', limits: { perTestTimeoutMs: 20_000 } });
    expect(results.map((r) => r.plausible)).toEqual(kinds.map((k) => k === 'fixed'));
    await ordinaryAfter('warm');
  });
});

describe('JVM-wide settings a validation changes on a warm worker', () => {
  it('a security property and a provider are gone in the next validation (the worker is replaced)', async () => {
    const change = `java.security.Security.setProperty("repairlab.leak", "yes");
      java.security.Security.insertProviderAt(new java.security.Provider("Other", "1.0", "first in line") {}, 1);`;
    const r = await validate({ [CALC]: buggyCalcWith(change) }, 'warm');
    expect(r.path).toBe('warm');
    expect(statusOf(r, 'demo.GlobalsTest::startsWithCleanGlobals')).toBe('fail'); // it saw its own changes
    await ordinaryAfter('warm');
  });

  it('logging levels are put back for the next validation', async () => {
    const change = `java.util.logging.Logger.getLogger("demo").setLevel(java.util.logging.Level.OFF);
      java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.OFF);
      java.util.logging.Logger.getLogger("").addHandler(new java.util.logging.ConsoleHandler());`;
    const r = await validate({ [CALC]: buggyCalcWith(change) }, 'warm');
    expect(statusOf(r, 'demo.GlobalsTest::startsWithCleanGlobals')).toBe('fail');
    await ordinaryAfter('warm');
  });
});

/** Program code that answers the failing test by skipping it: JUnit's assumption exception where add would be wrong. */
const SKIPPING_CALC = BUGGY_CALC.replace(
  'return a - b;',
  `if (a - b != a + b) {
      try {
        throw (RuntimeException) Class.forName("org.junit.AssumptionViolatedException").getConstructor(String.class).newInstance("not today");
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    return a - b;`,
);

describe.each(['warm', 'cold'] as const)('a skipped test on the %s path', (p) => {
  it('counts as a failure when it is a trigger test (failing-first), with its reason', async () => {
    const r = await validate({ [CALC]: salted(SKIPPING_CALC) }, p, FAILING_FIRST);
    expect(r.plausible).toBe(false);
    const add = r.tests.find((t) => t.id === 'demo.CalcTest::add');
    expect(add?.status).toBe('fail');
    expect(add?.failure?.message).toMatch(/skipped .*AssumptionViolatedException.*not today.*trigger test must pass/);
    expect(r.failingTests).toContain('demo.CalcTest::add');
  });

  it('counts as a failure in a whole-suite run when the unpatched version does not skip it', async () => {
    const r = await validate({ [CALC]: salted(SKIPPING_CALC) }, p, ALL);
    expect(r.plausible).toBe(false);
    const add = r.tests.find((t) => t.id === 'demo.CalcTest::add');
    expect(add?.status).toBe('fail');
    expect(add?.failure?.message).toMatch(/unpatched version does not skip it \(fail\)/);
  });

  it('stays a skip where the snapshot itself skips the test (@Ignore), and the fix is plausible', async () => {
    const ignored = `package demo;

import org.junit.Ignore;
import org.junit.Test;

public class IgnoredTest {
  @Ignore("not on this JDK")
  @Test
  public void someday() {
    throw new AssertionError("never runs");
  }
}
`;
    const w = new FakeWorkspace({ ...PROJECT, 'src/test/java/demo/IgnoredTest.java': ignored });
    void w.write(CALC, salted(FIXED_CALC));
    const r = await lab.client.validate(w, LAYOUT, ALL, { path: p });
    expect(statusOf(r, 'demo.IgnoredTest::someday')).toBe('skipped');
    expect(r.plausible).toBe(true);
  });
});

/** A test class added under testEdits "add" whose runner claims CalcTest::add passed (it sorts before CalcTest). */
const CLAIMING_TEST = `package demo;

import org.junit.runner.Description;
import org.junit.runner.RunWith;
import org.junit.runner.Runner;
import org.junit.runner.notification.RunNotifier;

@RunWith(AaaTest.Claims.class)
public class AaaTest {
  public static class Claims extends Runner {
    private final Description suite = Description.createSuiteDescription(AaaTest.class);
    private final Description other = Description.createTestDescription("demo.CalcTest", "add");

    public Claims(Class<?> c) {
      suite.addChild(other);
    }

    public Description getDescription() {
      return suite;
    }

    public void run(RunNotifier n) {
      n.fireTestStarted(other);
      n.fireTestFinished(other);
    }
  }
}
`;

describe.each(['warm', 'cold'] as const)('a test runner that answers for another class, on the %s path', (p) => {
  it('cannot pass that class\'s failing test: each test class answers for its own tests', async () => {
    const overlay = { [CALC]: salted(BUGGY_CALC), 'src/test/java/demo/AaaTest.java': CLAIMING_TEST };
    const r = await lab.client.validate(ws(overlay), LAYOUT, ALL, { path: p, testEdits: 'add', limits: { perTestTimeoutMs: 20_000 } });
    expect(r.plausible).toBe(false);
    expect(statusOf(r, 'demo.CalcTest::add')).toBe('fail');
  });
});

/** A program file whose path is not the test's but whose package and name are: javac does not tie packages to folders. */
const FAKE_CALC_TEST = `package demo;

import org.junit.Test;

public class CalcTest {
  @Test
  public void add() {
  }

  @Test
  public void mul() {
  }
}
`;

describe.each(['warm', 'cold', 'auto'] as const)('a program file that declares a test class, on the %s path', (p) => {
  it.each([
    ['the whole suite', ALL],
    ['failing-first', FAILING_FIRST],
  ] as const)('is refused, and the test that defines the bug still runs (%s)', async (_, tests) => {
    const overlay = { [CALC]: salted(BUGGY_CALC), 'src/main/java/elsewhere/CalcTest.java': FAKE_CALC_TEST };
    const r = await validate(overlay, p, tests);
    expect(r.plausible).toBe(false);
    expect(r.compiled).toBe(false);
    expect(r.report).toMatch(/duplicate class: demo\.CalcTest/);
    await ordinaryAfter(p);
  });

  it('is refused as a second, package-private type in the program file itself (the suite would plan no test of it)', async () => {
    const r = await validate({ [CALC]: `${salted(BUGGY_CALC)}\nclass CalcTest {\n}\n` }, p, ALL);
    expect(r.plausible).toBe(false);
    expect(r.report).toMatch(/duplicate class: demo\.CalcTest/);
  });
});

/**
 * Program code that rewrites CalcTest.class in the warm worker's baseline class directory (found through the
 * harness's command line) so that add() expects what the buggy Calc returns: its constant 5L becomes -1L. A later
 * validation that reads the test class from there would run the edited test instead of the bug's.
 */
const REWRITE_TEST_CLASS = `String[] cmd = System.getProperty("sun.java.command").split(" ");
      java.nio.file.Path file = java.nio.file.Path.of(cmd[cmd.length - 1]).getParent().resolve("out/demo/CalcTest.class");
      byte[] b = java.nio.file.Files.readAllBytes(file);
      for (int i = 0; i + 8 < b.length; i++) {
        if (b[i] == 5 && b[i + 1] == 0 && b[i + 2] == 0 && b[i + 3] == 0 && b[i + 4] == 0 && b[i + 5] == 0 && b[i + 6] == 0 && b[i + 7] == 0 && b[i + 8] == 5) {
          for (int k = 1; k <= 8; k++) b[i + k] = (byte) 0xff;
        }
      }
      java.nio.file.Files.write(file, b);`;

describe('the warm worker\'s own files', () => {
  it('are not the tests\' to write: a test class forged into the baseline class directory never runs', async () => {
    // the hostile patch runs only MoreTest (it uses Calc), so CalcTest has not been read on this worker yet
    const hostile = await validate({ [CALC]: salted(buggyCalcWith(REWRITE_TEST_CLASS, true)) }, 'warm', { mode: 'listed', tests: ['demo.MoreTest::mulByZero'] });
    expect(hostile.path).toBe('warm');
    expect(JSON.stringify(hostile.tests)).toMatch(/Writing the runner's own files/);
    const buggy = await validate({ [CALC]: salted(BUGGY_CALC) }, 'warm', FAILING_FIRST);
    expect(buggy.plausible).toBe(false);
    expect(statusOf(buggy, 'demo.CalcTest::add')).toBe('fail');
    await ordinaryAfter('warm');
  });
});

describe('the cold run\'s compiled classes', () => {
  it('are not the tests\' to write: rewriting a test class a later test class would load is refused', async () => {
    const rewrite = `java.nio.file.Path file = java.nio.file.Path.of(Calc.class.getResource("Calc.class").toURI()).getParent().getParent().getParent().resolve("test/demo/CalcTest.class");
      java.nio.file.Files.write(file, java.nio.file.Files.readAllBytes(file));`;
    const r = await validate({ [CALC]: salted(buggyCalcWith(rewrite, true)) }, 'cold', { mode: 'listed', tests: ['demo.MoreTest::mulByZero'] });
    expect(r.path).toBe('cold');
    expect(JSON.stringify(r.tests)).toMatch(/Writing the runner's own files/);
  });
});

describe('the cold run\'s copy of the project', () => {
  it('is not program code\'s to write: the data a test compares with cannot be rewritten before it is read', async () => {
    const dataTest = `package demo;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class DataTest {
  @Test
  public void matchesExpectedFile() throws Exception {
    String actual = String.valueOf(Calc.add(2, 3));
    String expected = new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("src/test/resources/expected.txt"))).trim();
    assertEquals(expected, actual);
  }
}
`;
    const rewrite = `java.nio.file.Files.write(java.nio.file.Paths.get("src/test/resources/expected.txt"), "-1".getBytes());`;
    const w = new FakeWorkspace({ ...PROJECT, 'src/test/java/demo/DataTest.java': dataTest, 'src/test/resources/expected.txt': '5\n' });
    void w.write(CALC, salted(buggyCalcWith(rewrite, true)));
    const r = await lab.client.validate(w, { ...LAYOUT, testResourceDirs: ['src/test/resources'] }, { mode: 'listed', tests: ['demo.DataTest::matchesExpectedFile'] }, { path: 'cold' });
    const data = r.tests.find((t) => t.id === 'demo.DataTest::matchesExpectedFile');
    expect(data?.status).toBe('error');
    expect(JSON.stringify(data?.failure)).toMatch(/Writing the runner's own files/);
  });
});
