// Importing a bundle into the Node store: `git index-pack` (the Node platform's indexer where git is installed)
// against isomorphic-git's indexPack (the browser's, and Node's without git), on the same bundle, interleaved.
// Prints both medians and the ratio. CLI: `repairlab bench pack-index [bundle]` (default: a bundle of this checkout).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodePlatform } from '../../worker/platform/node.ts';
import { RepoStore } from '../../worker/repo/repo-store.ts';

export interface PackIndexBenchResult {
  bundle: string;
  objects: number;
  bytes: number;
  rounds: number;
  /** medians, milliseconds */
  gitMs: number;
  isomorphicGitMs: number;
  ratio: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchPackIndex(bundlePath: string | undefined, rounds: number): Promise<PackIndexBenchResult> {
  const work = mkdtempSync(join(tmpdir(), 'repairlab-pack-bench-'));
  try {
    const bundle = bundlePath ?? join(work, 'self.bundle');
    if (!bundlePath) execFileSync('git', ['-C', join(import.meta.dirname, '../..'), 'bundle', 'create', '-q', bundle, '--all']);
    const bytes = new Uint8Array(readFileSync(bundle));
    let objects = 0;
    const once = async (jsPackIndex: boolean, i: number) => {
      const store = new RepoStore(createNodePlatform({ root: join(work, `store-${jsPackIndex}-${i}`), jsPackIndex }));
      const t = performance.now();
      objects = (await store.importBundle('bench', bytes)).objects;
      return performance.now() - t;
    };
    const git: number[] = [];
    const iso: number[] = [];
    for (let i = 0; i < rounds; i++) {
      git.push(await once(false, i));
      iso.push(await once(true, i));
    }
    const gitMs = median(git);
    const isomorphicGitMs = median(iso);
    return { bundle, objects, bytes: bytes.length, rounds, gitMs, isomorphicGitMs, ratio: isomorphicGitMs / gitMs };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function packIndexText(r: PackIndexBenchResult): string {
  return [
    `bundle: ${r.bundle} (${r.objects} objects, ${(r.bytes / 1e6).toFixed(1)} MB), ${r.rounds} round(s), medians:`,
    `  git index-pack   ${r.gitMs.toFixed(0)} ms`,
    `  isomorphic-git   ${r.isomorphicGitMs.toFixed(0)} ms`,
    `  isomorphic-git / git index-pack: ${r.ratio.toFixed(1)}×`,
  ].join('\n');
}
