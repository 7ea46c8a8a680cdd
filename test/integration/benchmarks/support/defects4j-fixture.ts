// Generates, with real git, a tiny project plus a directory laid out like a Defects4J checkout
// (framework/projects/Calc/{active-bugs.csv,dir-layout.csv,patches,trigger_tests,failing_tests,...}).
// Nothing binary is committed: every test run builds it afresh.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface Defects4jFixture {
  projectRepo: string;
  d4jDir: string;
  project: string;
  /** revision ids by role */
  revisions: {
    introducesBug1: string; buggy1: string; fixed1: string; buggy2: string; fixed2: string; introducesBug3: string; buggy3: string; fixed3: string;
    buggy6: string; fixed6: string; buggy7: string; fixed7: string;
  };
}

// Calc-6: what real Defects4J bugs need from the build. Java 1.4-era code whose build says 1.4
// (build_files/<rev>/maven-build.properties) while its JUnit 3 test carries the annotation Defects4J's own diffs add to
// such tests (Lang 42–65's compile-errors/testOrder*.diff): it compiles only at the level Defects4J builds at (1.6,
// atDefects4jLevel), not at the one the build file names. Also a test that needs a jar of Defects4J's lib/, and a test
// class failing_tests lists as a whole (it fails on the fix too unless excluded). It lives on its own line of history.
const LEGACY = (fixed: boolean) => `package org.fixture;

import java.util.Vector;

public final class Legacy {

    private Legacy() {
    }

    /** The number of items (written for Java 1.4: a raw Vector). */
    public static int count(Vector items) {
        int n = 0;
        for (int i = 0; i < items.size(); i++) {
            n++;
        }
        return ${fixed ? 'n' : 'n - 1'};
    }
}
`;
// Calc-6 also imports a JDK-internal class, as Closure-53's XtbMessageBundle does (Java 8's rt.jar had it), and runs
// it in a test of its own.
const CATALOG = `package org.fixture;

import com.sun.org.apache.xerces.internal.jaxp.SAXParserFactoryImpl;
import java.io.StringReader;
import org.xml.sax.InputSource;
import org.xml.sax.helpers.DefaultHandler;

public final class Catalog {

    private Catalog() {
    }

    /** Whether the text is well-formed XML. */
    public static boolean wellFormed(String xml) {
        try {
            new SAXParserFactoryImpl().newSAXParser().parse(new InputSource(new StringReader(xml)), new DefaultHandler());
            return true;
        } catch (Exception e) {
            return false;
        }
    }
}
`;
const CATALOG_TEST = `package org.fixture;

import junit.framework.TestCase;

public class CatalogTest extends TestCase {

    public void testWellFormed() {
        assertTrue(Catalog.wellFormed("<msgs><msg/></msgs>"));
        assertFalse(Catalog.wellFormed("<msgs>"));
    }
}
`;
const LEGACY_TEST = `package org.fixture;

import junit.framework.TestCase;
import org.helper.Items;
import org.junit.FixMethodOrder;
import org.junit.runners.MethodSorters;

@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class LegacyTest extends TestCase {

    public void testCount() {
        assertEquals(3, Legacy.count(Items.of(3)));
    }
}
`;
const LEGACY_CLOCK_TEST = `package org.fixture;

import junit.framework.TestCase;

public class LegacyClockTest extends TestCase {

    public void testWallClock() {
        fail("depends on the wall clock of the machine that recorded it");
    }
}
`;
// Calc-7: what running Java 8 era tests on JDK 17 takes. Words.java is ISO-8859-1 (as commons-lang's sources are;
// the build files say commons.encoding=iso-8859-1 next to project.build.sourceEncoding=UTF-8, as Lang's do), and
// JavaVersionTest fails on any JDK but 8 — on the fix too, and Defects4J's failing_tests does not list it: an
// environment failure (`defects4j check --record-env-failures`).
const WORDS = 'package org.fixture;\n\npublic final class Words {\n    private Words() {\n    }\n\n    /** A word with a Latin-1 letter (the file is ISO-8859-1). */\n    public static String cafe() {\n        return "Caf\u00e9";\n    }\n}\n';
const DATES = (fixed: boolean) => `package org.fixture;

import java.text.DateFormat;
import java.text.SimpleDateFormat;
import java.util.Locale;

public final class Dates {
    private Dates() {
    }

    /** The pattern of a full US date and time. */
    public static String fullPattern() {
        return ((SimpleDateFormat) DateFormat.getDateTimeInstance(DateFormat.${fixed ? 'FULL' : 'LONG'}, DateFormat.FULL, Locale.US)).toPattern();
    }
}
`;
const DATES_TEST = `package org.fixture;

import junit.framework.TestCase;

public class DatesTest extends TestCase {

    public void testCafe() {
        assertEquals("Caf\\u00e9", Words.cafe());
    }

    /** a full date starts with the day of the week (in JDK 8's locale data and in JDK 17's alike) */
    public void testFullPattern() {
        assertTrue(Dates.fullPattern(), Dates.fullPattern().startsWith("EEEE, "));
    }
}
`;
const JAVA_VERSION_TEST = `package org.fixture;

import junit.framework.TestCase;

public class JavaVersionTest extends TestCase {

    public void testRecordedOnJava8() {
        assertEquals("1.8", System.getProperty("java.specification.version"));
    }
}
`;
const HELPER = `package org.helper;

import java.util.Vector;

public final class Items {
    private Items() {
    }

    public static Vector of(int n) {
        Vector v = new Vector();
        for (int i = 0; i < n; i++) {
            v.add(Integer.valueOf(i));
        }
        return v;
    }
}
`;

