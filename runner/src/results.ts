// Shapes what the harness answered into the API's ValidationResult.
import {
  ValidationResult,
  type Diagnostic,
  type TestResult,
  type TestSelection,
} from '../../worker/contracts/runner-api.ts';

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
  /** batch: the number of variants compiled together with this one */
  merged?: number;
}

const FAILING = new Set(['fail', 'error', 'timeout']);

/** Defects4J's `defects4j test` summary: `Failing tests: N` then `  - pkg.Class::method` lines. */
export function defects4jReport(failing: string[]): string {
  return [`Failing tests: ${failing.length}`, ...failing.map((t) => `  - ${t}`)].join('\n') + '\n';
}

export function toValidationResult(
  answer: HarnessAnswer,
  selection: TestSelection,
  path: 'warm' | 'cold',
  totalMs: number,
): ValidationResult {
  const failingTests = answer.tests.filter((t) => FAILING.has(t.status)).map((t) => t.id);
  const wholeSuite = selection.mode !== 'listed';
  const plausible =
    answer.compiled && answer.stopped === 'none' && wholeSuite && failingTests.length === 0 && answer.tests.every((t) => t.status !== 'not-run');
  let report = defects4jReport(failingTests);
  if (!answer.compiled) report = `Compilation failed: ${answer.diagnostics.filter((d) => d.kind === 'error').length} error(s)\n` + report;
  if (answer.stopped === 'crash' && answer.crashReason) report += `Test JVM crashed: ${answer.crashReason}\n`;
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
  if (typeof msg.error === 'string') {
    answer.stopped = 'crash';
    answer.crashReason = msg.error;
  }
  return answer;
}
