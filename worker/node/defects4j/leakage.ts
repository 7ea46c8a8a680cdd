// Step 4 of `defects4j check`: does any history context leak the developer fix?
// The buggy version of an imported bug is a reconstruction (the fixed tree minus the minimised patch) committed on top
// of the original buggy revision; history must be read at that original revision, so that the reconstruction's diff —
// which can hold the fix's other hunks — never reaches an agent. This step renders every history section a run can be
// given (each heuristic × paper mode, code mode with each candidate line, paper mode with each blame commit chosen),
// the bug report, and HAFixAgent's bash answers to history commands, and looks in each for
//   - a line only the fix has: a line the ground-truth patch adds that is in neither the buggy version of the files it
//     touches nor the history of those files up to the original revision (lines a fix merely restores are history), and
//     that `git grep` / `git log -S` do not find anywhere at or before the original revision (no false alarms from
//     lines that live in other files);
//   - the reconstructed buggy commit or the fixed commit, by oid.
// Node only (runs git on the project's repository).
import type { Engine } from '../../bugs/engine.ts';
import type { BugSpec } from '../../contracts/bug.ts';
import type { Validator } from '../../contracts/tools.ts';
import { toPublicBug } from '../../contracts/bug.ts';
import { extractHistory, type ExtractorOptions } from '../../history/extractor.ts';
import { HISTORY_HEURISTICS, renderHistoryContext } from '../../history/heuristics.ts';
import type { RepoSession } from '../../repo/session.ts';
import { openWorkspace } from '../../repo/git-workspace.ts';
import type { Workspace } from '../../contracts/workspace.ts';
import { filePath, parseUnifiedDiff } from '../../diff/unified-diff-parse.ts';
import { runBash } from '../../tools/hafixagent/bash.ts';
import { git, gitMatches } from './git.ts';

export interface LeakageCheck {
  /** lines only the fix has (what was looked for) */
  fixOnlyLines: number;
  /** history sections, report and bash outputs looked at */
  looked: number;
  /** of the sections, those with any history text (a check over empty sections proves little) */
  nonEmptySections: number;
  /** one entry per leak: where, and what */
  leaks: string[];
}

// A run's only other view of history: HAFixAgent's bash over the workspace (it has no git; these must not reveal any).
const HISTORY_COMMANDS = ['git log -p', 'git log --all --oneline', 'git show HEAD', 'ls -a', 'cat .git/HEAD', 'cat .git/ORIG_HEAD'];

const notValidating: Validator = { validate: () => Promise.reject(new Error('history commands never validate')) };

/** A line worth looking for: long enough and with a letter or digit (not `}` or `return;`). */
const meaningful = (line: string) => line.length >= 8 && /[A-Za-z0-9]/.test(line);

/** Does `line` occur anywhere in the tree at `revision` or in a change before it (git grep, then the pickaxe)? */
function occursInProject(gitDir: string, revision: string, line: string): boolean {
  return gitMatches(['grep', '-q', '-F', '-e', line, revision, '--'], { gitDir }) || git(['log', '-n', '1', '--format=%H', `-S${line}`, revision], { gitDir }).trim() !== '';
}

/**
 * Lines the ground-truth patch adds that neither the buggy version of the files it touches nor those files' history up
 * to the original revision has. Cheap; a line found in a section is confirmed against the whole project
 * (occursInProject) before it counts as a leak.
 */
async function fixOnlyLines(bug: BugSpec, workspace: Workspace, gitDir: string, originalRevision: string): Promise<string[]> {
  const files = parseUnifiedDiff(bug.groundTruth.patch ?? '');
  const paths = files.map(filePath);
  const known = new Set<string>();
  for (const path of paths) {
    if (await workspace.exists(path)) for (const l of (await workspace.read(path)).split('\n')) known.add(l.trim());
  }
  // the files as they were at the original revision (a file the fix adds has no history)
  const existing = paths.length ? git(['ls-tree', '-r', '--name-only', originalRevision, '--', ...paths], { gitDir }).split('\n').filter(Boolean) : [];
  if (existing.length) {
    for (const l of git(['log', '-p', '--format=', originalRevision, '--', ...existing], { gitDir }).split('\n')) known.add(l.slice(1).trim());
  }
  const added = files.flatMap((f) => f.lines.filter((l) => l.kind === 'add').map((l) => l.text.trim()));
  return [...new Set(added.filter((l) => meaningful(l) && !known.has(l)))];
}

