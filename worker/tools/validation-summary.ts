// A ValidationResult as the model reads it: compile errors or the failing tests with their first message.
import type { ValidationResult } from '../contracts/runner-api.ts';

export function summarizeValidation(v: ValidationResult, maxFailures = 5): string {
  if (!v.compiled) {
    const errs = v.diagnostics.filter((d) => d.kind === 'error');
    return [
      `Compilation failed with ${errs.length} error(s):`,
      ...errs.slice(0, 10).map((d) => `${d.file}:${d.line}: ${d.message}`),
      ...(errs.length > 10 ? [`… ${errs.length - 10} more`] : []),
    ].join('\n');
  }
  if (v.plausible) return `All tests pass (${v.tests.length} run).`;
  const failed = v.tests.filter((t) => t.status !== 'pass' && t.status !== 'skipped' && t.status !== 'not-run');
  const lines = [`${v.failingTests.length} failing test(s):`];
  for (const t of failed.slice(0, maxFailures)) {
    lines.push(`- ${t.id}: ${t.status}${t.failure ? ` ${t.failure.exception}: ${t.failure.message}` : ''}`);
  }
  if (failed.length > maxFailures) lines.push(`… ${failed.length - maxFailures} more`);
  if (v.stopped !== 'none' && v.stopped !== 'first-failure') lines.push(`(the run stopped early: ${v.stopped})`);
  return lines.join('\n');
}

/** What makes two failures "the same error" for the stuck rule: compile messages or failing tests with exception + message. */
export function errorSignature(v: ValidationResult): string | undefined {
  if (v.plausible) return undefined;
  if (!v.compiled) return `compile:${v.diagnostics.filter((d) => d.kind === 'error').map((d) => `${d.file}:${d.message}`).join('|')}`;
  return `tests:${v.tests
    .filter((t) => t.status !== 'pass' && t.status !== 'skipped' && t.status !== 'not-run')
    .map((t) => `${t.id}=${t.failure?.exception ?? t.status}:${t.failure?.message ?? ''}`)
    .join('|')}`;
}
