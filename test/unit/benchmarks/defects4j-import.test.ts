import { describe, expect, it } from 'vitest';
import { parseBugList, parseTestList, emptyTestMethod } from '../../../worker/node/defects4j/defects4j-import.ts';

describe('Defects4J importer helpers', () => {
  it('parses bug lists with ranges', () => {
    expect(parseBugList('1-3, 7,2')).toEqual([1, 2, 3, 7]);
    expect(() => parseBugList('4-2')).toThrow(/ends before it starts/);
    expect(() => parseBugList('x')).toThrow(/"x" is not a bug id/);
  });

  it('reads test ids from trigger_tests and skips stack traces', () => {
    const text = '--- org.a.FooTest::testBar\njava.lang.AssertionError\n\tat org.a.Foo.bar(Foo.java:3)\n--- org.a.FooTest$Inner::test2\n';
    expect(parseTestList(text)).toEqual(['org.a.FooTest::testBar', 'org.a.FooTest$Inner::test2']);
  });

  it('empties a test method with its annotations and Javadoc, braces in strings and comments included', () => {
    const source = [
      'public class FooTest {',
      '    @Test',
      '    public void keep() {',
      '        run();',
      '    }',
      '',
      '    /** broken */',
      '    @Test(timeout = 10)',
      '    public void broken() {',
      '        String s = "}"; // }',
      "        char c = '{';",
      '        /* { */',
      '    }',
      '',
      '    public void testBrokenToo() {',
      '    }',
      '}',
      '',
    ].join('\n');
    const edited = emptyTestMethod(source, 'broken')!;
    // an empty test in its place, as Defects4J's rm_broken_tests.pl leaves it; the timeout and the body are gone
    expect(edited).toContain('    @org.junit.Test\n    public void broken() {} // Defects4J: a broken test, emptied as rm_broken_tests.pl does\n');
    expect(edited).not.toContain('timeout');
    expect(edited).not.toContain('String s');
    expect(edited).not.toContain('/** broken */');
    expect(edited).toContain('public void keep()');
    expect(edited).toContain('public void testBrokenToo()');
    expect(edited.split('{').length).toBe(edited.split('}').length);
    expect(emptyTestMethod(source, 'missing')).toBeNull();
  });

  it("leaves a JUnit 3 class whose only test is broken with a test, so JUnit's TestSuite reports no warning (JacksonDatabind-60)", () => {
    const source = ['public class TestJava7Types extends BaseMapTest', '{', '    public void testPathRoundtrip() throws Exception', '    {', '        fail("{");', '    }', '}', ''].join('\n');
    const edited = emptyTestMethod(source, 'testPathRoundtrip')!;
    expect(edited).toBe(['public class TestJava7Types extends BaseMapTest', '{', '    public void testPathRoundtrip() {} // Defects4J: a broken test, emptied as rm_broken_tests.pl does', '}', ''].join('\n'));
    const jupiter = ['import org.junit.jupiter.api.Test;', 'class T {', '  @Test', '  void x() { throw new Error(); }', '}', ''].join('\n');
    expect(emptyTestMethod(jupiter, 'x')).toContain('  @org.junit.jupiter.api.Test\n  public void x() {}');
  });
});
