// `repairlab defects4j check`: does each Defects4J bug reproduce as Defects4J reproduces it?
// Per bug (imported now, or reused from the catalogue when it was imported from the same revisions):
//   1. with the developer fix, the whole suite passes (with --record-env-failures, the tests failing on the fix in this
//      environment are first recorded as environment exclusions and the fix run again until nothing new fails:
//      env-failures.ts);
//   2. unpatched, the suite fails with exactly the trigger tests (with --record-env-failures: at least them; a compile
//      failure is reported with its diagnostics) — with Defects4J's relevant_tests, only the tests of the relevant
//      classes run: the others load no class the fix modifies, and passed on the fix (unpatchedSelection);
//   3. RepairLab's blame of every fault line (at the original buggy revision, lines mapped through the reconstructed
//      buggy commit: worker/history/history-base.ts) equals `git blame` of that line at the original revision;
//   4. no history section, bug report or history command of HAFixAgent's bash shows a line only the fix has or names a
//      synthetic commit (leakage.ts).
// `historyOnly` skips 1 and 2 (no runner needed): blame and leakage over a whole project take minutes, not hours.
// Node only (runs git; validates through a runner).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from '../../bugs/engine.ts';
import type { RunnerSettings } from '../../contracts/run-settings.ts';
import type { BugSpec } from '../../contracts/bug.ts';
import type { TestSelection, ValidationResult } from '../../contracts/runner-api.ts';
import { extractHistory } from '../../history/extractor.ts';
import { importDefects4j } from './defects4j-import.ts';
import { parseBugList, readActiveBugs, readRelevantTestClasses, type ActiveBug } from './data.ts';
import { revisionCommits } from './svn-revisions.ts';
import { checkLeakage, type LeakageCheck } from './leakage.ts';
import { environmentExclusions, withEnvironmentExclusions } from './env-failures.ts';
import { checkoutCommit, resolveGitDir } from './git.ts';
import { readExclusionsFile, SHIPPED_EXCLUSIONS_DIR, withBugMeasured, writeExclusionsFile } from './shipped-exclusions.ts';
import { RunnerClient } from '../../runner-client/client.ts';
import type { ExclusionMeasurement } from '../../contracts/bug.ts';
import { registerImported } from './register.ts';

export interface CheckOptions {
  projectRepo: string;
  d4jDir: string;
  project: string;
  /** "1,2,5-9"; default: every active bug */
  bugs?: string;
  /** where imported bundles and BugSpecs go */
  outDir: string;
  descriptions?: string;
  /** import again even when the catalogue holds the bug already */
  reimport?: boolean;
  /**
   * Record the tests failing on the developer fix (not trigger tests) as environment exclusions in the bug's spec
   * (layout.environmentExcludedTests, written to <outDir>/bugs/ and the catalogue), then check again: the bug
   * reproduces when the buggy version fails at least the trigger tests and the fix passes every test not excluded.
   */
  recordEnvFailures?: boolean;
  /**
   * the projects' environment exclusion files (<dir>/<Project>.json; default the ones RepairLab ships): an import
   * applies the project's; with recordEnvFailures each checked bug's entry is measured afresh and rewritten there
   */
  exclusionsDir?: string;
  /** only steps 3 and 4 (blame, leakage): no validation, no runner */
  historyOnly?: boolean;
  /** a test's time limit in the whole-suite runs (default CHECK_LIMITS.perTestTimeoutMs) */
  perTestTimeoutMs?: number;
  engine: Engine;
  /** needed unless historyOnly */
  runner?: RunnerSettings;
  log?: (message: string) => void;
  /** called with each bug's result as soon as it is checked (a long check keeps what it measured if stopped) */
  onResult?: (result: BugCheck) => void;
  /** results of an earlier, stopped check of the same project (`--resume`): these bugs are not checked again */
  done?: BugCheck[];
}

