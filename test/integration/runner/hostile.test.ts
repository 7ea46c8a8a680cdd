// The verdict cannot be forged and isolation holds between validations (issue 15): patches and tests written as a
// hostile model would write them, against the real runner (bubblewrap, javac, JUnit). Each asserts the right verdict,
// that ordinary validations after it are right and not served from a forged cache entry, and that nothing is left.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFECTS4J_ADD_OPENS } from '../../../worker/contracts/bug.ts';
import type { TestSelection, ValidationResult } from '../../../worker/contracts/runner-api.ts';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { startTestRunner, type TestRunner, distinctJava } from './helpers.ts';
import { BUGGY_CALC, CALC, FIXED_CALC, JUNIT4_PROJECT, LAYOUT } from './projects.ts';

const STATE_TEST = 'src/test/java/demo/StateTest.java';
/** fails when an earlier validation's locale, time zone or system property is still in force */
const PROJECT: Record<string, string> = {
  ...JUNIT4_PROJECT,
  [STATE_TEST]: `package demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import org.junit.Test;

public class StateTest {
  @Test
  public void startsWithCleanGlobals() {
    assertEquals(null, System.getProperty("repairlab.leak"));
    assertNotEquals("de", java.util.Locale.getDefault().getLanguage());
    assertNotEquals("de", java.util.Locale.getDefault(java.util.Locale.Category.FORMAT).getLanguage());
    assertNotEquals("Pacific/Kiritimati", java.util.TimeZone.getDefault().getID());
  }
}
`,
};

/** What a forger writes: a "pass" for every test, in the old protocol format and with a made-up MAC. */
const FORGED_JAVA = `String pass = "{\\"tests\\":[{\\"id\\":\\"demo.CalcTest::add\\",\\"status\\":\\"pass\\",\\"durationMs\\":1}],\\"stopped\\":\\"none\\",\\"compiled\\":true,\\"poisoned\\":false}";
      java.io.FileOutputStream fd1 = new java.io.FileOutputStream(java.io.FileDescriptor.out);
      fd1.write(("\\n@@REPAIRLAB@@ " + pass + "\\n@@REPAIRLAB@@ " + "0".repeat(64) + " " + pass + "\\n").getBytes());
      fd1.flush();`;

/** The buggy Calc with `body` run in its static initialiser (exceptions swallowed unless `rethrow`). */
function buggyCalcWith(body: string, rethrow = false): string {
  return BUGGY_CALC.replace(
    'public class Calc {',
    `public class Calc {
  static {
    try {
      ${body}
    } catch (Throwable t) {
      ${rethrow ? 'throw new RuntimeException(t);' : ''}
    }
  }
`,
  );
}

let runner: TestRunner;
let client: RunnerClient;
let dataDir: string;
let scratch: string;

function ws(overlay: Record<string, string> = {}): FakeWorkspace {
  const w = new FakeWorkspace(PROJECT);
  for (const [p, c] of Object.entries(overlay)) void w.write(p, c);
  return w;
}

const ALL: TestSelection = { mode: 'failing-first', tests: ['demo.CalcTest::add'] };

async function validate(overlay: Record<string, string>, path: 'warm' | 'cold' | 'auto'): Promise<ValidationResult> {
  return client.validate(ws(overlay), LAYOUT, ALL, { path, limits: { perTestTimeoutMs: 20_000 } });
}

const statusOf = (r: ValidationResult, id: string) => r.tests.find((t) => t.id === id)?.status;

/** Ordinary validations after a hostile one: the fix passes, the bug fails, neither from the cache. */
async function ordinaryAfter(path: 'warm' | 'cold' | 'auto'): Promise<void> {
  const salt = `// ordinary ${Math.random()}\n`;
  const fixed = await validate({ [CALC]: distinctJava(salt + FIXED_CALC) }, path);
  expect(fixed.report).not.toMatch(/refused|crashed/);
  expect(fixed.plausible).toBe(true);
  expect(fixed.cached).toBe(false);
  expect(fixed.tests).toHaveLength(4);
  const buggy = await validate({ [CALC]: distinctJava(salt + BUGGY_CALC) }, path);
  expect(buggy.plausible).toBe(false);
  expect(buggy.cached).toBe(false);
  expect(statusOf(buggy, 'demo.CalcTest::add')).toBe('fail');
}

