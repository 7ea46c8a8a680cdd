// What the bug maker reads from a repository that is not laid out as Maven's: an Ant-style tree (src/, test/, lib/
// jars, a Gradle file asking for Java 1.6) whose tests are JUnit 3, then a commit that adds JUnit 5 tests. A real git
// repository built with the git CLI, bundled and imported into the engine's store: the layout, the jars (the
// runner's own JUnit left out, a jar name the runner refuses noted), the test methods tree-sitter finds (not the
// abstract base's, not helpers, not @Disabled ones), and the refs the history labels commits with (an annotated tag
// peeled to its commit).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../worker/bugs/engine.ts';
import { commitTests } from '../../../worker/bugs/repo-tests.ts';
import { categoryOfLines } from '../../../worker/bugs/make-bug.ts';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { commitLog } from '../../../worker/repo/repo-browse.ts';
import { GitFixture, removeDir, tempDir } from '../repo/git-fixture.ts';

const work = tempDir('repo-layout');
let engine: Engine;
let first: string;
let second: string;
let jarOid: string;

beforeAll(async () => {
  const fx = new GitFixture(join(work, 'ant'));
  fx.write('build.gradle', "apply plugin: 'java'\nsourceCompatibility = 1.6\n");
  fx.write('src/org/x/Calc.java', 'package org.x;\n\npublic class Calc {\n    public int add(int a, int b) { return a - b; }\n}\n');
  fx.write(
    'test/org/x/CalcTest.java',
    [
      'package org.x;',
      '',
      'import junit.framework.TestCase;',
      '',
      'public class CalcTest extends TestCase {',
      '    public void testAdd() { assertEquals(3, new Calc().add(1, 2)); }',
      '    public void helper() { }',
      '    private void testNotATest() { }',
      '}',
      '',
    ].join('\n'),
  );
  fx.write('test/org/x/AbstractBase.java', 'package org.x;\n\nimport junit.framework.TestCase;\n\npublic abstract class AbstractBase extends TestCase {\n    public void testInherited() { }\n}\n');
  fx.write('test/org/x/Util.java', 'package org.x;\n\nclass Util {\n    static int twice(int x) { return 2 * x; }\n}\n');
  fx.write('lib/commons-io-1.4.jar', 'PK\u0003\u0004 not really a jar, but bytes by oid');
  fx.write('lib/junit-3.8.2.jar', 'PK\u0003\u0004 the runner brings its own');
  fx.write('lib/odd name.jar', 'PK\u0003\u0004 a name the runner refuses');
  first = fx.commit('Ant layout, JUnit 3');
  fx.git('tag', '-a', 'v1', '-m', 'version 1');
  jarOid = fx.git('rev-parse', `${first}:lib/commons-io-1.4.jar`).trim();
  fx.write(
    'test/org/x/NewTest.java',
    [
      'package org.x;',
      '',
      'import org.junit.jupiter.api.Disabled;',
      'import org.junit.jupiter.api.Test;',
      'import org.junit.jupiter.params.ParameterizedTest;',
      'import org.junit.jupiter.params.provider.ValueSource;',
      '',
      'class NewTest {',
      '    @Test',
      '    void one() { }',
      '',
      '    @Disabled @Test void two() { }',
      '',
      '    @ParameterizedTest',
      '    @ValueSource(ints = {1, 2})',
      '    void three(int x) { }',
      '}',
      '',
    ].join('\n'),
  );
  second = fx.commit('JUnit 5 tests');
  engine = new Engine(createNodePlatform({ root: join(work, 'home') }));
  const [imported] = await engine.importFiles([{ name: 'ant.bundle', bytes: readFileSync(fx.bundle(join(work, 'ant.bundle'))) }]);
  expect(imported?.ok, imported?.message).toBe(true);
}, 120_000);
afterAll(() => removeDir(work));

describe('the layout and tests of a commit', () => {
  it('reads an Ant-style JUnit 3 tree: folders from the packages, Java 1.6 from Gradle, jars by oid, JUnit 3 test methods', async () => {
    const found = await commitTests(await engine.repoSession('ant'), await initJavaForNode(), first);
    expect(found.layout).toMatchObject({
      sourceDirs: ['src'],
      testDirs: ['test'],
      junit: 'junit3',
      javaRelease: 8,
      sourceLevel: '1.6',
      classpath: ['junit4', 'hamcrest'],
      jars: [{ name: 'commons-io-1.4.jar', oid: jarOid }],
    });
    expect(found.notes).toContain('Java 1.6 from build.gradle.');
    expect(found.notes.join('\n')).toContain("The jar lib/odd name.jar has a name the runner does not take");
    expect(found.tests).toEqual([{ id: 'org.x.CalcTest::testAdd', className: 'org.x.CalcTest', method: 'testAdd', file: 'test/org/x/CalcTest.java' }]);
  });

  it('reads JUnit 5 once a test imports Jupiter: annotated and parameterized tests, not disabled ones', async () => {
    const found = await commitTests(await engine.repoSession('ant'), await initJavaForNode(), 'main');
    expect(found.commit).toBe(second);
    expect(found.layout).toMatchObject({ junit: 'junit5', classpath: ['junit5', 'hamcrest'] });
    expect(found.tests.map((t) => t.id)).toEqual(['org.x.CalcTest::testAdd', 'org.x.NewTest::one', 'org.x.NewTest::three']);
  });

  it('labels commits with the refs that name them, an annotated tag by the commit it tags', async () => {
    const log = await commitLog(await engine.repoSession('ant'));
    expect(log.commits.map((c) => [c.oid, c.refs, c.subject])).toEqual([
      [second, ['main'], 'JUnit 5 tests'],
      [first, ['v1'], 'Ant layout, JUnit 3'],
    ]);
  });
});

describe('the category of a bug without a fix, read from its fault lines', () => {
  it('counts files and runs of consecutive lines', () => {
    const at = (file: string, lines: number[], kind: 'modify' | 'insert' = 'modify') => ({ file, lines, kind });
    expect(categoryOfLines([at('A.java', [7])])).toEqual({ category: 'SL', blameable: true });
    expect(categoryOfLines([at('A.java', [7, 8, 9])])).toEqual({ category: 'SH', blameable: true });
    expect(categoryOfLines([at('A.java', [7, 12])])).toEqual({ category: 'SFMH', blameable: true });
    expect(categoryOfLines([at('A.java', [7]), at('B.java', [3])])).toEqual({ category: 'MFMH', blameable: true });
    expect(categoryOfLines([at('A.java', [7], 'insert')])).toEqual({ category: 'SL', blameable: false });
  });
});