export interface BugCheck {
  bugId: string;
  /** unpatched fails exactly the trigger tests, the fix passes, blame equals git */
  reproduced: boolean;
  /** reused from the catalogue rather than imported by this check */
  reused: boolean;
  /** why the bug does not reproduce (empty when it does) */
  reasons: string[];
  /**
   * set when the data lacks what the bug needs (a blob of an incomplete clone, a Subversion revision the history does
   * not have, a jar of Defects4J's lib/): what lacks what. Data, counted apart from the failures.
   */
  unavailable?: string;
  unpatchedFailing?: string[];
  fixedFailing?: string[];
  /** tests the spec leaves out for the environment (layout.environmentExcludedTests), after this check */
  environmentExcluded: number;
  /** of those, the ones this check recorded (--record-env-failures) */
  environmentRecorded?: string[];
  /** with --record-env-failures: every test excluded for the environment after the check, with its reason (the spec's, kept in the results) */
  environmentExclusions?: { test: string; reason: string }[];
  /**
   * what the buggy version ran: the whole suite, or (with Defects4J's relevant_tests) the tests of the relevant classes
   * and the trigger tests — the others load no class the fix modifies (unpatchedSelection)
   */
  unpatchedScope?: 'all' | { relevantClasses: number; tests: number };
  /** with --record-env-failures: tests beyond the trigger tests the buggy version fails (allowed, shown) */
  unpatchedExtraFailing?: string[];
  /** fault lines whose blame was compared with git's */
  blameChecked?: number;
  /** fault lines with no counterpart at the original revision (added by the reconstruction; not blamed) */
  blameUnmapped?: number;
  /** step 4: what was looked at and any leak found (each leak is also a reason) */
  leakage?: LeakageCheck;
}

export interface ProjectCheck {
  project: string;
  /** true when only blame and leakage were checked (reproduced then means: blame equals git and nothing leaks) */
  historyOnly: boolean;
  /** the limits of each whole-suite run */
  limits: { wallClockMs: number; perTestTimeoutMs: number };
  bugs: number;
  reproduced: number;
  /** bugs that do not reproduce, the unavailable ones not counted */
  failed: number;
  /** bugs whose repository data is missing (BugCheck.unavailable) */
  unavailable: number;
  /** tests left out for the environment, over all bugs */
  environmentExcluded: number;
  results: BugCheck[];
}

function describeCompileFailure(result: ValidationResult): string {
  const errors = result.diagnostics.filter((d) => d.kind === 'error');
  const shown = errors.slice(0, 5).map((d) => `${d.file}:${d.line}: ${d.message.split('\n', 1)[0]}`);
  return `${errors.length} error(s)${shown.length ? `: ${shown.join('; ')}${errors.length > shown.length ? ' …' : ''}` : ` (no diagnostics; runner report: ${result.report.split('\n', 3).join(' ').trim()})`}`;
}

/** `git blame` of one line at a revision: the commit and the line's number in it. */
function gitBlameLine(gitDir: string, revision: string, file: string, line: number): { commit: string; origLine: number } {
  const out = execFileSync('git', ['--git-dir', gitDir, 'blame', '--porcelain', '-L', `${line},${line}`, revision, '--', file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' },
  });
  const [commit, origLine] = out.split('\n', 1)[0]!.split(' ');
  return { commit: commit!, origLine: Number(origLine) };
}

export async function checkBlame(engine: Engine, bug: BugSpec, gitDir: string): Promise<{ reasons: string[]; checked: number; unmapped: number }> {
  const session = await engine.ensureRepository(bug);
  const extraction = await extractHistory(session, bug, { mode: 'paper' });
  const reasons: string[] = [];
  for (const { target, blame } of extraction.blamed) {
    let git: { commit: string; origLine: number };
    try {
      git = gitBlameLine(gitDir, extraction.historyCommit, target.file, blame.line);
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      reasons.push(`blame: git blame -L ${blame.line} ${extraction.historyCommit.slice(0, 12)} -- ${target.file} failed: ${(e.stderr || e.message).trim()}`);
      continue;
    }
    if (git.commit !== blame.commit || git.origLine !== blame.origLine) {
      reasons.push(
        `blame: ${target.file}:${target.line} (line ${blame.line} at the original revision) — RepairLab ${blame.commit.slice(0, 12)} line ${blame.origLine}, git ${git.commit.slice(0, 12)} line ${git.origLine}`,
      );
    }
  }
  return { reasons, checked: extraction.blamed.length, unmapped: extraction.unblamed.length };
}

interface SuiteOutcome {
  reasons: string[];
  unpatchedFailing?: string[];
  unpatchedExtraFailing?: string[];
  fixedFailing?: string[];
}

const ALL = { mode: 'all' } as const;

function bugNumber(bugId: string): number {
  return Number(bugId.slice(bugId.lastIndexOf('-') + 1));
}

/** `pkg.Outer$Inner::m` → [`pkg.Outer$Inner`, `pkg.Outer`] */
function testClasses(test: string): string[] {
  const cls = test.slice(0, test.indexOf('::'));
  const outer = cls.split('$')[0]!;
  return outer === cls ? [cls] : [cls, outer];
}