/**
 * `body` in the buggy Calc's static initialiser, under a layout that opens Defects4J's java.base packages: the test
 * errs with the module system's refusal to open repairlab.harness, the verdict stays a failure, and ordinary
 * validations after it are right.
 */
async function refusedByTheModuleBoundary(body: string, path: 'warm' | 'cold' | 'auto'): Promise<void> {
  const layout = { ...LAYOUT, addOpens: [...DEFECTS4J_ADD_OPENS] };
  const r = await client.validate(ws({ [CALC]: buggyCalcWith(body, true) }), layout, ALL, { path, limits: { perTestTimeoutMs: 20_000 } });
  expect(r.plausible).toBe(false);
  const add = r.tests.find((t) => t.id === 'demo.CalcTest::add');
  expect(add?.status).toBe('error');
  expect(JSON.stringify(add?.failure)).toMatch(/InaccessibleObjectException.*module repairlab\.harness does not/);
  await ordinaryAfter(path);
}

/** Nothing of a hostile validation remains: no cold work directories, no process it started. */
function nothingLeft(processMarker?: string): void {
  const work = path.join(dataDir, 'work');
  const cold = existsSync(work) ? readdirSync(work).filter((d) => d.startsWith('cold-')) : [];
  expect(cold).toEqual([]);
  if (processMarker) {
    const ps = spawnSync('pgrep', ['-f', processMarker], { encoding: 'utf8' });
    expect(ps.stdout.trim(), `processes matching ${processMarker}`).toBe('');
  }
}

