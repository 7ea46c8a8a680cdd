// Which jars of Defects4J's lib/ travel with a bug, and in which order: all but JUnit and hamcrest, which the runner
// provides (Cli 28–34 did not compile because junit-addons — junitx.framework.ArrayAssert — was taken for JUnit by its
// name's prefix); the revision's own first (JacksonXml 1–6 did not compile against the newest of lib/'s 15
// jackson-databind jars, which came first by path).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { libJars, missingRevisionJars, revisionClassPath } from '../../../worker/node/defects4j/build-env.ts';

const root = mkdtempSync(join(tmpdir(), 'repairlab-libjars-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the lib/ jars a Defects4J bug carries', () => {
  it('keeps junit-addons and other jars, leaves out JUnit and hamcrest in their Maven names', () => {
    const jars = [
      'junit/junit/4.12/junit-4.12.jar',
      'junit/junit/3.8.1/junit-3.8.1.jar',
      'junit/junit-dep/4.10/junit-dep-4.10.jar',
      'junit.jar',
      'org/hamcrest/hamcrest-core/1.3/hamcrest-core-1.3.jar',
      'org/hamcrest/hamcrest-all/1.3/hamcrest-all-1.3.jar',
      'junit-addons/junit-addons/1.4/junit-addons-1.4.jar',
      'jdepend/jdepend/2.5/jdepend-2.5.jar',
      'junit-toolbox-2.0.jar',
    ];
    for (const jar of jars) {
      mkdirSync(dirname(join(root, 'lib', jar)), { recursive: true });
      writeFileSync(join(root, 'lib', jar), 'PK');
    }
    expect(libJars(root).map((j) => j.name).sort()).toEqual(['jdepend-2.5.jar', 'junit-addons-1.4.jar', 'junit-toolbox-2.0.jar']);
  });
});

describe('the jars of a revision\'s build file', () => {
  const project = join(root, 'versions');
  const put = (path: string, text = 'PK') => {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), text);
  };
  const databind = (v: string) => `com/fasterxml/jackson/core/jackson-databind/${v}/jackson-databind-${v}.jar`;
  const buildFile = (ids: Record<string, string[]>) =>
    `<project>\n${Object.entries(ids).map(([id, jars]) => `  <path id="${id}">\n${jars.map((j) => `    <pathelement location="\${maven.repo.local}/${j}"/>`).join('\n')}\n  </path>`).join('\n')}\n</project>\n`;

  it('come first, in the file\'s order, so the revision\'s version of an artifact wins; the rest follow by path', () => {
    for (const v of ['2.10.0-SNAPSHOT', '2.3.1', '2.7.0-rc3']) put(`lib/${databind(v)}`);
    put('lib/javax/xml/stream/stax-api/1.0-2/stax-api-1.0-2.jar');
    put('build_files/fixedrev/maven-build.xml', buildFile({
      'build.classpath': [databind('2.3.1')],
      'build.test.classpath': [databind('2.7.0-rc3'), 'junit/junit/4.12/junit-4.12.jar', 'javax/xml/stream/stax-api/1.0-2/stax-api-1.0-2.jar'],
    }));
    const classPath = revisionClassPath(project, ['fixedrev', 'buggyrev']);
    expect(classPath).toEqual([databind('2.7.0-rc3'), 'junit/junit/4.12/junit-4.12.jar', 'javax/xml/stream/stax-api/1.0-2/stax-api-1.0-2.jar']);
    expect(libJars(project, classPath).map((j) => j.path)).toEqual([
      databind('2.7.0-rc3'),
      'javax/xml/stream/stax-api/1.0-2/stax-api-1.0-2.jar',
      databind('2.10.0-SNAPSHOT'),
      databind('2.3.1'),
    ]);
    // without a build file: by path
    expect(revisionClassPath(project, ['other'])).toEqual([]);
    expect(libJars(project).map((j) => j.path)[0]).toBe(databind('2.10.0-SNAPSHOT'));
  });

  it('fall back to build.classpath, and to the next revision\'s file', () => {
    put('build_files/buggyonly/maven-build.xml', buildFile({ 'build.classpath': [databind('2.3.1')] }));
    expect(revisionClassPath(project, ['missing', 'buggyonly'])).toEqual([databind('2.3.1')]);
  });
});

describe('jars a revision\'s build file lists that lib/ lacks', () => {
  it('are those whose version directory is there without them (a blob the checkout lacks), not JUnit, not jars Defects4J never had', () => {
    const project = join(root, 'lacking');
    mkdirSync(join(project, 'lib/org/codehaus/groovy/groovy/1.7.9'), { recursive: true });
    mkdirSync(join(project, 'lib/junit/junit/4.10'), { recursive: true });
    const listed = ['org/codehaus/groovy/groovy/1.7.9/groovy-1.7.9.jar', 'junit/junit/4.10/junit-4.10.jar', 'net/jcip/jcip-annotations/1.0/jcip-annotations-1.0.jar'];
    expect(missingRevisionJars(project, listed)).toEqual(['org/codehaus/groovy/groovy/1.7.9/groovy-1.7.9.jar']);
    writeFileSync(join(project, 'lib/org/codehaus/groovy/groovy/1.7.9/groovy-1.7.9.jar'), 'PK');
    expect(missingRevisionJars(project, listed)).toEqual([]);
  });
});
