// The direct one-line patch gives exactly jsdiff's createTwoFilesPatch text (context 3, no "=====" line) whenever
// it answers, and leaves everything else to jsdiff.
import { createTwoFilesPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { fileDiff, singleLinePatch } from '../../../worker/agent/step-diff.ts';

const jsdiff = (path: string, old: string, now: string) => createTwoFilesPatch(`a/${path}`, `b/${path}`, old, now, undefined, undefined, { context: 3 }).replace(/^=+\n/, '');

/** a deterministic pseudo-random generator (mulberry32) */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('step diff', () => {
  const file = Array.from({ length: 40 }, (_, i) => `    line ${i};`).join('\n') + '\n';

  it('writes a one-line replacement, insertion and deletion as jsdiff does, at the start, middle and end', () => {
    const lines = file.split('\n').slice(0, -1);
    const cases: string[] = [];
    for (const at of [0, 1, 2, 3, 4, 19, 36, 37, 38, 39]) {
      cases.push([...lines.slice(0, at), '    changed;', ...lines.slice(at + 1)].join('\n') + '\n');
      cases.push([...lines.slice(0, at), '    inserted;', ...lines.slice(at)].join('\n') + '\n');
      cases.push([...lines.slice(0, at), ...lines.slice(at + 1)].join('\n') + '\n');
    }
    cases.push(file + '    appended;\n');
    for (const now of cases) {
      const fast = singleLinePatch('src/A.java', file, now);
      expect(fast).toBeDefined();
      expect(fast).toBe(jsdiff('src/A.java', file, now));
    }
  });

  it('leaves ambiguous, multi-line, CRLF, unterminated and quoted-path cases to jsdiff', () => {
    const dup = 'a\nb\nb\nc\n';
    expect(singleLinePatch('x', dup, 'a\nb\nc\n')).toBeUndefined(); // which b was deleted?
    expect(singleLinePatch('x', dup, 'a\nb\nb\nb\nc\n')).toBeUndefined();
    expect(singleLinePatch('x', 'a\na\nb\n', 'a\nb\nb\n')).toBeUndefined();
    expect(singleLinePatch('x', 'a\nb\nc\nd\n', 'a\nX\nY\nd\n')).toBeUndefined();
    expect(singleLinePatch('x', 'a\r\nb\r\n', 'a\r\nc\r\n')).toBeUndefined();
    expect(singleLinePatch('x', 'a\nb', 'a\nc')).toBeUndefined();
    expect(singleLinePatch('dir/ä.java', 'a\nb\n', 'a\nc\n')).toBeUndefined();
    expect(singleLinePatch('x', 'a\n', 'a\n')).toBeUndefined();
    for (const [old, now] of [[dup, 'a\nb\nc\n'], ['a\nb', 'a\nc'], ['a\r\nb\r\n', 'a\r\nc\r\n']] as const) {
      expect(fileDiff('x', old, now)).toBe(jsdiff('x', old, now));
    }
    expect(fileDiff('x', null, 'a\n')).toBe(createTwoFilesPatch('/dev/null', 'b/x', '', 'a\n', undefined, undefined, { context: 3 }).replace(/^=+\n/, ''));
    expect(fileDiff('x', 'a\n', null)).toBe(createTwoFilesPatch('a/x', '/dev/null', 'a\n', '', undefined, undefined, { context: 3 }).replace(/^=+\n/, ''));
  });

  it('equals jsdiff on random edits of files with many repeated lines', () => {
    const next = rng(7);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
    const vocabulary = ['}', '{', '', '    return x;', '    x++;', '  }', 'int a;', 'int b;'];
    let answered = 0;
    for (let round = 0; round < 3000; round++) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 12) }, () => pick(vocabulary));
      const edited = [...lines];
      const at = Math.floor(next() * (lines.length + 1));
      const kind = pick(['replace', 'insert', 'delete', 'two'] as const);
      if (kind === 'replace' && at < lines.length) edited[at] = pick(vocabulary);
      else if (kind === 'insert') edited.splice(at, 0, pick(vocabulary));
      else if (kind === 'delete' && at < lines.length) edited.splice(at, 1);
      else edited.splice(at, 0, pick(vocabulary), pick(vocabulary));
      const old = lines.join('\n') + '\n';
      const now = edited.join('\n') + '\n';
      const fast = singleLinePatch('src/A.java', old, now);
      if (fast !== undefined) {
        answered++;
        expect(fast, JSON.stringify({ old, now })).toBe(jsdiff('src/A.java', old, now));
      }
      expect(fileDiff('src/A.java', old, now)).toBe(jsdiff('src/A.java', old, now));
    }
    expect(answered).toBeGreaterThan(300);
  });
});
