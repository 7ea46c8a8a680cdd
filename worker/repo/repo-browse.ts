// A stored repository as a person browses it before making a bug of it: the history of every ref, newest first
// (git log --all --date-order), one directory of the tree at a commit, and one file. Read-only, over an open
// RepoSession, so it shares the session's parsed packs and memoised commits with blame and workspaces.
import git from 'isomorphic-git';
import { REPO_FILE_TEXT_LIMIT, type RepoCommit, type RepoFileView, type RepoLogPage, type RepoTreeEntry, type RepoTreeListing } from '../contracts/bug-from-repo.ts';
import { normalizeWorkspacePath } from './git-workspace.ts';
import { RepoError, type CommitInfo, type RepoSession } from './session.ts';

/** Every ref of the repository (branches, tags, and refs outside both, such as a benchmark's) with the commit it names. */
export async function refTips(session: RepoSession): Promise<{ name: string; oid: string }[]> {
  const names = await git.listRefs({ fs: session.fs as never, gitdir: session.gitdir, filepath: 'refs' });
  const tips: { name: string; oid: string }[] = [];
  for (const name of names.sort()) {
    try {
      tips.push({ name, oid: await session.resolveRef(`refs/${name}`) });
    } catch {
      // a tag of a tree or blob names no commit: it has no history to list
    }
  }
  return tips;
}

function shortRef(name: string): string {
  return name.replace(/^(heads|tags)\//, '');
}

function logEntry(info: CommitInfo, refs: string[]): RepoCommit {
  const message = info.message.replace(/\n+$/, '');
  return {
    oid: info.oid,
    parents: info.parents,
    subject: message.split('\n', 1)[0] ?? '',
    message,
    author: { name: info.author.name, email: info.author.email },
    timestamp: info.committer.timestamp,
    refs,
  };
}

/**
 * `limit` commits of every ref's history after the first `skip`, newest first: a walk from all ref tips that always
 * takes the newest commit not yet listed (committer time; the oid breaks ties, so pages never overlap).
 */
export async function commitLog(session: RepoSession, options: { skip?: number; limit?: number } = {}): Promise<RepoLogPage> {
  const skip = Math.max(0, Math.floor(options.skip ?? 0));
  const limit = Math.min(500, Math.max(1, Math.floor(options.limit ?? 50)));
  const tips = await refTips(session);
  const refsAt = new Map<string, string[]>();
  for (const t of tips) refsAt.set(t.oid, [...(refsAt.get(t.oid) ?? []), shortRef(t.name)]);
  const seen = new Set<string>();
  const frontier: CommitInfo[] = [];
  const newer = (a: CommitInfo, b: CommitInfo) => b.committer.timestamp - a.committer.timestamp || (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0);
  const enqueue = async (oid: string) => {
    if (seen.has(oid)) return;
    seen.add(oid);
    frontier.push(await session.readCommit(oid));
  };
  for (const t of tips) await enqueue(t.oid);
  const commits: RepoCommit[] = [];
  let index = 0;
  while (frontier.length > 0 && commits.length <= limit) {
    // the frontier stays small (one commit per line of history), so a sort per step costs less than a heap's code
    frontier.sort(newer);
    const next = frontier.shift()!;
    if (index >= skip) commits.push(logEntry(next, refsAt.get(next.oid) ?? []));
    index++;
    for (const parent of next.parents) await enqueue(parent);
  }
  const more = commits.length > limit;
  return { repoId: session.repoId, commits: commits.slice(0, limit), skip, more };
}

function entryKind(mode: string): RepoTreeEntry['kind'] {
  if (mode === '040000') return 'dir';
  if (mode === '120000') return 'symlink';
  if (mode === '160000') return 'submodule';
  return 'file';
}

/** One directory of the tree at `rev` ('' = the top): folders first, then files, each by name. */
export async function treeListing(session: RepoSession, rev: string, dir = ''): Promise<RepoTreeListing> {
  const commit = await session.resolveRef(rev);
  const path = normalizeWorkspacePath(dir, true);
  const entry = await session.entryInTree((await session.readCommit(commit)).tree, path);
  if (!entry) throw new RepoError(`There is no folder ${path} at commit ${commit.slice(0, 12)} of ${session.repoId}: pick one from the tree at that commit.`);
  if (entry.type !== 'tree') throw new RepoError(`${path} is a file at commit ${commit.slice(0, 12)}, not a folder: open it as a file.`);
  const entries = (await session.readTreeEntries(entry.oid)).map((e) => ({
    name: e.name,
    path: path ? `${path}/${e.name}` : e.name,
    kind: entryKind(e.mode),
    oid: e.oid,
  }));
  entries.sort((a, b) => Number(b.kind === 'dir') - Number(a.kind === 'dir') || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { repoId: session.repoId, commit, dir: path, entries };
}

/** A file at `rev` as text (binary files by their size only; long ones cut at REPO_FILE_TEXT_LIMIT characters). */
export async function fileAtCommit(session: RepoSession, rev: string, filePath: string): Promise<RepoFileView> {
  const commit = await session.resolveRef(rev);
  const path = normalizeWorkspacePath(filePath);
  const entry = await session.entryAt(commit, path);
  if (!entry) throw new RepoError(`There is no file ${path} at commit ${commit.slice(0, 12)} of ${session.repoId}: pick one from the tree at that commit.`);
  if (entry.type !== 'blob') throw new RepoError(`${path} is a folder at commit ${commit.slice(0, 12)}, not a file: list it instead.`);
  const bytes = await session.readBlob(entry.oid);
  const binary = bytes.subarray(0, 8000).includes(0);
  const view: RepoFileView = { repoId: session.repoId, commit, path, bytes: bytes.length, binary, truncated: false };
  if (binary) return view;
  const text = new TextDecoder().decode(bytes);
  return { ...view, text: text.slice(0, REPO_FILE_TEXT_LIMIT), truncated: text.length > REPO_FILE_TEXT_LIMIT };
}
