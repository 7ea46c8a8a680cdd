// Defects4J's per-project checkout recipes (worker/node/defects4j/post-checkout.ts) on small trees written here:
// real files, real `git apply`; each case mirrors what the project's framework/core/Project/<P>.pm does.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHART_EXPERIMENTAL_DIR, CLOSURE_RESOURCE_DIR, Defects4jRefusal, mergeJars, postCheckout, treeJarOids, type PostCheckoutContext } from '../../../worker/node/defects4j/post-checkout.ts';
import { Defects4jImportError } from '../../../worker/node/defects4j/git.ts';
import { RHINO_SOURCE_DIR } from '../../../worker/node/defects4j/closure-rhino.ts';
import { localeDataOf } from '../../../worker/node/defects4j/defects4j-import.ts';

let root: string;
let projectDir: string;
let tree: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'repairlab-d4j-recipe-'));
  projectDir = join(root, 'framework/projects/P');
  tree = join(root, 'tree');
  mkdirSync(projectDir, { recursive: true });
  mkdirSync(tree);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(base: string, path: string, text: string | Buffer): void {
  mkdirSync(dirname(join(base, path)), { recursive: true });
  writeFileSync(join(base, path), text);
}
const read = (path: string) => readFileSync(join(tree, path), 'utf8');

function run(project: string, bugId: number, extra: Partial<PostCheckoutContext> = {}) {
  return postCheckout({ project, bugId, revision: 'f00d', projectDir, dir: tree, layout: { src: 'src/main/java', test: 'src/test/java' }, ...extra });
}

/** A one-line change of `path` as a git diff. */
function diff(path: string, before: string, after: string): string {
  return `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1,3 +1,3 @@\n class T {\n-${before}\n+${after}\n }\n`;
}
const T = (line: string) => `class T {\n${line}\n}\n`;