/**
 * What the buggy version runs. With Defects4J's relevant test classes (relevant_tests/<id>: the classes whose tests
 * load a class the fix modifies) and a fix run that ran the whole suite: the tests of those classes that the fix run
 * ran and did not skip, and the trigger tests. Every other test loads no class the fix changes, so it runs on the buggy version as it
 * ran on the fix, where it passed (or is excluded): running it again decides nothing, and on Math or Lang it is most
 * of the suite. Otherwise the whole suite.
 */
export function unpatchedSelection(bug: BugSpec, fixed: ValidationResult, relevant: Set<string> | undefined): TestSelection {
  if (!relevant || !fixed.compiled || fixed.stopped !== 'none') return ALL;
  const tests = new Set(bug.failingTests);
  // a test the fix run skipped (an @Ignore, an unmet assumption) is not listed: a listed skip counts as a failure
  for (const t of fixed.tests) if (t.status !== 'not-run' && t.status !== 'skipped' && testClasses(t.id).some((c) => relevant.has(c))) tests.add(t.id);
  return { mode: 'listed', tests: [...tests] };
}

/** `rest`'s verdict with the trigger tests' outcomes taken from their own run (`triggers`). */
export function withTriggerOutcomes(rest: ValidationResult, triggers: ValidationResult, triggerTests: string[]): ValidationResult {
  if (!rest.compiled) return rest;
  const isTrigger = (t: string) => triggerTests.includes(t);
  const tests = [...triggers.tests, ...rest.tests.filter((t) => !isTrigger(t.id))];
  const failingTests = [...triggers.failingTests, ...rest.failingTests.filter((t) => !isTrigger(t))];
  return { ...rest, tests, failingTests, plausible: rest.plausible && triggers.plausible };
}

/**
 * Defects4J runs a suite without a time limit; the runner's defaults (2 min a validation, 10 s a test) stop the
 * suites of Math and the locale loops of Lang on a shared machine, so the check gives them room (a test is still
 * stopped at 30 s: with 120 s one Lang bug's check ran past 25 minutes, tests that hang each costing the whole limit;
 * `--per-test-timeout` gives slow tests more — Lang's FastDateParser locale loops take ~2 minutes each here).
 */
export const CHECK_LIMITS = { wallClockMs: 1_800_000, perTestTimeoutMs: 30_000 } as const;

/**
 * Judges the buggy version's whole-suite run. `superset`: it may fail more than the trigger tests (listed in
 * unpatchedExtraFailing) — the rule once environment failures are excluded; otherwise exactly them.
 */
function judgeUnpatched(unpatched: ValidationResult, bug: BugSpec, superset: boolean, out: SuiteOutcome): void {
  if (!unpatched.compiled) {
    out.reasons.push(`unpatched: the buggy version does not compile: ${describeCompileFailure(unpatched)}`);
    return;
  }
  out.unpatchedFailing = unpatched.failingTests;
  const extra = unpatched.failingTests.filter((t) => !bug.failingTests.includes(t));
  const missing = bug.failingTests.filter((t) => !unpatched.failingTests.includes(t));
  if (superset && extra.length) out.unpatchedExtraFailing = extra;
  if (missing.length || (!superset && extra.length)) {
    out.reasons.push(
      `unpatched: fails ${unpatched.failingTests.length} test(s), not ${superset ? 'all' : 'exactly'} the trigger tests${!superset && extra.length ? `; also fails ${extra.join(', ')}` : ''}${missing.length ? `; passes trigger test(s) ${missing.join(', ')}` : ''}`,
    );
  }
}

function judgeFixed(fixed: ValidationResult, out: SuiteOutcome): void {
  if (!fixed.compiled) {
    out.reasons.push(`fix: the fixed version does not compile: ${describeCompileFailure(fixed)}`);
    return;
  }
  out.fixedFailing = fixed.failingTests;
  if (!fixed.plausible) out.reasons.push(`fix: ${fixed.failingTests.length ? `fails ${fixed.failingTests.join(', ')}` : `the suite did not complete (${fixed.stopped})`}`);
}

function checkLimits(options: CheckOptions): ProjectCheck['limits'] {
  return { ...CHECK_LIMITS, ...(options.perTestTimeoutMs ? { perTestTimeoutMs: options.perTestTimeoutMs } : {}) };
}

