// Making a bug from a repository in the store (the Repositories view's bug maker): the repository as the page
// browses it — its history, its tree at a commit, one file —, the tests found at a commit, a run of the suite there,
// what a fixing commit would give the bug, and the draft a person fills in. The draft is checked with zod before the
// engine reads the repository (worker/bugs/make-bug.ts), so a malformed field is named before any git or runner work.
import { z } from 'zod';
import { BugCategory, FaultLocation, ProjectLayout, TestId } from './bug.ts';

/** One commit of a stored repository's history, as the log lists it. */
export interface RepoCommit {
  oid: string;
  parents: string[];
  /** the message's first line */
  subject: string;
  /** the whole message (trailing newlines trimmed) */
  message: string;
  author: { name: string; email: string };
  /** committer time, seconds since the epoch (the order of the log) */
  timestamp: number;
  /** the refs pointing at this commit, short (`main`, `v1.0`, `repairlab/bugs/textkit-1`) */
  refs: string[];
}

/** A page of a repository's history: every ref's commits, newest first (git log --all --date-order). */
export interface RepoLogPage {
  repoId: string;
  commits: RepoCommit[];
  /** commits left out before this page */
  skip: number;
  /** there are older commits after this page */
  more: boolean;
}

export interface RepoTreeEntry {
  name: string;
  /** repository-relative, '/' separated */
  path: string;
  kind: 'dir' | 'file' | 'symlink' | 'submodule';
  oid: string;
}

/** One directory of the tree at a commit: folders first, then files, each by name. */
export interface RepoTreeListing {
  repoId: string;
  /** the commit's full oid (the revision asked for, resolved) */
  commit: string;
  /** '' for the top of the tree */
  dir: string;
  entries: RepoTreeEntry[];
}

/** A file at a commit, as the page shows it. */
export interface RepoFileView {
  repoId: string;
  commit: string;
  path: string;
  bytes: number;
  /** git's heuristic: a NUL byte in the first 8000 bytes; no text then */
  binary: boolean;
  text?: string;
  /** only the first REPO_FILE_TEXT_LIMIT characters are in `text` */
  truncated: boolean;
}

/** Characters of a file the page gets to show (the rest is left out, and says so). */
export const REPO_FILE_TEXT_LIMIT = 400_000;

/** A test method found in the tree: what the runner runs as `pkg.Class::method`. */
export interface FoundTest {
  id: string;
  className: string;
  method: string;
  file: string;
}

/** The tests of a commit, with the layout read from its tree (what the bug maker offers). */
export interface CommitTests {
  repoId: string;
  commit: string;
  layout: ProjectLayout;
  tests: FoundTest[];
  /** how the layout was read, and what could not be (e.g. no test directory found) */
  notes: string[];
}

/** The whole suite run on the runner at a commit, to offer the tests that fail there. */
export interface SuiteRun {
  repoId: string;
  commit: string;
  compiled: boolean;
  /** compile errors, `file:line: message` (a failed compile) */
  diagnostics: string[];
  /** ids of tests that failed, errored or timed out */
  failing: string[];
  /** how many tests ran */
  ran: number;
}

/** What a fixing commit gives the bug: the ground-truth patch (program files only) and what is read from it. */
export interface FixPreview {
  repoId: string;
  buggyCommit: string;
  fixedCommit: string;
  patch: string;
  category: BugCategory;
  blameable: boolean;
  faultLocalization: FaultLocation[];
}

const REVISION = z
  .string()
  .trim()
  .min(1, 'is empty: pick a commit in the history (or give its oid, a branch or a tag)')
  .regex(/^[^\s:]+$/, 'is not a revision: give a commit oid, a branch or a tag, without spaces');

/** A bug a person makes from a stored repository. Everything else of the BugSpec is read from the repository and the runner. */
export const BugDraft = z.object({
  repoId: z.string().regex(/^[A-Za-z0-9][\w.-]*$/, 'names no stored repository: open one from the Repositories list'),
  id: z
    .string()
    .regex(/^[A-Za-z0-9][\w.-]*$/, "is not a bug id: use letters, digits, '.', '_' and '-', starting with a letter or digit (e.g. mylib-1)"),
  buggyCommit: REVISION,
  /** optional: its program files become the ground truth, and the fault lines come from its diff */
  fixedCommit: REVISION.optional(),
  failingTests: z.array(TestId).min(1, 'is empty: a bug needs a failing test — pick one (Find failing tests runs the suite and offers them)'),
  title: z.string().trim().min(1, 'is empty: give the bug a one-line title, as an issue would have'),
  body: z.string().default(''),
  /** default: read from the tree at the buggy commit (CommitTests.layout) */
  layout: ProjectLayout.optional(),
  /** default: from the fixing commit's diff when there is one, else Ochiai over the runner's coverage */
  faultLocalization: z.array(FaultLocation).min(1).optional(),
  defectKinds: z.array(z.string()).default([]),
});
export type BugDraft = z.input<typeof BugDraft>;

/** Where a made bug's fault lines came from. */
export type FaultLinesSource = 'given' | 'fix' | 'ochiai';

/** What saving a draft answers: the bug as stored (never its ground truth) and how its parts were found. */
export interface MadeBug {
  id: string;
  repoId: string;
  buggyCommit: string;
  fixedCommit?: string;
  category: BugCategory;
  blameable: boolean;
  failingTests: string[];
  faultLocalization: FaultLocation[];
  faultLinesFrom: FaultLinesSource;
  /** e.g. "Ochiai over 24 tests: 3 lines scored 0.707" */
  notes: string[];
}
