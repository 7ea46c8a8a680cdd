// What issue 6 asks of the bundled benchmark, checked on a fresh build with real git:
// libraries, history size, merges and renames, categories, blameless bugs, bugs whose blame spans
// several commits (git blame at the buggy commit), defect kinds and the two styles of bug report.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBenchmarks } from '../../../benchmarks/build.ts';
import { git } from '../../../benchmarks/git.ts';
import { LIBRARIES } from '../../../benchmarks/libraries/index.ts';

const out = mkdtempSync(join(tmpdir(), 'repairlab-composition-'));
const built = buildBenchmarks({ outDir: join(out, 'public'), keepRepos: true });
const bugs = built.libraries.flatMap((lib) => lib.bugs.map((bug) => ({ ...bug, gitDir: lib.gitDir })));
afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  for (const lib of built.libraries) rmSync(join(lib.gitDir, '..'), { recursive: true, force: true });
});

/** `git blame` of one line at a commit: the commit that last touched it. */
function blameLine(gitDir: string, commit: string, file: string, line: number): string {
  return git(gitDir, ['blame', '--porcelain', '-L', `${line},${line}`, commit, '--', file]).split(' ')[0]!;
}

/** HAFixAgent's blameless fallback: the nearest code line at or up to 5 lines above the insertion point. */
function fallbackLine(source: string[], anchor: number): number {
  for (let n = anchor; n >= Math.max(1, anchor - 5); n--) {
    const text = source[n - 1]!.trim();
    if (text !== '' && !text.startsWith('//') && !text.startsWith('*') && !text.startsWith('/*')) return n;
  }
  return anchor;
}

function blameCommits(bug: (typeof bugs)[number]): Set<string> {
  const commits = new Set<string>();
  for (const loc of bug.spec.faultLocalization) {
    if (loc.kind === 'insert') continue;
    for (const line of loc.lines) commits.add(blameLine(bug.gitDir, bug.buggyCommit, loc.file, line));
  }
  return commits;
}

describe('bundled benchmark composition', () => {
  it('has at least 16 bugs over at least 4 libraries', () => {
    expect(built.libraries.length).toBeGreaterThanOrEqual(4);
    expect(bugs.length).toBeGreaterThanOrEqual(16);
  });

  it.each(built.libraries.map((l) => [l.repoId, l] as const))('%s has 30+ commits on main, a merge and a rename', (_id, lib) => {
    expect(Number(git(lib.gitDir, ['rev-list', '--count', 'refs/heads/main']).trim())).toBeGreaterThanOrEqual(30);
    expect(Number(git(lib.gitDir, ['rev-list', '--merges', '--count', 'refs/heads/main']).trim())).toBeGreaterThanOrEqual(1);
    const renames = git(lib.gitDir, ['log', '--format=%H', '-M', '--diff-filter=R', 'refs/heads/main']).trim();
    expect(renames).not.toBe('');
  });

  it('covers every HAFixAgent category and has at least 4 blameless bugs', () => {
    const categories = new Set(bugs.map((b) => b.spec.category));
    expect([...categories].sort()).toEqual(['MFMH', 'SFMH', 'SH', 'SL']);
    expect(bugs.filter((b) => !b.spec.blameable).length).toBeGreaterThanOrEqual(4);
  });

  it('uses every kind of defect from the fix-pattern list', () => {
    const kinds = new Set(bugs.flatMap((b) => b.spec.defectKinds));
    for (const kind of ['operator', 'literal', 'condition', 'null-check', 'wrong-argument', 'missing-statement', 'wrong-method-called']) {
      expect(kinds.has(kind), kind).toBe(true);
    }
  });

  it('has rich bug reports (reproduction, expected/actual) and terse ones', () => {
    const lines = (b: (typeof bugs)[number]) => b.spec.report.body.split('\n').length;
    expect(bugs.filter((b) => lines(b) >= 5 && /expected/i.test(b.spec.report.body)).length).toBeGreaterThanOrEqual(4);
    expect(bugs.filter((b) => lines(b) <= 2).length).toBeGreaterThanOrEqual(4);
  });

  it.each(bugs.filter((b) => b.spec.blameable).map((b) => [b.id, b] as const))(
    'git blame of %s buggy lines names the commits that introduced it',
    (_id, bug) => {
      expect([...blameCommits(bug)].sort()).toEqual([...new Set(bug.introducedByCommits)].sort());
    },
  );

  it.each(bugs.filter((b) => !b.spec.blameable).map((b) => [b.id, b] as const))(
    'the blameless fallback for %s lands on the commit that wrote the surrounding code',
    (_id, bug) => {
      for (const loc of bug.spec.faultLocalization) {
        const source = git(bug.gitDir, ['show', `${bug.buggyCommit}:${loc.file}`]).split('\n');
        const commit = blameLine(bug.gitDir, bug.buggyCommit, loc.file, fallbackLine(source, loc.lines[0]!));
        expect(bug.introducedByCommits).toContain(commit);
      }
    },
  );

  it('has at least 2 bugs whose buggy lines were last touched by more than one commit', () => {
    expect(bugs.filter((b) => b.spec.blameable && blameCommits(b).size > 1).length).toBeGreaterThanOrEqual(2);
  });

  it('is described bug by bug in docs/benchmarks.md', () => {
    const doc = readFileSync(new URL('../../../docs/benchmarks.md', import.meta.url), 'utf8');
    for (const bug of bugs) {
      const row = doc.split('\n').find((l) => l.startsWith(`| ${bug.id} |`));
      expect(row, `no row for ${bug.id}`).toBeDefined();
      const [, library, category, blameable, kinds] = row!.split('|').map((c) => c.trim()).slice(1);
      expect({ library, category, blameable: blameable!.startsWith('yes'), kinds }).toEqual({
        library: bug.spec.library,
        category: bug.spec.category,
        blameable: bug.spec.blameable,
        kinds: bug.spec.defectKinds.join(', '),
      });
    }
  });

  it('defines every library once, with unique bug ids', () => {
    expect(new Set(LIBRARIES.map((l) => l.id)).size).toBe(LIBRARIES.length);
    expect(new Set(bugs.map((b) => b.id)).size).toBe(bugs.length);
  });
});
