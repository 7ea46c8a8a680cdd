// Hostile tests inside the sandbox: each is contained, reported on the test it came from, and the runner stays healthy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import type { ValidationResult } from '../../../worker/contracts/runner-api.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { startTestRunner, type TestRunner, distinctJava } from './helpers.ts';
import { BUGGY_CALC, CALC, FIXED_CALC, LAYOUT } from './projects.ts';

let runner: TestRunner;
let client: RunnerClient;
let port: number;

const HOSTILE = (port: number) => `package demo;

import static org.junit.Assert.assertEquals;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

public class HostileTest {
  @Test
  public void loopsForever() {
    long n = 0;
    while (true) {
      n++;
    }
  }

  @Test
  public void callsSystemExit() {
    System.exit(3);
  }

  @Test
  public void forksAProcess() throws Exception {
    new ProcessBuilder("sh", "-c", "echo forked").start().waitFor();
  }

  @Test
  public void allocatesWithoutBound() {
    List<long[]> hog = new ArrayList<>();
    while (true) {
      hog.add(new long[1 << 20]);
    }
  }

  @Test
  public void writesHugeOutput() throws Exception {
    byte[] line = "spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam\\n".getBytes();
    for (int i = 0; i < 300_000; i++) System.out.write(line);
    FileOutputStream raw = new FileOutputStream(FileDescriptor.out);
    byte[] junk = new byte[1 << 20];
    java.util.Arrays.fill(junk, (byte) 'x');
    for (int i = 0; i < 80; i++) raw.write(junk); // 80 MB on the raw stdout, no newline
    assertEquals(1, 1);
  }

  @Test
  public void leaksABusyThread() {
    Thread t = new Thread(() -> {
      long n = 0;
      while (true) n++;
    });
    t.setDaemon(true);
    t.start();
  }

  @Test
  public void interruptsEveryOtherThread() throws Exception {
    for (Thread t : Thread.getAllStackTraces().keySet()) if (t != Thread.currentThread()) t.interrupt();
    Thread.sleep(300); // still running when the harness thread wakes up interrupted
  }

  @Test
  public void readsStdin() throws Exception {
    // the warm worker's requests arrive on its stdin: code under test must not see (or steal) them
    assertEquals(-1, System.in.read());
  }

  @Test
  public void opensANetworkSocket() throws Exception {
    try (java.net.Socket s = new java.net.Socket()) {
      s.connect(new java.net.InetSocketAddress("127.0.0.1", ${port}), 2000);
    }
  }

  @Test
  public void resolvesAndConnectsOutside() throws Exception {
    try (java.net.Socket s = new java.net.Socket()) {
      s.connect(new java.net.InetSocketAddress("1.1.1.1", 80), 2000);
    }
  }
}
`;

function project(): Record<string, string> {
  return {
    [CALC]: BUGGY_CALC,
    'src/test/java/demo/CalcTest.java': `package demo;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class CalcTest {
  @Test
  public void add() {
    assertEquals(5, Calc.add(2, 3));
  }
}
`,
    'src/test/java/demo/HostileTest.java': HOSTILE(port),
  };
}

async function healthyAfter(): Promise<void> {
  const ws = new FakeWorkspace(project());
  await ws.write(CALC, distinctJava(FIXED_CALC.replace('public class', `// healthy ${Math.random()}\npublic class`)));
  const r = await client.validate(ws, LAYOUT, { mode: 'listed', tests: ['demo.CalcTest::add'] });
  expect(r.tests).toEqual([expect.objectContaining({ id: 'demo.CalcTest::add', status: 'pass' })]);
  expect((await client.health()).ok).toBe(true);
}

function only(r: ValidationResult, id: string) {
  const t = r.tests.find((x) => x.id === id);
  expect(t, `${id} in ${JSON.stringify(r.tests)}`).toBeDefined();
  return t!;
}

beforeAll(async () => {
  runner = await startTestRunner({ workers: 2 });
  port = Number(new URL(runner.url).port);
  client = new RunnerClient({ url: runner.url, token: runner.token });
});
afterAll(async () => {
  await runner?.stop();
});

