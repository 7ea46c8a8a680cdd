// A bug made from a stored repository (the Repositories view's bug maker): a person picks the buggy commit, the
// failing tests and, optionally, the fixing commit; the rest of the BugSpec is read from the repository and the
// runner, the way the bundled bugs were built (benchmarks/build.ts):
//   - the layout from the tree at the buggy commit (repo-tests.ts readLayout), unless the draft gives one;
//   - the failing tests are checked to exist at the buggy commit, and run there on the runner: each must fail;
//   - with a fixing commit: the ground truth is its program files (the patch: the diff of the files under the
//     source folders), checked on the runner to make every failing test pass; the fault lines, category and
//     blameability come from that patch (perfect fault localization, as the bundled bugs have);
//   - without one: the fault lines are the top of an Ochiai ranking over the runner's per-test coverage of the whole
//     suite (runner-client/ochiai.ts, what RepairAgent's realistic-FL ablation uses), and the category is read from
//     those lines — unless the draft names the fault lines itself.
// Every refusal names the draft's field and what to do. The BugSpec is parsed with its zod schema and stored in the
// made-bugs records (made-bugs.ts), where the catalogue lists it beside the bundled bugs.
import { BugSpec, type BugCategory, type FaultLocation, type ProjectLayout } from '../contracts/bug.ts';
import { isProgramSource } from '../contracts/test-edits.ts';
import { BugDraft, type FixPreview, type MadeBug, type SuiteRun } from '../contracts/bug-from-repo.ts';
import type { RunnerSettings } from '../contracts/run-settings.ts';
import type { TestSelection, ValidationResult } from '../contracts/runner-api.ts';
import type { Workspace } from '../contracts/workspace.ts';
import { classifyFix } from '../diff/fix-classification.ts';
import { enclosingJavaMember, faultLocalizationFromDiff } from '../diff/fix-locations.ts';
import { formatFileDiff } from '../diff/unified-diff-format.ts';
import { filePath, parseUnifiedDiff } from '../diff/unified-diff-parse.ts';
import { openWorkspace } from '../repo/git-workspace.ts';
import type { RepoSession } from '../repo/session.ts';
import { RunnerClient } from '../runner-client/client.ts';
import { ochiai } from '../runner-client/ochiai.ts';
import { applyProgramFilesOf, findSourceFile, type Engine } from './engine.ts';
import { readLayout } from './repo-tests.ts';

/** Lines an Ochiai ranking gives a made bug: the best-scored ones, ties at the cut included up to OCHIAI_MAX_LINES. */
const OCHIAI_TOP_LINES = 5;
const OCHIAI_MAX_LINES = 10;

/** A draft the engine refuses: the message names the field (`failingTests[0]: …`) and what to do. */
export class BugDraftError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'BugDraftError';
  }
}

const short = (oid: string) => oid.slice(0, 12);
const decoder = new TextDecoder();

async function commitOf(session: RepoSession, rev: string, field: string): Promise<string> {
  try {
    return await session.resolveRef(rev);
  } catch (err) {
    throw new BugDraftError(field, `${rev} is not a commit of repository ${session.repoId} (${(err as Error).message}) — pick a commit from its history.`);
  }
}

/** The program files' part of the diff from `buggy` to `fixed`: files under the source folders, outside the test folders, as git prints them. */
export async function programPatch(session: RepoSession, buggy: string, fixed: string, layout: ProjectLayout): Promise<string> {
  const isProgram = (p: string) => isProgramSource(layout, p);
  const [a, b] = await Promise.all([session.listTree(buggy), session.listTree(fixed)]);
  const before = new Map(a.filter((f) => isProgram(f.path)).map((f) => [f.path, f] as const));
  const after = new Map(b.filter((f) => isProgram(f.path)).map((f) => [f.path, f] as const));
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const text = async (oid?: string) => (oid ? decoder.decode(await session.readBlob(oid)) : undefined);
  let out = '';
  for (const path of paths) {
    const o = before.get(path);
    const n = after.get(path);
    if (o?.oid === n?.oid && o?.mode === n?.mode) continue;
    out += formatFileDiff({ path, oldText: await text(o?.oid), newText: await text(n?.oid), oldOid: o?.oid, newOid: n?.oid, oldMode: o?.mode, newMode: n?.mode });
  }
  return out;
}

