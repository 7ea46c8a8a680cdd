// Compares RepairLab blame with `git blame --porcelain` on every line of every file at a revision.
// Shared by the Node parity test and the benchmark; the browser spec has its own copy of the comparison.
import { execFileSync } from 'node:child_process';
import type { BlameLine } from '../../../worker/history/blame.ts';

export interface GitBlameLine {
  line: number;
  commit: string;
  path: string;
  origLine: number;
}

/** Parses `git blame --porcelain` output into one record per final line. */
export function parsePorcelain(text: string): GitBlameLine[] {
  const out: GitBlameLine[] = [];
  const pathOf = new Map<string, string>();
  const lines = text.split('\n');
  let current: { commit: string; origLine: number; line: number } | undefined;
  for (const line of lines) {
    const header = /^([0-9a-f]{40}) (\d+) (\d+)(?: \d+)?$/.exec(line);
    if (header) {
      current = { commit: header[1]!, origLine: Number(header[2]), line: Number(header[3]) };
      continue;
    }
    if (!current) continue;
    // 'filename' is printed with a commit's details the first time it appears (and again for every
    // group when the commit touched several paths); later lines of the commit reuse the last one.
    if (line.startsWith('filename ')) pathOf.set(current.commit, line.slice('filename '.length));
    if (line.startsWith('\t')) {
      out.push({ ...current, path: pathOf.get(current.commit) ?? '' });
      current = undefined;
    }
  }
  return out;
}

export function gitBlame(repoDir: string, path: string, rev = 'HEAD'): GitBlameLine[] {
  const text = execFileSync('git', ['-C', repoDir, 'blame', '--porcelain', rev, '--', path], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return parsePorcelain(text);
}

/** Lines where the two blames disagree, as printable strings (empty = identical). */
export function compareBlame(path: string, ours: BlameLine[], theirs: GitBlameLine[]): string[] {
  const diffs: string[] = [];
  if (ours.length !== theirs.length) diffs.push(`${path}: ${ours.length} lines blamed by RepairLab, ${theirs.length} by git`);
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
    const a = ours[i];
    const b = theirs[i];
    if (!a || !b || a.commit !== b.commit || a.path !== b.path || a.origLine !== b.origLine || a.line !== b.line) {
      const show = (x?: { commit: string; path: string; origLine: number }) => (x ? `${x.commit.slice(0, 10)} ${x.path}:${x.origLine}` : 'missing');
      diffs.push(`${path}:${i + 1}: repairlab ${show(a)} | git ${show(b)}`);
    }
  }
  return diffs;
}
