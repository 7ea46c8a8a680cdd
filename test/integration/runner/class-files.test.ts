// Class files as resources: a test that finds a class's code source by its `.class` resource and builds a class loader
// over that directory (Mockito's ClassLoaders, behind Mockito-5's trigger test and ~100 of its tests) must see the
// classes that run — the patched ones — on both paths, after an incremental compile and after a full rebuild; and
// the directory holds program classes only, as a build compiles tests apart (Mockito's NoJUnitDependenciesTest).
import { describe, expect, it } from 'vitest';
import { RunnerClient } from '../../../worker/runner-client/client.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { LAYOUT } from './projects.ts';

const GREETER = (body: string, extra = '') => `package demo;\npublic class Greeter {\n  public static String hello() { return ${body}; }\n${extra}}\n`;

const PROJECT: Record<string, string> = {
  'src/main/java/demo/Greeter.java': GREETER('"buggy"'),
  'src/test/java/demo/ClassFilesTest.java': `package demo;
import static org.junit.Assert.*;
import java.net.URL;
import java.net.URLClassLoader;
import org.junit.Test;
public class ClassFilesTest {
  @Test public void classFileResourcesAreTheClassesThatRun() throws Exception {
    String path = "demo/Greeter.class";
    URL url = ClassFilesTest.class.getClassLoader().getResource(path);
    assertNotNull("no resource " + path, url);
    String s = url.toExternalForm();
    URL root = new URL(s.substring(0, s.length() - path.length()));
    try (URLClassLoader loader = new URLClassLoader(new URL[] { root }, null)) {
      assertEquals(Greeter.hello(), loader.loadClass("demo.Greeter").getMethod("hello").invoke(null));
      // program and test classes lie apart, as a build compiles them
      assertNull(loader.getResource("demo/ClassFilesTest.class"));
    }
    assertTrue(ClassFilesTest.class.getClassLoader().getResources(path).hasMoreElements());
  }
}
`,
};

const testRunner = useTestRunner({ workers: 1 });

describe.each(['cold', 'warm'] as const)('class files as resources on the %s path', (path) => {
  it('are the files of the classes that run: unpatched, patched, and patched with a changed API', async () => {
    const client = new RunnerClient({ url: testRunner.runner.url, token: testRunner.runner.token });
    const versions = [undefined, GREETER('"fixed"'), GREETER('"fixed " + extra()', '  public static String extra() { return "and more"; }\n')];
    for (const version of versions) {
      const ws = new FakeWorkspace(PROJECT);
      if (version) await ws.write('src/main/java/demo/Greeter.java', version);
      const r = await client.validate(ws, LAYOUT, { mode: 'all' }, { path });
      expect(r.compiled).toBe(true);
      expect(r.tests.map((t) => `${t.id} ${t.status} ${t.failure?.message ?? ''}`)).toEqual(['demo.ClassFilesTest::classFileResourcesAreTheClassesThatRun pass ']);
    }
  });
});