/** What the fixing commit gives a bug made at `buggyCommit` (no runner: the patch, its fault lines and category). */
export async function fixPreview(engine: Engine, repoId: string, buggyCommit: string, fixedCommit: string, layoutGiven?: ProjectLayout): Promise<FixPreview> {
  const session = await engine.repoSession(repoId);
  const buggy = await commitOf(session, buggyCommit, 'buggyCommit');
  const fixed = await commitOf(session, fixedCommit, 'fixedCommit');
  const layout = layoutGiven ?? (await readLayout(session, buggy)).layout;
  const fix = await readFix(session, buggy, fixed, layout);
  return { repoId, buggyCommit: buggy, fixedCommit: fixed, ...fix };
}

async function readFix(session: RepoSession, buggy: string, fixed: string, layout: ProjectLayout): Promise<Omit<FixPreview, 'repoId' | 'buggyCommit' | 'fixedCommit'>> {
  if (fixed === buggy) throw new BugDraftError('fixedCommit', 'is the buggy commit itself: pick the commit that fixes the bug, or leave it empty.');
  const patch = await programPatch(session, buggy, fixed, layout);
  if (!patch) {
    throw new BugDraftError(
      'fixedCommit',
      `${short(fixed)} changes no program file under ${layout.sourceDirs.join(', ')} against the buggy commit ${short(buggy)}: pick the commit whose program change fixes the bug (or check the layout's source folders).`,
    );
  }
  const isProgramFile = (p: string) => isProgramSource(layout, p);
  const classification = classifyFix(patch, { isProgramFile });
  // fix-locations reads the buggy files synchronously: the ones the patch touches are read first
  const touched = new Set(parseUnifiedDiff(patch).map(filePath));
  const buggyFiles = new Map<string, string>();
  for (const f of await session.listTree(buggy)) if (touched.has(f.path)) buggyFiles.set(f.path, decoder.decode(await session.readBlob(f.oid)));
  const faultLocalization = faultLocalizationFromDiff(patch, { isProgramFile, readBuggyFile: (p) => buggyFiles.get(p) });
  return { patch, category: classification.category, blameable: classification.blameable, faultLocalization };
}

/** HAFixAgent's category read from fault lines (no fix to read it from): hunks are runs of consecutive lines. */
export function categoryOfLines(locations: FaultLocation[]): { category: BugCategory; blameable: boolean } {
  const byFile = new Map<string, number[]>();
  for (const l of locations) byFile.set(l.file, [...(byFile.get(l.file) ?? []), ...l.lines]);
  const blameable = locations.some((l) => l.kind !== 'insert');
  if (byFile.size > 1) return { category: 'MFMH', blameable };
  const lines = [...new Set([...byFile.values()][0] ?? [])].sort((a, b) => a - b);
  const hunks = lines.filter((l, i) => i === 0 || l - lines[i - 1]! > 1).length;
  return { category: hunks > 1 ? 'SFMH' : lines.length === 1 ? 'SL' : 'SH', blameable };
}

/** The first compile errors of a failed validation, `file:line: message` (their first lines). */
function compileErrors(result: ValidationResult, count = 3): string[] {
  const errors = result.diagnostics.filter((d) => d.kind === 'error');
  return (errors.length ? errors : result.diagnostics).slice(0, count).map((d) => `${d.file || '(compiler)'}${d.line ? `:${d.line}` : ''}: ${d.message.split('\n')[0]}`);
}

const describeDiagnostics = (result: ValidationResult) => compileErrors(result).join('; ');

