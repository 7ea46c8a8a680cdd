// Deterministic builder of the bundled benchmark:
//   node --import tsx benchmarks/build.ts [--out <dir>]
// writes <out>/index.json, one git bundle per library (<repoId>.bundle, all refs) and one BugSpec per bug
// (<out>/bugs/<id>.json). Default out: public/benchmarks/. Same sources → same commit ids everywhere.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchmarkIndex, BugSpec } from '../worker/contracts/bug.ts';
import { classifyFix } from '../worker/diff/fix-classification.ts';
import { faultLocalizationFromDiff } from '../worker/diff/fix-locations.ts';
import { git, listRefs } from './git.ts';
import { replayHistory, type ReplayedBug } from './git-history.ts';
import type { LibraryDefinition } from './history-dsl.ts';
import { LIBRARIES } from './libraries/index.ts';

export const DEFAULT_OUT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../public/benchmarks');

export interface BuiltLibrary {
  repoId: string;
  /** the bare repository built from the history (deleted after the build unless keepRepos) */
  gitDir: string;
  bundlePath: string;
  refs: Record<string, string>;
  labels: Record<string, string>;
  bugs: (ReplayedBug & { specPath: string; spec: BugSpec })[];
}

export interface BuildResult {
  outDir: string;
  index: BenchmarkIndex;
  libraries: BuiltLibrary[];
}

export interface BuildOptions {
  outDir?: string;
  /** defaults to every library in benchmarks/libraries/index.ts */
  libraries?: LibraryDefinition[];
  /** keep the bare repositories (their paths are returned as `gitDir` on replay); default false */
  keepRepos?: boolean;
}

/** Unified diff buggy → fixed as git writes it (a/ b/ prefixes, 3 lines of context, no renames). */
export function fixDiff(gitDir: string, buggy: string, fixed: string): string {
  return git(gitDir, ['diff', '--no-color', '--no-ext-diff', '--full-index', '-U3', buggy, fixed]);
}

export function buildBenchmarks(options: BuildOptions = {}): BuildResult {
  const outDir = resolve(options.outDir ?? DEFAULT_OUT_DIR);
  const libraries = options.libraries ?? LIBRARIES;
  mkdirSync(join(outDir, 'bugs'), { recursive: true });
  // the output is exactly this build: earlier bundles and BugSpecs are removed first
  for (const name of readdirSync(outDir)) if (name.endsWith('.bundle')) rmSync(join(outDir, name));
  for (const name of readdirSync(join(outDir, 'bugs'))) if (name.endsWith('.json')) rmSync(join(outDir, 'bugs', name));
  const work = mkdtempSync(join(tmpdir(), 'repairlab-bench-'));
  const index: BenchmarkIndex = { schemaVersion: 1, repositories: [], bugs: [] };
  const built: BuiltLibrary[] = [];
  try {
    for (const def of libraries) built.push(buildLibrary(def, join(work, `${def.id}.git`), outDir, index));
  } finally {
    if (!options.keepRepos) rmSync(work, { recursive: true, force: true });
  }
  const checked = BenchmarkIndex.parse(index);
  writeFileSync(join(outDir, 'index.json'), JSON.stringify(checked, null, 2) + '\n');
  return { outDir, index: checked, libraries: built };
}

function buildLibrary(def: LibraryDefinition, gitDir: string, outDir: string, index: BenchmarkIndex): BuiltLibrary {
  const history = replayHistory(def, gitDir);
  const bundleName = `${def.id}.bundle`;
  const bugs: BuiltLibrary['bugs'] = [];
  for (const [i, bug] of def.bugs.entries()) {
    const replayed = history.bugs[i]!;
    const patch = fixDiff(gitDir, replayed.buggyCommit, replayed.fixedCommit);
    const classification = classifyFix(patch);
    const readBuggyFile = (path: string) => {
      try {
        return git(gitDir, ['show', `${replayed.buggyCommit}:${path}`]);
      } catch {
        return undefined;
      }
    };
    const spec = BugSpec.parse({
      schemaVersion: 1,
      id: bug.id,
      library: def.id,
      repository: { kind: 'bundled', bundle: bundleName },
      repoId: def.id,
      buggyCommit: replayed.buggyCommit,
      layout: def.layout,
      failingTests: bug.failingTests,
      report: bug.report,
      faultLocalization: faultLocalizationFromDiff(patch, { readBuggyFile }),
      category: classification.category,
      blameable: classification.blameable,
      defectKinds: bug.defectKinds,
      groundTruth: { fixedCommit: replayed.fixedCommit, patch },
    });
    const specPath = `bugs/${bug.id}.json`;
    writeFileSync(join(outDir, specPath), JSON.stringify(spec, null, 2) + '\n');
    index.bugs.push(specPath);
    bugs.push({ ...replayed, specPath, spec });
  }
  const bundlePath = join(outDir, bundleName);
  rmSync(bundlePath, { force: true });
  git(gitDir, ['bundle', 'create', '--quiet', bundlePath, '--all']);
  const bytes = readFileSync(bundlePath);
  index.repositories.push({
    repoId: def.id,
    library: def.id,
    bundle: bundleName,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    commits: Number(git(gitDir, ['rev-list', '--all', '--count']).trim()),
  });
  return { repoId: def.id, gitDir, bundlePath, refs: listRefs(gitDir), labels: history.labels, bugs };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outFlag = process.argv.indexOf('--out');
  const result = buildBenchmarks(outFlag > 0 ? { outDir: process.argv[outFlag + 1]! } : {});
  for (const repo of result.index.repositories) {
    console.log(`${repo.bundle}: ${repo.commits} commits, ${(repo.bytes / 1024).toFixed(1)} KiB`);
  }
  console.log(`${result.index.bugs.length} bugs → ${result.outDir}`);
}
