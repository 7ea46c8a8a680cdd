// Defects4J names a bug's revisions by git commit id, except where its project repository is a Subversion dump:
// Chart's active-bugs.csv says `2264,2266`. A git conversion of that history (jfree/jfreechart on GitHub) keeps no
// Subversion revision numbers, so the commits are found by what they hold: the fixed revision is the first commit
// whose tree the bug's source patch (fixed → buggy) applies to while its parent's does not, and the buggy revision is
// that commit's parent — or, when the parent is half fixed (a fix spread over several commits), the nearest ancestor
// the patch reverts cleanly. `defects4j check`'s leakage step looks for any fix line the history would still show.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Defects4jImportError, git, gitMatches, hasCommit } from './git.ts';
import type { ActiveBug } from './data.ts';

export interface RevisionCommits {
  /** the git commit of the buggy revision: where history (blame) starts */
  buggy: string;
  /** the git commit of the fixed revision: the tree the buggy version is built from */
  fixed: string;
  /** how a Subversion revision number became these commits; absent when Defects4J named commits */
  mapped?: string;
}

const SVN_REVISION = /^\d+$/;
/** how far back the buggy state is looked for from the fix, in commits that touch the patched files */
const MAX_BUGGY_SEARCH = 50;

/** The git commits of a bug's revisions in `gitDir`; `patchPath` is patches/<id>.src.patch (used for SVN numbers only). */
export function revisionCommits(gitDir: string, bug: ActiveBug, patchPath: string, names: { repo: string; project: string }): RevisionCommits {
  if (!SVN_REVISION.test(bug.fixedRevision) || !SVN_REVISION.test(bug.buggyRevision)) {
    for (const rev of [bug.buggyRevision, bug.fixedRevision]) {
      if (!hasCommit(gitDir, rev)) throw new Defects4jImportError(`revision ${rev} is not in ${names.repo}; is it the repository Defects4J uses for ${names.project}?`, rev);
    }
    return { buggy: bug.buggyRevision, fixed: bug.fixedRevision };
  }
  // `defects4j check` asks before importing (to reuse a registered bug) and the import asks again: search once
  const key = [gitDir, patchPath, bug.buggyRevision, bug.fixedRevision].join('\0');
  const known = MAPPED.get(key);
  if (known) return known;
  const found = mapSubversionRevisions(gitDir, bug, patchPath, names.repo);
  MAPPED.set(key, found);
  return found;
}

/** Subversion numbers already mapped in this process (the repository and Defects4J's files do not change under it). */
const MAPPED = new Map<string, RevisionCommits>();

function mapSubversionRevisions(gitDir: string, bug: ActiveBug, patchPath: string, repoName: string): RevisionCommits {
  const files = patchedFiles(git(['apply', '--numstat', patchPath]));
  const index = join(mkdtempSync(join(tmpdir(), 'repairlab-d4j-svn-')), 'index');
  try {
    const state = (commit: string, reverse: boolean): boolean => {
      git(['read-tree', commit], { gitDir, env: { GIT_INDEX_FILE: index } });
      return gitMatches(['apply', '--cached', '--check', ...(reverse ? ['--reverse'] : []), patchPath], { gitDir, env: { GIT_INDEX_FILE: index } });
    };
    const touching = (from: string[]) => git(['rev-list', ...from, '--', ...files], { gitDir }).split('\n').filter(Boolean);
    // a fix: a commit in the fixed state whose parent is not; oldest first, so a fix re-applied after a revert maps
    // to its first appearance
    const fixes = touching(['--all', '--topo-order', '--reverse']).filter((c) => hasCommit(gitDir, `${c}^`) && state(c, false) && !state(`${c}^`, false));
    const fixed = fixes[0];
    const noun = `Subversion revision ${bug.fixedRevision}`;
    if (!fixed) {
      throw new Defects4jImportError(
        `no commit of ${repoName} holds ${noun}: ${patchPath} applies to none of the commits that touch ${files.join(', ')} (the repository's history differs from the Subversion history Defects4J numbers)`,
        bug.fixedRevision,
        undefined,
        `the repository lacks ${noun}`,
      );
    }
    // The fix's parent, unless it is half fixed: then the nearest ancestor the patch reverts cleanly. A minimised
    // patch (Defects4J's are) need not revert cleanly anywhere (its context is the fixed revision's); the parent it is.
    const parent = git(['rev-parse', `${fixed}^`], { gitDir }).trim();
    const buggy = state(parent, true) ? parent : (touching(['--first-parent', `--max-count=${MAX_BUGGY_SEARCH}`, parent]).find((c) => state(c, true)) ?? parent);
    const ambiguity = fixes.length > 1 ? `; ${fixes.length} commits fit, the oldest is taken` : '';
    return { buggy, fixed, mapped: `Subversion revisions ${bug.buggyRevision} → ${buggy.slice(0, 12)}, ${bug.fixedRevision} → ${fixed.slice(0, 12)} (found by the source patch${ambiguity})` };
  } finally {
    rmSync(join(index, '..'), { recursive: true, force: true });
  }
}

/** The files a patch touches, from `git apply --numstat` ("added<TAB>deleted<TAB>path"). */
function patchedFiles(numstat: string): string[] {
  return [...new Set(numstat.split('\n').filter(Boolean).map((l) => l.split('\t')[2]!))];
}
