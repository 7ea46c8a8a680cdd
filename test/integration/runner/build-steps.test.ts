// A layout's build steps (layout.buildSteps), on both paths: a project program run after compiling and before the
// tests, its output a resource root of the tests — what Joda-Time's build does with its zone database compiler.
// The fixture's generator writes Table.header() (a program method) to demo/table.txt under {out}; the test reads it.
import { describe, expect, it } from 'vitest';
import type { BuildStep, ProjectLayout } from '../../../worker/contracts/bug.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { LAYOUT } from './projects.ts';

const TABLE = 'src/main/java/demo/Table.java';
const GENERATOR = 'src/main/java/demo/Generator.java';
const OTHER = 'src/main/java/demo/Other.java';

const table = (header: string) => `package demo;
public class Table {
  public static String header() { return "${header}"; }
}
`;

const PROJECT: Record<string, string> = {
  [TABLE]: table('v1'),
  [OTHER]: 'package demo;\npublic class Other { public static int one() { return 1; } }\n',
  // its static state is set while it runs: the tests' loader must not see it
  'src/main/java/demo/Mode.java': 'package demo;\npublic class Mode { public static String current; }\n',
  [GENERATOR]: `package demo;
import java.nio.file.*;
public class Generator {
  public static void main(String[] args) throws Exception {
    Mode.current = System.getProperty("demo.mode");
    if (!"build".equals(Mode.current)) throw new IllegalStateException("demo.mode is " + Mode.current);
    Path out = Paths.get(args[1]);
    // as old ZoneInfoCompilers: the destination must exist (layout: makeDirs)
    if (!Files.isDirectory(out.getParent())) throw new java.io.IOException("Destination directory doesn't exist: " + out.getParent());
    String source = new String(Files.readAllBytes(Paths.get(args[0])), "UTF-8").trim();
    Files.write(out, (source + ":" + Table.header()).getBytes("UTF-8"));
  }
}
`,
  'data/table.src': 'table\n',
  'src/test/java/demo/TableTest.java': `package demo;
import static org.junit.Assert.*;
import org.junit.Test;
public class TableTest {
  static String resource(String name) throws Exception {
    java.io.InputStream in = TableTest.class.getClassLoader().getResourceAsStream(name);
    assertNotNull(name + " is not on the class path", in);
    return new String(in.readAllBytes(), "UTF-8");
  }
  @Test public void generatedHeader() throws Exception { assertEquals("table:v2", resource("demo/table.txt")); }
  @Test public void stepStateStaysOut() {
    assertNull(System.getProperty("demo.mode"));
    assertNull(Mode.current);
  }
  /** fails with where the generated file is: which run of the steps the tests read */
  @Test public void where() { fail(String.valueOf(TableTest.class.getClassLoader().getResource("demo/table.txt"))); }
}
`,
};

const STEP: BuildStep = {
  name: 'the table',
  mainClass: 'demo.Generator',
  args: ['{root}/data/table.src', '{out}/demo/table.txt'],
  systemProperties: { 'demo.mode': 'build' },
  makeDirs: ['{out}/demo'],
};
const WITH_STEP: ProjectLayout = { ...LAYOUT, buildSteps: [STEP] };
const ALL = { mode: 'all' } as const;

const testRunner = useTestRunner({ workers: 1 });

function statuses(r: { tests: { id: string; status: string }[] }): Record<string, string> {
  return Object.fromEntries(r.tests.map((t) => [t.id.split('::')[1]!, t.status]));
}

function whereMessage(r: { tests: { id: string; failure?: { message?: string } }[] }): string {
  return r.tests.find((t) => t.id === 'demo.TableTest::where')!.failure!.message ?? '';
}

describe.each(['cold', 'warm'] as const)('build steps on the %s path', (path) => {
  it('without the step the tests find no generated file; with it they read what the (patched) program wrote', async () => {
    const ws = new FakeWorkspace(PROJECT);
    const without = await testRunner.client.validate(ws, LAYOUT, ALL, { path });
    expect(without.tests.find((t) => t.id === 'demo.TableTest::generatedHeader')!.failure!.message).toMatch(/demo\/table.txt is not on the class path/);

    const buggy = await testRunner.client.validate(ws, WITH_STEP, ALL, { path });
    expect(statuses(buggy)).toEqual({ generatedHeader: 'fail', stepStateStaysOut: 'pass', where: 'fail' });
    expect(buggy.tests.find((t) => t.id === 'demo.TableTest::generatedHeader')!.failure!.message).toMatch(/but was:<table:v\[1\]>/);

    await ws.write(TABLE, table('v2'));
    const fixed = await testRunner.client.validate(ws, WITH_STEP, ALL, { path });
    expect(statuses(fixed)).toEqual({ generatedHeader: 'pass', stepStateStaysOut: 'pass', where: 'fail' });
  });

  it('makes the directories the step asks for first, as the build\'s <mkdir>', async () => {
    const withoutDirs = { ...WITH_STEP, buildSteps: [{ ...STEP, makeDirs: [] }] };
    const r = await testRunner.client.validate(new FakeWorkspace(PROJECT), withoutDirs, ALL, { path });
    expect(r.compiled).toBe(false);
    expect(r.diagnostics[0]!.message).toMatch(/Destination directory doesn't exist: .*\/demo$/);
  });

  it('a step that fails is a build that failed, named with its cause', async () => {
    const ws = new FakeWorkspace(PROJECT);
    await ws.write(GENERATOR, PROJECT[GENERATOR]!.replace('Mode.current = System.getProperty("demo.mode");', 'Mode.current = "broken";'));
    const r = await testRunner.client.validate(ws, WITH_STEP, ALL, { path });
    expect(r.compiled).toBe(false);
    expect(r.plausible).toBe(false);
    expect(r.tests).toEqual([]);
    expect(r.diagnostics).toEqual([expect.objectContaining({ kind: 'error', message: expect.stringMatching(/build step demo\.Generator .*failed: java\.lang\.IllegalStateException: demo\.mode is broken/) })]);
    expect(r.report).toMatch(/^Compilation failed: 1 error\(s\)\n.*demo\.Generator/);
  });
});

describe('build steps in a warm worker', () => {
  it('keep their output while the classes the step ran are unchanged, and run again when a patch changes them', async () => {
    // a snapshot of its own: a fresh worker, and no result cached from the tests above
    const ws = new FakeWorkspace({ ...PROJECT, 'data/README': 'reuse\n' });
    const first = whereMessage(await testRunner.client.validate(ws, WITH_STEP, ALL, { path: 'warm' }));
    expect(first).toMatch(/\/generated\/\d+\/demo\/table\.txt$/);
    // Other is not a class the generator loads: its output is reused
    await ws.write(OTHER, PROJECT[OTHER]!.replace('return 1', 'return 2'));
    const elsewhere = whereMessage(await testRunner.client.validate(ws, WITH_STEP, ALL, { path: 'warm' }));
    expect(elsewhere).toBe(first);
    // Table is: the step runs again, into a directory of its own
    await ws.write(TABLE, table('v2'));
    const changed = await testRunner.client.validate(ws, WITH_STEP, ALL, { path: 'warm' });
    expect(statuses(changed).generatedHeader).toBe('pass');
    expect(whereMessage(changed)).not.toBe(first);
  });
});
