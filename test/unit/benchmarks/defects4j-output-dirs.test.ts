// outputDirs: where Defects4J's build puts the classes (classes.dir, test.classes.dir of <P>.build.xml), as
// layout.outputDirs, so tests that read them by path (Cli's JDependTest: target/classes) find them in the runner.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { outputDirs } from '../../../worker/node/defects4j/build-env.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'repairlab-d4j-outputs-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function project(name: string, buildXml?: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  if (buildXml !== undefined) writeFileSync(join(dir, `${name}.build.xml`), buildXml);
  return dir;
}

it('reads Cli\'s build file: the directories under the work directory its conditions fall back to', () => {
  // as framework/projects/Cli/Cli.build.xml says it (rjust/defects4j)
  const dir = project(
    'Cli',
    `<project name="D4j-Cli" basedir="\${basedir}">
    <condition property="classes.dir" value="\${maven.build.outputDir}" else="\${d4j.workdir}/target/classes/">
      <isset property="maven.build.outputDir"/>
    </condition>
    <condition property="test.classes.dir" value="\${maven.build.testOutputDir}" else="\${d4j.workdir}/target/test-classes/">
      <isset property="maven.build.outputDir"/>
    </condition>
</project>`,
  );
  expect(outputDirs(dir)).toEqual({ classes: 'target/classes', testClasses: 'target/test-classes' });
});

it('reads plain properties under the work directory', () => {
  const dir = project('P', '<project><property name="classes.dir" value="${d4j.workdir}/build"/><property name="test.classes.dir" value="${d4j.workdir}/build-tests"/></project>');
  expect(outputDirs(dir)).toEqual({ classes: 'build', testClasses: 'build-tests' });
});

it('is undefined without a build file, without both directories, or with values built from other properties', () => {
  expect(outputDirs(project('A'))).toBeUndefined();
  expect(outputDirs(project('B', '<project><property name="classes.dir" value="${d4j.workdir}/build"/></project>'))).toBeUndefined();
  expect(outputDirs(project('C', '<project><property name="classes.dir" value="${build.home}/classes"/><property name="test.classes.dir" value="${build.home}/tests"/></project>'))).toBeUndefined();
  expect(outputDirs(project('D', '<project><property name="classes.dir" value="${d4j.workdir}/../x"/><property name="test.classes.dir" value="${d4j.workdir}/t"/></project>'))).toBeUndefined();
});
