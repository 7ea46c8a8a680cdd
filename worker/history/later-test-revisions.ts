// Later revisions of a bug's test classes, read from its real history (the history-aware overfitting check:
// docs/history.md, docs/formats/labels.md "Evidence"). The test classes are the bug's trigger test classes and, for each
// program file the developers' fix changes, the test file of the same package named after it (Foo.java → FooTest.java,
// TestFoo.java, FooTests.java). A later commit is one on a branch (refs/heads/*) that is neither the buggy, the history
// nor the fix commit nor an ancestor of one — the history after the fix (Defects4J's bundles hold none: nothing after
// the buggy revision is imported, so no later commit can leak the fix: with the project's real repository on disk,
// projectHistory reads the later commits from it instead). Commits that descend from the fix come first,
// then the others, each group oldest first (nearest the fix); each distinct content a later commit writes into a test file
// is one revision (a content one of its parents has, or the buggy or fixed tree has, is none).
import type { BugSpec } from '../contracts/bug.ts';
import { refTips } from '../repo/repo-browse.ts';
import type { CommitInfo, RepoSession } from '../repo/session.ts';

export const DEFAULT_LATER_REVISIONS = 3;

export interface LaterTestRevision {
  commit: string;
  subject: string;
  timestamp: number;
  afterFix: boolean;
  testFile: string;
  testClass: string;
  blob: string;
}

/** Program files the developers' fix changes: from its patch, else from the buggy and fixed trees. */
export async function fixChangedFiles(session: RepoSession, bug: BugSpec): Promise<string[]> {
  const patch = bug.groundTruth.patch;
  if (patch) return [...new Set([...patch.matchAll(/^diff --git a\/(\S+) b\/(\S+)$/gm)].map((m) => m[2]!))];
  const fixed = bug.groundTruth.fixedCommit;
  if (!fixed) return [];
  const [before, after] = await Promise.all([session.listTree(bug.buggyCommit), session.listTree(fixed)]);
  const old = new Map(before.map((f) => [f.path, f.oid]));
  return after.filter((f) => old.get(f.path) !== f.oid).map((f) => f.path);
}

const under = (dir: string, path: string) => path.startsWith(`${dir.replace(/\/$/, '')}/`);

/** The test files (paths under the test roots) whose later revisions are run: trigger test classes, then tests named after changed classes. */
export function evidenceTestFiles(bug: Pick<BugSpec, 'failingTests' | 'layout'>, changedFiles: readonly string[]): string[] {
  const out: string[] = [];
  const add = (p: string) => {
    if (!out.includes(p)) out.push(p);
  };
  for (const t of bug.failingTests) for (const d of bug.layout.testDirs) add(`${d.replace(/\/$/, '')}/${t.split('::')[0]!.split('$')[0]!.replace(/\./g, '/')}.java`);
  for (const file of changedFiles) {
    const src = bug.layout.sourceDirs.find((d) => under(d, file));
    if (!src || !file.endsWith('.java')) continue;
    const rel = file.slice(src.replace(/\/$/, '').length + 1, -'.java'.length);
    const slash = rel.lastIndexOf('/');
    const dir = rel.slice(0, slash + 1);
    const name = rel.slice(slash + 1);
    for (const d of bug.layout.testDirs) for (const t of [`${name}Test`, `Test${name}`, `${name}Tests`]) add(`${d.replace(/\/$/, '')}/${dir}${t}.java`);
  }
  return out;
}

