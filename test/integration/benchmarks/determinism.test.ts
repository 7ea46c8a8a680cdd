// The builder is deterministic: two builds give the same commit ids, bundle refs and BugSpecs, and the
// committed public/benchmarks/ is what a fresh build produces (so nobody ships stale bundles).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBenchmarks, DEFAULT_OUT_DIR, type BuildResult } from '../../../benchmarks/build.ts';

const dirs: string[] = [];
function freshBuild(): BuildResult {
  const outDir = mkdtempSync(join(tmpdir(), 'repairlab-build-'));
  dirs.push(outDir);
  return buildBenchmarks({ outDir });
}
const bundleHeads = (path: string) => execFileSync('git', ['bundle', 'list-heads', path], { encoding: 'utf8' });

afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('benchmark builder', () => {
  const first = freshBuild();
  const second = freshBuild();

  it('gives the same commit ids, refs and bundles on every build', () => {
    expect(second.index).toEqual(first.index);
    for (const [i, lib] of first.libraries.entries()) {
      const again = second.libraries[i]!;
      expect(again.refs).toEqual(lib.refs);
      expect(again.labels).toEqual(lib.labels);
      expect(bundleHeads(again.bundlePath)).toBe(bundleHeads(lib.bundlePath));
      expect(again.bugs.map((b) => [b.buggyCommit, b.fixedCommit])).toEqual(lib.bugs.map((b) => [b.buggyCommit, b.fixedCommit]));
    }
  });

  it('matches the committed public/benchmarks (rebuild with `node --import tsx benchmarks/build.ts`)', () => {
    const committed = JSON.parse(readFileSync(join(DEFAULT_OUT_DIR, 'index.json'), 'utf8')) as typeof first.index;
    expect(committed.bugs).toEqual(first.index.bugs);
    expect(committed.repositories.map((r) => [r.repoId, r.commits])).toEqual(first.index.repositories.map((r) => [r.repoId, r.commits]));
    for (const lib of first.libraries) {
      expect(bundleHeads(join(DEFAULT_OUT_DIR, `${lib.repoId}.bundle`))).toBe(bundleHeads(lib.bundlePath));
      for (const bug of lib.bugs) {
        expect(readFileSync(join(DEFAULT_OUT_DIR, bug.specPath), 'utf8')).toBe(readFileSync(join(first.outDir, bug.specPath), 'utf8'));
      }
    }
  });

  it('keeps main the buggy line of development: fixes live only under refs/repairlab/fixes/', () => {
    for (const lib of first.libraries) {
      const heads = Object.keys(lib.refs).filter((r) => r.startsWith('refs/heads/'));
      expect(heads).toEqual(['refs/heads/main']);
      for (const bug of lib.bugs) {
        expect(lib.refs[`refs/repairlab/bugs/${bug.id}`]).toBe(bug.buggyCommit);
        expect(lib.refs[`refs/repairlab/fixes/${bug.id}`]).toBe(bug.fixedCommit);
      }
    }
  });
});
