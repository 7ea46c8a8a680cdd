// The history-aware overfitting check for one review item (docs/formats/labels.md, "Evidence"): each later revision of
// the bug's test classes (worker/history/later-test-revisions.ts) is overlaid on the developers' fix and on the
// candidate patch, and only that class runs (layout.suiteFiles, tests "all", testEdits "any": a trusted caller's own
// test file). A revision that does not compile against the fix's tree is not applicable (the compiler says why); else
// the tests the fix passes split into those the candidate passes too and those it does not — overfitting evidence. The
// result is evidence beside the item, never a label.
import type { BugSpec, ProjectLayout } from '../contracts/bug.ts';
import type { EvidenceFailure, PatchEvidence } from '../contracts/patch-evidence.ts';
import type { RunnerSettings } from '../contracts/run-settings.ts';
import type { ValidationResult } from '../contracts/runner-api.ts';
import type { Workspace } from '../contracts/workspace.ts';
import { applyUnifiedDiff } from '../diff/apply-diff.ts';
import { applyProgramFilesOf } from '../bugs/engine.ts';
import { laterTestRevisions, projectHistory, type LaterTestRevision } from '../history/later-test-revisions.ts';
import { openWorkspace } from '../repo/git-workspace.ts';
import type { RepoSession } from '../repo/session.ts';
import { RunnerClient } from '../runner-client/client.ts';

/** What the check needs of the engine (Engine has it). */
export interface EvidenceBugs {
  workspaceFor(bugId: string): Promise<{ bug: BugSpec; workspace: Workspace }>;
  ensureRepository(bug: BugSpec): Promise<RepoSession>;
}

export interface EvidenceOptions {
  runner: RunnerSettings;
  /** later revisions per test file (default 3) */
  revisions?: number;
  /** the fix's results by later revision, shared by the items of one bug (each is run once) */
  fixResults?: Map<string, Promise<ValidationResult>>;
  onRevision?: (r: LaterTestRevision) => void;
  /**
   * the project's real repository (a Defects4J bundle stops at the buggy revision): later revisions are read from it
   * instead of the bug's repository (later-test-revisions.ts projectHistory)
   */
  historyRepo?: RepoSession;
  /** told what the history repository lacks (the real fixed revision: no after-the-fix order) */
  onNote?: (note: string) => void;
}

const decoder = new TextDecoder();

function suiteOf(layout: ProjectLayout, r: LaterTestRevision): ProjectLayout {
  const dir = layout.testDirs.find((d) => r.testFile.startsWith(`${d.replace(/\/$/, '')}/`))!;
  return { ...layout, suiteFiles: { include: [r.testFile.slice(dir.replace(/\/$/, '').length + 1)], exclude: [] } };
}

function compilerMessage(v: ValidationResult): string {
  const errors = v.diagnostics.filter((d) => d.kind === 'error');
  const shown = errors.slice(0, 3).map((d) => `${d.file}:${d.line}: ${d.message.replace(/\s+/g, ' ')}`);
  return shown.length ? `${shown.join('; ')}${errors.length > 3 ? ` (+${errors.length - 3} more)` : ''}` : `it did not compile (${v.stopped})`;
}

/** The developers' fix as an overlay of the buggy workspace: the fixed commit's program files, else its patch. */
async function applyFix(ws: Workspace, bug: BugSpec, session: RepoSession): Promise<void> {
  if (bug.groundTruth.fixedCommit) await applyProgramFilesOf(ws, await openWorkspace(session, bug.groundTruth.fixedCommit), bug.layout);
  else if (bug.groundTruth.patch) await applyUnifiedDiff(ws, bug.groundTruth.patch);
  else throw new Error(`${bug.id} has no developers' fix (neither a fixed commit nor a patch): there is nothing to compare a later test with.`);
}

/** Evidence for one (bug, candidate patch): one record per later test revision, none when the history has no later revision. */
export async function overfittingEvidence(bugs: EvidenceBugs, item: { bugId: string; patchKey: string; patch: string }, options: EvidenceOptions): Promise<PatchEvidence[]> {
  const { bug, workspace } = await bugs.workspaceFor(item.bugId);
  const session = await bugs.ensureRepository(bug);
  const project = options.historyRepo ? await projectHistory(options.historyRepo, session, bug) : undefined;
  if (project?.note) options.onNote?.(project.note);
  const revisions = await laterTestRevisions(session, bug, { revisions: options.revisions, ...(project ? { history: project.history } : {}) });
  const blobs = options.historyRepo ?? session;
  const client = new RunnerClient(options.runner);
  const fixResults = options.fixResults ?? new Map<string, Promise<ValidationResult>>();
  const out: PatchEvidence[] = [];
  for (const r of revisions) {
    options.onRevision?.(r);
    const text = decoder.decode(await blobs.readBlob(r.blob));
    const layout = suiteOf(bug.layout, r);
    const run = async (apply: (ws: Workspace) => Promise<void>) => {
      const ws = workspace.fork();
      await apply(ws);
      await ws.write(r.testFile, text);
      return client.validate(ws, layout, { mode: 'all' }, { testEdits: 'any' });
    };
    const key = `${bug.id} ${r.commit} ${r.testFile}`;
    let fixRun = fixResults.get(key);
    if (!fixRun) fixResults.set(key, (fixRun = run((ws) => applyFix(ws, bug, session))));
    const fix = await fixRun;
    const base = {
      bugId: item.bugId,
      patchKey: item.patchKey,
      commit: r.commit,
      subject: r.subject,
      timestamp: r.timestamp,
      afterFix: r.afterFix,
      testFile: r.testFile,
      testClass: r.testClass,
      ...(fix.runner ? { runner: fix.runner } : { runner: client.url }),
      at: new Date().toISOString(),
    };
    if (!fix.compiled) {
      out.push({ ...base, status: 'not-applicable', reason: `the later ${r.testClass} does not compile against the developers' fix: ${compilerMessage(fix)}`, fixPasses: 0, fixFails: [], bothPass: [], candidateFails: [] });
      continue;
    }
    const passedByFix = fix.tests.filter((t) => t.status === 'pass').map((t) => t.id);
    const fixFails = fix.tests.filter((t) => t.status !== 'pass' && t.status !== 'skipped').map((t) => t.id);
    const candidate = await run(async (ws) => {
      try {
        await applyUnifiedDiff(ws, item.patch);
      } catch (e) {
        throw new Error(`${item.bugId} ${item.patchKey}: the candidate patch does not apply to the buggy tree (${(e as Error).message})`);
      }
    });
    const bothPass: string[] = [];
    const candidateFails: EvidenceFailure[] = [];
    const byId = new Map(candidate.tests.map((t) => [t.id, t]));
    for (const id of passedByFix) {
      const t = byId.get(id);
      if (!candidate.compiled) candidateFails.push({ id, status: 'compile-error', message: compilerMessage(candidate).slice(0, 2000) });
      else if (t?.status === 'pass') bothPass.push(id);
      else {
        const message = t?.failure ? `${t.failure.exception}: ${t.failure.message}`.split('\n', 1)[0]!.slice(0, 2000) : undefined;
        candidateFails.push({ id, status: t ? t.status : 'not-run', ...(message ? { message } : {}) });
      }
    }
    out.push({ ...base, status: 'compared', fixPasses: passedByFix.length, fixFails, bothPass, candidateFails });
  }
  return out;
}