export function testClassOf(layout: Pick<BugSpec['layout'], 'testDirs'>, path: string): string {
  const dir = layout.testDirs.find((d) => under(d, path));
  return (dir ? path.slice(dir.replace(/\/$/, '').length + 1) : path).replace(/\.java$/, '').replace(/\//g, '.');
}

/** Every commit reachable from `tips` (iteratively: histories are long). */
async function ancestry(session: RepoSession, tips: readonly string[]): Promise<Map<string, CommitInfo>> {
  const seen = new Map<string, CommitInfo>();
  const stack = [...tips];
  while (stack.length) {
    const oid = stack.pop()!;
    if (seen.has(oid)) continue;
    const info = await session.readCommit(oid);
    seen.set(oid, info);
    for (const p of info.parents) if (!seen.has(p)) stack.push(p);
  }
  return seen;
}

/**
 * Where later commits are read: a repository session, the commits whose ancestors (and themselves) are not later
 * (`base`), and the developers' fix commit in that repository (`fix`: commits it is an ancestor of, or that are it, are
 * after the fix; absent, none is). The bug's own repository (bundleHistory), or the project's real repository on disk.
 */
export interface HistorySource {
  session: RepoSession;
  base: string[];
  fix?: string;
}

/** The bug's own repository as its history: later = on a branch, not the buggy, history or fix commit nor an ancestor of one. */
export function bundleHistory(session: RepoSession, bug: BugSpec): HistorySource {
  const fix = bug.groundTruth.fixedCommit;
  return { session, base: [bug.buggyCommit, ...(bug.historyCommit ? [bug.historyCommit] : []), ...(fix ? [fix] : [])], ...(fix ? { fix } : {}) };
}

/** Later commits, descendants of the fix (or the fix itself, when it is not in `base`) first, each group oldest first. */
export async function laterCommits(history: HistorySource): Promise<(CommitInfo & { afterFix: boolean })[]> {
  const { session, fix } = history;
  const before = await ancestry(session, history.base);
  const branches = (await refTips(session)).filter((t) => t.name.startsWith('heads/')).map((t) => t.oid);
  const later = [...(await ancestry(session, branches)).values()].filter((c) => !before.has(c.oid));
  // afterFix: the fix is an ancestor or the commit itself — resolved parents first (oldest first is not enough under clock skew)
  const afterFix = new Map<string, boolean>();
  const byOid = new Map(later.map((c) => [c.oid, c]));
  for (const c of later) {
    const stack = [c.oid];
    while (stack.length) {
      const oid = stack[stack.length - 1]!;
      if (afterFix.has(oid)) {
        stack.pop();
        continue;
      }
      const parents = byOid.get(oid)!.parents;
      const open = parents.filter((p) => byOid.has(p) && !afterFix.has(p));
      if (open.length) {
        stack.push(...open);
        continue;
      }
      afterFix.set(oid, fix !== undefined && (oid === fix || parents.some((p) => p === fix || afterFix.get(p) === true)));
      stack.pop();
    }
  }
  const order = (a: CommitInfo, b: CommitInfo) => a.committer.timestamp - b.committer.timestamp || (a.oid < b.oid ? -1 : 1);
  return later
    .map((c) => ({ ...c, afterFix: afterFix.get(c.oid) === true }))
    .sort((a, b) => Number(b.afterFix) - Number(a.afterFix) || order(a, b));
}

/**
 * Up to `max` later revisions of each test file in `history`, in laterCommits' order; `known` holds, per test file, the
 * blob oids that are not later revisions (its content in the bug's buggy and fixed trees: blob oids are content hashes,
 * so they compare across repositories).
 */
export async function laterRevisionsIn(
  history: HistorySource,
  files: readonly string[],
  known: ReadonlyMap<string, ReadonlySet<string>>,
  layout: Pick<BugSpec['layout'], 'testDirs'>,
  max: number,
): Promise<LaterTestRevision[]> {
  const { session } = history;
  const commits = await laterCommits(history);
  const out: LaterTestRevision[] = [];
  for (const testFile of files) {
    const seen = new Set(known.get(testFile) ?? []);
    let taken = 0;
    for (const c of commits) {
      if (taken >= max) break;
      const entry = await session.entryAt(c.oid, testFile);
      if (!entry || entry.type !== 'blob' || seen.has(entry.oid)) continue;
      // a revision is a content this commit wrote (as `git log -- <file>` lists): not one a parent already had
      if ((await Promise.all(c.parents.map((p) => session.entryAt(p, testFile)))).some((e) => e?.oid === entry.oid)) continue;
      seen.add(entry.oid);
      taken++;
      out.push({
        commit: c.oid,
        subject: c.message.split('\n', 1)[0] ?? '',
        timestamp: c.committer.timestamp,
        afterFix: c.afterFix,
        testFile,
        testClass: testClassOf(layout, testFile),
        blob: entry.oid,
      });
    }
  }
  return out;
}

/**
 * Up to `revisions` later revisions of each evidence test file. The test files and their known contents come from the
 * bug's repository `session` (its buggy and fixed trees); the later commits from `history` (default: the same session).
 */
export async function laterTestRevisions(session: RepoSession, bug: BugSpec, options: { revisions?: number; history?: HistorySource } = {}): Promise<LaterTestRevision[]> {
  const max = Math.max(1, Math.floor(options.revisions ?? DEFAULT_LATER_REVISIONS));
  const files = evidenceTestFiles(bug, (await fixChangedFiles(session, bug)).filter((f) => bug.layout.sourceDirs.some((d) => under(d, f))));
  const fix = bug.groundTruth.fixedCommit;
  const known = new Map<string, Set<string>>();
  for (const testFile of files) {
    const oids = new Set<string>();
    for (const commit of [bug.buggyCommit, ...(fix ? [fix] : [])]) {
      const e = await session.entryAt(commit, testFile);
      if (e) oids.add(e.oid);
    }
    known.set(testFile, oids);
  }
  return laterRevisionsIn(options.history ?? bundleHistory(session, bug), files, known, bug.layout, max);
}

/** The project's fixed revision a Defects4J import names in its buggy commit's message ("Fixed revision <sha> …"), if a git commit id. */
export async function recordedFixedRevision(session: RepoSession, bug: Pick<BugSpec, 'buggyCommit'>): Promise<string | undefined> {
  const m = /^Fixed revision ([0-9a-f]{40})\b/m.exec((await session.readCommit(bug.buggyCommit)).message);
  return m?.[1];
}

/**
 * The project's real repository as the bug's history (a Defects4J bundle stops at the buggy revision): later = on one of
 * its branches, not the bug's original buggy revision (historyCommit, else buggyCommit) nor an ancestor of it; after the
 * fix = descending from (or being) the real fixed revision, as the bundle's buggy commit records it. `note` says when
 * that revision is not known or not in the repository (then no commit is after the fix: the order is by time only).
 */
export async function projectHistory(project: RepoSession, bundle: RepoSession, bug: BugSpec): Promise<{ history: HistorySource; note?: string }> {
  const original = bug.historyCommit ?? bug.buggyCommit;
  try {
    await project.readCommit(original);
  } catch {
    throw new Error(`this repository does not hold ${original}, the bug's original buggy revision (${bug.id}): pass the project's repository.`);
  }
  const fix = await recordedFixedRevision(bundle, bug).catch(() => undefined);
  let note: string | undefined;
  if (!fix) note = `${bug.id}: its bundle records no git commit id of the real fixed revision, so no later commit counts as after the fix (ordered by time only)`;
  else {
    try {
      await project.readCommit(fix);
    } catch {
      note = `${bug.id}: this repository does not hold the real fixed revision ${fix.slice(0, 12)}, so no later commit counts as after the fix (ordered by time only)`;
    }
  }
  return { history: { session: project, base: [original], ...(fix && !note ? { fix } : {}) }, ...(note ? { note } : {}) };
}