/** Rounds of recording: a fix run stopped by the wall clock leaves tests unrun, whose failures the next round finds. */
const MAX_RECORDING_ROUNDS = 4;

/** Writes the spec to <outDir>/bugs/<id>.json and replaces the catalogue's copy. */
async function saveSpec(engine: Engine, spec: BugSpec, outDir: string): Promise<void> {
  const text = JSON.stringify(spec, null, 2) + '\n';
  mkdirSync(join(outDir, 'bugs'), { recursive: true });
  writeFileSync(join(outDir, 'bugs', `${spec.id}.json`), text);
  const [result] = await engine.importFiles([{ name: `${spec.id}.json`, bytes: new TextEncoder().encode(text) }]);
  if (!result?.ok) throw new Error(`the spec with environment exclusions could not replace the catalogue's: ${result?.message ?? 'no answer'}`);
}

async function checkBug(engine: Engine, options: CheckOptions, spec: BugSpec, gitDir: string, reused: boolean): Promise<BugCheck> {
  let bug = spec;
  const reasons: string[] = [];
  const out: BugCheck = { bugId: bug.id, reproduced: false, reused, reasons, environmentExcluded: bug.layout.environmentExcludedTests?.length ?? 0 };
  const suites: SuiteOutcome = { reasons };
  if (!options.historyOnly) bug = await checkSuites(engine, options, bug, out, suites);
  try {
    const blame = await checkBlame(engine, bug, gitDir);
    reasons.push(...blame.reasons);
    out.blameChecked = blame.checked;
    out.blameUnmapped = blame.unmapped;
  } catch (error) {
    reasons.push(`blame: ${(error as Error).message}`);
  }
  try {
    out.leakage = await checkLeakage(engine, bug, gitDir);
    reasons.push(...out.leakage.leaks.map((l) => `leak: ${l}`));
  } catch (error) {
    reasons.push(`leakage: ${(error as Error).message}`);
  }
  out.reproduced = reasons.length === 0;
  return out;
}

/** Steps 1 and 2; returns the spec as it stands after any recorded environment exclusions. */
async function checkSuites(engine: Engine, options: CheckOptions, spec: BugSpec, out: BugCheck, suites: SuiteOutcome): Promise<BugSpec> {
  let bug = spec;
  const runner = options.runner;
  const limits = checkLimits(options);
  try {
    if (!runner) throw new Error('no runner: validating needs one (or check history only)');
    const relevant = readRelevantTestClasses(join(options.d4jDir, 'framework', 'projects', options.project), bugNumber(bug.id));
    const validate = async (patch: 'none' | 'ground-truth', selection: TestSelection) => {
      const result = await engine.validatePatch(bug.id, patch, runner, selection, limits);
      const failed = result.compiled ? `${result.tests.length} test(s) run, ${result.failingTests.length} failing` : 'does not compile';
      options.log?.(`${bug.id}: ${patch === 'none' ? 'buggy version' : 'fix'}: ${failed}${result.stopped === 'none' ? '' : `, stopped: ${result.stopped}`} (${result.path}, ${(result.timingsMs.total / 1000).toFixed(1)} s)`);
      return result;
    };
    const runUnpatched = async (fixed: ValidationResult) => {
      const selection = unpatchedSelection(bug, fixed, relevant);
      out.unpatchedScope = selection.mode === 'all' ? 'all' : { relevantClasses: relevant!.size, tests: selection.tests.length };
      // the trigger tests in a run of their own first: whether they fail must not depend on what ran before them
      // (JacksonCore-19 and 25 fail alone and pass after other tests have grown the shared BufferRecycler's buffers)
      const triggers = await validate('none', { mode: 'listed', tests: bug.failingTests });
      const others = selection.mode === 'all' ? selection : { mode: 'listed' as const, tests: selection.tests.filter((t) => !bug.failingTests.includes(t)) };
      if (!triggers.compiled || (others.mode === 'listed' && !others.tests.length)) return triggers;
      return withTriggerOutcomes(await validate('none', others), triggers, bug.failingTests);
    };
    if (!options.recordEnvFailures) {
      const fixed = await validate('ground-truth', ALL);
      judgeUnpatched(await runUnpatched(fixed), bug, false, suites);
      judgeFixed(fixed, suites);
    } else {
      // measured afresh: the exclusions the spec carries (shipped or recorded before) are left out of the measurement,
      // so one a faithful environment no longer needs disappears from the refreshed file
      if (bug.layout.environmentExcludedTests?.length) {
        const { environmentExcludedTests: _earlier, ...layout } = bug.layout;
        bug = { ...bug, layout };
        await saveSpec(engine, bug, options.outDir);
      }
      // the fix first: what fails on it (trigger tests aside) is recorded and the fix run again, until a run adds nothing
      let fixed = await validate('ground-truth', ALL);
      const recorded: string[] = [];
      for (let round = 0; round < MAX_RECORDING_ROUNDS && fixed.compiled; round++) {
        const known = new Set((bug.layout.environmentExcludedTests ?? []).map((e) => e.test));
        const found = environmentExclusions(fixed, bug.failingTests).filter((e) => !known.has(e.test));
        if (!found.length) break;
        bug = withEnvironmentExclusions(bug, found);
        await saveSpec(engine, bug, options.outDir);
        recorded.push(...found.map((e) => e.test));
        options.log?.(`${bug.id}: ${found.length} test(s) fail on the fix in this environment; excluded (layout.environmentExcludedTests), running the fix again`);
        fixed = await validate('ground-truth', ALL);
      }
      if (recorded.length) out.environmentRecorded = recorded;
      out.environmentExcluded = bug.layout.environmentExcludedTests?.length ?? 0;
      // the recording (each test with its failure) goes with the spec: the next plain import applies it
      if (fixed.compiled) await refreshShipped(options, bug, runner);
      if (out.environmentExcluded) out.environmentExclusions = bug.layout.environmentExcludedTests!.map(({ test, reason }) => ({ test, reason }));
      judgeUnpatched(await runUnpatched(fixed), bug, true, suites);
      judgeFixed(fixed, suites);
    }
    if (suites.unpatchedFailing) out.unpatchedFailing = suites.unpatchedFailing;
    if (suites.unpatchedExtraFailing) out.unpatchedExtraFailing = suites.unpatchedExtraFailing;
    if (suites.fixedFailing) out.fixedFailing = suites.fixedFailing;
  } catch (error) {
    suites.reasons.push(`validation: ${(error as Error).message}`);
  }
  return bug;
}