describe.each(['warm', 'cold'] as const)('hostile tests on the %s path', (path) => {
  const run = (test: string, limits = {}) =>
    client.validate(new FakeWorkspace(project()), LAYOUT, { mode: 'listed', tests: [`demo.HostileTest::${test}`, 'demo.CalcTest::add'] }, { path, limits });

  it('stops an infinite loop at its timeout and keeps going', async () => {
    const r = await run('loopsForever', { perTestTimeoutMs: 1500 });
    const t = only(r, 'demo.HostileTest::loopsForever');
    expect(t.status).toBe('timeout');
    expect(t.failure?.message).toContain('1500 ms');
    expect(only(r, 'demo.CalcTest::add').status).toBe('fail'); // the other listed test still ran
    await healthyAfter();
  });

  it('after a test that loops forever, runs the rest of its class and the classes after it', async () => {
    const files = {
      [CALC]: BUGGY_CALC,
      'src/test/java/demo/CalcTest.java': project()['src/test/java/demo/CalcTest.java']!,
      'src/test/java/demo/LoopFirstTest.java': `package demo;

import static org.junit.Assert.assertEquals;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;

@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class LoopFirstTest {
  @Test
  public void a_loops() {
    while (true) Thread.onSpinWait();
  }

  @Test
  public void b_passes() {
    assertEquals(4, 2 + 2);
  }

  @Test
  public void c_fails() {
    assertEquals(5, 2 + 2);
  }
}
`,
    };
    const all = await client.validate(new FakeWorkspace(files), LAYOUT, { mode: 'all' }, { path, limits: { perTestTimeoutMs: 1500 } });
    expect(Object.fromEntries(all.tests.map((t) => [t.id, t.status]))).toEqual({
      'demo.CalcTest::add': 'fail',
      'demo.LoopFirstTest::a_loops': 'timeout',
      'demo.LoopFirstTest::b_passes': 'pass',
      'demo.LoopFirstTest::c_fails': 'fail',
    });
    // failing-first stops at the listed test that timed out: nothing else runs
    const first = await client.validate(new FakeWorkspace(files), LAYOUT, { mode: 'failing-first', tests: ['demo.LoopFirstTest::a_loops'] }, { path, limits: { perTestTimeoutMs: 1500 } });
    expect(first.tests.map((t) => [t.id, t.status])).toEqual([['demo.LoopFirstTest::a_loops', 'timeout']]);
    await healthyAfter();
  });

  it('turns System.exit into a test error', async () => {
    const r = await run('callsSystemExit');
    const t = only(r, 'demo.HostileTest::callsSystemExit');
    expect(t.status).toBe('error');
    expect(t.failure?.exception).toBe('java.lang.SecurityException');
    expect(t.failure?.message).toContain('System.exit');
    expect(r.path).toBe(path);
    await healthyAfter();
  });

  // the cold path runs the same harness code in a fresh JVM; it repeats only the cases whose handling differs
  // (the JVM is killed/discarded instead of replaced), keeping CI time modest
  const warmOnly = (name: string, fn: () => Promise<void>) => {
    if (path === 'warm') it(name, fn);
  };

  it('keeps watching when a test interrupts the harness threads', async () => {
    const r = await run('interruptsEveryOtherThread', { perTestTimeoutMs: 3000 });
    expect(only(r, 'demo.HostileTest::interruptsEveryOtherThread').status).toBe('pass');
    expect(only(r, 'demo.CalcTest::add').status).toBe('fail'); // the next test still ran and was reported
    await healthyAfter();
  });

  it('gives code under test an empty stdin', async () => {
    const r = await run('readsStdin', { perTestTimeoutMs: 3000 });
    expect(only(r, 'demo.HostileTest::readsStdin').status).toBe('pass');
    await healthyAfter();
  });

  warmOnly('blocks starting processes', async () => {
    const r = await run('forksAProcess');
    const t = only(r, 'demo.HostileTest::forksAProcess');
    expect(t.status).toBe('error');
    expect(t.failure?.message).toMatch(/process/i);
    await healthyAfter();
  });

  warmOnly('contains unbounded allocation', async () => {
    const r = await run('allocatesWithoutBound');
    const t = only(r, 'demo.HostileTest::allocatesWithoutBound');
    expect(t.status).toBe('error');
    expect(t.failure?.exception).toBe('java.lang.OutOfMemoryError');
    await healthyAfter();
  });

  warmOnly('swallows huge output', async () => {
    const r = await run('writesHugeOutput');
    expect(only(r, 'demo.HostileTest::writesHugeOutput').status).toBe('pass');
    expect(only(r, 'demo.CalcTest::add').status).toBe('fail');
    await healthyAfter();
  });

  warmOnly('replaces a worker whose tests leave threads running', async () => {
    const r = await run('leaksABusyThread');
    expect(only(r, 'demo.HostileTest::leaksABusyThread').status).toBe('pass');
    await healthyAfter();
  });

  it('has no network, not even the runner on loopback', async () => {
    const r = await client.validate(
      new FakeWorkspace(project()),
      LAYOUT,
      { mode: 'listed', tests: ['demo.HostileTest::opensANetworkSocket', 'demo.HostileTest::resolvesAndConnectsOutside'] },
      { path },
    );
    for (const id of ['demo.HostileTest::opensANetworkSocket', 'demo.HostileTest::resolvesAndConnectsOutside']) {
      const t = only(r, id);
      expect(t.status).toBe('error');
      expect(t.failure?.exception).toMatch(/^java\.net\./);
    }
    await healthyAfter();
  });
});