/** A jar of lib/ built with real javac and jar, byte-identical on every run (jar --date fixes the entries' times). */
function buildHelperJar(dest: string): void {
  const work = mkdtempSync(join(dirname(dest), 'helper-'));
  try {
    mkdirSync(join(work, 'src', 'org', 'helper'), { recursive: true });
    writeFileSync(join(work, 'src', 'org', 'helper', 'Items.java'), HELPER);
    execFileSync('javac', ['--release', '8', '-nowarn', '-d', join(work, 'classes'), join(work, 'src', 'org', 'helper', 'Items.java')], { stdio: 'pipe' });
    execFileSync('jar', ['--create', '--no-manifest', '--date=2020-01-01T00:00:02Z', '--file', join(work, 'helper.jar'), '-C', join(work, 'classes'), '.'], { stdio: 'pipe' });
    copyFileSync(join(work, 'helper.jar'), dest);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// Calc-3: the developer's fix also renames the parameter and adds Javadoc, which the minimised patch keeps (as
// Defects4J's patches often do), so the buggy version's faulty return line differs from the original revision's.
// The field comes first, so the first blamed line sits in no function.
const SIGN = (fixed: boolean) => `package org.fixture;

public final class Sign {

    static final int ZERO_SIGN = ${fixed ? '0' : '-1'};

    private Sign() {
    }
${fixed ? `
    /** The sign of {@code value}: -1, 0 or 1 (Sign.of is total). */
    public static int of(int value) {
        return value > 0 ? 1 : value == 0 ? ZERO_SIGN : -1;
    }
` : `
    public static int of(int v) {
        return v > 0 ? 1 : ZERO_SIGN;
    }
`}}
`;
const SIGN_TEST = (zero: boolean) => `package org.fixture;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class SignTest {

    @Test
    public void testPositive() {
        assertEquals(1, Sign.of(5));
    }
${zero ? `
    @Test
    public void testZero() {
        assertEquals(0, Sign.of(0));
    }
` : ''}}
`;
// The minimised patch of Calc-3 (fixed → buggy): only the field's value and the return expression.
const SIGN_MINIMISED_PATCH = `diff --git a/src/main/java/org/fixture/Sign.java b/src/main/java/org/fixture/Sign.java
--- a/src/main/java/org/fixture/Sign.java
+++ b/src/main/java/org/fixture/Sign.java
@@ -2,7 +2,7 @@ package org.fixture;
 
 public final class Sign {
 
-    static final int ZERO_SIGN = 0;
+    static final int ZERO_SIGN = -1;
 
     private Sign() {
     }
@@ -9,6 +9,6 @@ public final class Sign {
 
     /** The sign of {@code value}: -1, 0 or 1 (Sign.of is total). */
     public static int of(int value) {
-        return value > 0 ? 1 : value == 0 ? ZERO_SIGN : -1;
+        return value > 0 ? 1 : ZERO_SIGN;
     }
 }
`;
// Calc-4: broken data (a patch for a file the project never had), as real Defects4J data sometimes is.
const BROKEN_PATCH = `diff --git a/src/main/java/org/fixture/Missing.java b/src/main/java/org/fixture/Missing.java
--- a/src/main/java/org/fixture/Missing.java
+++ b/src/main/java/org/fixture/Missing.java
@@ -1,3 +1,3 @@
 package org.fixture;
-class Missing { int x = 1; }
+class Missing { int x = 2; }
 
`;

const CALC = (isPositive: string, safeDiv: boolean, safeDivGuard: boolean) => `package org.fixture;

public final class Calc {

    private Calc() {
    }

    public static int add(int a, int b) {
        return a + b;
    }

    public static boolean isPositive(int v) {
        ${isPositive}
    }

    public static int negate(int v) {
        return -v;
    }
${safeDiv ? `
    /** a / b, or 0 when b is 0 */
    public static int safeDiv(int a, int b) {
${safeDivGuard ? '        if (b == 0) {\n            return 0;\n        }\n' : ''}        return a / b;
    }
` : ''}}
`;

const TEST = (methods: string[]) => `package org.fixture;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class CalcTest {

    @Test
    public void testAdd() {
        assertEquals(5, Calc.add(2, 3));
    }

    @Test
    public void testIsPositive() {
        assertTrue(Calc.isPositive(3));
    }
${methods.join('')}}
`;

const NEGATE = `
    @Test
    public void testNegate() {
        assertEquals(-4, Calc.negate(4));
    }
`;
const ZERO = `
    @Test
    public void testIsPositiveZero() {
        assertEquals(false, Calc.isPositive(0));
    }
`;
// Broken in the fixed revision (Defects4J lists such tests in failing_tests/<rev> and removes them).
const FLAKY = `
    /** depends on the wall clock; fails on CI */
    @Test(timeout = 1000)
    public void testFlaky() {
        String braces = "{ not a block }";
        assertEquals("}", braces.substring(0, 1));
    }
`;
const DIV = `
    @Test
    public void testSafeDiv() {
        assertEquals(3, Calc.safeDiv(7, 2));
    }
`;
const DIV_ZERO = `
    @Test
    public void testSafeDivByZero() {
        assertEquals(0, Calc.safeDiv(7, 0));
    }
`;

export function createDefects4jFixture(root: string): Defects4jFixture {
  const repo = join(root, 'project_repos', 'calc');
  mkdirSync(repo, { recursive: true });
  let tick = 0;
  const run = (args: string[], input?: string) => {
    const when = `${1_600_000_000 + tick * 86_400} +0000`;
    return execFileSync('git', ['-c', 'commit.gpgSign=false', '-c', 'core.autocrlf=false', ...args], {
      cwd: repo,
      input,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        HOME: root,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_AUTHOR_NAME: 'Pat Upstream',
        GIT_AUTHOR_EMAIL: 'pat@upstream.example',
        GIT_COMMITTER_NAME: 'Pat Upstream',
        GIT_COMMITTER_EMAIL: 'pat@upstream.example',
        GIT_AUTHOR_DATE: when,
        GIT_COMMITTER_DATE: when,
      },
    });
  };
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  };
  const commit = (message: string): string => {
    tick++;
    run(['add', '-A']);
    run(['commit', '-q', '-m', message]);
    return run(['rev-parse', 'HEAD']).trim();
  };
  const main = 'src/main/java/org/fixture/Calc.java';
  const test = 'src/test/java/org/fixture/CalcTest.java';
  run(['init', '-q', '--initial-branch=trunk']);
  write('README', 'calc\n');
  write(main, CALC('return v > 0;', false, false));
  write(test, TEST([]));
  commit('Initial import');
  write(main, CALC('return v >= 0;', false, false));
  const introducesBug1 = commit('isPositive: simplify');
  write(main, CALC('return v >= 0;', false, false).replace('public static int negate', 'public static int negate'));
  write(test, TEST([NEGATE]));
  commit('Test negate');
  write('README', 'calc: tiny arithmetic\n');
  const buggy1 = commit('README');
  write(main, CALC('return v > 0;', false, false));
  write(test, TEST([NEGATE, ZERO, FLAKY]));
  write('README', 'calc: tiny arithmetic (0 is not positive)\n');
  const fixed1 = commit('Fix CALC-1: zero is not positive');
  write(main, CALC('return v > 0;', true, false));
  write(test, TEST([NEGATE, ZERO, FLAKY, DIV]));
  commit('Add safeDiv');
  write('NOTES', 'release soon\n');
  const buggy2 = commit('Notes');
  write(main, CALC('return v > 0;', true, true));
  write(test, TEST([NEGATE, ZERO, FLAKY, DIV, DIV_ZERO]));
  const fixed2 = commit('Fix CALC-7: safeDiv by zero');
  write('src/main/java/org/fixture/Sign.java', SIGN(false));
  write('src/test/java/org/fixture/SignTest.java', SIGN_TEST(false));
  const introducesBug3 = commit('Add Sign');
  write('NOTES', 'release soon; Sign added\n');
  const buggy3 = commit('Notes on Sign');
  write('src/main/java/org/fixture/Sign.java', SIGN(true));
  write('src/test/java/org/fixture/SignTest.java', SIGN_TEST(true));
  const fixed3 = commit('Fix CALC-9: the sign of zero is 0');
  // Calc-6's own line of history (see LEGACY)
  run(['checkout', '-q', '--orphan', 'legacy']);
  run(['rm', '-q', '-r', '-f', '.']);
  write('src/main/java/org/fixture/Legacy.java', LEGACY(false));
  write('src/test/java/org/fixture/LegacyClockTest.java', LEGACY_CLOCK_TEST);
  write('src/main/java/org/fixture/Catalog.java', CATALOG);
  write('src/test/java/org/fixture/CatalogTest.java', CATALOG_TEST);
  commit('Legacy counter');
  write('NOTES', 'legacy\n');
  const buggy6 = commit('Notes on Legacy');
  write('src/main/java/org/fixture/Legacy.java', LEGACY(true));
  write('src/test/java/org/fixture/LegacyTest.java', LEGACY_TEST);
  const fixed6 = commit('Fix CALC-13: count is off by one');
  // Calc-7's own line of history (see WORDS)
  run(['checkout', '-q', '--orphan', 'latin1']);
  run(['rm', '-q', '-r', '-f', '.']);
  mkdirSync(join(repo, 'src/main/java/org/fixture'), { recursive: true });
  writeFileSync(join(repo, 'src/main/java/org/fixture/Words.java'), Buffer.from(WORDS, 'latin1'));
  write('src/main/java/org/fixture/Dates.java', DATES(false));
  write('src/test/java/org/fixture/JavaVersionTest.java', JAVA_VERSION_TEST);
  commit('Words and dates');
  write('NOTES', 'dates\n');
  const buggy7 = commit('Notes on Dates');
  write('src/main/java/org/fixture/Dates.java', DATES(true));
  write('src/test/java/org/fixture/DatesTest.java', DATES_TEST);
  const fixed7 = commit('Fix CALC-14: the full pattern has the full date');

  const d4jDir = join(root, 'defects4j');
  const projectDir = join(d4jDir, 'framework', 'projects', 'Calc');
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(projectDir, path)), { recursive: true });
    writeFileSync(join(projectDir, path), text);
  };
  put(
    'active-bugs.csv',
    `bug.id,revision.id.buggy,revision.id.fixed,report.id,report.url\n1,${buggy1},${fixed1},CALC-1,https://issues.example/CALC-1\n2,${buggy2},${fixed2},CALC-7,https://issues.example/CALC-7\n` +
      `3,${buggy3},${fixed3},CALC-9,https://issues.example/CALC-9\n4,${buggy3},${fixed3},CALC-11,https://issues.example/CALC-11\n` +
      `5,${buggy1},${fixed1},CALC-12,https://issues.example/CALC-12\n6,${buggy6},${fixed6},CALC-13,https://issues.example/CALC-13\n` +
      `7,${buggy7},${fixed7},CALC-14,https://issues.example/CALC-14\n`,
  );
  put('dir-layout.csv', [buggy1, fixed1, buggy2, fixed2, buggy3, fixed3, buggy6, fixed6, buggy7, fixed7].map((r) => `${r},src/main/java,src/test/java`).join('\n') + '\n');
  put('patches/3.src.patch', SIGN_MINIMISED_PATCH);
  put('patches/4.src.patch', BROKEN_PATCH);
  put('trigger_tests/3', '--- org.fixture.SignTest::testZero\njava.lang.AssertionError: expected:<0> but was:<-1>\n');
  // Calc-5: Calc-1's revisions, but a trigger test that passes on the buggy version (it does not reproduce)
  put('patches/5.src.patch', run(['diff', fixed1, buggy1, '--', 'src/main/java']));
  put('trigger_tests/5', '--- org.fixture.CalcTest::testAdd\njava.lang.AssertionError\n');
  put('trigger_tests/4', '--- org.fixture.SignTest::testZero\njava.lang.AssertionError: expected:<0> but was:<-1>\n');
  put(`failing_tests/${fixed3}`, '--- org.fixture.CalcTest::testFlaky\norg.junit.ComparisonFailure: expected:<[}]> but was:<[{]>\n');
  // Defects4J's patches go from the fixed to the buggy revision
  put('patches/1.src.patch', run(['diff', fixed1, buggy1, '--', 'src/main/java']));
  put('patches/1.test.patch', run(['diff', fixed1, buggy1, '--', 'src/test/java']));
  put('patches/2.src.patch', run(['diff', fixed2, buggy2, '--', 'src/main/java']));
  put('patches/2.test.patch', run(['diff', fixed2, buggy2, '--', 'src/test/java']));
  put('trigger_tests/1', '--- org.fixture.CalcTest::testIsPositiveZero\njava.lang.AssertionError: expected:<false> but was:<true>\n\tat org.junit.Assert.fail(Assert.java:89)\n\tat org.fixture.CalcTest.testIsPositiveZero(CalcTest.java:30)\n');
  put('trigger_tests/2', '--- org.fixture.CalcTest::testSafeDivByZero\njava.lang.ArithmeticException: / by zero\n\tat org.fixture.Calc.safeDiv(Calc.java:26)\n');
  put(`failing_tests/${fixed1}`, '--- org.fixture.CalcTest::testFlaky\norg.junit.ComparisonFailure: expected:<[}]> but was:<[{]>\n');
  put(`failing_tests/${fixed2}`, '--- org.fixture.CalcTest::testFlaky\norg.junit.ComparisonFailure: expected:<[}]> but was:<[{]>\n');
  put('dependent_tests', '--- org.fixture.CalcTest::testNoSuchMethod\n');
  put('patches/6.src.patch', run(['diff', fixed6, buggy6, '--', 'src/main/java']));
  put('trigger_tests/6', '--- org.fixture.LegacyTest::testCount\njunit.framework.AssertionFailedError: expected:<3> but was:<2>\n');
  put(`failing_tests/${fixed6}`, '--- org.fixture.LegacyClockTest\njunit.framework.AssertionFailedError: depends on the wall clock\n');
  put(`build_files/${fixed6}/maven-build.properties`, 'maven.build.dir=target\nmaven.compile.source=1.4\nmaven.compile.target=1.4\n');
  put('patches/7.src.patch', run(['diff', fixed7, buggy7, '--', 'src/main/java']));
  put('trigger_tests/7', '--- org.fixture.DatesTest::testFullPattern\njunit.framework.AssertionFailedError: MMMM d, yyyy h:mm:ss a z\n');
  put(`build_files/${fixed7}/maven-build.properties`,
    'maven.compile.source=1.5\nmaven.compile.target=1.5\ncommons.encoding=iso-8859-1\nproject.build.sourceEncoding=UTF-8\n');
  mkdirSync(join(projectDir, 'lib', 'org', 'helper'), { recursive: true });
  buildHelperJar(join(projectDir, 'lib', 'org', 'helper', 'calc-helper-1.0.jar'));
  put('modified_classes/1.src', 'org.fixture.Calc\n');
  put('modified_classes/2.src', 'org.fixture.Calc\n');
  put('relevant_tests/1', 'org.fixture.CalcTest\n');
  put('relevant_tests/2', 'org.fixture.CalcTest\n');
  return { projectRepo: repo, d4jDir, project: 'Calc', revisions: { introducesBug1, buggy1, fixed1, buggy2, fixed2, introducesBug3, buggy3, fixed3, buggy6, fixed6, buggy7, fixed7 } };
}
