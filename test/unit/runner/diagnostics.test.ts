import { describe, expect, it } from 'vitest';
import { parseJavacOutput } from '../../../runner/src/diagnostics.ts';

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
