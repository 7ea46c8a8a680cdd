// Later revisions of a bug's test classes, read from its real history (the history-aware overfitting check:
// docs/history.md, docs/formats/labels.md "Evidence"). The test classes are the bug's trigger test classes and, for each
// program file the developers' fix changes, the test file of the same package named after it (Foo.java → FooTest.java,
// TestFoo.java, FooTests.java). A later commit is one on a branch (refs/heads/*) that is neither the buggy, the history
// nor the fix commit nor an ancestor of one — the history after the fix (Defects4J's bundles hold none: nothing after
// the buggy revision is imported, so no later commit can leak the fix). Commits that descend from the fix come first,
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

/** Later commits, descendants of the fix first, each group oldest first. */
export async function laterCommits(session: RepoSession, bug: BugSpec): Promise<(CommitInfo & { afterFix: boolean })[]> {
  const fix = bug.groundTruth.fixedCommit;
  const before = await ancestry(session, [bug.buggyCommit, ...(bug.historyCommit ? [bug.historyCommit] : []), ...(fix ? [fix] : [])]);
  const branches = (await refTips(session)).filter((t) => t.name.startsWith('heads/')).map((t) => t.oid);
  const later = [...(await ancestry(session, branches)).values()].filter((c) => !before.has(c.oid));
  // afterFix: the fix is an ancestor — resolved parents first (oldest first is not enough under clock skew)
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
      afterFix.set(oid, parents.some((p) => p === fix || afterFix.get(p) === true));
      stack.pop();
    }
  }
  const order = (a: CommitInfo, b: CommitInfo) => a.committer.timestamp - b.committer.timestamp || (a.oid < b.oid ? -1 : 1);
  return later
    .map((c) => ({ ...c, afterFix: afterFix.get(c.oid) === true }))
    .sort((a, b) => Number(b.afterFix) - Number(a.afterFix) || order(a, b));
}

/** Up to `revisions` later revisions of each evidence test file, in laterCommits' order. */
export async function laterTestRevisions(session: RepoSession, bug: BugSpec, options: { revisions?: number } = {}): Promise<LaterTestRevision[]> {
  const max = Math.max(1, Math.floor(options.revisions ?? DEFAULT_LATER_REVISIONS));
  const files = evidenceTestFiles(bug, (await fixChangedFiles(session, bug)).filter((f) => bug.layout.sourceDirs.some((d) => under(d, f))));
  const commits = await laterCommits(session, bug);
  const fix = bug.groundTruth.fixedCommit;
  const out: LaterTestRevision[] = [];
  for (const testFile of files) {
    const seen = new Set<string>();
    for (const known of [bug.buggyCommit, ...(fix ? [fix] : [])]) {
      const e = await session.entryAt(known, testFile);
      if (e) seen.add(e.oid);
    }
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
        testClass: testClassOf(bug.layout, testFile),
        blob: entry.oid,
      });
    }
  }
  return out;
}