/** The whole suite at a commit on the runner: the failing tests a bug could be made of. */
export async function runSuite(engine: Engine, repoId: string, commit: string, runner: RunnerSettings, layoutGiven?: ProjectLayout): Promise<SuiteRun> {
  const session = await engine.repoSession(repoId);
  const oid = await commitOf(session, commit, 'commit');
  const layout = layoutGiven ?? (await readLayout(session, oid)).layout;
  const result = await new RunnerClient(runner).validate(await openWorkspace(session, oid), layout, { mode: 'all' });
  return {
    repoId,
    commit: oid,
    compiled: result.compiled,
    diagnostics: result.compiled ? [] : compileErrors(result, 10),
    failing: result.failingTests,
    ran: result.tests.filter((t) => t.status !== 'not-run' && t.status !== 'skipped').length,
  };
}

/** Each failing test's class is under a test folder at the buggy commit, and declares the method (or inherits tests). */
async function checkTestsExist(workspace: Workspace, layout: ProjectLayout, tests: string[]): Promise<void> {
  for (const [i, test] of tests.entries()) {
    const [className = '', method = ''] = test.split('::');
    const file = await findSourceFile(workspace, layout.testDirs, className);
    if (!file) {
      throw new BugDraftError(
        `failingTests[${i}]`,
        `${test} does not exist at commit ${short(workspace.commit)}: no ${className.split('$')[0]!.replace(/\./g, '/')}.java under ${layout.testDirs.join(', ')}. Pick a test from the tests found at that commit (or fix the layout's test folders).`,
      );
    }
    const source = await workspace.read(file);
    const declares = new RegExp(`\\b${method.replace(/\$/g, '\\$')}\\s*\\(`).test(source);
    // a JUnit 3 or abstract-base test may be inherited: the runner says whether it exists
    const simpleName = className.split('.').pop()!.split('$')[0]!;
    const extendsAnother = new RegExp(`\\bclass\\s+${simpleName.replace(/\$/g, '\\$')}\\b[^{]*\\bextends\\b`).test(source);
    if (!declares && !extendsAnother) {
      throw new BugDraftError(`failingTests[${i}]`, `${test} does not exist at commit ${short(workspace.commit)}: ${file} declares no method ${method}. Pick a test from the tests found at that commit.`);
    }
  }
}

/** The runner's verdict on each failing test at the buggy commit: all must fail (fail, error or timeout). */
function checkTestsFail(result: ValidationResult, tests: string[], commit: string): void {
  if (!result.compiled) {
    throw new BugDraftError(
      'buggyCommit',
      `the project does not compile at ${short(commit)} with this layout (${describeDiagnostics(result)}). Check the layout's source and test folders, its Java level and jars — or pick a commit that compiles.`,
    );
  }
  for (const [i, test] of tests.entries()) {
    const status = result.tests.find((t) => t.id === test)?.status ?? 'not-run';
    if (status === 'pass') {
      throw new BugDraftError(`failingTests[${i}]`, `${test} passes at the buggy commit ${short(commit)}: a bug needs a failing test. Pick a test that fails there (Find failing tests runs the suite and lists them), or another buggy commit.`);
    }
    if (status === 'skipped' || status === 'not-run') {
      throw new BugDraftError(`failingTests[${i}]`, `${test} did not run at ${short(commit)} (${status}): the runner found no such test there. Check its class and method name, and the layout's JUnit version.`);
    }
  }
}

