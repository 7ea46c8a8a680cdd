// Blame parity on a real repository: every line of a sample of files at a revision, RepairLab's blame
// (worker/history/blame.ts, reading the repository's own objects) against `git blame --porcelain`.
// The Defects4J check compares fault lines only; this sweeps whole files, so divergences in rarely taken
// paths (renames, merges, diff heuristics) show up. Not part of the test command: it needs a real history.
//
//   node --import tsx benchmarks/verify/blame-sweep.ts <repoDir> [--rev R] [--files N] [--match REGEX]
//
// The sample is deterministic (every k-th matching file in path order) so a divergence can be rerun.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compareBlame, gitBlame } from '../../test/integration/history/parity.ts';
import { blame } from '../../worker/history/blame.ts';
import { openOnDiskRepo } from '../../worker/cli/on-disk-repo.ts';
import { git } from '../git.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rev: { type: 'string', default: 'HEAD' }, files: { type: 'string', default: '40' }, match: { type: 'string', default: '\\.java$' } },
});
const repoDir = positionals[0];
if (!repoDir) {
  console.error('usage: blame-sweep.ts <repoDir> [--rev R] [--files N] [--match REGEX]');
  process.exit(2);
}
// a work tree's .git, else a bare repository (a fetched mirror)
const gitDir = existsSync(join(repoDir, '.git')) ? join(repoDir, '.git') : repoDir;

const rev = git(gitDir, ['rev-parse', `${values.rev}^{commit}`]).trim();
const pattern = new RegExp(values.match!);
const all = git(gitDir, ['ls-tree', '-r', '--name-only', rev]).split('\n').filter((p) => p && pattern.test(p));
const want = Math.min(Number(values.files), all.length);
const step = all.length / Math.max(want, 1);
const sample = Array.from({ length: want }, (_, i) => all[Math.floor(i * step)]!);
const session = openOnDiskRepo(repoDir);

let lines = 0;
let divergent = 0;
let oursMs = 0;
let gitMs = 0;
for (const path of sample) {
  process.stderr.write(`${path}\n`);
  let t = performance.now();
  const ours = await blame(session, path, rev);
  oursMs += performance.now() - t;
  t = performance.now();
  const theirs = gitBlame(repoDir, path, rev);
  gitMs += performance.now() - t;
  const diffs = compareBlame(path, ours, theirs);
  lines += theirs.length;
  if (diffs.length) {
    divergent++;
    console.log(`DIFFERS ${path} (${diffs.length} of ${theirs.length} lines)\n  ${diffs.slice(0, 5).join('\n  ')}`);
  }
}
console.log(
  `${rev.slice(0, 12)}: ${sample.length} files, ${lines} lines; ${divergent} file(s) differ from git blame. ` +
    `RepairLab ${(oursMs / 1000).toFixed(1)} s, git ${(gitMs / 1000).toFixed(1)} s (ratio ${(oursMs / Math.max(gitMs, 1)).toFixed(2)})`,
);
process.exitCode = divergent ? 1 : 0;
