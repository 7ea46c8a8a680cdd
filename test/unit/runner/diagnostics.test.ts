import { describe, expect, it } from 'vitest';
import { parseJavacOutput, withFailureReason } from '../../../runner/src/diagnostics.ts';
import { readHarnessAnswer, toValidationResult } from '../../../runner/src/results.ts';

const ROOT = '/data/work/cold-1/project';
const rel = (f: string) => (f.startsWith(`${ROOT}/`) ? f.slice(ROOT.length + 1) : f);

describe('parseJavacOutput', () => {
  it('reads file, line, caret column and continuation lines', () => {
    const out = [
      `${ROOT}/src/main/java/demo/Calc.java:9: error: cannot find symbol`,
      '    return a * c;',
      '               ^',
      '  symbol:   variable c',
      '  location: class Calc',
      `${ROOT}/src/main/java/demo/Other.java:3: warning: [deprecation] foo() in Bar has been deprecated`,
      '    new Bar().foo();',
      '             ^',
      '1 error',
      '1 warning',
    ].join('\n');
    const d = parseJavacOutput(out, rel);
    expect(d).toEqual([
      { file: 'src/main/java/demo/Calc.java', line: 9, column: 16, kind: 'error', message: 'cannot find symbol\nsymbol:   variable c\nlocation: class Calc' },
      { file: 'src/main/java/demo/Other.java', line: 3, column: 14, kind: 'warning', message: '[deprecation] foo() in Bar has been deprecated' },
    ]);
  });

  it('keeps message lines printed between the header and the source line', () => {
    const out = [
      `${ROOT}/A.java:4: error: incompatible types: possible lossy conversion from double to int`,
      '    int x = 1.5;',
      '            ^',
    ].join('\n');
    expect(parseJavacOutput(out, rel)[0]).toMatchObject({ file: 'A.java', line: 4, column: 13 });
  });

  it('returns nothing for output without diagnostics', () => {
    expect(parseJavacOutput('Note: Some input files use unchecked operations.\n', rel)).toEqual([]);
  });
});

// A compile that failed without an error the parser could read (the compiler threw, ran out of memory or time, or
// printed what the parser does not know) still names one diagnostic: the report never says "0 error(s)" with
// nothing after it (issue 27).
describe('a compile failure without a parsable diagnostic', () => {
  const all = { mode: 'all' } as const;

  it('names why the compiler failed, in the diagnostics and the report', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ compiled: false, diagnostics: [], stopped: 'compile-error', tests: [] }, /^the compiler failed without reporting an error the runner could read .*path "cold"/],
      [{ compiled: false, diagnostics: [], stopped: 'wall-clock', tests: [] }, /^compilation did not finish within the wall clock: raise limits\.wallClockMs/],
      [{ compiled: false, diagnostics: [], stopped: 'compile-error', tests: [], error: 'java.lang.OutOfMemoryError: Java heap space' }, /^the compiler failed: java\.lang\.OutOfMemoryError: Java heap space/],
    ];
    for (const [msg, says] of cases) {
      const r = toValidationResult(readHarnessAnswer(msg), all, 'warm', 1);
      expect(r.compiled).toBe(false);
      const errors = r.diagnostics.filter((d) => d.kind === 'error');
      expect(errors, JSON.stringify(msg)).toHaveLength(1);
      expect(errors[0]!.message).toMatch(says);
      expect(r.report).toMatch(/^Compilation failed: 1 error\(s\)\n {2}\S/);
      expect(r.report).not.toMatch(/0 error\(s\)/);
    }
  });

  it('leaves the compiler\'s own errors alone (a warning alone is not one)', () => {
    const err = { file: 'A.java', line: 3, kind: 'error' as const, message: "';' expected" };
    const warn = { file: 'A.java', line: 1, kind: 'warning' as const, message: '[deprecation]' };
    expect(withFailureReason([warn, err], 'why')).toEqual([warn, err]);
    expect(withFailureReason([warn], 'why')).toEqual([warn, { file: '', line: 0, kind: 'error', message: 'why' }]);
    const r = toValidationResult(readHarnessAnswer({ compiled: false, diagnostics: [err], stopped: 'compile-error', tests: [] }), all, 'cold', 1);
    expect(r.diagnostics).toEqual([err]);
    expect(r.report).toBe("Compilation failed: 1 error(s)\n  A.java:3: ';' expected\nFailing tests: 0\n");
  });
});
