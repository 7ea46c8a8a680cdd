// Blame of stored repositories for the UI, the console handle and the browser parity/benchmark tests:
// blame every file of a stored repository at a revision, and time blame of one file on fresh sessions.
import type { RepoStore } from '../repo/repo-store.ts';
import { blame, type BlameLine } from './blame.ts';

export interface FileBlame {
  file: string;
  lines: BlameLine[];
}

/** Where the stored repositories are: the Engine (worker/bugs/engine.ts) has them as `repos`. */
export interface StoredRepos {
  repos: Pick<RepoStore, 'openRepo'>;
}

/** Blame of the given files (default: every file of the tree at `rev`) in the stored repository `repoId`. */
export async function blameFiles(engine: StoredRepos, repoId: string, rev = 'HEAD', files?: string[]): Promise<FileBlame[]> {
  const session = await engine.repos.openRepo(repoId);
  const paths = files ?? (await session.listTree(await session.resolveRef(rev))).map((f) => f.path);
  const out: FileBlame[] = [];
  for (const file of paths) out.push({ file, lines: await blame(session, file, rev) });
  return out;
}

export interface BlameTiming {
  lines: number;
  /** milliseconds of each timed run, each on a fresh session (pack indexes re-read, as a new page would) */
  runsMs: number[];
  medianMs: number;
}

/** Times blame of one file: one untimed warm-up, then `runs` timed runs on fresh sessions. */
export async function timeBlame(engine: StoredRepos, repoId: string, file: string, rev = 'HEAD', runs = 5): Promise<BlameTiming> {
  const once = async () => {
    const session = await engine.repos.openRepo(repoId);
    const start = performance.now();
    const lines = (await blame(session, file, rev)).length;
    return { ms: performance.now() - start, lines };
  };
  const { lines } = await once();
  const runsMs: number[] = [];
  for (let i = 0; i < runs; i++) runsMs.push((await once()).ms);
  const sorted = [...runsMs].sort((a, b) => a - b);
  return { lines, runsMs, medianMs: sorted[Math.floor(sorted.length / 2)]! };
}
