// JDK-internal imports (issue 14, Closure-53): Closure's XtbMessageBundle builds its SAX parser from
// com.sun.org.apache.xerces.internal.jaxp.SAXParserFactoryImpl, which Java 8's rt.jar held beside the API. The
// runner compiles old sources against the Java 8 API from ct.sym (no internal package) and runs them on JDK 17
// (which encapsulates them); layout.jdkInternalPackages brings the JDK's classes to ecj and exports the packages.
import { describe, expect, it } from 'vitest';
import type { ProjectLayout } from '../../../worker/contracts/bug.ts';
import { FakeWorkspace } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { LAYOUT } from './projects.ts';

const PARSER_PACKAGE = 'com.sun.org.apache.xerces.internal.jaxp';
const MESSAGES = 'src/main/java/xml/Messages.java';
const BUGGY = `package xml;
import ${PARSER_PACKAGE}.SAXParserFactoryImpl;
import java.io.StringReader;
import javax.xml.parsers.SAXParser;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.helpers.DefaultHandler;
public class Messages {
  public static int count(String xml) throws Exception {
    SAXParser parser = new SAXParserFactoryImpl().newSAXParser();
    final int[] n = {0};
    parser.parse(new InputSource(new StringReader(xml)), new DefaultHandler() {
      public void startElement(String uri, String local, String qName, Attributes attributes) {
        if (qName.equals("message")) n[0]++;
      }
    });
    return n[0];
  }
}
`;
const FIXED = BUGGY.replace('"message"', '"msg"');
const PROJECT: Record<string, string> = {
  [MESSAGES]: BUGGY,
  'src/test/java/xml/MessagesTest.java': `package xml;
import org.junit.Assert;
import org.junit.Test;
public class MessagesTest {
  @Test public void countsMessages() throws Exception { Assert.assertEquals(2, Messages.count("<bundle><msg/><msg/></bundle>")); }
  @Test public void emptyBundle() throws Exception { Assert.assertEquals(0, Messages.count("<bundle/>")); }
}
`,
};

const OLD: ProjectLayout = { ...LAYOUT, javaRelease: 8, sourceLevel: '1.6', classpath: ['junit4', 'hamcrest'] };
const WITH_INTERNALS: ProjectLayout = { ...OLD, jdkInternalPackages: [PARSER_PACKAGE] };
const FAILING = { mode: 'failing-first' as const, tests: ['xml.MessagesTest::countsMessages'] };

const testRunner = useTestRunner({ workers: 1 });

describe('a source importing a JDK-internal package', () => {
  it('does not compile against the Java 8 API alone', async () => {
    const r = await testRunner.client.validate(new FakeWorkspace(PROJECT), OLD, FAILING, { path: 'cold' });
    expect(r.compiled).toBe(false);
    expect(r.diagnostics).toEqual(expect.arrayContaining([expect.objectContaining({ file: MESSAGES, line: 2, kind: 'error' })]));
  });

  it.each(['cold', 'warm'] as const)('compiles and runs with layout.jdkInternalPackages on the %s path: the bug fails its trigger test, the fix passes', async (path) => {
    const buggy = await testRunner.client.validate(new FakeWorkspace(PROJECT), WITH_INTERNALS, FAILING, { path });
    expect(buggy.path).toBe(path);
    expect(buggy.diagnostics.filter((d) => d.kind === 'error')).toEqual([]);
    expect(buggy.failingTests).toEqual(['xml.MessagesTest::countsMessages']);
    const ws = new FakeWorkspace(PROJECT);
    await ws.write(MESSAGES, FIXED);
    const fixed = await testRunner.client.validate(ws, WITH_INTERNALS, { mode: 'all' }, { path });
    expect(fixed.path).toBe(path);
    expect(fixed.tests.map((t) => `${t.id} ${t.status}${t.failure ? ` ${t.failure.exception}: ${t.failure.message}` : ''}`).sort()).toEqual([
      'xml.MessagesTest::countsMessages pass',
      'xml.MessagesTest::emptyBundle pass',
    ]);
  });
});

describe('layout.jdkInternalPackages the runner refuses, each with a message naming the package', () => {
  it('a package the JDK does not have', async () => {
    await expect(
      testRunner.client.validate(new FakeWorkspace(PROJECT), { ...OLD, jdkInternalPackages: ['com.sun.nothing.here'] }, FAILING),
    ).rejects.toThrow(/jdkInternalPackages lists com\.sun\.nothing\.here, which the runner's JDK .* does not have/);
  });

  it('an internal package of java.base (where the harness and raw memory live)', async () => {
    await expect(
      testRunner.client.validate(new FakeWorkspace(PROJECT), { ...OLD, jdkInternalPackages: ['com.sun.crypto.provider'] }, FAILING),
    ).rejects.toThrow(/com\.sun\.crypto\.provider \(module java\.base\): the runner exports the internals of java\.xml/);
  });

  it('a layout compiled with javac (its --release hides the internals)', async () => {
    await expect(
      testRunner.client.validate(new FakeWorkspace(PROJECT), { ...LAYOUT, jdkInternalPackages: [PARSER_PACKAGE] }, FAILING),
    ).rejects.toThrow(/jdkInternalPackages needs sources up to Java 8 compiled with ecj \(the layout's compiler is javac/);
  });
});
