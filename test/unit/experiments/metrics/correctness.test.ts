// Exact match (token sequence: whitespace ignored) and AST match (tree-sitter tree: whitespace and comments ignored)
// of a final patch against the developers' fix, both applied to the buggy Clamp.java of the demo project.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTwoFilesPatch } from 'diff';
import { nodeJavaWasm } from '../../../../worker/java/wasm-files.node.ts';
import { comparePatches, filesToRead, patchedFiles } from '../../../../worker/experiments/metrics/correctness.ts';
import { loadJavaSyntax, type JavaSyntax } from '../../../../worker/experiments/metrics/java-syntax.ts';
import { GROUND_TRUTH, SRC, SRC_TEXT, TEST } from './runs.ts';

let syntax: JavaSyntax;
beforeAll(async () => {
  syntax = await loadJavaSyntax(await nodeJavaWasm());
});

const BUGGY = { [SRC]: SRC_TEXT };
const TEST_DIRS = ['src/test/java'];
/** a patch of Clamp.java that replaces the buggy line with `line` */
const patchTo = (text: string) => createTwoFilesPatch(`a/${SRC}`, `b/${SRC}`, SRC_TEXT, text);
const withLine = (line: string) => patchTo(SRC_TEXT.replace('            return hi - 1;', line));
const compare = (patch: string) => comparePatches(patch, GROUND_TRUTH, BUGGY, syntax, TEST_DIRS);

describe('exact and AST match', () => {
  it('the fix itself, and the fix with other spacing, match both ways', () => {
    expect(compare(GROUND_TRUTH)).toEqual({ exact: true, ast: true });
    expect(compare(withLine('            return   hi ;'))).toEqual({ exact: true, ast: true });
    // a line break inside the statement is whitespace too
    expect(compare(withLine('            return\n                hi;'))).toEqual({ exact: true, ast: true });
  });

  it('a comment breaks exact match but not AST match', () => {
    expect(compare(withLine('            return hi; // inclusive'))).toEqual({ exact: false, ast: true });
    expect(compare(withLine('            /* inclusive */ return hi;'))).toEqual({ exact: false, ast: true });
  });

  it('a different fix, even a semantically equal one, matches neither way', () => {
    expect(compare(withLine('            return hi + 0;'))).toEqual({ exact: false, ast: false });
    expect(compare(withLine('            return (hi);'))).toEqual({ exact: false, ast: false });
    // no patch at all leaves the bug
    expect(compare('')).toEqual({ exact: false, ast: false });
  });

  it('whitespace inside a string literal is not ignored', () => {
    const a = patchTo(SRC_TEXT.replace('private Clamp() {}', 'private Clamp() {}\n    static final String S = "a b";').replace('return hi - 1;', 'return hi;'));
    const b = patchTo(SRC_TEXT.replace('private Clamp() {}', 'private Clamp() {}\n    static final String S = "a  b";').replace('return hi - 1;', 'return hi;'));
    expect(comparePatches(a, b, BUGGY, syntax)).toEqual({ exact: false, ast: false });
  });

  it('ignores edits to test files, on either side', () => {
    const testEdit = createTwoFilesPatch(`a/${TEST}`, `b/${TEST}`, 'class T {}\n', 'class T { int x; }\n');
    expect(compare(GROUND_TRUTH + testEdit)).toEqual({ exact: true, ast: true });
    expect(filesToRead([GROUND_TRUTH + testEdit], TEST_DIRS)).toEqual([SRC]);
  });

  it('a file the agent adds that the fix does not is a difference', () => {
    const extra = createTwoFilesPatch('/dev/null', 'b/src/main/java/org/demo/Extra.java', '', 'class Extra {}\n');
    expect(compare(GROUND_TRUTH + extra)).toEqual({ exact: false, ast: false });
    expect(patchedFiles(extra, {}).get('src/main/java/org/demo/Extra.java')).toBe('class Extra {}\n');
  });

  it('says why when it cannot compare', () => {
    expect(comparePatches(GROUND_TRUTH, undefined, BUGGY, syntax)).toEqual({ exact: null, ast: null, note: 'no ground-truth patch for this bug' });
    expect(comparePatches(GROUND_TRUTH, GROUND_TRUTH, undefined, syntax).note).toMatch(/no buggy sources/);
    expect(comparePatches(GROUND_TRUTH, GROUND_TRUTH, { 'other.java': '' }, syntax).note).toMatch(new RegExp(`buggy text of ${SRC} was not given`));
    const stale = GROUND_TRUTH.replace('-            return hi - 1;', '-            return hi - 2;');
    expect(compare(stale)).toEqual({ exact: null, ast: null, note: `the final patch does not apply to the buggy ${SRC}` });
    expect(comparePatches(GROUND_TRUTH, GROUND_TRUTH, BUGGY, undefined)).toEqual({ exact: true, ast: null, note: 'no Java parser given: AST match not computed' });
  });
});
