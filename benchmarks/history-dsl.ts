// The vocabulary a benchmark library's history is written in (benchmarks/libraries/<lib>/history.ts).
// A history is plain data: commits made of file operations, branches and merges on top of main, and
// bugs that each point at a main commit. The builder (benchmarks/git-history.ts) replays it through
// `git fast-import` with fixed people and dates, so every commit id is the same on every machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectLayout, TestId } from '../worker/contracts/bug.ts';

export interface Person {
  name: string;
  email: string;
  /** fixed UTC offset written into the commit, e.g. +0100 */
  tz: string;
}

export type FileOp =
  /** create or overwrite a file */
  | { op: 'write'; path: string; text: string }
  /** replace `find` (which must occur exactly once) with `replace` */
  | { op: 'edit'; path: string; find: string; replace: string }
  /** replace every occurrence of `find` (at least one) — e.g. a class rename */
  | { op: 'editAll'; path: string; find: string; replace: string }
  /** add members to a Java type: inserted before the file's last closing brace */
  | { op: 'addMembers'; path: string; text: string }
  | { op: 'rename'; from: string; to: string }
  | { op: 'delete'; path: string };

export interface CommitStep {
  kind: 'commit';
  /** label other steps and bugs refer to */
  label?: string;
  /** defaults to main */
  branch?: string;
  author: string;
  message: string;
  ops: FileOp[];
}

export interface BranchStep {
  kind: 'branch';
  name: string;
  /** branch or label to start from; defaults to the tip of main */
  from?: string;
}

export interface MergeStep {
  kind: 'merge';
  label?: string;
  /** the branch merged into main (deleted afterwards, like a merged pull request) */
  branch: string;
  author: string;
  message: string;
}

export type HistoryStep = CommitStep | BranchStep | MergeStep;

export interface BugDefinition {
  id: string;
  /** label of the main commit the bug's buggy commit is built on */
  at: string;
  /** label(s) of the commit(s) whose changes the buggy lines last came from (checked with git blame) */
  introducedBy: string[];
  /** the buggy commit: adds the tests that expose the bug (test files only) on top of `at` */
  tests: { author: string; message: string; ops: FileOp[] };
  /** ground truth: program files only; kept on refs/repairlab/fixes/<id> */
  fix: { author: string; message: string; ops: FileOp[] };
  failingTests: TestId[];
  report: { title: string; body: string };
  defectKinds: DefectKind[];
}

/** RepairAgent's fix-pattern list, as the kinds of defect a bug exercises. */
export const DEFECT_KINDS = [
  'operator',
  'literal',
  'condition',
  'null-check',
  'wrong-argument',
  'missing-statement',
  'wrong-method-called',
  'wrong-variable',
] as const;
export type DefectKind = (typeof DEFECT_KINDS)[number];

export interface LibraryDefinition {
  id: string;
  description: string;
  layout: ProjectLayout;
  people: Record<string, Person>;
  /** date of the first commit (ISO, UTC); later commits follow at fixed, varied intervals */
  start: string;
  steps: HistoryStep[];
  bugs: BugDefinition[];
}

// Small constructors so histories read like a changelog.
export const write = (path: string, text: string): FileOp => ({ op: 'write', path, text });
export const edit = (path: string, find: string, replace: string): FileOp => ({ op: 'edit', path, find, replace });
export const editAll = (path: string, find: string, replace: string): FileOp => ({ op: 'editAll', path, find, replace });
export const addMembers = (path: string, text: string): FileOp => ({ op: 'addMembers', path, text });
export const rename = (from: string, to: string): FileOp => ({ op: 'rename', from, to });
export const remove = (path: string): FileOp => ({ op: 'delete', path });

export function commit(author: string, message: string, ops: FileOp[], extra: { label?: string; branch?: string } = {}): CommitStep {
  return { kind: 'commit', author, message, ops, ...extra };
}
export function branch(name: string, from?: string): BranchStep {
  return from === undefined ? { kind: 'branch', name } : { kind: 'branch', name, from };
}
export function merge(branchName: string, author: string, message: string, label?: string): MergeStep {
  return label === undefined ? { kind: 'merge', branch: branchName, author, message } : { kind: 'merge', branch: branchName, author, message, label };
}

/** Reads a file kept next to a history (benchmarks/libraries/<lib>/files/...). */
export function fileReader(libraryDir: string): (relative: string) => string {
  return (relative) => readFileSync(join(libraryDir, 'files', relative), 'utf8');
}

export const MAVEN_JUNIT4_LAYOUT: ProjectLayout = {
  sourceDirs: ['src/main/java'],
  testDirs: ['src/test/java'],
  resourceDirs: [],
  testResourceDirs: [],
  javaRelease: 11,
  junit: 'junit4',
  classpath: ['junit4', 'hamcrest'],
};
