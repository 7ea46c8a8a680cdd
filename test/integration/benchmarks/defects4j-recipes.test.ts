// Defects4J's checkout recipes inside the import, end to end on a small generated project (real git, real runner):
// the fixed revision's test does not compile until compile-errors/test-1-1.diff is applied, and a test needs a jar
// checked into the revision's own lib/. The recipe runs on the fixed tree before the source patch, so the buggy and
// the fixed commit both carry it and the fix is exactly the patch; the tree's jar is listed in layout.jars by its blob
// oid; `repairlab defects4j check` reproduces the bug. The same revisions as a Closure bug whose build compiles Rhino
// from lib/rhino and renames it with jarjar: the import renames it at the source level and the bug reproduces. As a
// JacksonCore bug whose PackageVersion Defects4J does not ship: refused, with the reason.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BugSpec } from '../../../worker/contracts/bug.ts';
import { importDefects4j } from '../../../worker/node/defects4j/defects4j-import.ts';
import { RHINO_SOURCE_DIR } from '../../../worker/node/defects4j/closure-rhino.ts';
import { startTestRunner, type TestRunner } from '../runner/helpers.ts';
import { cli } from './support/repairlab-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'repairlab-d4j-recipes-'));
const repo = join(root, 'project_repos', 'recipe');
const d4jDir = join(root, 'defects4j');
let runner: TestRunner;
let buggy = '';
let fixed = '';

const CALC = (fixedAbs: boolean) => `package org.recipe;

public final class Calc {

    private Calc() {
    }

    public static int abs(int x) {
        return ${fixedAbs ? 'x < 0 ? -x : x' : 'x'};
    }
}
`;
// Upstream's test at the fixed revision calls a method the sources no longer have; Defects4J's compile-errors diff fixes it.
const CALC_TEST = (stale: string) => `package org.recipe;

import static org.junit.Assert.assertEquals;

import org.helper.Greeting;
import org.junit.Test;

public class CalcTest {

    @Test
    public void testAbs() {
        assertEquals(3, Calc.abs(-3));
    }

    @Test
    public void testGreeting() {
        assertEquals("hello", Greeting.hello());
    }

    @Test
    public void testResource() throws java.io.IOException {
        // src/test/resources, on the test class path
        try (java.io.InputStream in = CalcTest.class.getResourceAsStream("/org/recipe/expected.txt")) {
            assertEquals('3', in.read());
        }
        // and one beside the program's sources
        try (java.io.InputStream in = Calc.class.getResourceAsStream("greeting.properties")) {
            assertEquals('g', in.read());
        }
    }

    @Test
    public void testStale() {
        ${stale}
    }
}
`;

