// layout.suiteFiles: Ant patterns (Defects4J's all.manual.tests filesets) deciding which test classes form the suite.
import { describe, expect, it } from 'vitest';
import { antPattern, suiteFilter } from '../../../runner/src/test-suite.ts';

describe('antPattern', () => {
  it('reads ** as any number of directories, none included, and * and ? within one name', () => {
    const tests = antPattern('**/*Test.java');
    expect(['FooTest.java', 'a/FooTest.java', 'a/b/c/FooTest.java'].every((p) => tests.test(p))).toBe(true);
    expect(tests.test('a/FooTests.java')).toBe(false);
    expect(tests.test('a/FooTest.java.orig')).toBe(false);
    const gj = antPattern('**/gj/*.java');
    expect(gj.test('org/joda/time/chrono/gj/MainTest.java')).toBe(true);
    expect(gj.test('org/joda/time/chrono/gj/sub/X.java')).toBe(false);
    expect(antPattern('org/?a*/X.java').test('org/pa/x/X.java')).toBe(false);
    expect(antPattern('org/?a*/X.java').test('org/paths/X.java')).toBe(true);
    expect(antPattern('a/**/b/*.java').test('a/b/X.java')).toBe(true);
    expect(antPattern('a/**/b/*.java').test('a/x/y/b/X.java')).toBe(true);
  });

  it('takes a trailing / as everything below, and regular-expression characters literally', () => {
    expect(antPattern('perf/').test('perf/a/B.java')).toBe(true);
    expect(antPattern('**/*$*').test('a/Outer$Inner.java')).toBe(true);
    expect(antPattern('**/*$*').test('a/Outer.java')).toBe(false);
    expect(antPattern('a.b/{x,y}.java').test('a.b/{x,y}.java')).toBe(true);
    expect(antPattern('a.b/{x,y}.java').test('aXb/x.java')).toBe(false);
  });
});

describe('suiteFilter', () => {
  it('runs every class without suiteFiles', () => {
    expect(suiteFilter({})('org.Anything')).toBe(true);
  });

  it('keeps included classes unless an exclude names them: excludes win, as in Ant (Time\'s fileset)', () => {
    const inSuite = suiteFilter({
      suiteFiles: {
        include: ['**/Test*.java', '**/gj/TestAll.java'],
        exclude: ['**/TestAll*.java', '**/TestParseISO.java', '**/*Abstract*Test.java', '**/gj/*.java'],
      },
    });
    expect(inSuite('org.joda.time.TestDateTime_Basics')).toBe(true);
    expect(inSuite('org.joda.time.TestAll')).toBe(false);
    expect(inSuite('org.joda.time.chrono.gj.MainTest')).toBe(false);
    expect(inSuite('org.joda.time.chrono.gj.TestAll')).toBe(false);
    expect(inSuite('org.joda.time.format.TestParseISO')).toBe(false);
    expect(inSuite('org.joda.time.MockZone')).toBe(false);
  });
});
