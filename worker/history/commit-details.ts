// One commit as the history explorer opens it from a blame gutter: its message, author and committer, and its diff
// of one file against its first parent — printed as `git show <commit> -- <file>` prints a non-merge commit's diff
// (the same formatter as HAFixAgent's fl_diff, so what the explorer shows and what the agent reads agree).
import type { StoredRepos } from './repo-blame.ts';
import type { GitPerson, RepoSession } from '../repo/session.ts';
import { formatFileDiff } from '../diff/unified-diff-format.ts';
import { looksBinary } from './rename.ts';
import { changedFiles } from './heuristics.ts';

export interface CommitPerson {
  name: string;
  email: string;
  /** 'YYYY-MM-DD HH:MM:SS' in UTC */
  date: string;
  /** seconds since the epoch */
  timestamp: number;
}

export interface CommitDetails {
  oid: string;
  parents: string[];
  author: CommitPerson;
  committer: CommitPerson;
  /** the full message, as stored (trailing newline trimmed) */
  message: string;
  /** the file asked about, at its path in this commit */
  file: string;
  /** this commit's diff of `file` against its first parent ('' when the commit left the file unchanged) */
  diff: string;
  /** every file the commit changed against its first parent (all files for a root commit) */
  changedFiles: string[];
}

const utf8 = new TextDecoder();

function person(p: GitPerson): CommitPerson {
  const iso = new Date(p.timestamp * 1000).toISOString();
  return { name: p.name, email: p.email, date: `${iso.slice(0, 10)} ${iso.slice(11, 19)}`, timestamp: p.timestamp };
}

/** `file`'s diff in `commit` against its first parent, as git prints it (a merge: against the first parent only). */
async function fileDiff(session: RepoSession, commit: string, firstParent: string | undefined, file: string): Promise<string> {
  const after = await session.entryAt(commit, file);
  const before = firstParent ? await session.entryAt(firstParent, file) : undefined;
  const blobOf = async (entry: typeof after) => (entry?.type === 'blob' ? session.readBlob(entry.oid) : undefined);
  const [oldBytes, newBytes] = await Promise.all([blobOf(before), blobOf(after)]);
  return formatFileDiff({
    path: file,
    oldText: oldBytes && utf8.decode(oldBytes),
    newText: newBytes && utf8.decode(newBytes),
    oldOid: before?.oid,
    newOid: after?.oid,
    oldMode: before?.mode,
    newMode: after?.mode,
    binary: (oldBytes !== undefined && looksBinary(oldBytes)) || (newBytes !== undefined && looksBinary(newBytes)),
  });
}

/** A commit of an open repository session with its diff of `file` (see CommitDetails). */
export async function commitDetailsIn(session: RepoSession, rev: string, file: string): Promise<CommitDetails> {
  if (!file || file.startsWith('/')) throw new Error(`commitDetails: file ${JSON.stringify(file)} must be a path inside the repository, such as src/main/java/Foo.java.`);
  const oid = await session.resolveRef(rev);
  const info = await session.readCommit(oid);
  const firstParent = info.parents[0];
  const [inCommit, inParent] = await Promise.all([session.entryAt(oid, file), firstParent ? session.entryAt(firstParent, file) : undefined]);
  if (!inCommit && !inParent) {
    throw new Error(`commitDetails: ${file} is neither in commit ${oid.slice(0, 12)} nor in its parent: pass the file's path as of that commit (blame gives it per line).`);
  }
  return {
    oid,
    parents: info.parents,
    author: person(info.author),
    committer: person(info.committer),
    message: info.message.replace(/\n+$/, ''),
    file,
    diff: await fileDiff(session, oid, firstParent, file),
    changedFiles: await changedFiles(session, oid),
  };
}

/** The worker API: commit `oid` of the stored repository `repoId`, with its diff of `file`. */
export async function commitDetails(engine: StoredRepos, repoId: string, oid: string, file: string): Promise<CommitDetails> {
  // openRepo refuses a repository that is not in the store, naming it
  return commitDetailsIn(await engine.repos.openRepo(repoId), oid, file);
}
