// The on-disk side of `repairlab blame` and `repairlab history` (registered in analysis-commands.ts).
// Node only: blameCommand reads a plain on-disk repository through the Node platform's fs.
import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { BugSpec } from '../contracts/bug.ts';
import { createNodePlatform } from '../platform/node.ts';
import { RepoSession } from '../repo/session.ts';
import { blame } from '../history/blame.ts';
import { historyContext, type HistoryContext, type HistoryHeuristic } from '../history/heuristics.ts';
import type { ExtractorOptions } from '../history/extractor.ts';

/** A session on an existing git repository directory (a work tree with .git, or a bare repository). */
export function openOnDiskRepo(repoDir: string): RepoSession {
  const dir = resolve(repoDir);
  const dotGit = join(dir, '.git');
  let gitdir: string;
  if (existsSync(dotGit) && statSync(dotGit).isDirectory()) gitdir = dotGit;
  else if (existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects'))) gitdir = dir;
  else throw new Error(`${repoDir} is not a git repository (no .git directory, not a bare repository): pass the repository's top directory.`);
  const platform = createNodePlatform({ root: dir, reposRoot: dir });
  return new RepoSession(basename(dir), platform.fs, gitdir);
}

/** `repairlab blame <repoDir> <file> [--rev R] --json`: one JSON object per line of the file. */
export async function* blameCommand(repoDir: string, file: string, rev = 'HEAD'): AsyncGenerator<string> {
  const session = openOnDiskRepo(repoDir);
  for (const line of await blame(session, file, rev)) {
    yield JSON.stringify({ line: line.line, commit: line.commit, path: line.path, origLine: line.origLine });
  }
}

/**
 * `repairlab history <bugId> --heuristic fn_all|fn_pair|fl_diff --json`: the extraction and the prompt section.
 * The caller supplies the bug's repository session (Engine.ensureRepository) and must have initialised Java
 * analysis (initJavaForNode) for fn_all / fn_pair / blameless bugs.
 */
export async function historyCommand(
  session: RepoSession,
  bug: BugSpec,
  heuristic: HistoryHeuristic,
  options: ExtractorOptions = {},
): Promise<HistoryContext> {
  return historyContext(session, bug, heuristic, options);
}
