// suiteFiles: the all.manual.tests fileset of framework/projects/<P>/<P>.build.xml as layout.suiteFiles.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { suiteFiles } from '../../../worker/node/defects4j/build-env.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'repairlab-d4j-suite-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function project(name: string, buildXml?: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  if (buildXml !== undefined) writeFileSync(join(dir, `${name}.build.xml`), buildXml);
  return dir;
}

it('reads the fileset\'s includes and excludes, leaving out property patterns and reading class patterns over sources', () => {
  const dir = project(
    'P',
    `<project>
    <fileset id="rel.manual.tests" dir="x"><include name="**/Nope.java"/></fileset>
    <fileset id="all.manual.tests" dir="\${test.dir}" excludes="\${d4j.tests.exclude}">
        <include name='**/\${test}.java' />
        <include name="**/*Test.class"/>
        <include name='**/Test*.java' />
        <exclude name="**/Abstract*.class"/>
        <exclude name='org/x/failing/' />
    </fileset>
    <fileset id="other" dir="y"><exclude name="**/Other.java"/></fileset>
</project>`,
  );
  expect(suiteFiles(dir)).toEqual({ include: ['**/*Test.java', '**/Test*.java'], exclude: ['**/Abstract*.java', 'org/x/failing/'] });
});

it('is undefined without a build file, a fileset or an include: every test class runs', () => {
  expect(suiteFiles(project('A'))).toBeUndefined();
  expect(suiteFiles(project('B', '<project><fileset id="x"><include name="**/*.java"/></fileset></project>'))).toBeUndefined();
  expect(suiteFiles(project('C', '<project><fileset id="all.manual.tests" dir="t"><include name="**/${test}.java"/></fileset></project>'))).toBeUndefined();
});
