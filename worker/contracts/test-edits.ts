// What a patch may do to the tests that define the bug (issue 27). A model that may edit the failing test (a changed
// expectation, @Ignore, assumeTrue(false)), delete a test class or add one that hides another makes any patch "pass";
// the papers' agents may not change the tests. One rule, shared by the runner (which refuses with 400 test-edit),
// the agent's tools (which refuse before the runner is asked) and the CLI.
import { z } from 'zod';
import type { ProjectLayout } from './bug.ts';

/**
 * none: the overlay leaves every test file alone (no edit, deletion or new file) — the default.
 * add: new test files may be added (they run), existing ones neither edited nor deleted, and no new file may take
 *      the name of an existing one (a class or resource that would replace or hide it).
 * any: anything; for trusted callers only — a person's own patch, never a model's.
 */
export const TestEdits = z.enum(['none', 'add', 'any']);
export type TestEdits = z.infer<typeof TestEdits>;

type Roots = Pick<ProjectLayout, 'sourceDirs' | 'testDirs' | 'resourceDirs' | 'testResourceDirs'>;

const trimDir = (d: string) => d.replace(/^\.\//, '').replace(/\/+$/, '');

/** The path relative to the first of `dirs` it lies under, if any. */
function underRoot(path: string, dirs: readonly string[]): string | undefined {
  for (const d of dirs) {
    const prefix = `${trimDir(d)}/`;
    if (path.startsWith(prefix)) return path.slice(prefix.length);
  }
  return undefined;
}

// (the resource roots default to [] in the schema; layouts written by hand in code may leave them out)
const testRoots = (layout: Partial<Roots>) => [...(layout.testDirs ?? []), ...(layout.testResourceDirs ?? [])];
const programRoots = (layout: Partial<Roots>) => [...(layout.sourceDirs ?? []), ...(layout.resourceDirs ?? [])];

/** A test file: under the layout's test sources or test resources. */
export function isTestFile(layout: Partial<Pick<ProjectLayout, 'testDirs' | 'testResourceDirs'>>, path: string): boolean {
  return underRoot(path, testRoots(layout)) !== undefined;
}

/** A program source file: under the layout's source folders and outside its tests (test folders may nest in a source folder). */
export function isProgramSource(layout: Partial<Pick<ProjectLayout, 'sourceDirs' | 'testDirs' | 'testResourceDirs'>>, path: string): boolean {
  return underRoot(path, layout.sourceDirs ?? []) !== undefined && !isTestFile(layout, path);
}

/** What class or resource a file is on the class path: its path under its root (a .class counts as its .java). */
function classPathName(layout: Partial<Roots>, path: string): string | undefined {
  const rel = underRoot(path, testRoots(layout)) ?? underRoot(path, programRoots(layout));
  return rel?.replace(/\.class$/, '.java');
}

export interface TestEditRefusal {
  path: string;
  /** edit / delete: an existing test file; add: a new test file under 'none'; shadow: a new file named like an existing one */
  kind: 'edit' | 'delete' | 'add' | 'shadow';
  /** shadow: the existing file it would replace or hide */
  shadows?: string;
}

/**
 * The overlay entries `policy` refuses. `basePaths`: the snapshot's files. A new file anywhere under the layout's
 * roots may not take the class-path name of a test file (a program class demo/CalcTest.java would run instead of the
 * test), and under 'add' a new test file may not take the name of any file (it would hide a test or stand in for a
 * program class while the agent works).
 */
export function refusedTestEdits(overlay: Readonly<Record<string, string | null>>, layout: Partial<Roots>, basePaths: ReadonlySet<string>, policy: TestEdits): TestEditRefusal[] {
  if (policy === 'any') return [];
  let names: { tests: Map<string, string>; all: Map<string, string> } | undefined;
  const existing = () => {
    if (names) return names;
    names = { tests: new Map(), all: new Map() };
    for (const p of basePaths) {
      const name = classPathName(layout, p);
      if (name === undefined) continue;
      if (!names.all.has(name)) names.all.set(name, p);
      if (isTestFile(layout, p) && !names.tests.has(name)) names.tests.set(name, p);
    }
    return names;
  };
  const refused: TestEditRefusal[] = [];
  for (const [path, content] of Object.entries(overlay)) {
    const test = isTestFile(layout, path);
    if (basePaths.has(path)) {
      if (test) refused.push({ path, kind: content === null ? 'delete' : 'edit' });
      continue;
    }
    if (content === null) continue;
    if (test && policy === 'none') {
      refused.push({ path, kind: 'add' });
      continue;
    }
    const name = classPathName(layout, path);
    const shadows = name === undefined ? undefined : (test ? existing().all : existing().tests).get(name);
    if (shadows !== undefined) refused.push({ path, kind: 'shadow', shadows });
  }
  return refused.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** One refusal as a clause: "edits src/test/java/FooTest.java, a test of the bug". */
export function describeTestEdit(r: TestEditRefusal): string {
  switch (r.kind) {
    case 'edit':
      return `edits ${r.path}, one of the bug's tests`;
    case 'delete':
      return `deletes ${r.path}, one of the bug's tests`;
    case 'add':
      return `adds the test file ${r.path}`;
    case 'shadow':
      return `adds ${r.path}, which takes the name of ${r.shadows} and would replace or hide it`;
  }
}
