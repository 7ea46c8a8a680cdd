// Which jars of Defects4J's lib/ travel with a bug: all but JUnit and hamcrest, which the runner provides. Cli 28–34
// did not compile because junit-addons (junitx.framework.ArrayAssert) was taken for JUnit by its name's prefix.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { libJars } from '../../../worker/benchmarks/defects4j/build-env.ts';

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