function sh(cmd: string, args: string[], cwd: string, input?: string): string {
  const env = { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Up Stream', GIT_AUTHOR_EMAIL: 'up@stream.example', GIT_COMMITTER_NAME: 'Up Stream', GIT_COMMITTER_EMAIL: 'up@stream.example', GIT_AUTHOR_DATE: '1600000000 +0000', GIT_COMMITTER_DATE: '1600000000 +0000' };
  return execFileSync(cmd, args, { cwd, input, encoding: 'utf8', env });
}
function write(base: string, path: string, text: string): void {
  mkdirSync(dirname(join(base, path)), { recursive: true });
  writeFileSync(join(base, path), text);
}
function commit(message: string): string {
  sh('git', ['add', '-A'], repo);
  sh('git', ['-c', 'commit.gpgSign=false', 'commit', '-q', '-m', message], repo);
  return sh('git', ['rev-parse', 'HEAD'], repo).trim();
}

/** The project, its jar of lib/ (built by the real JDK), and Defects4J's data for bug 1 of "Recipe" and of "Closure". */
function createFixture(): void {
  mkdirSync(repo, { recursive: true });
  sh('git', ['init', '-q', '--initial-branch=main'], repo);
  const jarSrc = join(root, 'greeting');
  write(jarSrc, 'org/helper/Greeting.java', 'package org.helper;\n\npublic final class Greeting {\n    public static String hello() {\n        return "hello";\n    }\n}\n');
  sh('javac', ['--release', '8', '-d', join(jarSrc, 'classes'), join(jarSrc, 'org/helper/Greeting.java')], root);
  mkdirSync(join(repo, 'lib'));
  sh('jar', ['cf', join(repo, 'lib', 'greeting.jar'), '-C', join(jarSrc, 'classes'), '.'], root);
  write(repo, 'src/main/java/org/recipe/Calc.java', CALC(false));
  write(repo, 'src/test/java/org/recipe/CalcTest.java', CALC_TEST('assertEquals(0, 0);'));
  write(repo, 'src/test/resources/org/recipe/expected.txt', '3\n');
  // a resource kept beside the sources (older ant layouts: Jsoup's entities, JxPath's test XML)
  write(repo, 'src/main/java/org/recipe/greeting.properties', 'greeting=hello\n');
  // Jackson's sources of this era need PackageVersion.java, which Maven generates from this template
  write(repo, 'src/main/java/com/fasterxml/jackson/core/json/PackageVersion.java.in', 'package com.fasterxml.jackson.core.json;\n');
  buggy = commit('abs, first cut');
  write(repo, 'src/main/java/org/recipe/Calc.java', CALC(true));
  write(repo, 'src/test/java/org/recipe/CalcTest.java', CALC_TEST('assertEquals(0, Calc.removedSince());'));
  // Closure's build of this era compiles Rhino from lib/rhino (the "Closure" project below points at this revision);
  // the classfile package refers to the renamed one, and Token names its resource bundle and a class by name
  write(repo, 'build.xml', '<project name="compiler">\n  <property name="ant.build.javac.source" value="1.7" />\n  <target name="rhino">\n    <ant dir="lib/rhino/" target="jar"/>\n  </target>\n</project>\n');
  write(repo, 'lib/rhino/src/build.xml', '<project name="rhino"/>\n');
  write(repo, 'lib/rhino/src/org/mozilla/javascript/Token.java',
    'package org.mozilla.javascript;\npublic class Token {\n  public static String message() { return java.util.ResourceBundle.getBundle("org.mozilla.javascript.resources.Messages").getString("msg.hello"); }\n  public static String node() { return org.mozilla.javascript.ast.Node.class.getName(); }\n}\n');
  write(repo, 'lib/rhino/src/org/mozilla/javascript/ast/Node.java', 'package org.mozilla.javascript.ast;\nimport org.mozilla.javascript.Token;\npublic class Node {\n  Token token;\n}\n');
  write(repo, 'lib/rhino/src/org/mozilla/javascript/resources/Messages.properties', 'msg.hello=hello from rhino\n');
  write(repo, 'lib/rhino/src/org/mozilla/classfile/ClassFileWriter.java', 'package org.mozilla.classfile;\npublic class ClassFileWriter {\n  org.mozilla.javascript.Token token;\n}\n');
  fixed = commit('abs of a negative number');

  const srcPatch = sh('git', ['diff', fixed, buggy, '--', 'src/main/java'], repo);
  for (const project of ['Recipe', 'Closure', 'JacksonCore']) {
    const dir = join(d4jDir, 'framework/projects', project);
    write(dir, 'active-bugs.csv', `bug.id,revision.id.buggy,revision.id.fixed,report.id,report.url\n1,${buggy},${fixed},R-1,https://issues.example/R-1\n`);
    write(dir, 'dir-layout.csv', `${fixed},src/main/java,src/test/java\n${buggy},src/main/java,src/test/java\n`);
    write(dir, 'patches/1.src.patch', srcPatch);
    write(dir, 'trigger_tests/1', '--- org.recipe.CalcTest::testAbs\njava.lang.AssertionError: expected:<3> but was:<-3>\n');
  }
  const test = 'src/test/java/org/recipe/CalcTest.java';
  write(
    d4jDir,
    'framework/projects/Recipe/compile-errors/test-1-1.diff',
    `diff --git a/${test} b/${test}\n--- a/${test}\n+++ b/${test}\n@@ -21,5 +21,5 @@ public class CalcTest {\n \n     @Test\n     public void testStale() {\n-        assertEquals(0, Calc.removedSince());\n+        assertEquals(0, 0);\n     }\n`,
  );
  mkdirSync(join(d4jDir, 'framework/projects/Closure/compile-errors'));
  cpSync(join(d4jDir, 'framework/projects/Recipe/compile-errors/test-1-1.diff'), join(d4jDir, 'framework/projects/Closure/compile-errors/test-1-1.diff'));
  // another bug's diff: applying it would fail the import
  cpSync(join(d4jDir, 'framework/projects/Recipe/compile-errors/test-1-1.diff'), join(d4jDir, 'framework/projects/Recipe/compile-errors/test-2-9.diff'));
  writeFileSync(join(d4jDir, 'framework/projects/Recipe/compile-errors/test-2-9.diff'), readFileSync(join(d4jDir, 'framework/projects/Recipe/compile-errors/test-1-1.diff'), 'utf8').replace('removedSince', 'neverThere'));
}

const show = (gitDir: string, rev: string) => execFileSync('git', ['--git-dir', gitDir, 'show', rev], { encoding: 'utf8' });

beforeAll(async () => {
  createFixture();
  runner = await startTestRunner();
}, 60_000);
afterAll(async () => {
  await runner?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('Defects4J checkout recipes in the import', () => {
  it('applies compile-errors/ to both versions before the source patch, and lists the tree\'s jars by blob oid', () => {
    const out = join(root, 'out-import');
    const { bugs, failures } = importDefects4j({ projectRepo: repo, d4jDir, project: 'Recipe', outDir: out });
    expect(failures).toEqual([]);
    const spec = bugs[0]!.spec;
    const gitDir = join(root, 'clone.git');
    execFileSync('git', ['clone', '-q', '--mirror', bugs[0]!.bundlePath, gitDir]);
    const test = 'src/test/java/org/recipe/CalcTest.java';
    const fixedCommit = spec.groundTruth?.fixedCommit ?? 'no fixedCommit';
    for (const commit of [spec.buggyCommit, fixedCommit]) {
      expect(show(gitDir, `${commit}:${test}`)).toContain('assertEquals(0, 0);');
      expect(show(gitDir, `${commit}:${test}`)).not.toContain('removedSince');
    }
    // the fix is exactly the source patch
    expect(spec.groundTruth!.patch).toContain('-        return x;\n+        return x < 0 ? -x : x;');
    expect(execFileSync('git', ['--git-dir', gitDir, 'diff', '--name-only', spec.buggyCommit, fixedCommit], { encoding: 'utf8' }).trim()).toBe('src/main/java/org/recipe/Calc.java');
    const jarOid = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', `${spec.buggyCommit}:lib/greeting.jar`], { encoding: 'utf8' }).trim();
    expect(spec.layout.jars).toEqual([{ name: 'greeting.jar', oid: jarOid }]);
    // the revision's Maven test resources, and its source folder that keeps a resource beside the code; the test
    // folder holds only Java sources
    expect(spec.layout).toMatchObject({ resourceDirs: ['src/main/java'], testResourceDirs: ['src/test/resources'] });
  });

  it('reports a bug whose build RepairLab cannot run as refused, with the reason, and goes on', async () => {
    const out = join(root, 'out-refused');
    const { bugs, failures, index } = importDefects4j({ projectRepo: repo, d4jDir, project: 'JacksonCore', outDir: out });
    expect(bugs).toEqual([]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ bugId: 'JacksonCore-1', input: join(d4jDir, 'framework/projects/JacksonCore') });
    expect(failures[0]!.refused).toMatch(/^needs src\/main\/java\/com\/fasterxml\/jackson\/core\/json\/PackageVersion\.java, which the Maven build generates/);
    expect(failures[0]!.message).toBe(`JacksonCore-1: refused: ${failures[0]!.refused}`);
    expect(index.bugs).toEqual([]);
    // the CLI names a refusal as such, apart from failures
    const r = await cli(['import-defects4j', '--project', 'JacksonCore', '--project-repo', repo, '--d4j', d4jDir, '--out', join(root, 'out-refused-cli')], join(root, 'home-refused'));
    expect(r.stdout).toMatch(/^REFUSED JacksonCore-1: .*PackageVersion/m);
    expect(r.stdout).toContain('wrote 0 bug(s) to');
    expect(r.stdout).toContain('; 1 refused (a build RepairLab does not run)');
    expect(r.stdout).not.toMatch(/FAILED|failed/);
  });

  it('Closure: renames Rhino as its build\'s jarjar does, at the source level, in both versions; the bug reproduces', async () => {
    const out = join(root, 'out-closure');
    const { bugs, failures } = importDefects4j({ projectRepo: repo, d4jDir, project: 'Closure', outDir: out });
    expect(failures).toEqual([]);
    const spec = bugs[0]!.spec;
    expect(spec.layout.sourceDirs).toEqual(['src/main/java', RHINO_SOURCE_DIR]);
    expect(spec.layout.resourceDirs).toContain(RHINO_SOURCE_DIR); // Messages.properties beside the code
    const gitDir = join(root, 'closure.git');
    execFileSync('git', ['clone', '-q', '--mirror', bugs[0]!.bundlePath, gitDir]);
    const head = `${RHINO_SOURCE_DIR}/com/google/javascript/rhino/head`;
    const token = show(gitDir, `${spec.buggyCommit}:${head}/Token.java`);
    expect(token).toContain('package com.google.javascript.rhino.head;');
    expect(token).toContain('getBundle("com.google.javascript.rhino.head.resources.Messages")');
    expect(token).toContain('com.google.javascript.rhino.head.ast.Node.class');
    expect(show(gitDir, `${spec.buggyCommit}:${head}/resources/Messages.properties`)).toBe('msg.hello=hello from rhino\n');
    // the classfile package keeps its name (the jarjar rule renames org.mozilla.javascript only) and names the renamed Token
    expect(show(gitDir, `${spec.buggyCommit}:${RHINO_SOURCE_DIR}/org/mozilla/classfile/ClassFileWriter.java`)).toContain('com.google.javascript.rhino.head.Token token;');
    // the renamed sources are in both versions, so the fix stays exactly the patch
    expect(execFileSync('git', ['--git-dir', gitDir, 'diff', '--name-only', spec.buggyCommit, spec.groundTruth.fixedCommit!], { encoding: 'utf8' }).trim()).toBe('src/main/java/org/recipe/Calc.java');

    const args = ['defects4j', 'check', '--project', 'Closure', '--project-repo', repo, '--d4j', d4jDir, '--out', join(root, 'out-closure-check'), '--runner', runner.url, '--token', runner.token, '--json'];
    const r = await cli(args, join(root, 'home-closure'));
    const report = JSON.parse(r.stdout) as { reproduced: number; results: { reasons: string[] }[] };
    expect(report.results[0]!.reasons, r.stderr).toEqual([]);
    expect(report.reproduced).toBe(1);
  }, 240_000);

  it('reproduces the bug on the real runner: the buggy version compiles, fails exactly its trigger test, the fix passes', async () => {
    const home = join(root, 'home');
    const args = ['defects4j', 'check', '--project', 'Recipe', '--project-repo', repo, '--d4j', d4jDir, '--out', join(root, 'out-check'), '--runner', runner.url, '--token', runner.token, '--json'];
    const r = await cli(args, home);
    const report = JSON.parse(r.stdout) as { reproduced: number; results: { bugId: string; reasons: string[]; unpatchedFailing: string[] }[] };
    expect(report.results[0]!.reasons, r.stderr).toEqual([]);
    expect(report.results[0]!.unpatchedFailing).toEqual(['org.recipe.CalcTest::testAbs']);
    expect(report.reproduced).toBe(1);
    const spec = BugSpec.parse(JSON.parse(readFileSync(join(root, 'out-check', 'bugs', 'Recipe-1.json'), 'utf8')));
    expect((spec.layout.jars ?? []).map((j) => j.name)).toEqual(['greeting.jar']);
  }, 240_000);
});
