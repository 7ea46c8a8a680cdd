// The bug page's list of tests a verdict leaves out: environment exclusions with reason and measurement, then the benchmark's.
import { describe, expect, it } from 'vitest';
import { excludedTestRows } from '../../../src/components/bug-detail/excluded-tests.ts';

describe('excludedTestRows', () => {
  it('lists each environment exclusion with its reason and where it was measured, then the benchmark\'s broken tests', () => {
    const rows = excludedTestRows({
      excludedTests: ['org.x.BrokenTest'],
      environmentExcludedTests: [
        { test: 'org.x.JavaVersionTest::testJava8', reason: 'asserts Java 1.8', measured: { jdk: '17.0.15', date: '2026-11-28', command: 'repairlab defects4j check --project X --record-env-failures', defects4j: 'ca4a0ef98686bcd375336b1066acd6a54e875e34' } },
        { test: 'org.x.OldTest::testOld', reason: 'recorded by hand' },
      ],
    });
    expect(rows).toEqual([
      { test: 'org.x.JavaVersionTest::testJava8', kind: 'environment', reason: 'asserts Java 1.8', measured: 'JDK 17.0.15, 2026-11-28, `repairlab defects4j check --project X --record-env-failures`, Defects4J ca4a0ef98686' },
      { test: 'org.x.OldTest::testOld', kind: 'environment', reason: 'recorded by hand' },
      { test: 'org.x.BrokenTest', kind: 'benchmark' },
    ]);
  });

  it('is empty for a bug whose runs leave nothing out', () => {
    expect(excludedTestRows({})).toEqual([]);
  });
});
