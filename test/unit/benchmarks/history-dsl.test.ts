import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyOps, replayHistory } from '../../../benchmarks/git-history.ts';
import { git } from '../../../benchmarks/git.ts';
import { MAVEN_JUNIT4_LAYOUT, addMembers, branch, commit, edit, merge, rename, write, type LibraryDefinition } from '../../../benchmarks/history-dsl.ts';

const dirs: string[] = [];
const tempRepo = () => {
  const dir = mkdtempSync(join(tmpdir(), 'repairlab-dsl-'));
  dirs.push(dir);
  return join(dir, 'r.git');
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const people = { a: { name: 'A', email: 'a@example.org', tz: '+0000' } };
const library = (steps: LibraryDefinition['steps']): LibraryDefinition => ({
  id: 'tiny',
  description: 'test',
  layout: MAVEN_JUNIT4_LAYOUT,
  people,
  start: '2024-01-01T00:00:00Z',
  steps,
  bugs: [],
});

describe('file operations', () => {
  const files = new Map([['A.java', 'class A {\n}\n']]);
  it('adds members before the last brace and renames', () => {
    const next = applyOps('lib', 'step 1', files, [addMembers('A.java', '    int x;'), rename('A.java', 'B.java')]);
    expect(next.get('B.java')).toBe('class A {\n\n    int x;\n}\n');
    expect(next.has('A.java')).toBe(false);
  });
  it('names the library, the step and the text when an edit does not match exactly once', () => {
    expect(() => applyOps('lib', 'step 7 (x)', files, [edit('A.java', 'nope', 'x')])).toThrow(/benchmark library lib, step 7 \(x\): .*found 0: "nope"/);
    expect(() => applyOps('lib', 'step 1', files, [write('../escape.java', 'x')])).toThrow(/plain relative path/);
    expect(() => applyOps('lib', 'step 1', files, [write('C.java', 'a\r\nb')])).toThrow(/LF line endings/);
  });
});

describe('replayHistory', () => {
  it('replays commits, branches and merges with stable ids and drops merged branches', () => {
    const steps = [
      commit('a', 'one', [write('A.java', 'class A {\n}\n'), write('README', 'x\n')], { label: 'one' }),
      branch('feature'),
      commit('a', 'feature work', [write('B.java', 'class B {\n}\n')], { branch: 'feature' }),
      commit('a', 'main work', [edit('README', 'x', 'y')]),
      merge('feature', 'a', 'Merge feature', 'merged'),
    ];
    const first = replayHistory(library(steps), tempRepo());
    const second = replayHistory(library(steps), tempRepo());
    expect(second.labels).toEqual(first.labels);
    expect(first.mainCommits).toBe(4);
    expect(git(first.gitDir, ['for-each-ref', '--format=%(refname)']).trim()).toBe('refs/heads/main');
    expect(git(first.gitDir, ['ls-tree', '--name-only', first.labels.merged!]).trim().split('\n')).toEqual(['A.java', 'B.java', 'README']);
    expect(git(first.gitDir, ['rev-list', '--parents', '-n', '1', first.labels.merged!]).trim().split(' ')).toHaveLength(3);
  });

  it('refuses a merge where both sides changed the same file', () => {
    const steps = [
      commit('a', 'one', [write('README', 'x\n')]),
      branch('feature'),
      commit('a', 'theirs', [write('README', 'theirs\n')], { branch: 'feature' }),
      commit('a', 'ours', [write('README', 'ours\n')]),
      merge('feature', 'a', 'Merge'),
    ];
    expect(() => replayHistory(library(steps), tempRepo())).toThrow(/merge conflict on README/);
  });

  it('refuses an unknown author and a branch that is never merged', () => {
    expect(() => replayHistory(library([commit('zed', 'x', [write('R', 'x')])]), tempRepo())).toThrow(/unknown author "zed"/);
    expect(() => replayHistory(library([commit('a', 'x', [write('R', 'x')]), branch('dangling')]), tempRepo())).toThrow(/never merged: dangling/);
  });
});
