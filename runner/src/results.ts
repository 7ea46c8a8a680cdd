// Shapes what the harness answered into the API's ValidationResult.
import {
  ValidationResult,
  type Diagnostic,
  type TestResult,
  type TestSelection,
} from '../../worker/contracts/runner-api.ts';
import { compileFailureReason, withFailureReason } from './diagnostics.ts';

/** What a harness (cold run or warm worker) reports for one validation. */
export interface HarnessAnswer {
  compiled: boolean;
  diagnostics: Diagnostic[];
  tests: TestResult[];
  stopped: 'none' | 'first-failure' | 'wall-clock' | 'crash' | 'compile-error';
  compileMs: number;
  testsMs: number;
  coverage?: ValidationResult['coverage'];
  /** the warm worker must be replaced (timeout, OOM, leaked threads) */
  poisoned?: boolean;
  poisonReason?: string;
  /** extra explanation when the run crashed */
  crashReason?: string;
  /** the runner refused the harness's pass (crossChecked) */
  refused?: boolean;
  /** cold path: the test classes the runner compiled (what the run must account for) */
  testClasses?: string[];
  /** batch: the number of variants compiled together with this one */
  merged?: number;
  /** the suite as the harness planned it: test class → its test ids (runs of the whole suite) */
  suite?: Record<string, string[]>;
}

/** What the runner itself knows a run of the whole suite must account for. */
export interface SuiteExpectation {
  /** every test class the run was given (cold: the test sources compiled; warm: the snapshot's plus the overlay's) */
  testClasses: string[];
  /** the suite's test ids from an earlier clean run of the same tests, when the overlay leaves the tests alone */
  ids?: string[];
}

/**
 * Why a would-be pass does not account for the suite (null when it does): every test class must have been planned,
 * every planned test must have exactly one result and no result may name a test outside the plan; and when the
 * suite's ids are known from an earlier clean run, the plan must list exactly those.
 */
export function suiteMismatch(answer: HarnessAnswer, expected: SuiteExpectation): string | null {
  const suite = answer.suite;
  if (!suite || typeof suite !== 'object') return 'the harness did not list the suite it ran';
  const missingClasses = expected.testClasses.filter((c) => !Array.isArray(suite[c]));
  if (missingClasses.length > 0) return `${missingClasses.length} test class(es) of the suite were not run: ${missingClasses.slice(0, 5).join(', ')}`;
  const planned = new Set(Object.values(suite).flat());
  const ids = answer.tests.map((t) => t.id);
  const results = new Set(ids);
  if (results.size !== ids.length) return 'a test has more than one result';
  const unanswered = [...planned].filter((id) => !results.has(id));
  if (unanswered.length > 0) return `${unanswered.length} of the suite's ${planned.size} tests have no result (${unanswered.slice(0, 3).join(', ')})`;
  const unplanned = ids.filter((id) => !planned.has(id));
  if (unplanned.length > 0) return `results name tests outside the suite (${unplanned.slice(0, 3).join(', ')})`;
  if (expected.ids) {
    const known = new Set(expected.ids);
    const lost = expected.ids.filter((id) => !planned.has(id));
    const added = [...planned].filter((id) => !known.has(id));
    if (lost.length > 0 || added.length > 0 || planned.size !== known.size) {
      return `the run accounts for ${planned.size} tests, the suite has ${known.size}${lost.length ? ` (missing ${lost.slice(0, 3).join(', ')})` : ''}`;
    }
  }
  return null;
}

const FAILING = new Set(['fail', 'error', 'timeout']);

/** Defects4J's `defects4j test` summary: `Failing tests: N` then `  - pkg.Class::method` lines. */
export function defects4jReport(failing: string[]): string {
  return [`Failing tests: ${failing.length}`, ...failing.map((t) => `  - ${t}`)].join('\n') + '\n';
}

/**
 * Refuses a pass that does not account for the whole suite: the answer becomes an error (stopped `crash`, never
 * plausible, never cached). Returns the answer as it stands otherwise.
 */
export function crossChecked(answer: HarnessAnswer, selection: TestSelection, expected: SuiteExpectation): HarnessAnswer {
  if (!wouldPass(answer, selection)) return answer;
  const why = suiteMismatch(answer, expected);
  if (!why) return answer;
  return { ...answer, stopped: 'crash', crashReason: `verdict refused: ${why}`, refused: true };
}

/**
 * A verdict counts passes, not the absence of failures: a skipped test becomes a failure (its reason kept) when it is
 * a trigger test the selection lists, or when the unpatched snapshot ran it without skipping it (`unpatched`: test id
 * → status there, when known) — code under test that throws an assumption's exception where its answer would be
 * wrong must not turn a failure into a skip. The snapshot's own skips (an @Ignore, an assumption about the JDK) stay
 * skips, and so do those of tests the snapshot does not have.
 */