describe('compile-errors/ diffs', () => {
  it('applies every diff whose range holds the bug, in name order, and only those', () => {
    write(tree, 'src/test/java/T.java', T('  int x = broken();'));
    write(tree, 'src/test/java/U.java', T('  int y = gone();'));
    write(projectDir, 'compile-errors/test-1-4.diff', diff('src/test/java/T.java', '  int x = broken();', '  int x = 1;'));
    write(projectDir, 'compile-errors/other-3-3.diff', diff('src/test/java/U.java', '  int y = gone();', '  int y = 2;'));
    // out of range: it would not even apply, so applying it would fail the import
    write(projectDir, 'compile-errors/test-5-9.diff', diff('src/test/java/T.java', '  int x = never();', '  int x = 3;'));
    const result = run('P', 3);
    expect(read('src/test/java/T.java')).toBe(T('  int x = 1;'));
    expect(read('src/test/java/U.java')).toBe(T('  int y = 2;'));
    expect(result.steps).toEqual(['applied compile-errors/other-3-3.diff', 'applied compile-errors/test-1-4.diff']);
    expect(run('P', 10).steps).toEqual([]);
  });

  it('lists the files Defects4J\'s locale-*.diff rewrote for CLDR; a bug whose trigger tests sit there keeps CLDR', () => {
    write(tree, 'src/test/java/p/LocaleUtilsTest.java', T('  String[] it = {"IT", "CH"};'));
    write(tree, 'src/test/java/p/T.java', T('  int x = broken();'));
    write(projectDir, 'compile-errors/locale-1-4.diff', diff('src/test/java/p/LocaleUtilsTest.java', '  String[] it = {"IT", "CH"};', '  String[] it = {"VA", "SM", "IT", "CH"};'));
    write(projectDir, 'compile-errors/test-1-4.diff', diff('src/test/java/p/T.java', '  int x = broken();', '  int x = 1;'));
    const result = run('Lang', 2);
    expect(result.cldrAdaptedFiles).toEqual(['src/test/java/p/LocaleUtilsTest.java']);
    expect(localeDataOf('Lang', ['p.LocaleUtilsTest::testCountriesByLanguage'], result.cldrAdaptedFiles)).toBeUndefined(); // CLDR
    expect(localeDataOf('Lang', ['p.NumberUtilsTest::testCreateNumber'], result.cldrAdaptedFiles)).toBe('compat-only');
    expect(localeDataOf('Time', ['p.LocaleUtilsTest::x'], [])).toBe('compat');
    expect(localeDataOf('Math', ['p.LocaleUtilsTest::x'], [])).toBeUndefined();
  });

  it('applies to the tree even when the tree lies inside another git repository', () => {
    // git apply run in a repository's subdirectory would skip (silently) every path outside it
    execFileSync('git', ['init', '-q', root]);
    write(tree, 'src/test/java/T.java', T('  int x = broken();'));
    write(projectDir, 'compile-errors/test-1-1.diff', diff('src/test/java/T.java', '  int x = broken();', '  int x = 1;'));
    run('P', 1);
    expect(read('src/test/java/T.java')).toBe(T('  int x = 1;'));
  });

  it('tries -p0 after -p1, as Defects4J does', () => {
    write(tree, 'src/T.java', T('  int x = broken();'));
    write(projectDir, 'compile-errors/p0-1-1.diff', '--- src/T.java\n+++ src/T.java\n@@ -1,3 +1,3 @@\n class T {\n-  int x = broken();\n+  int x = 1;\n }\n');
    run('P', 1);
    expect(read('src/T.java')).toBe(T('  int x = 1;'));
  });

  it('names the diff, its range and the bug when it does not apply', () => {
    write(tree, 'src/test/java/T.java', T('  int x = other();'));
    write(projectDir, 'compile-errors/test-1-4.diff', diff('src/test/java/T.java', '  int x = broken();', '  int x = 1;'));
    let error: unknown;
    try {
      run('P', 2);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Defects4jImportError);
    expect((error as Error).message).toMatch(/^P-2: compile-errors\/test-1-4\.diff \(for bugs 1–4\) does not apply to the fixed revision f00d: .*patch does not apply/s);
    expect((error as Defects4jImportError).input).toBe(join(projectDir, 'compile-errors/test-1-4.diff'));
  });

  it('skips an .optional diff that does not apply (JacksonDatabind)', () => {
    write(tree, 'src/test/java/T.java', T('  int x = other();'));
    write(projectDir, 'compile-errors/TestX-1-4.optional.diff', diff('src/test/java/T.java', '  int x = broken();', '  int x = 1;'));
    expect(run('P', 2).steps).toEqual(['skipped compile-errors/TestX-1-4.optional.diff (optional; does not apply)']);
  });

  it('applies Gson\'s diffs inside gson/', () => {
    write(tree, 'gson/src/test/java/T.java', T('  int x = broken();'));
    write(projectDir, 'compile-errors/locale-1-1.diff', diff('src/test/java/T.java', '  int x = broken();', '  int x = 1;'));
    run('Gson', 1);
    expect(read('gson/src/test/java/T.java')).toBe(T('  int x = 1;'));
  });
});