beforeAll(async () => {
  runner = await startTestRunner({ workers: 1 });
  client = new RunnerClient({ url: runner.url, token: runner.token });
  dataDir = runner.dataDir;
  scratch = mkdtempSync(path.join(os.tmpdir(), 'repairlab-hostile-'));
});
afterAll(async () => {
  await runner?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe.each(['warm', 'cold', 'auto'] as const)('a forged verdict on the %s path', (p) => {
  it('is ignored when a static initialiser writes the result marker to file descriptor 1', async () => {
    const r = await validate({ [CALC]: buggyCalcWith(FORGED_JAVA) }, p);
    expect(r.plausible).toBe(false);
    expect(statusOf(r, 'demo.CalcTest::add')).toBe('fail');
    if (p !== 'auto') expect(r.path).toBe(p);
    await ordinaryAfter(p);
    nothingLeft();
  });

  it('is ignored when a test writes the result marker', async () => {
    const forgingTest = `package demo;

import org.junit.Test;

public class ForgeTest {
  @Test
  public void forges() throws Exception {
    ${FORGED_JAVA}
  }
}
`;
    const overlay = { [CALC]: BUGGY_CALC.replace('public class', '// forging test\npublic class'), 'src/test/java/demo/ForgeTest.java': forgingTest };
    // the whole suite, so that the forging test runs (failing-first would stop at CalcTest::add)
    // (the forging test is added, as a model under testEdits "add" may add one)
    const r = await client.validate(ws(overlay), LAYOUT, { mode: 'all' }, { path: p === 'auto' ? 'auto' : p, testEdits: 'add' });
    expect(r.plausible).toBe(false);
    expect(statusOf(r, 'demo.CalcTest::add')).toBe('fail');
    await ordinaryAfter(p);
  });

  it('cannot reach the harness by reflection to flip its guard and exit after forging', async () => {
    const flip = `Class<?> guard = Class.forName("repairlab.harness.Guard");
      java.lang.reflect.Field f = guard.getDeclaredField("harnessExiting");
      f.setAccessible(true);
      f.setBoolean(null, true);
      ${FORGED_JAVA}
      Runtime.getRuntime().halt(0);`;
    const r = await validate({ [CALC]: buggyCalcWith(flip, true) }, p);
    expect(r.plausible).toBe(false);
    const add = r.tests.find((t) => t.id === 'demo.CalcTest::add');
    expect(add?.status).toBe('error');
    expect(JSON.stringify(add?.failure)).toMatch(/repairlab\.harness\.Guard/);
    await ordinaryAfter(p);
  });

  // With java.base/java.lang opened (every Defects4J layout), a test thread's Runnable is a field away. Before the harness
  // was a named module, this rewrote the session's results map so that every failure was recorded as a pass.
  it('cannot reach the test session by reflection to rewrite its results, even with java.lang opened', async () => {
    const rewrite = `java.lang.reflect.Field target = Thread.class.getDeclaredField("target");
      target.setAccessible(true);
      Object task = target.get(Thread.currentThread());
      for (java.lang.reflect.Field f : task.getClass().getDeclaredFields()) {
        f.setAccessible(true);
        Object session = f.get(task);
        if (session == null || !session.getClass().getName().endsWith("TestSession")) continue;
        java.lang.reflect.Field results = session.getClass().getDeclaredField("results");
        results.setAccessible(true);
        java.util.Map<String, Object> forged = new java.util.LinkedHashMap<String, Object>() {
          @Override public Object put(String id, Object result) {
            java.util.Map<String, Object> pass = new java.util.LinkedHashMap<>((java.util.Map<String, Object>) result);
            pass.put("status", "pass");
            pass.remove("failure");
            return super.put(id, pass);
          }
        };
        results.set(session, forged);
      }`;
    await refusedByTheModuleBoundary(rewrite, p);
  });

  it('cannot switch the guard off through its own state, reached from System.getSecurityManager()', async () => {
    const off = `Object guard = System.getSecurityManager();
      java.lang.reflect.Field deciding = guard.getClass().getDeclaredField("DECIDING");
      deciding.setAccessible(true);
      ((ThreadLocal<Boolean>) deciding.get(null)).set(Boolean.TRUE);
      Runtime.getRuntime().exit(0);`;
    await refusedByTheModuleBoundary(off, p);
  });
});

describe('between validations on a warm worker', () => {
  it('a sleeping daemon thread that forges later answers poisons the worker and forges nothing', async () => {
    // it waits (not running) until the test thread that started it has finished — its own validation is answered —
    // then writes a forged answer every millisecond for half a minute
    const sleeper = `Thread testThread = Thread.currentThread();
      Thread t = new Thread(() -> {
        try {
          testThread.join();
          Thread.sleep(100);
          for (int i = 0; i < 30000; i++) {
            ${FORGED_JAVA.replaceAll('\n', '\n  ')}
            Thread.sleep(1);
          }
        } catch (Throwable e) {
        }
      }, "forger");
      t.setDaemon(true);
      t.start();`;
    const first = await validate({ [CALC]: buggyCalcWith(sleeper) }, 'warm');
    expect(first.plausible).toBe(false);
    expect(first.path).toBe('warm');
    // later, unrelated buggy validations on the same runner while the forger would be writing
    for (let i = 0; i < 10; i++) {
      const r = await validate({ [CALC]: distinctJava(`// unrelated ${i} ${Math.random()}\n${BUGGY_CALC}`) }, 'warm');
      expect(r.plausible).toBe(false);
      expect(statusOf(r, 'demo.CalcTest::add')).toBe('fail');
    }
    await ordinaryAfter('warm');
  });

  it('locale, time zone and system properties set by one validation are gone in the next', async () => {
    const leak = `java.util.Locale.setDefault(java.util.Locale.GERMANY);
      java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone("Pacific/Kiritimati"));
      System.setProperty("repairlab.leak", "yes");`;
    const first = await client.validate(ws({ [CALC]: buggyCalcWith(leak) }), LAYOUT, { mode: 'all' }, { path: 'warm' });
    expect(first.path).toBe('warm');
    expect(statusOf(first, 'demo.StateTest::startsWithCleanGlobals')).toBe('fail'); // it saw its own changes
    await ordinaryAfter('warm'); // the fix passes every test, StateTest included
  });
});

describe.each(['warm', 'cold'] as const)('native escapes on the %s path', (p) => {
  it('refuses System.load of a native library that would start a process', async () => {
    const gcc = spawnSync('gcc', ['--version']);
    if (gcc.status !== 0) {
      console.warn('skipped: no C compiler (gcc) on this machine to build the native library');
      return;
    }
    const marker = `4242.${Math.floor(Math.random() * 1e6)}`;
    const src = path.join(scratch, `evil-${p}.c`);
    const so = path.join(scratch, `libevil-${p}.so`);
    writeFileSync(
      src,
      `#include <unistd.h>\n__attribute__((constructor)) static void start(void) { if (fork() == 0) { execl("/usr/bin/sleep", "sleep", "${marker}", (char *) 0); _exit(0); } }\n`,
    );
    execFileSync('gcc', ['-shared', '-fPIC', '-O2', '-o', so, src]);
    const b64 = readFileSync(so).toString('base64');
    const load = `byte[] lib = java.util.Base64.getDecoder().decode("${b64}");
      java.nio.file.Path f = java.nio.file.Files.createTempFile("evil", ".so");
      java.nio.file.Files.write(f, lib);
      // inside doPrivileged, as the JDK loads its own libraries: the guard still sees whose code asks
      java.security.AccessController.doPrivileged((java.security.PrivilegedAction<Void>) () -> {
        System.load(f.toString());
        return null;
      });`;
    const r = await validate({ [CALC]: buggyCalcWith(load, true) }, p);
    expect(r.plausible).toBe(false);
    const add = r.tests.find((t) => t.id === 'demo.CalcTest::add');
    expect(add?.status).toBe('error');
    expect(JSON.stringify(add?.failure)).toMatch(/native library/);
    await ordinaryAfter(p);
    nothingLeft(`sleep ${marker}`);
  });

  it('refuses sun.misc.Unsafe, so native allocation cannot pass the memory caps', async () => {
    const alloc = `Class<?> u = Class.forName("sun.misc.Unsafe");
      java.lang.reflect.Field f = u.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      Object unsafe = f.get(null);
      java.lang.reflect.Method allocate = u.getMethod("allocateMemory", long.class);
      java.lang.reflect.Method set = u.getMethod("setMemory", long.class, long.class, byte.class);
      for (int i = 0; i < 30; i++) {
        long at = (Long) allocate.invoke(unsafe, 100L << 20);
        set.invoke(unsafe, at, 100L << 20, (byte) 1);
      }`;
    const r = await validate({ [CALC]: buggyCalcWith(alloc, true) }, p);
    expect(r.plausible).toBe(false);
    const add = r.tests.find((t) => t.id === 'demo.CalcTest::add');
    expect(add?.status).toBe('error');
    expect(JSON.stringify(add?.failure)).toMatch(/sun\.misc\.Unsafe/);
    await ordinaryAfter(p);
  });

  it('keeps /tmp to its size: a test cannot fill the host memory through it', async () => {
    const tmpTest = `package demo;

import static org.junit.Assert.assertTrue;
import org.junit.Test;

public class TmpTest {
  @Test
  public void tmpIsCapped() throws Exception {
    byte[] chunk = new byte[1 << 20];
    long written = 0;
    try {
      for (int file = 0; file < 5 && written < (600L << 20); file++) {
        try (java.io.FileOutputStream out = new java.io.FileOutputStream("/tmp/fill-" + file)) {
          for (int i = 0; i < 200; i++) {
            out.write(chunk);
            written += chunk.length;
          }
        }
      }
    } catch (java.io.IOException full) {
      // the tmpfs is full
    } finally {
      for (int file = 0; file < 5; file++) new java.io.File("/tmp/fill-" + file).delete();
    }
    assertTrue("wrote " + (written >> 20) + " MB to /tmp", written < (300L << 20));
  }
}
`;
    const r = await client.validate(ws({ 'src/test/java/demo/TmpTest.java': tmpTest }), LAYOUT, { mode: 'listed', tests: ['demo.TmpTest::tmpIsCapped'] }, { path: p, testEdits: 'add' });
    expect(statusOf(r, 'demo.TmpTest::tmpIsCapped')).toBe('pass');
    await ordinaryAfter(p);
    nothingLeft();
  });
});

describe('the health answer', () => {
  it('names the limits the sandbox really obtained and what stays uncapped', async () => {
    const h = await client.health();
    expect(h.isolation.limits?.memoryMb).toBeGreaterThan(0);
    expect(h.isolation.limits?.tmpMb).toBe(128);
    expect(h.isolation.limits?.processes).toBeGreaterThan(0);
    expect(h.isolation.limits?.uncapped.length).toBeGreaterThan(0);
  });
});

describe('many validations at once', () => {
  it('50 concurrent validations with forgeries mixed in give no wrong verdict', async () => {
    const kinds = Array.from({ length: 50 }, (_, i) => (['fixed', 'buggy', 'forged'] as const)[i % 3]!);
    const results = await Promise.all(
      kinds.map((kind, i) => {
        const salt = `// concurrent ${i} ${Math.random()}\n`;
        const calc = kind === 'fixed' ? FIXED_CALC : kind === 'buggy' ? BUGGY_CALC : buggyCalcWith(FORGED_JAVA);
        return validate({ [CALC]: distinctJava(salt + calc) }, 'auto');
      }),
    );
    const wrong = results.filter((r, i) => r.plausible !== (kinds[i] === 'fixed'));
    expect(wrong.map((r) => r.report)).toEqual([]);
    nothingLeft();
  }, 600_000);
});
