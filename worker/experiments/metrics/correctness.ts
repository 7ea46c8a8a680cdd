// Patch correctness against the developers' fix: both patches are applied to the buggy files and every file either
// one touches is compared — exact match on the token sequence (whitespace ignored), AST match on the syntax tree
// (whitespace and comments ignored). Test files are left out of both patches, as in the run's own outcome.
import { applyPatch, parsePatch, type StructuredPatch } from 'diff';
import { isUnderTestDir } from './input.ts';
import { collapseWhitespace, type JavaSyntax } from './java-syntax.ts';

export interface PatchComparison {
  exact: boolean | null;
  ast: boolean | null;
  /** why a value is null (no ground truth, a missing buggy file, a patch that does not apply, no parser) */
  note?: string;
}

interface FilePatch {
  /** path in the buggy tree (null: the patch creates the file) */
  from: string | null;
  /** path after the patch (null: the patch deletes the file) */
  to: string | null;
  patch: StructuredPatch;
}

function cleanPath(name: string | undefined): string | null {
  if (!name) return null;
  const p = name.split('\t')[0]!.trim();
  return p === '/dev/null' ? null : p.replace(/^[ab]\//, '');
}

function filePatches(diff: string, testDirs: readonly string[] | undefined): FilePatch[] {
  if (!diff.trim()) return [];
  return parsePatch(diff)
    .map((patch) => ({ from: cleanPath(patch.oldFileName), to: cleanPath(patch.newFileName), patch }))
    .filter((f) => (f.from ?? f.to) !== null && !isUnderTestDir((f.to ?? f.from)!, testDirs));
}

/** The buggy-version files the engine must supply (BugMeta.buggyFiles) to compare these patches. */
export function filesToRead(patches: readonly string[], testDirs?: readonly string[]): string[] {
  const paths = new Set<string>();
  for (const diff of patches) for (const f of filePatches(diff, testDirs)) if (f.from) paths.add(f.from);
  return [...paths].sort();
}

class CorrectnessGap extends Error {}

/** The files a patch yields: path → new text (null: deleted). Only the files it touches. */
export function patchedFiles(diff: string, buggy: Readonly<Record<string, string>>, testDirs?: readonly string[], label = 'patch'): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const f of filePatches(diff, testDirs)) {
    let base = '';
    if (f.from) {
      const text = buggy[f.from];
      if (text === undefined) throw new CorrectnessGap(`the buggy text of ${f.from} was not given (BugMeta.buggyFiles; see filesToRead)`);
      base = text;
      if (f.to !== f.from) out.set(f.from, null); // renamed or deleted: the old path is gone
    }
    if (!f.to) continue;
    const result = applyPatch(base, f.patch);
    if (result === false) throw new CorrectnessGap(`the ${label} does not apply to the buggy ${f.from ?? f.to}`);
    out.set(f.to, result);
  }
  return out;
}

function forms(path: string, text: string, syntax: JavaSyntax | undefined): { exact: string; ast: string | null } {
  if (!path.endsWith('.java')) {
    const plain = collapseWhitespace(text);
    return { exact: plain, ast: plain };
  }
  if (!syntax) return { exact: collapseWhitespace(text), ast: null };
  return { exact: syntax.exactForm(text), ast: syntax.astForm(text) };
}

/**
 * Compares the agent's final patch with the ground truth. Without a parser, Java files get only a whitespace-collapsed
 * text comparison for exact match (token boundaries are not known, so `a+b` and `a + b` differ) and no AST match.
 */
export function comparePatches(
  agentPatch: string,
  truthPatch: string | undefined,
  buggy: Readonly<Record<string, string>> | undefined,
  syntax: JavaSyntax | undefined,
  testDirs?: readonly string[],
): PatchComparison {
  if (truthPatch === undefined || !truthPatch.trim()) return { exact: null, ast: null, note: 'no ground-truth patch for this bug' };
  if (!buggy) return { exact: null, ast: null, note: 'no buggy sources for this bug (BugMeta.buggyFiles)' };
  let agent: Map<string, string | null>;
  let truth: Map<string, string | null>;
  try {
    truth = patchedFiles(truthPatch, buggy, testDirs, 'ground-truth patch');
    agent = patchedFiles(agentPatch, buggy, testDirs, 'final patch');
  } catch (err) {
    if (err instanceof CorrectnessGap) return { exact: null, ast: null, note: err.message };
    throw err;
  }
  let exact = true;
  let ast: boolean | null = true;
  for (const path of new Set([...agent.keys(), ...truth.keys()])) {
    const side = (files: Map<string, string | null>): string | null => (files.has(path) ? files.get(path)! : (buggy[path] ?? null));
    const a = side(agent);
    const t = side(truth);
    if (a === null || t === null) {
      if (a !== t) exact = ast = false;
      continue;
    }
    const fa = forms(path, a, syntax);
    const ft = forms(path, t, syntax);
    if (fa.exact !== ft.exact) exact = false;
    if (ast !== null) ast = fa.ast === null || ft.ast === null ? null : ast && fa.ast === ft.ast;
  }
  // an exact match is also an AST match; without a parser say why the AST value is missing
  if (ast === null) return { exact, ast: null, note: 'no Java parser given: AST match not computed' };
  return { exact, ast };
}