/** The best Ochiai-ranked program lines as fault locations, one per file (lines in order), with their class and method. */
async function ochiaiLocations(result: ValidationResult, workspace: Workspace, layout: ProjectLayout): Promise<{ locations: FaultLocation[]; note: string }> {
  const coverage = result.coverage ?? [];
  if (!coverage.length) {
    throw new BugDraftError(
      'faultLocalization',
      `the runner returned no coverage at ${short(workspace.commit)}, so Ochiai cannot rank lines (JaCoCo needs Java 16 or lower). Pick the fixing commit (its diff gives the fault lines) or give the fault lines by hand.`,
    );
  }
  const ranked = ochiai(coverage).filter((r) => r.score > 0 && isProgramSource(layout, r.file));
  if (!ranked.length) {
    throw new BugDraftError('faultLocalization', 'no program line is covered by a failing test, so Ochiai has nothing to rank. Pick the fixing commit or give the fault lines by hand.');
  }
  const cut = ranked[Math.min(OCHIAI_TOP_LINES, ranked.length) - 1]!.score;
  const top = ranked.filter((r, i) => i < OCHIAI_TOP_LINES || r.score === cut).slice(0, OCHIAI_MAX_LINES);
  const byFile = new Map<string, number[]>();
  for (const r of top) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r.line]);
  const locations: FaultLocation[] = [];
  for (const [file, lines] of byFile) {
    const sorted = [...lines].sort((a, b) => a - b);
    const source = await workspace.read(file);
    locations.push({ file, lines: sorted, kind: 'modify', ...enclosingJavaMember(source, sorted[0]!) });
  }
  const failed = coverage.filter((t) => !t.passed).length;
  return { locations, note: `Fault lines: Ochiai over ${coverage.length} tests (${failed} failing): the ${top.length} best-scored program lines (${top[0]!.score.toFixed(3)} to ${top.at(-1)!.score.toFixed(3)}).` };
}

/** Each given fault location names a file at the buggy commit, and lines inside it. */
async function checkGivenLocations(workspace: Workspace, locations: FaultLocation[]): Promise<void> {
  for (const [i, l] of locations.entries()) {
    if (!(await workspace.exists(l.file)) || (await workspace.isDirectory(l.file))) {
      throw new BugDraftError(`faultLocalization[${i}].file`, `${l.file} is not a file at commit ${short(workspace.commit)}: give the path of a program file there.`);
    }
    const length = (await workspace.read(l.file)).split('\n').length;
    const past = l.lines.find((n) => n > length);
    if (past !== undefined) throw new BugDraftError(`faultLocalization[${i}].lines`, `line ${past} is past the end of ${l.file} (${length} lines at ${short(workspace.commit)}).`);
  }
}