export function skipsJudged(answer: HarnessAnswer, selection: TestSelection, unpatched?: ReadonlyMap<string, string>): HarnessAnswer {
  const listed = new Set(selection.mode === 'all' ? [] : selection.tests);
  let changed = false;
  const tests = answer.tests.map((t): TestResult => {
    if (t.status !== 'skipped') return t;
    const before = unpatched?.get(t.id);
    const why = listed.has(t.id) ? 'a trigger test must pass' : before && before !== 'skipped' ? `the unpatched version does not skip it (${before})` : null;
    if (!why) return t;
    changed = true;
    const cause = t.failure ? ` (${t.failure.exception}${t.failure.message ? `: ${t.failure.message}` : ''})` : '';
    return {
      ...t,
      status: 'fail',
      failure: { exception: 'repairlab.SkippedTest', message: `skipped${cause}, and a skip counts as a failure here: ${why}`, frames: t.failure?.frames ?? [], omittedFrames: t.failure?.omittedFrames ?? 0 },
    };
  });
  return changed ? { ...answer, tests } : answer;
}

export function wouldPass(answer: HarnessAnswer, selection: TestSelection): boolean {
  const failing = answer.tests.some((t) => FAILING.has(t.status));
  return answer.compiled && answer.stopped === 'none' && selection.mode !== 'listed' && !failing && answer.tests.every((t) => t.status !== 'not-run');
}

export function toValidationResult(
  answer: HarnessAnswer,
  selection: TestSelection,
  path: 'warm' | 'cold',
  totalMs: number,
): ValidationResult {
  const failingTests = answer.tests.filter((t) => FAILING.has(t.status)).map((t) => t.id);
  const plausible = wouldPass(answer, selection);
  let report = defects4jReport(failingTests);
  if (!answer.compiled) {
    // at least one error names why, whatever stopped the compiler (diagnostics.ts withFailureReason)
    answer = { ...answer, diagnostics: withFailureReason(answer.diagnostics, compileFailureReason(answer)) };
    const errors = answer.diagnostics.filter((d) => d.kind === 'error');
    const shown = errors.slice(0, 20).map((d) => `  ${d.file ? `${d.file}:${d.line}: ` : ''}${d.message.split('\n')[0]}\n`).join('');
    report = `Compilation failed: ${errors.length} error(s)\n${shown}` + report;
  }
  if (answer.refused) report += `Error: ${answer.crashReason}\n`;
  else if (answer.stopped === 'crash' && answer.crashReason) report += `Test JVM crashed: ${answer.crashReason}\n`;
  if (answer.stopped === 'wall-clock') report += 'Stopped: wall clock exceeded\n';
  const result: ValidationResult = {
    plausible,
    compiled: answer.compiled,
    diagnostics: answer.diagnostics,
    tests: answer.tests,
    failingTests,
    report,
    stopped: answer.stopped,
    path,
    cached: false,
    timingsMs: { total: totalMs, compile: answer.compileMs, tests: answer.testsMs },
  };
  if (answer.coverage) result.coverage = answer.coverage;
  if (answer.merged) result.compiledWith = answer.merged;
  return ValidationResult.parse(result);
}

/** Reads a harness JSON answer defensively (it comes from a JVM that ran untrusted code). */
export function readHarnessAnswer(msg: Record<string, unknown>, fallbackCompileMs = 0): HarnessAnswer {
  const tests = Array.isArray(msg.tests) ? (msg.tests as TestResult[]) : [];
  const stopped = typeof msg.stopped === 'string' ? (msg.stopped as HarnessAnswer['stopped']) : 'crash';
  const answer: HarnessAnswer = {
    compiled: msg.compiled !== false,
    diagnostics: Array.isArray(msg.diagnostics) ? (msg.diagnostics as Diagnostic[]) : [],
    tests,
    stopped,
    compileMs: typeof msg.compileMs === 'number' ? msg.compileMs : fallbackCompileMs,
    testsMs: typeof msg.testsMs === 'number' ? msg.testsMs : 0,
    poisoned: msg.poisoned === true,
  };
  if (typeof msg.poisonReason === 'string') answer.poisonReason = msg.poisonReason;
  if (typeof msg.merged === 'number' && msg.merged > 1) answer.merged = msg.merged;
  if (Array.isArray(msg.coverage)) answer.coverage = msg.coverage as HarnessAnswer['coverage'];
  if (msg.suite && typeof msg.suite === 'object' && !Array.isArray(msg.suite)) {
    const suite: Record<string, string[]> = {};
    for (const [cls, ids] of Object.entries(msg.suite as Record<string, unknown>)) {
      if (Array.isArray(ids)) suite[cls] = ids.filter((id): id is string => typeof id === 'string');
    }
    answer.suite = suite;
  }
  if (typeof msg.error === 'string') {
    answer.stopped = 'crash';
    answer.crashReason = msg.error;
  }
  return answer;
}