/** The day, JDK and command of this check's measurement (the JDK asked of the runner once per check). */
const measurements = new WeakMap<CheckOptions, Promise<ExclusionMeasurement>>();
function measurementOf(options: CheckOptions, runner: RunnerSettings): Promise<ExclusionMeasurement> {
  let m = measurements.get(options);
  if (!m) {
    m = new RunnerClient(runner).health().then((health) => {
      const defects4j = checkoutCommit(options.d4jDir);
      return {
        jdk: health.jdk,
        date: new Date().toISOString().slice(0, 10),
        command: `repairlab defects4j check --project ${options.project} --record-env-failures${options.perTestTimeoutMs ? ` --per-test-timeout ${options.perTestTimeoutMs / 1000}` : ''}`,
        ...(defects4j ? { defects4j } : {}),
      };
    });
    measurements.set(options, m);
  }
  return m;
}

/** Rewrites the bug's entry of the project's exclusions file with what this check measured (docs/formats/environment-exclusions.md). */
async function refreshShipped(options: CheckOptions, bug: BugSpec, runner: RunnerSettings): Promise<void> {
  const dir = options.exclusionsDir ?? SHIPPED_EXCLUSIONS_DIR;
  const measured = await measurementOf(options, runner);
  const exclusions = (bug.layout.environmentExcludedTests ?? []).map(({ test, reason }) => ({ test, reason }));
  const path = writeExclusionsFile(dir, withBugMeasured(readExclusionsFile(dir, options.project), options.project, bug.id, exclusions, measured));
  options.log?.(`${bug.id}: ${exclusions.length} environment exclusion(s) written to ${path}`);
}

/** The git commit of a bug's buggy revision (a Subversion number is mapped as the importer maps it); undefined when it cannot be found. */
function originalBuggyCommit(gitDir: string, options: CheckOptions, bug: ActiveBug): string | undefined {
  try {
    const patch = join(options.d4jDir, 'framework', 'projects', options.project, 'patches', `${bug.id}.src.patch`);
    return revisionCommits(gitDir, bug, patch, { repo: options.projectRepo, project: options.project }).buggy;
  } catch {
    return undefined; // the import reports why
  }
}