/** Reads, checks (on the runner too) and stores a bug made from a stored repository; see the top of this file. */
export async function makeBug(engine: Engine, input: unknown, runner: RunnerSettings): Promise<MadeBug> {
  const parsed = BugDraft.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${String(p)}` : String(p))).join('') || 'draft';
    throw new BugDraftError(field, issue.message);
  }
  const draft = parsed.data;
  const taken = await engine.catalog.originOf(draft.id);
  if (taken) {
    const what = { bundled: 'a bundled bug', imported: 'an imported bug', made: 'a bug made here' }[taken];
    throw new BugDraftError('id', `${draft.id} is already ${what}: choose another id${taken === 'bundled' ? '' : ' (or delete that bug first)'}.`);
  }
  let session: RepoSession;
  try {
    session = await engine.repoSession(draft.repoId);
  } catch (err) {
    throw new BugDraftError('repoId', (err as Error).message);
  }
  const buggy = await commitOf(session, draft.buggyCommit, 'buggyCommit');
  const fixed = draft.fixedCommit === undefined ? undefined : await commitOf(session, draft.fixedCommit, 'fixedCommit');
  const layout = draft.layout ?? (await readLayout(session, buggy)).layout;
  const workspace = await openWorkspace(session, buggy);
  for (const [field, dirs] of [['layout.sourceDirs', layout.sourceDirs], ['layout.testDirs', layout.testDirs]] as const) {
    for (const dir of dirs) {
      if (!(await workspace.isDirectory(dir))) throw new BugDraftError(field, `${dir} is not a folder at commit ${short(buggy)}: name folders of the tree there.`);
    }
  }
  await checkTestsExist(workspace, layout, draft.failingTests);
  const fix = fixed ? await readFix(session, buggy, fixed, layout) : undefined;
  if (draft.faultLocalization) await checkGivenLocations(workspace, draft.faultLocalization);

  const client = new RunnerClient(runner);
  const notes: string[] = [];
  // Ochiai needs every test's coverage; otherwise the failing tests alone say what is needed
  const needsOchiai = !draft.faultLocalization && !fix;
  const selection: TestSelection = needsOchiai ? { mode: 'all' } : { mode: 'listed', tests: draft.failingTests };
  const atBuggy = await client.validate(workspace, layout, selection, { coverage: needsOchiai });
  checkTestsFail(atBuggy, draft.failingTests, buggy);
  notes.push(`At ${short(buggy)} the runner ran ${atBuggy.tests.length} test(s): ${draft.failingTests.join(', ')} fail${draft.failingTests.length === 1 ? 's' : ''}.`);

  if (fixed && fix) {
    const withFix = await openWorkspace(session, buggy);
    await applyProgramFilesOf(withFix, await openWorkspace(session, fixed), layout);
    const atFix = await client.validate(withFix, layout, { mode: 'listed', tests: draft.failingTests });
    if (!atFix.compiled) {
      throw new BugDraftError('fixedCommit', `the buggy commit's tests do not compile against ${short(fixed)}'s program files (${describeDiagnostics(atFix)}): pick the commit that fixes this bug.`);
    }
    for (const [i, test] of draft.failingTests.entries()) {
      const status = atFix.tests.find((t) => t.id === test)?.status ?? 'not-run';
      if (status !== 'pass') {
        throw new BugDraftError('fixedCommit', `with the program files of ${short(fixed)}, failingTests[${i}] ${test} still ${status === 'not-run' ? 'does not run' : `ends ${status}`}: this commit does not fix the bug — pick the one that makes the failing tests pass.`);
      }
    }
    notes.push(`With the program files of ${short(fixed)} the failing tests pass.`);
  }

  let faultLocalization: FaultLocation[];
  let faultLinesFrom: MadeBug['faultLinesFrom'];
  if (draft.faultLocalization) {
    faultLocalization = draft.faultLocalization;
    faultLinesFrom = 'given';
  } else if (fix) {
    faultLocalization = fix.faultLocalization;
    faultLinesFrom = 'fix';
    notes.push('Fault lines: the lines the fixing commit changes (perfect fault localization, as the bundled bugs have).');
  } else {
    const ranked = await ochiaiLocations(atBuggy, workspace, layout);
    faultLocalization = ranked.locations;
    faultLinesFrom = 'ochiai';
    notes.push(ranked.note);
  }
  const { category, blameable } = fix ?? categoryOfLines(faultLocalization);

  const spec = BugSpec.safeParse({
    schemaVersion: 1,
    id: draft.id,
    library: draft.repoId,
    repository: { kind: 'imported', repoId: draft.repoId },
    repoId: draft.repoId,
    buggyCommit: buggy,
    layout,
    failingTests: draft.failingTests,
    report: { title: draft.title.trim(), body: draft.body },
    faultLocalization,
    category,
    blameable,
    defectKinds: draft.defectKinds,
    groundTruth: fixed && fix ? { fixedCommit: fixed, patch: fix.patch } : {},
  });
  if (!spec.success) {
    const issue = spec.error.issues[0]!;
    throw new BugDraftError(issue.path.join('.') || 'bug', `${issue.message} (the BugSpec schema, docs/formats/bugspec.schema.json).`);
  }
  await engine.catalog.made.put(spec.data);
  return {
    id: spec.data.id,
    repoId: spec.data.repoId,
    buggyCommit: buggy,
    ...(fixed ? { fixedCommit: fixed } : {}),
    category,
    blameable,
    failingTests: spec.data.failingTests,
    faultLocalization,
    faultLinesFrom,
    notes,
  };
}
