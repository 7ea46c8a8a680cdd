import { describe, expect, it } from 'vitest';
import { parseBugList, parseTestList, removeTestMethod } from '../../../worker/node/defects4j/defects4j-import.ts';

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

  it('removes a test method with its annotations and Javadoc, braces in strings and comments included', () => {
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
    const edited = removeTestMethod(source, 'broken')!;
    expect(edited).not.toContain('broken()');
    expect(edited).not.toContain('/** broken */');
    expect(edited).toContain('public void keep()');
    expect(edited).toContain('public void testBrokenToo()');
    expect(edited.split('{').length).toBe(edited.split('}').length);
    expect(removeTestMethod(source, 'missing')).toBeNull();
  });
});
