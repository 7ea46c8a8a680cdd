// A tiny project for tool unit tests, plus a FakeValidator that "passes" the failing test only when the
// workspace contains the fix, so tools' validate/revert logic can be exercised without the runner.
import type { PublicBug } from '../../../worker/contracts/bug.ts';
import type { TestSelection, ValidationResult } from '../../../worker/contracts/runner-api.ts';
import type { ToolContext, Validator } from '../../../worker/contracts/tools.ts';
import type { Workspace } from '../../../worker/contracts/workspace.ts';
import { FakeWorkspace } from '../../helpers/fake-workspace.ts';

export const RANGE_PATH = 'src/main/java/org/demo/Range.java';
export const UTIL_PATH = 'src/main/java/org/demo/util/MathUtil.java';
export const TEST_PATH = 'src/test/java/org/demo/RangeTest.java';

export const RANGE_SOURCE = `package org.demo;

import org.demo.util.MathUtil;

/** A closed range of ints. */
public class Range {
    private final int min;
    private final int max;

    public Range(int min, int max) {
        this.min = min;
        this.max = max;
    }

    /** Whether x lies inside the range. */
    public boolean contains(int x) {
        return x > min && x <= max;
    }

    public boolean contains(Range other) {
        return contains(other.min) && contains(other.max);
    }

    public int getMin() {
        return min;
    }

    public int length() {
        return MathUtil.difference(max, min) + 1;
    }
}
`;

export const UTIL_SOURCE = `package org.demo.util;

public final class MathUtil {
    private MathUtil() {}

    public static int difference(int a, int b) {
        return a - b;
    }

    public static int clamp(int value, int min, int max) {
        return Math.max(min, Math.min(max, value));
    }
}
`;

export const TEST_SOURCE = `package org.demo;

import static org.junit.Assert.*;
import org.junit.Test;

public class RangeTest {
    @Test
    public void testContainsMin() {
        Range range = new Range(1, 5);
        assertTrue(range.contains(1));
    }

    @Test
    public void testLength() {
        assertEquals(5, new Range(1, 5).length());
    }
}
`;

export const DEMO_FILES: Record<string, string> = {
  [RANGE_PATH]: RANGE_SOURCE,
  [UTIL_PATH]: UTIL_SOURCE,
  [TEST_PATH]: TEST_SOURCE,
  'README.md': '# demo\nA range library.\n',
};

export const DEMO_BUG: PublicBug = {
  schemaVersion: 1,
  id: 'Demo-1',
  library: 'demo',
  repository: { kind: 'bundled', bundle: 'demo.bundle' },
  repoId: 'demo',
  buggyCommit: '0'.repeat(40),
  layout: { sourceDirs: ['src/main/java'], testDirs: ['src/test/java'], resourceDirs: [], testResourceDirs: [], javaRelease: 11, junit: 'junit4', classpath: [] },
  failingTests: ['org.demo.RangeTest::testContainsMin'],
  report: { title: 'contains() excludes the lower bound', body: 'new Range(1,5).contains(1) returns false.' },
  faultLocalization: [{ file: RANGE_PATH, lines: [17], kind: 'modify', method: 'contains', className: 'Range' }],
  category: 'SL',
  blameable: true,
  defectKinds: [],
};

/** Fake: plausible iff Range.java contains `x >= min`; fails to compile when any Java file has unbalanced braces. */
export class FakeValidator implements Validator {
  calls: { selection: TestSelection; overlay: Record<string, string | null>; coverage: boolean }[] = [];

  async validate(workspace: Workspace, tests: TestSelection, opts: { coverage?: boolean } = {}): Promise<ValidationResult> {
    this.calls.push({ selection: tests, overlay: workspace.overlay(), coverage: opts.coverage ?? false });
    const range = await workspace.read(RANGE_PATH);
    const balanced = [...range].filter((c) => c === '{').length === [...range].filter((c) => c === '}').length;
    const base = { path: 'warm' as const, cached: false, timingsMs: { total: 1, compile: 1, tests: 0 } };
    if (!balanced) {
      return {
        ...base, plausible: false, compiled: false, tests: [], failingTests: [], report: '', stopped: 'compile-error',
        diagnostics: [{ file: RANGE_PATH, line: 30, kind: 'error', message: "reached end of file while parsing" }],
      };
    }
    const fixed = range.includes('x >= min');
    const id = 'org.demo.RangeTest::testContainsMin';
    return {
      ...base,
      plausible: fixed,
      compiled: true,
      diagnostics: [],
      tests: [
        fixed
          ? { id, status: 'pass', durationMs: 1 }
          : { id, status: 'fail', durationMs: 1, failure: { exception: 'java.lang.AssertionError', message: '', frames: ['org.demo.RangeTest.testContainsMin(RangeTest.java:10)'], omittedFrames: 20 } },
      ],
      failingTests: fixed ? [] : [id],
      report: fixed ? 'Failing tests: 0' : `Failing tests: 1\n  - ${id}`,
      stopped: fixed ? 'none' : 'first-failure',
    };
  }
}

export function demoContext(settings: Record<string, unknown> = {}, files = DEMO_FILES): ToolContext & { workspace: FakeWorkspace; validator: FakeValidator } {
  return { workspace: new FakeWorkspace(files), bug: DEMO_BUG, validator: new FakeValidator(), settings };
}
