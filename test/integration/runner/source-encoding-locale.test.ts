// Defects4J on JDK 17 (issue 14): sources in ISO-8859-1 (commons-lang's) compile with the layout's `encoding` — base
// files and patched ones — and `localeData: 'compat'` gives the tests JDK 8's locale data ('compat-only': and only
// JDK 8's locales), on both paths and with
// both compilers (javac; ecj for old source levels).
import { describe, expect, it } from 'vitest';
import type { ProjectLayout } from '../../../worker/contracts/bug.ts';
import type { TreeFile } from '../../../worker/contracts/workspace.ts';
import { FakeWorkspace, gitBlobOid } from './fake-workspace.ts';
import { useTestRunner } from './helpers.ts';
import { LAYOUT } from './projects.ts';

const WORDS = 'src/main/java/enc/Words.java';

const PROJECT: Record<string, string> = {
  // stored as ISO-8859-1 bytes: the é is the single byte 0xE9, which is not UTF-8
  [WORDS]: 'package enc;\npublic class Words {\n  public static String cafe() { return "Café"; }\n}\n',
  'src/test/java/enc/WordsTest.java': `package enc;
import junit.framework.TestCase;
public class WordsTest extends TestCase {
  public void testCafe() { assertEquals("Caf\\u00e9", Words.cafe()); }
}
`,
  'src/test/java/enc/DateFormatTest.java': `package enc;
import java.text.DateFormat;
import java.text.SimpleDateFormat;
import java.util.Locale;
import junit.framework.TestCase;
public class DateFormatTest extends TestCase {
  /** JDK 8's (COMPAT) pattern; JDK 17's CLDR data says "EEEE, MMMM d, y 'at' h:mm:ss a zzzz" */
  public void testFullPatternAsJava8() {
    assertEquals("EEEE, MMMM d, yyyy h:mm:ss a z", ((SimpleDateFormat) DateFormat.getDateTimeInstance(DateFormat.FULL, DateFormat.FULL, Locale.US)).toPattern());
  }
}
`,
  'src/test/java/enc/LocalesTest.java': `package enc;
import java.util.Locale;
import junit.framework.TestCase;
public class LocalesTest extends TestCase {
  /** JDK 8 knew ~160 locales (its JRE data); JDK 17's CLDR ~1,000 (what Lang's FastDateParser loops go over) */
  public void testJava8LocaleSet() {
    int n = Locale.getAvailableLocales().length;
    assertTrue(n + " locales", n < 300);
  }
}
`,
};

/** A FakeWorkspace whose base files are ISO-8859-1 bytes, as commons-lang's are in git. */
class Latin1Workspace extends FakeWorkspace {
  constructor(private readonly files: Record<string, string>) {
    super(files);
  }
  override async baseFiles(): Promise<TreeFile[]> {
    return Object.keys(this.files)
      .sort()
      .map((path) => ({ path, oid: gitBlobOid(Buffer.from(this.files[path]!, 'latin1')) }));
  }
  override async readBaseBlob(oid: string): Promise<Uint8Array> {
    for (const text of Object.values(this.files)) if (gitBlobOid(Buffer.from(text, 'latin1')) === oid) return new Uint8Array(Buffer.from(text, 'latin1'));
    return super.readBaseBlob(oid);
  }
}

const testRunner = useTestRunner({ workers: 1 });
const ALL = { mode: 'all' } as const;
const CAFE = { mode: 'listed' as const, tests: ['enc.WordsTest::testCafe'] };
const COMPILERS: Record<string, Partial<ProjectLayout>> = { javac: {}, ecj: { sourceLevel: '1.5' } };

describe.each(['cold', 'warm'] as const)('Defects4J\'s JDK 8 environment on the %s path', (path) => {
  describe.each(Object.keys(COMPILERS))('with %s', (compiler) => {
    const layout: ProjectLayout = { ...LAYOUT, ...COMPILERS[compiler] };

    it('reads ISO-8859-1 sources as the layout says, base and patched files alike', async () => {
      const latin1 = await testRunner.client.validate(new Latin1Workspace(PROJECT), { ...layout, encoding: 'ISO-8859-1' }, CAFE, { path });
      expect(latin1.compiled).toBe(true);
      expect(latin1.failingTests).toEqual([]);
      // a patch that keeps the é: written back in ISO-8859-1, so the compiler reads the same character
      const patched = new Latin1Workspace(PROJECT);
      await patched.write(WORDS, PROJECT[WORDS]!.replace('public static', '/** patched */ public static'));
      const afterPatch = await testRunner.client.validate(patched, { ...layout, encoding: 'ISO-8859-1' }, CAFE, { path });
      expect(afterPatch.failingTests).toEqual([]);
      expect(afterPatch.tests.map((t) => t.status)).toEqual(['pass']);
    });

    it('misreads them as UTF-8 without it', async () => {
      const r = await testRunner.client.validate(new Latin1Workspace(PROJECT), layout, CAFE, { path });
      // javac on the command line refuses the byte; ecj and the warm path's in-process javac replace it with U+FFFD,
      // and the test sees the wrong string
      if (compiler === 'javac' && path === 'cold') expect(r.diagnostics.some((d) => /unmappable character/.test(d.message))).toBe(true);
      else expect(r.failingTests).toEqual(['enc.WordsTest::testCafe']);
    });

    it("gives the tests JDK 8's locale data with localeData: 'compat', and only JDK 8's locales with 'compat-only'", async () => {
      const layoutLatin1 = { ...layout, encoding: 'ISO-8859-1' as const };
      const cldr = await testRunner.client.validate(new Latin1Workspace(PROJECT), layoutLatin1, ALL, { path });
      expect(cldr.failingTests.sort()).toEqual(['enc.DateFormatTest::testFullPatternAsJava8', 'enc.LocalesTest::testJava8LocaleSet']);
      const compat = await testRunner.client.validate(new Latin1Workspace(PROJECT), { ...layoutLatin1, localeData: 'compat' }, ALL, { path });
      expect(compat.failingTests).toEqual(['enc.LocalesTest::testJava8LocaleSet']); // CLDR's locales are still there
      const only = await testRunner.client.validate(new Latin1Workspace(PROJECT), { ...layoutLatin1, localeData: 'compat-only' }, ALL, { path });
      expect(only.plausible).toBe(true);
      expect(only.tests.filter((t) => t.status !== 'pass')).toEqual([]);
    });
  });
});
