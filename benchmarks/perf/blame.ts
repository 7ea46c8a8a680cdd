// Blame speed: RepairLab's blame vs `git blame` on one file with a long history, in Node, side by side.
// Prints both times and the ratio (target: within 5x of git in Node). CLI: `repairlab bench blame`.
//
// RepairLab blames from its own store (the repository imported from a bundle, i.e. packed), as the
// product does; git blames the original repository. One untimed warm-up run each (JIT, OS cache),
// then `runs` timed runs with a fresh RepairLab session each time (pack indexes re-read per session).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blame } from '../../worker/history/blame.ts';
import { createNodePlatform } from '../../worker/platform/node.ts';
import { RepoStore } from '../../worker/repo/repo-store.ts';

export interface BlameBenchResult {
  repoDir: string;
  file: string;
  rev: string;
  lines: number;
  commitsTouchingFile: number;
  /** medians, milliseconds */
  repairlabMs: number;
  gitMs: number;
  ratio: number;
  runs: number;
}

export async function benchmarkBlame(repoDir: string, file: string, rev = 'HEAD', runs = 5, log: (line: string) => void = console.log): Promise<BlameBenchResult> {
  const work = mkdtempSync(join(tmpdir(), 'repairlab-blame-bench-'));
  try {
    const bundle = join(work, 'repo.bundle');
    execFileSync('git', ['-C', repoDir, 'bundle', 'create', '-q', bundle, '--all']);
    const store = new RepoStore(createNodePlatform({ root: work }));
    await store.importBundle('bench', new Uint8Array(readFileSync(bundle)));
    const gitOnce = () => {
      const t = performance.now();
      execFileSync('git', ['-C', repoDir, 'blame', '--porcelain', rev, '--', file], { maxBuffer: 1 << 28 });
      return performance.now() - t;
    };
    let lines = 0;
    const oursOnce = async () => {
      const session = await store.openRepo('bench');
      const t = performance.now();
      lines = (await blame(session, file, rev)).length;
      return performance.now() - t;
    };
    gitOnce();
    await oursOnce();
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < runs; i++) {
      theirs.push(gitOnce());
      ours.push(await oursOnce());
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const commitsTouchingFile = Number(execFileSync('git', ['-C', repoDir, 'rev-list', '--count', rev, '--', file], { encoding: 'utf8' }).trim());
    const repairlabMs = median(ours);
    const gitMs = median(theirs);
    const result: BlameBenchResult = { repoDir, file, rev, lines, commitsTouchingFile, repairlabMs, gitMs, ratio: repairlabMs / gitMs, runs };
    log(
      `blame ${file} @ ${rev}: ${lines} lines, ${commitsTouchingFile} commits touching it — RepairLab ${repairlabMs.toFixed(0)} ms, ` +
        `git ${gitMs.toFixed(0)} ms (medians of ${runs}), ratio ${result.ratio.toFixed(2)}x (target ≤ 5x in Node)`,
    );
    return result;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const [repoDir, file, rev] = process.argv.slice(2);
  if (!repoDir || !file) {
    // Default: the long-history file of the generated parity repository.
    const { cachedHistoryRepo, LONG_FILE } = await import('../../test/integration/history/history-generator.ts');
    await benchmarkBlame(cachedHistoryRepo().dir, LONG_FILE);
  } else {
    await benchmarkBlame(repoDir, file, rev ?? 'HEAD');
  }
}
