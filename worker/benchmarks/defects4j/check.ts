// `repairlab defects4j check`: does each Defects4J bug reproduce as Defects4J reproduces it?
// Per bug (imported now, or reused from the catalogue when it was imported from the same revisions):
//   1. unpatched, the whole suite fails with exactly the trigger tests (a compile failure is reported with its diagnostics);
//   2. with the developer fix, the whole suite passes;
//   3. RepairLab's blame of every fault line (at the original buggy revision, lines mapped through the reconstructed
//      buggy commit: worker/history/history-base.ts) equals `git blame` of that line at the original revision.
// Node only (runs git; validates through a runner).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Engine } from '../../engine.ts';
import type { RunnerSettings } from '../../engine-api.ts';
import type { BugSpec } from '../../contracts/bug.ts';
import type { ValidationResult } from '../../contracts/runner-api.ts';
import { extractHistory } from '../../history/extractor.ts';
import { importDefects4j } from '../defects4j-import.ts';
import { parseBugList, readActiveBugs } from './data.ts';
import { resolveGitDir } from './git.ts';
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
  engine: Engine;
  runner: RunnerSettings;
  log?: (message: string) => void;
}

export interface BugCheck {
  bugId: string;
  /** unpatched fails exactly the trigger tests, the fix passes, blame equals git */
  reproduced: boolean;
  /** reused from the catalogue rather than imported by this check */
  reused: boolean;
  /** why the bug does not reproduce (empty when it does) */
  reasons: string[];
  unpatchedFailing?: string[];
  fixedFailing?: string[];
  /** fault lines whose blame was compared with git's */
  blameChecked?: number;
  /** fault lines with no counterpart at the original revision (added by the reconstruction; not blamed) */
  blameUnmapped?: number;
}

export interface ProjectCheck {
  project: string;
  bugs: number;
  reproduced: number;
  failed: number;
  results: BugCheck[];
}

function describeCompileFailure(result: ValidationResult): string {
  const errors = result.diagnostics.filter((d) => d.kind === 'error');
  const shown = errors.slice(0, 5).map((d) => `${d.file}:${d.line}: ${d.message.split('\n', 1)[0]}`);
  return `${errors.length} error(s)${shown.length ? `: ${shown.join('; ')}${errors.length > shown.length ? ' …' : ''}` : ` (no diagnostics; runner report: ${result.report.split('\n', 3).join(' ').trim()})`}`;
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

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

async function checkBug(engine: Engine, runner: RunnerSettings, bug: BugSpec, gitDir: string, reused: boolean): Promise<BugCheck> {
  const reasons: string[] = [];
  const all = { mode: 'all' } as const;
  const out: BugCheck = { bugId: bug.id, reproduced: false, reused, reasons };
  try {
    const unpatched = await engine.validatePatch(bug.id, 'none', runner, all);
    if (!unpatched.compiled) reasons.push(`unpatched: the buggy version does not compile: ${describeCompileFailure(unpatched)}`);
    else {
      out.unpatchedFailing = unpatched.failingTests;
      if (!sameSet(unpatched.failingTests, bug.failingTests)) {
        const extra = unpatched.failingTests.filter((t) => !bug.failingTests.includes(t));
        const missing = bug.failingTests.filter((t) => !unpatched.failingTests.includes(t));
        reasons.push(`unpatched: fails ${unpatched.failingTests.length} test(s), not exactly the trigger tests${extra.length ? `; also fails ${extra.join(', ')}` : ''}${missing.length ? `; passes trigger test(s) ${missing.join(', ')}` : ''}`);
      }
    }
    const fixed = await engine.validatePatch(bug.id, 'ground-truth', runner, all);
    if (!fixed.compiled) reasons.push(`fix: the fixed version does not compile: ${describeCompileFailure(fixed)}`);
    else {
      out.fixedFailing = fixed.failingTests;
      if (!fixed.plausible) reasons.push(`fix: ${fixed.failingTests.length ? `fails ${fixed.failingTests.join(', ')}` : `the suite did not complete (${fixed.stopped})`}`);
    }
  } catch (error) {
    reasons.push(`validation: ${(error as Error).message}`);
  }
  try {
    const blame = await checkBlame(engine, bug, gitDir);
    reasons.push(...blame.reasons);
    out.blameChecked = blame.checked;
    out.blameUnmapped = blame.unmapped;
  } catch (error) {
    reasons.push(`blame: ${(error as Error).message}`);
  }
  out.reproduced = reasons.length === 0;
  return out;
}

export async function checkDefects4j(options: CheckOptions): Promise<ProjectCheck> {
  const log = options.log ?? (() => undefined);
  const gitDir = resolveGitDir(options.projectRepo);
  const active = readActiveBugs(join(options.d4jDir, 'framework', 'projects', options.project));
  const wanted = options.bugs ? parseBugList(options.bugs) : active.map((b) => b.id);
  const catalogue = new Map((await options.engine.catalog.bugs()).map((b) => [b.id, b]));
  // reuse a registered bug only when it was imported from the same original revision (and its repository is stored)
  const reusable = new Map<number, BugSpec>();
  if (!options.reimport) {
    for (const id of wanted) {
      const known = catalogue.get(`${options.project}-${id}`);
      const row = active.find((b) => b.id === id);
      if (known && row && known.historyCommit === row.buggyRevision && (await options.engine.repos.has(known.repoId))) reusable.set(id, known);
    }
  }
  const toImport = wanted.filter((id) => !reusable.has(id));
  const results: BugCheck[] = [];
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
      log,
    });
    const notRegistered = await registerImported(options.engine, imported.bugs, options.outDir);
    for (const f of [...imported.failures, ...notRegistered]) {
      results.push({ bugId: f.bugId, reproduced: false, reused: false, reasons: [`import: ${f.message}${f.input ? ` (input at fault: ${f.input})` : ''}`] });
    }
    for (const b of imported.bugs) if (!notRegistered.some((f) => f.bugId === b.spec.id)) specs.push({ spec: b.spec, reused: false });
  }
  for (const { spec, reused } of specs) {
    log(`${spec.id}: validating (unpatched, fix) and comparing blame with git`);
    results.push(await checkBug(options.engine, options.runner, spec, gitDir, reused));
  }
  const order = (id: string) => Number(id.slice(id.lastIndexOf('-') + 1));
  results.sort((a, b) => order(a.bugId) - order(b.bugId));
  const reproduced = results.filter((r) => r.reproduced).length;
  return { project: options.project, bugs: results.length, reproduced, failed: results.length - reproduced, results };
}