export async function checkDefects4j(options: CheckOptions): Promise<ProjectCheck> {
  const log = options.log ?? (() => undefined);
  const gitDir = resolveGitDir(options.projectRepo);
  const active = readActiveBugs(join(options.d4jDir, 'framework', 'projects', options.project));
  const activeCsv = join(options.d4jDir, 'framework', 'projects', options.project, 'active-bugs.csv');
  const listed = options.bugs ? parseBugList(options.bugs) : active.map((b) => b.id);
  // an id Defects4J does not list (deprecated or unknown) is that id's failure, not the end of the check
  const done = new Map((options.done ?? []).map((r) => [bugNumber(r.bugId), r]));
  const wanted = listed.filter((id) => active.some((b) => b.id === id) && !done.has(id));
  const inactive: BugCheck[] = listed
    .filter((id) => !wanted.includes(id) && !done.has(id))
    .map((id) => ({ bugId: `${options.project}-${id}`, reproduced: false, reused: false, environmentExcluded: 0, reasons: [`import: ${id} is not an active bug of ${options.project} (deprecated or unknown; input at fault: ${activeCsv})`] }));
  const catalogue = new Map((await options.engine.catalog.bugs()).map((b) => [b.id, b]));
  // reuse a registered bug only when it was imported from the same original revision (and its repository is stored)
  const reusable = new Map<number, BugSpec>();
  if (!options.reimport) {
    for (const id of wanted) {
      const known = catalogue.get(`${options.project}-${id}`);
      const row = active.find((b) => b.id === id);
      if (known && row && known.historyCommit === originalBuggyCommit(gitDir, options, row) && (await options.engine.repos.has(known.repoId))) reusable.set(id, known);
    }
  }
  const toImport = wanted.filter((id) => !reusable.has(id));
  const results: BugCheck[] = listed.flatMap((id) => done.get(id) ?? []);
  if (results.length) log(`${options.project}: ${results.length} bug(s) checked before (resumed), not checked again`);
  const record = (result: BugCheck) => {
    results.push(result);
    log(`${result.bugId}: ${result.reproduced ? (options.historyOnly ? 'passes' : 'reproduces') : `${result.unavailable ? 'UNAVAILABLE (data)' : 'FAILS'} — ${result.reasons.join('; ')}`}`);
    options.onResult?.(result);
  };
  inactive.forEach(record);
  const specs: { spec: BugSpec; reused: boolean }[] = [...reusable.values()].map((spec) => ({ spec, reused: true }));
  if (toImport.length) {
    log(`${options.project}: importing ${toImport.length} bug(s)`);
    const imported = importDefects4j({
      projectRepo: options.projectRepo,
      d4jDir: options.d4jDir,
      project: options.project,
      bugs: toImport,
      outDir: options.outDir,
      ...(options.descriptions ? { descriptions: options.descriptions } : {}),
      ...(options.exclusionsDir ? { exclusionsDir: options.exclusionsDir } : {}),
      log,
    });
    const notRegistered = await registerImported(options.engine, imported.bugs, options.outDir);
    for (const f of [...imported.failures, ...notRegistered]) {
      record({
        bugId: f.bugId,
        reproduced: false,
        reused: false,
        environmentExcluded: 0,
        reasons: [`import: ${f.message}${f.input ? ` (input at fault: ${f.input})` : ''}`],
        ...(f.missingData ? { unavailable: f.missingData } : {}),
      });
    }
    for (const b of imported.bugs) if (!notRegistered.some((f) => f.bugId === b.spec.id)) specs.push({ spec: b.spec, reused: false });
  }
  for (const { spec, reused } of specs) {
    log(`${spec.id}: ${options.historyOnly ? '' : 'validating (unpatched, fix), '}comparing blame with git, looking for leaks of the fix`);
    try {
      record(await checkBug(options.engine, options, spec, gitDir, reused));
    } finally {
      // each bug has a repository of its own: keeping every session open ran a 61-bug Lang check out of memory
      options.engine.closeRepository(spec.repoId);
    }
  }
  results.sort((a, b) => bugNumber(a.bugId) - bugNumber(b.bugId));
  const reproduced = results.filter((r) => r.reproduced).length;
  const unavailable = results.filter((r) => !r.reproduced && r.unavailable).length;
  const environmentExcluded = results.reduce((n, r) => n + r.environmentExcluded, 0);
  return {
    project: options.project,
    historyOnly: !!options.historyOnly,
    limits: checkLimits(options),
    bugs: results.length,
    reproduced,
    failed: results.length - reproduced - unavailable,
    unavailable,
    environmentExcluded,
    results,
  };
}
