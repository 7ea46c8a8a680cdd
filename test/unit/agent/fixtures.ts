// A small Java project (a Counter with an off-by-one) for agent unit tests, with a FakeValidator that
// "passes" only when the workspace holds the fixed line. Fakes: no git store, no runner.
import type { PublicBug } from '../../../worker/contracts/bug.ts';
import type { LlmProvider } from '../../../worker/contracts/llm.ts';
import type { TestSelection, ValidationResult } from '../../../worker/contracts/runner-api.ts';
import type { Validator } from '../../../worker/contracts/tools.ts';
import type { Workspace } from '../../../worker/contracts/workspace.ts';
import { FakeWorkspace } from '../../helpers/fake-workspace.ts';

export const SRC = 'src/main/java/org/demo/Clamp.java';
export const TEST = 'src/test/java/org/demo/ClampTest.java';

export const SRC_TEXT = `package org.demo;

/** Clamping helpers. */
public final class Clamp {
    private Clamp() {}

    /** Limits value to [lo, hi]. */
    public static int clamp(int value, int lo, int hi) {
        if (value < lo) {
            return lo;
        }
        if (value >= hi) {
            return hi - 1;
        }
        return value;
    }
}
`;

export const TEST_TEXT = `package org.demo;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class ClampTest {
    @Test
    public void clampsToUpperBound() {
        assertEquals(10, Clamp.clamp(12, 0, 10));
    }

    @Test
    public void keepsInside() {
        assertEquals(5, Clamp.clamp(5, 0, 10));
    }
}
`;

export const FIXED_LINE = '            return hi;';

export const GOOD_DIFF = `--- a/${SRC}
+++ b/${SRC}
@@ -12,3 +12,3 @@
         if (value >= hi) {
-            return hi - 1;
+            return hi;
         }
`;

export const GROUND_TRUTH = GOOD_DIFF;

/** Compiles, but still fails: changes the wrong line. */
export const WRONG_DIFF = `--- a/${SRC}
+++ b/${SRC}
@@ -9,3 +9,3 @@
         if (value < lo) {
-            return lo;
+            return lo + 0;
         }
`;

export const BROKEN_DIFF = `--- a/${SRC}
+++ b/${SRC}
@@ -12,3 +12,3 @@
         if (value >= hi) {
-            return hi - 1;
+            return hi -;
         }
`;

export const demoBug: PublicBug = {
  schemaVersion: 1,
  id: 'demo-1',
  library: 'demo',
  repository: { kind: 'bundled', bundle: 'demo.bundle' },
  repoId: 'demo',
  buggyCommit: 'a'.repeat(40),
  layout: { sourceDirs: ['src/main/java'], testDirs: ['src/test/java'], resourceDirs: [], testResourceDirs: [], javaRelease: 11, junit: 'junit4', classpath: [] },
  failingTests: ['org.demo.ClampTest::clampsToUpperBound'],
  report: { title: 'clamp returns hi - 1 at the upper bound', body: 'Clamp.clamp(12, 0, 10) returns 9, expected 10.' },
  faultLocalization: [{ file: SRC, lines: [13], kind: 'modify', method: 'clamp', className: 'Clamp' }],
  category: 'SL',
  blameable: true,
  defectKinds: ['operator'],
};

export function demoWorkspace(): FakeWorkspace {
  return new FakeWorkspace({ [SRC]: SRC_TEXT, [TEST]: TEST_TEXT, 'README.md': '# demo\n' });
}

function result(partial: Partial<ValidationResult>): ValidationResult {
  return {
    plausible: false,
    compiled: true,
    diagnostics: [],
    tests: [],
    failingTests: [],
    report: '',
    stopped: 'none',
    path: 'warm',
    cached: false,
    timingsMs: { total: 1, compile: 1, tests: 0 },
    ...partial,
  };
}

/** Fake runner: compile error when the source has `hi -;`, pass when it has the fixed line, else the failing test fails. */
export class FakeValidator implements Validator {
  calls: TestSelection[] = [];
  async validate(ws: Workspace, tests: TestSelection): Promise<ValidationResult> {
    this.calls.push(tests);
    const src = await ws.read(SRC);
    if (src.includes('hi -;')) {
      return result({ compiled: false, diagnostics: [{ file: SRC, line: 13, kind: 'error', message: 'illegal start of expression' }], stopped: 'compile-error', report: 'Compilation failed' });
    }
    const id = 'org.demo.ClampTest::clampsToUpperBound';
    if (src.split('\n').includes(FIXED_LINE)) {
      return result({ plausible: true, tests: [{ id, status: 'pass', durationMs: 1 }, { id: 'org.demo.ClampTest::keepsInside', status: 'pass', durationMs: 1 }], report: 'Failing tests: 0' });
    }
    return result({
      tests: [{ id, status: 'fail', durationMs: 1, failure: { exception: 'java.lang.AssertionError', message: 'expected:<10> but was:<9>', frames: [], omittedFrames: 0 } }],
      failingTests: [id],
      stopped: 'first-failure',
      report: `Failing tests: 1\n  - ${id}`,
    });
  }
}

export const fence = (diff: string, lang = 'diff') => `Here is the fix.\n\n\`\`\`${lang}\n${diff}\`\`\`\n`;

/**
 * A model that answers the first `n` calls from `inner` and never answers after that: the page reloads (or the
 * process dies) while the model works on call n + 1, so the run is left unfinished with n steps recorded.
 */
export function hangAfter(inner: LlmProvider, n: number): LlmProvider {
  let calls = 0;
  return { id: `${inner.id}-then-reload`, complete: (req) => (++calls > n ? new Promise(() => undefined) : inner.complete(req)) };
}
