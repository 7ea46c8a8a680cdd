// xdiff.ts must make the same choices as git's diff: random edits of files full of repeated lines
// (where many edit scripts are equally short) are diffed by both, and the hunks compared.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatHunks, splitLinesKeepEol } from '../../../worker/diff/unified-diff-format.ts';
import { xdiffChanges } from '../../../worker/diff/xdiff.ts';
import { removeDir, tempDir } from '../repo/git-fixture.ts';

const VOCAB = ['{', '}', '', '  }', '    return x;', '  int a;', 'foo();', '\tbar();', '  if (x) {', '  } else {', ...Array.from({ length: 20 }, (_, i) => `line ${i}`)];

function lcg(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function gitHunks(dir: string, a: string, b: string): string {
  writeFileSync(join(dir, 'a'), a);
  writeFileSync(join(dir, 'b'), b);
  let out: string;
  try {
    out = execFileSync('git', ['-c', 'core.quotepath=off', 'diff', '--no-index', '--no-color', 'a', 'b'], { cwd: dir, encoding: 'utf8' });
  } catch (err) {
    out = (err as { stdout: string }).stdout; // exit code 1 = differences found
  }
  const at = out.indexOf('@@');
  return at < 0 ? '' : out.slice(at);
}

describe('xdiff agrees with git diff', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('xdiff');
  });
  afterAll(() => removeDir(dir));

  it.each([
    ['small files, few edits', 11, 60, 60, 8],
    ['large files, many edits (speed heuristics)', 23, 8, 2500, 500],
  ])('%s', (_name, seed, cases, maxLines, maxEdits) => {
    const rnd = lcg(seed);
    const pick = () => VOCAB[Math.floor(rnd() * VOCAB.length)]!;
    const mismatches: string[] = [];
    for (let t = 0; t < cases; t++) {
      const a = Array.from({ length: Math.floor(rnd() * maxLines) }, pick);
      const b = a.slice();
      for (let e = 0, n = 1 + Math.floor(rnd() * maxEdits); e < n; e++) {
        const at = Math.floor(rnd() * (b.length + 1));
        const r = rnd();
        if (r < 0.4) b.splice(at, 0, ...Array.from({ length: 1 + Math.floor(rnd() * 5) }, pick));
        else if (r < 0.7) b.splice(at, 1 + Math.floor(rnd() * 4));
        else b.splice(at, 1, pick());
      }
      const ta = a.join('\n') + (rnd() < 0.9 ? '\n' : '');
      const tb = b.join('\n') + (rnd() < 0.9 ? '\n' : '');
      const la = splitLinesKeepEol(ta);
      const lb = splitLinesKeepEol(tb);
      const ours = formatHunks(la, lb, xdiffChanges(la, lb));
      if (ours !== gitHunks(dir, ta, tb)) mismatches.push(`case ${t}: ${la.length} → ${lb.length} lines`);
    }
    expect(mismatches).toEqual([]);
  });
});