describe('project recipes', () => {
  it('Chart: compiles experimental/org/jfree/experimental without its junit/ directories, as compile-experimental does', () => {
    write(tree, 'experimental/org/jfree/experimental/chart/plot/dial/DialPlot.java', T('  int x;'));
    write(tree, 'experimental/org/jfree/experimental/chart/plot/dial/junit/DialPlotTests.java', T('  junit.framework.TestCase t;'));
    write(tree, 'experimental/org/jfree/experimental/README.txt', 'notes');
    const result = run('Chart', 1, { revision: '2266', layout: { src: 'source', test: 'tests' } });
    expect(result.sourceDirs).toEqual([CHART_EXPERIMENTAL_DIR]);
    expect(read(`${CHART_EXPERIMENTAL_DIR}/org/jfree/experimental/chart/plot/dial/DialPlot.java`)).toBe(T('  int x;'));
    expect(existsSync(join(tree, CHART_EXPERIMENTAL_DIR, 'org/jfree/experimental/chart/plot/dial/junit'))).toBe(false);
    expect(existsSync(join(tree, CHART_EXPERIMENTAL_DIR, 'org/jfree/experimental/README.txt'))).toBe(false);
    expect(result.steps).toEqual([expect.stringMatching(/^experimental\/org\/jfree\/experimental \(1 files, junit\/ left out\) copied to build\/experimental-src/)]);
    // a revision without experimental classes gets nothing
    rmSync(join(tree, 'experimental'), { recursive: true });
    rmSync(join(tree, 'build'), { recursive: true });
    expect(run('Chart', 1, { revision: '2266', layout: { src: 'source', test: 'tests' } }).sourceDirs).toEqual([]);
  });

  it('Time: moves JodaTime/* to the root before its compile-errors diffs, which are written against the moved tree', () => {
    write(tree, 'JodaTime/src/main/java/T.java', T('  int x = broken();'));
    write(tree, 'JodaTime/build.xml', '<project/>');
    write(projectDir, 'compile-errors/locale-1-27.diff', diff('src/main/java/T.java', '  int x = broken();', '  int x = 1;'));
    expect(run('Time', 27).steps).toEqual(['moved JodaTime/* to the root', 'applied compile-errors/locale-1-27.diff']);
    expect(read('src/main/java/T.java')).toBe(T('  int x = 1;'));
    expect(existsSync(join(tree, 'build.xml'))).toBe(true);
  });

  it('Time: its build\'s zone database compile becomes a build step over the zone files the revision has', () => {
    expect(run('Time', 1).buildSteps).toEqual([]);
    for (const f of ['africa', 'europe', 'systemv', 'Readme.txt']) write(tree, `JodaTime/src/main/java/org/joda/time/tz/src/${f}`, '# zones\n');
    const r = run('Time', 22);
    expect(r.buildSteps).toEqual([
      {
        name: 'the zone database',
        mainClass: 'org.joda.time.tz.ZoneInfoCompiler',
        args: ['-src', '{root}/src/main/java/org/joda/time/tz/src', '-dst', '{out}/org/joda/time/tz/data', 'africa', 'europe', 'systemv'],
        systemProperties: { 'org.joda.time.DateTimeZone.Provider': 'org.joda.time.tz.UTCProvider' },
        makeDirs: ['{out}/org/joda/time/tz/data'],
      },
    ]);
    expect(r.steps.at(-1)).toMatch(/ZoneInfoCompiler compiles src\/main\/java\/org\/joda\/time\/tz\/src \(3 zone files\)/);
  });

  it('Jackson: copies PackageVersion.java of the version maven-build.properties names (the tree\'s, else build_files/<rev>/)', () => {
    write(projectDir, 'generated_sources/2.3.0/PackageVersion.java', 'class PackageVersion { /* 2.3.0 */ }\n');
    write(projectDir, 'generated_sources/2.9.6/PackageVersion.java', 'class PackageVersion { /* 2.9.6 */ }\n');
    write(tree, 'maven-build.properties', 'maven.build.finalName=jackson-core-2.3.0-SNAPSHOT\n');
    run('JacksonCore', 1);
    expect(read('src/main/java/com/fasterxml/jackson/core/json/PackageVersion.java')).toContain('2.3.0');
    rmSync(join(tree, 'maven-build.properties'));
    write(projectDir, 'build_files/f00d/maven-build.properties', 'maven.build.finalName=jackson-dataformat-xml-2.9.6\n');
    run('JacksonXml', 5);
    expect(read('src/main/java/com/fasterxml/jackson/dataformat/xml/PackageVersion.java')).toContain('2.9.6');
  });

  it('Jackson: refuses a bug whose sources need a PackageVersion.java Defects4J does not ship', () => {
    write(tree, 'maven-build.properties', 'maven.build.finalName=jackson-core-9.9.9-SNAPSHOT\n');
    write(tree, 'src/main/java/com/fasterxml/jackson/core/json/PackageVersion.java.in', 'class PackageVersion { @projectversion@ }\n');
    expect(() => run('JacksonCore', 7)).toThrow(Defects4jRefusal);
    expect(() => run('JacksonCore', 7)).toThrow(/^JacksonCore-7: refused: needs .*PackageVersion\.java, which the Maven build generates .*no generated_sources\/9\.9\.9\/PackageVersion\.java/);
  });

  it('JacksonDatabind: spells Module out as Defects4J\'s five seds do (first match per line)', () => {
    const source = [
      'public class SimpleModule extends Module',
      '  public void setupModule(Module m) { List<Module> all; Object o = (Module) x; new Module(); }',
      '  Module Module first, Module second;',
      '  ModuleVersion kept;',
    ].join('\n');
    write(tree, 'src/main/java/SimpleModule.java', source + '\n');
    run('JacksonDatabind', 1);
    expect(read('src/main/java/SimpleModule.java')).toBe(
      [
        'public class SimpleModule extends com.fasterxml.jackson.databind.Module',
        '  public void setupModule(Module m) { List<com.fasterxml.jackson.databind.Module> all; Object o = (com.fasterxml.jackson.databind.Module) x; new com.fasterxml.jackson.databind.Module(); }',
        '  com.fasterxml.jackson.databind.Module Module first, Module second;',
        '  ModuleVersion kept;',
      ].join('\n') + '\n',
    );
  });

  it('Codec: converts the listed test files from ISO-8859-1 to UTF-8, unless the layout compiles in ISO-8859-1', () => {
    const latin1 = Buffer.from('class SoundexTest { String s = "Müller"; }\n', 'latin1');
    write(tree, 'src/test/java/org/apache/commons/codec/language/SoundexTest.java', latin1);
    const result = run('Codec', 18);
    expect(result.steps).toEqual(['converted src/test/java/org/apache/commons/codec/language/SoundexTest.java from ISO-8859-1 to UTF-8']);
    expect(read('src/test/java/org/apache/commons/codec/language/SoundexTest.java')).toBe('class SoundexTest { String s = "Müller"; }\n');
    write(tree, 'src/test/java/org/apache/commons/codec/language/SoundexTest.java', latin1);
    run('Codec', 18, { encoding: 'ISO-8859-1' });
    expect(readFileSync(join(tree, 'src/test/java/org/apache/commons/codec/language/SoundexTest.java'))).toEqual(latin1);
  });

  it('Lang: renames the enum package to oldenum in sources and tests', () => {
    write(tree, 'src/java/org/apache/commons/lang/enum/Enum.java', 'package org.apache.commons.lang.enum;\nclass Enum {}\n');
    write(tree, 'src/test/org/apache/commons/lang/enum/EnumTest.java', 'package org.apache.commons.lang.enum;\nclass EnumTest {}\n');
    run('Lang', 50, { layout: { src: 'src/java', test: 'src/test' } });
    expect(read('src/java/org/apache/commons/lang/oldenum/Enum.java')).toBe('package org.apache.commons.lang.oldenum;\nclass Enum {}\n');
    expect(read('src/test/org/apache/commons/lang/oldenum/EnumTest.java')).toBe('package org.apache.commons.lang.oldenum;\nclass EnumTest {}\n');
    expect(existsSync(join(tree, 'src/java/org/apache/commons/lang/enum'))).toBe(false);
  });

  it('Mockito: the test-runner patch for bugs 16, 17 and 34–38 only; build.gradle\'s extra source dirs; the byte-buddy and hamcrest-core jars it names', () => {
    write(projectDir, 'mockito_test_runners.patch', diff('src/org/mockito/T.java', '  int x = broken();', '  int x = 1;'));
    write(projectDir, 'byte-buddy/byte-buddy-0.6.8.jar', 'jar bytes');
    write(tree, 'src/org/mockito/T.java', T('  int x = broken();'));
    write(tree, 'mockmaker/bytebuddy/main/java/B.java', 'class B {}\n');
    write(tree, 'mockmaker/bytebuddy/test/java/BTest.java', 'class BTest {}\n');
    write(projectDir, 'lib/hamcrest-core-1.1.jar', 'hamcrest 1.1 bytes');
    write(projectDir, 'lib/hamcrest-all-1.3.jar', 'hamcrest 1.3 bytes');
    write(tree, 'build.gradle', "sourceSets {\n  main { java.srcDirs 'src', 'mockmaker/bytebuddy/main/java' }\n  test { java.srcDirs 'test', 'mockmaker/bytebuddy/test/java' }\n}\ndependencies {\n  compile 'net.bytebuddy:byte-buddy:0.6.8'\n  compile \"org.hamcrest:hamcrest-core:1.1\", \"org.objenesis:objenesis:2.1\"\n}\nsourceCompatibility = 1.5\n");
    const layout = { src: 'src', test: 'test' };
    const result = run('Mockito', 15, { layout });
    expect(read('src/org/mockito/T.java')).toBe(T('  int x = broken();'));
    expect(result.sourceDirs).toEqual(['mockmaker/bytebuddy/main/java']);
    expect(result.testDirs).toEqual(['mockmaker/bytebuddy/test/java']);
    // the hamcrest-core its gradle build compiles against, from Defects4J's lib/ (not lib/'s hamcrest-all 1.3)
    expect(result.jars).toEqual([
      { name: 'byte-buddy-0.6.8.jar', path: 'compileLib/byte-buddy-0.6.8.jar' },
      { name: 'hamcrest-core-1.1.jar', path: 'compileLib/hamcrest-core-1.1.jar' },
    ]);
    expect(read('compileLib/byte-buddy-0.6.8.jar')).toBe('jar bytes');
    expect(read('compileLib/hamcrest-core-1.1.jar')).toBe('hamcrest 1.1 bytes');
    expect(result.javaLevels).toMatchObject({ source: '1.6', target: '1.6' });
    run('Mockito', 16, { layout });
    expect(read('src/org/mockito/T.java')).toBe(T('  int x = 1;'));
  });

  it('Mockito: refuses a revision whose byte-buddy version Defects4J does not ship', () => {
    write(tree, 'build.gradle', "dependencies {\n  compile 'net.bytebuddy:byte-buddy:0.7.1'\n}\n");
    expect(() => run('Mockito', 3)).toThrow(/^Mockito-3: refused: depends on byte-buddy 0\.7\.1 \(build\.gradle\), which Defects4J does not ship/);
  });

  it('Closure: renames Rhino as the build\'s jarjar does (sources, resources, names in strings), keeping every other byte', () => {
    write(tree, 'build.xml', '<project name="compiler"><target name="rhino"><ant dir="lib/rhino/"/></target></project>');
    // a data error of that bug (reported with it; the import goes on), not an error of the importer
    expect(() => run('Closure', 1, { layout: { src: 'src', test: 'test' } })).toThrow(Defects4jImportError);
    expect(() => run('Closure', 1, { layout: { src: 'src', test: 'test' } })).toThrow(/"rhino" target builds lib\/rhino, but lib\/rhino\/src\/org\/mozilla\/javascript is missing/);
    write(tree, 'lib/rhino/src/build.xml', '<project/>');
    write(tree, 'lib/rhino/src/org/mozilla/javascript/Kit.java', Buffer.from('package org.mozilla.javascript;\n// caf\xe9\nclass Kit { String x = "org.mozilla.javascript.xmlimpl.XMLLibImpl"; String r = "org/mozilla/javascript/resources"; }\n', 'latin1'));
    write(tree, 'lib/rhino/src/org/mozilla/javascript/resources/Messages.properties', 'msg.x=org.mozilla.javascript\n');
    write(tree, 'lib/rhino/src/org/mozilla/classfile/ClassFileWriter.java', 'package org.mozilla.classfile;\nimport org.mozilla.javascript.Kit;\n');
    write(tree, 'lib/rhino/src/org/mozilla/javascript/icon.gif', Buffer.from([0x47, 0x49, 0x46, 0xff, 0x00]));
    const result = run('Closure', 1, { layout: { src: 'src', test: 'test' } });
    expect(result.sourceDirs).toEqual([RHINO_SOURCE_DIR]);
    expect(result.steps[0]).toMatch(/lib\/rhino\/src \(4 files\) renamed org\.mozilla\.javascript → com\.google\.javascript\.rhino\.head/);
    const head = `${RHINO_SOURCE_DIR}/com/google/javascript/rhino/head`;
    expect(readFileSync(join(tree, head, 'Kit.java'))).toEqual(
      Buffer.from('package com.google.javascript.rhino.head;\n// caf\xe9\nclass Kit { String x = "com.google.javascript.rhino.head.xmlimpl.XMLLibImpl"; String r = "com/google/javascript/rhino/head/resources"; }\n', 'latin1'),
    );
    expect(read(`${head}/resources/Messages.properties`)).toBe('msg.x=com.google.javascript.rhino.head\n');
    expect(read(`${RHINO_SOURCE_DIR}/org/mozilla/classfile/ClassFileWriter.java`)).toBe('package org.mozilla.classfile;\nimport com.google.javascript.rhino.head.Kit;\n');
    expect([...readFileSync(join(tree, head, 'icon.gif'))]).toEqual([0x47, 0x49, 0x46, 0xff, 0x00]);
    expect(existsSync(join(tree, RHINO_SOURCE_DIR, 'build.xml'))).toBe(false);
  });

  it('Closure: finds Rhino where the "rhino" target builds it, and renames it as the jarjar rule says (Closure 44–62, 161: a CVS checkout under lib/rhino/src, renamed to com.google.javascript.jscomp.mozilla.rhino)', () => {
    write(tree, 'build.xml', [
      '<project name="compiler"><target name="rhino">',
      '  <ant antfile="build.xml" inheritAll="false" dir="lib/rhino/src/mozilla/js/rhino/" target="jar"/>',
      '</target>',
      '<target name="rhino-jarjar" depends="rhino"><jarjar destfile="${buildlib.dir}/rhino.jar" update="true">',
      '  <rule pattern="org.mozilla.javascript.**"',
      '        result="com.google.javascript.jscomp.mozilla.rhino.@1"/>',
      '</jarjar></target></project>',
    ].join('\n'));
    write(tree, 'lib/rhino/src/mozilla/js/rhino/src/org/mozilla/javascript/Kit.java', 'package org.mozilla.javascript;\nclass Kit { String b = "org.mozilla.javascript.resources.Messages"; }\n');
    write(tree, 'lib/rhino/src/mozilla/js/rhino/src/org/mozilla/javascript/CVS/Entries', '/Kit.java/1.1/\n');
    const result = run('Closure', 44, { layout: { src: 'src', test: 'test' } });
    expect(result.steps[0]).toMatch(/lib\/rhino\/src\/mozilla\/js\/rhino\/src \(1 files\) renamed org\.mozilla\.javascript → com\.google\.javascript\.jscomp\.mozilla\.rhino/);
    expect(read(`${RHINO_SOURCE_DIR}/com/google/javascript/jscomp/mozilla/rhino/Kit.java`)).toBe(
      'package com.google.javascript.jscomp.mozilla.rhino;\nclass Kit { String b = "com.google.javascript.jscomp.mozilla.rhino.resources.Messages"; }\n',
    );
    expect(existsSync(join(tree, RHINO_SOURCE_DIR, 'com/google/javascript/rhino/head'))).toBe(false);
    expect(existsSync(join(tree, RHINO_SOURCE_DIR, 'com/google/javascript/jscomp/mozilla/rhino/CVS'))).toBe(false);
  });

  it('Closure: resources build.xml copies into the class directory lie under a resource directory at the path the code reads', () => {
    write(tree, 'build.xml', [
      '<project name="compiler"><target name="compile">',
      '    <copy file="${src.dir}/com/google/javascript/rhino/Messages.properties"',
      '          todir="${classes.dir}/rhino_ast/java/com/google/javascript/rhino/" />',
      '    <copy file="${src.dir}/com/google/javascript/jscomp/parsing/ParserConfig.properties"',
      '          todir="${classes.dir}/com/google/javascript/jscomp/parsing" />',
      '</target></project>',
    ].join('\n'));
    write(tree, 'src/com/google/javascript/rhino/Messages.properties', 'msg.x = X\n');
    write(tree, 'src/com/google/javascript/jscomp/parsing/ParserConfig.properties', 'a = b\n');
    const result = run('Closure', 80, { layout: { src: 'src', test: 'test' } });
    expect(result.resourceDirs).toEqual([CLOSURE_RESOURCE_DIR]);
    expect(read(`${CLOSURE_RESOURCE_DIR}/rhino_ast/java/com/google/javascript/rhino/Messages.properties`)).toBe('msg.x = X\n');
    // copied onto its own package path: src/ is a resource root already, nothing is written
    expect(existsSync(join(tree, CLOSURE_RESOURCE_DIR, 'com'))).toBe(false);
  });

  it('Closure: others get gen/ and the tree\'s jars', () => {
    write(tree, 'build.xml', '<project name="compiler"><path><include name="libtrunk_rhino_parser_jarjared.jar"/></path></project>');
    write(tree, 'gen/com/google/Proto.java', 'class Proto {}\n');
    for (const jar of ['lib/guava.jar', 'lib/junit.jar', 'lib/hamcrest-core-1.1.jar', 'lib/libtrunk_rhino_parser_jarjared.jar', 'lib/build/pmd.jar', 'lib/sources/x-sources.jar', 'build/lib/rhino.jar']) write(tree, jar, jar);
    const result = run('Closure', 80, { layout: { src: 'src', test: 'test' } });
    expect(result.sourceDirs).toEqual(['gen']);
    expect(result.javaLevels).toMatchObject({ source: '1.6', target: '1.6' });
    write(tree, 'build.xml', '<project name="compiler"><property name="ant.build.javac.source" value="1.7" /></project>');
    expect(run('Closure', 81, { layout: { src: 'src', test: 'test' } }).javaLevels).toMatchObject({ source: '1.7' });
    // JUnit is the runner's; the hamcrest the revision ships stays (its sources may implement 1.1's Matcher)
    expect(result.jars).toEqual([
      { name: 'guava.jar', path: 'lib/guava.jar' },
      { name: 'hamcrest-core-1.1.jar', path: 'lib/hamcrest-core-1.1.jar' },
      { name: 'libtrunk_rhino_parser_jarjared.jar', path: 'lib/libtrunk_rhino_parser_jarjared.jar' },
      { name: 'rhino.jar', path: 'build/lib/rhino.jar' },
    ]);
    const oid = execFileSync('git', ['hash-object', join(tree, 'lib/guava.jar')], { encoding: 'utf8' }).trim();
    expect(treeJarOids(tree, result.jars.slice(0, 1))).toEqual([{ name: 'guava.jar', oid }]);
  });

  it('merges the tree\'s jars after lib/\'s, the first of one name winning', () => {
    expect(mergeJars([{ name: 'a.jar', oid: '1' }], [{ name: 'a.jar', oid: '2' }, { name: 'b.jar', oid: '3' }])).toEqual([
      { name: 'a.jar', oid: '1' },
      { name: 'b.jar', oid: '3' },
    ]);
  });
});