/** Every history section a run of `bug` can be given, with the commits it was built from (one blame per selection). */
async function historySections(session: RepoSession, bug: BugSpec): Promise<{ label: string; text: string; commits: string[] }[]> {
  const { candidates } = await extractHistory(session, bug, { mode: 'code' });
  const paperCommits = (await extractHistory(session, bug, { mode: 'paper' })).commits;
  const selections: { label: string; options: ExtractorOptions }[] = [
    { label: 'paper', options: { mode: 'paper' } },
    { label: 'code/first', options: { mode: 'code', selector: 'first' } },
    ...candidates.map((_, i) => ({ label: `code/line #${i}`, options: { mode: 'code' as const, selector: 'llm_judge' as const, judge: async () => i } })),
    ...paperCommits.map((_, i) => ({ label: `paper/commit #${i}`, options: { mode: 'paper' as const, judge: async () => i } })),
  ];
  const out: { label: string; text: string; commits: string[] }[] = [];
  for (const { label, options } of selections) {
    const extraction = await extractHistory(session, bug, options);
    const commits = extraction.commits.map((c) => c.oid);
    for (const heuristic of HISTORY_HEURISTICS) {
      out.push({ label: `${heuristic} ${label}`, text: (await renderHistoryContext(session, bug, heuristic, extraction)).text, commits });
    }
  }
  return out;
}

/**
 * What of the fix, if anything, a run of `bug` can see through history, its report or bash. `originalRevision`: the
 * project's buggy revision in `gitDir` (default: the spec's historyCommit).
 */
export async function checkLeakage(engine: Engine, bug: BugSpec, gitDir: string, originalRevision = bug.historyCommit ?? bug.buggyCommit): Promise<LeakageCheck> {
  const session = await engine.ensureRepository(bug);
  const workspace = await openWorkspace(session, bug.buggyCommit);
  const fixOnly = await fixOnlyLines(bug, workspace, gitDir, originalRevision);
  // the synthetic commits: the reconstructed buggy version (unless it is the original revision) and the fixed commit
  const synthetic = [bug.buggyCommit !== originalRevision ? bug.buggyCommit : undefined, bug.groundTruth.fixedCommit].filter((oid): oid is string => !!oid);
  const leaks: string[] = [];
  const confirmed = new Map<string, boolean>();
  const fixOnlyInProject = (line: string) => {
    if (!confirmed.has(line)) confirmed.set(line, !occursInProject(gitDir, originalRevision, line));
    return confirmed.get(line)!;
  };
  const look = (label: string, text: string, commits: string[] = []) => {
    for (const line of fixOnly) if (text.includes(line) && fixOnlyInProject(line)) leaks.push(`${label} shows "${line}", which only the fix has`);
    for (const oid of synthetic) {
      if (commits.includes(oid) || text.includes(oid.slice(0, 7))) leaks.push(`${label} names the synthetic commit ${oid.slice(0, 12)}`);
    }
  };
  const sections = await historySections(session, bug);
  for (const s of sections) look(`history ${s.label}`, s.text, s.commits);
  look('bug report', `${bug.report.title}\n${bug.report.body}`);
  const ctx = { workspace, bug: toPublicBug(bug), validator: notValidating, settings: {} };
  for (const command of HISTORY_COMMANDS) {
    const outcome = await runBash(command, ctx);
    look(`bash \`${command}\``, `${outcome.stdout}\n${outcome.stderr}`);
  }
  // lines found in a section and then found elsewhere in the project were not the fix's alone
  return { fixOnlyLines: fixOnly.filter((l) => confirmed.get(l) !== false).length, looked: sections.length + 1 + HISTORY_COMMANDS.length, nonEmptySections: sections.filter((s) => s.text).length, leaks };
}
