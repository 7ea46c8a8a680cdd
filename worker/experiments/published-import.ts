// Published results as patch-only runs of a named external variant (docs/formats/published.md): each published patch
// (worker/records/published-formats.ts) is applied to the bug's buggy tree — RepairAgent's write_fix changes by
// its own line rules, a unified diff by the engine's diff applier — re-validated on the runner exactly as a run's final
// patch is re-checked (program files only, failing tests first, then the whole suite), and stored as a finished run
// with no steps, marked `published` with its source, the authors' verdict and whether ours agrees. An experiment's
// report can then put the variant beside its own (published-variant.ts).
import { toPublicBug, type BugSpec } from '../contracts/bug.ts';
import type { RecordStore } from '../contracts/platform.ts';
import type { RunnerSettings } from '../contracts/run-settings.ts';
import type { ValidationResult } from '../contracts/runner-api.ts';
import { STRATEGY_SCHEMA_VERSION } from '../contracts/strategy.ts';
import { REPAIRLAB_VERSION, TRAJECTORY_SCHEMA_VERSION, type PublishedFormat, type Trajectory } from '../contracts/trajectory.ts';
import { WorkspaceError, type Workspace } from '../contracts/workspace.ts';
import { applyUnifiedDiff, PatchApplyError } from '../diff/apply-diff.ts';
import type { PublishedEntry } from '../records/published-formats.ts';
import { storeRecorder } from '../records/persistence.ts';
import { RunnerClient } from '../runner-client/client.ts';
import { applyChange, checkChange, type FileChange, type WriteFixMode } from '../tools/repairagent/patch.ts';
import { ToolRefusal, splitText } from '../tools/common.ts';
import { exactMatch, programOverlay, programPatch } from '../agent/outcome.ts';

/** What the import needs of the engine: a bug's workspace at its buggy commit (and its spec, for the exact match). */
export interface PublishedImportEngine {
  workspaceFor(bugId: string): Promise<{ bug: BugSpec; workspace: Workspace }>;
}

/** Validates a patched workspace; the CLI passes the runner client, tests may pass a stand-in. */
export type PatchValidator = (workspace: Workspace, bug: BugSpec) => Promise<ValidationResult>;

export function runnerValidator(runner: RunnerSettings): PatchValidator {
  const client = new RunnerClient(runner);
  return (workspace, bug) => client.validate(workspace, bug.layout, { mode: 'failing-first', tests: bug.failingTests }, { testEdits: 'none' });
}

export interface PublishedImportOptions {
  format: PublishedFormat;
  variant: string;
  /** how write_fix changes are applied: RepairAgent's released code (default, as its verdicts were reached) or its paper */
  writeFixMode?: WriteFixMode;
  onEntry?: (row: PublishedRunRow) => void;
}

/** One imported entry: the run it became and the two verdicts. */
export interface PublishedRunRow {
  runId: string;
  bugId: string;
  entry: number;
  source: string;
  published: boolean;
  /** RepairLab's verdict; null when nothing was re-validated (no patch published) */
  ours: boolean | null;
  agreement: boolean | null;
  /** why ours is what it is when the patch could not be validated as published (it did not apply, …) */
  note?: string;
}

/** Per bug: published plausible (any entry) vs ours (any entry re-validated plausible). */
export interface PublishedBugAgreement {
  bugId: string;
  entries: number;
  publishedPlausible: boolean;
  /** null: no entry was re-validated */
  ourPlausible: boolean | null;
  agreement: boolean | null;
  /** entries whose verdicts differ */
  disagreeingEntries: number;
}

export interface PublishedImportResult {
  variant: string;
  format: PublishedFormat;
  runs: PublishedRunRow[];
  bugs: PublishedBugAgreement[];
  /** over the bugs with a re-validated entry */
  agreed: number;
  compared: number;
}

export const VARIANT_NAME = /^[A-Za-z0-9._-]+$/;

/** The run id of a published entry: one per (variant, bug, entry), so importing a file again replaces its runs. */
export function publishedRunId(variant: string, bugId: string, entry: number): string {
  return `published-${variant}-${bugId}-${entry}`.replace(/[^A-Za-z0-9._@+-]/g, '_');
}

/** `file_name` of a write_fix change: repository-relative, or (RepairAgent's published files) relative to a source root. */
async function resolveSourcePath(ws: Workspace, bug: BugSpec, name: string): Promise<string | undefined> {
  const clean = name.replace(/^\.?\/+/, '');
  // RepairAgent sometimes wrote the absolute path in its container (/app/auto_gpt_workspace/cli_12_buggy/src/java/…):
  // every tail of the path is tried, longest first
  const parts = clean.split('/');
  const tails = parts.map((_, i) => parts.slice(i).join('/'));
  const candidates = tails.flatMap((tail) => [tail, ...bug.layout.sourceDirs.map((d) => `${d.replace(/\/+$/, '')}/${tail}`)]);
  for (const path of candidates) {
    try {
      await ws.read(path);
      return path;
    } catch (e) {
      if (!(e instanceof WorkspaceError)) throw e;
    }
  }
  return undefined;
}

async function applyWriteFix(ws: Workspace, bug: BugSpec, changes: FileChange[], mode: WriteFixMode): Promise<string[]> {
  const notes: string[] = [];
  for (const change of changes) {
    const path = await resolveSourcePath(ws, bug, change.file_name);
    if (!path) throw new ToolRefusal(`${change.file_name} is in neither the repository nor a source root (${bug.layout.sourceDirs.join(', ')})`);
    const content = await ws.read(path);
    checkChange(change, splitText(content).lines.length);
    const applied = applyChange(content, change, mode);
    for (const s of applied.skippedModifications) notes.push(`modification of ${path}:${s.line_number} skipped as RepairAgent's code skips it (similarity ${s.similarity} < 70)`);
    await ws.write(path, applied.content);
  }
  return notes;
}

function trajectoryOf(entry: PublishedEntry, opts: PublishedImportOptions, bug: BugSpec | undefined, outcome: Trajectory['outcome'], revalidated: boolean): Trajectory {
  const now = new Date().toISOString();
  const ours = revalidated ? (outcome?.plausible ?? false) : null;
  return {
    schemaVersion: TRAJECTORY_SCHEMA_VERSION,
    kind: 'repairlab-trajectory',
    runId: publishedRunId(opts.variant, entry.bugId, entry.entry),
    createdAt: now,
    updatedAt: now,
    status: 'finished',
    versions: { repairlab: REPAIRLAB_VERSION, trajectorySchema: TRAJECTORY_SCHEMA_VERSION, strategySchema: STRATEGY_SCHEMA_VERSION, runtime: `published:${opts.format}` },
    config: { preset: `published:${opts.format}`, variants: [], overrides: {}, strategy: {}, model: {}, providerId: `published:${opts.format}`, tools: [], trajectoryIndex: entry.entry },
    bug: { id: entry.bugId, library: bug?.library ?? '', buggyCommit: bug?.buggyCommit ?? '', failingTests: bug?.failingTests ?? [] },
    startup: [],
    steps: [],
    outcome,
    published: {
      format: opts.format,
      variant: opts.variant,
      file: entry.file,
      sourceBugId: entry.sourceBugId,
      entry: entry.entry,
      source: entry.source,
      publishedPlausible: entry.publishedPlausible,
      revalidated,
      agreement: ours === null ? null : ours === entry.publishedPlausible,
      info: entry.info,
    },
  };
}

const totals = (validations: number) => ({ steps: 0, inputTokens: 0, outputTokens: 0, costUsd: null, wallMs: 0, validations, formatErrors: 0 });

/** Turns one entry into a run: apply, re-validate, compare. A runner failure is thrown (it is no verdict). */
async function runOf(engine: PublishedImportEngine, validate: PatchValidator, entry: PublishedEntry, opts: PublishedImportOptions): Promise<{ trajectory: Trajectory; note?: string }> {
  let opened: Awaited<ReturnType<PublishedImportEngine['workspaceFor']>>;
  try {
    opened = await engine.workspaceFor(entry.bugId);
  } catch (e) {
    throw new Error(`${entry.file}: bug ${entry.sourceBugId} (${entry.bugId} here): ${(e as Error).message}. Import the bug first (repairlab import-defects4j --register, docs/defects4j-import.md).`);
  }
  const { bug, workspace } = opened;
  if (entry.patch.kind === 'none') {
    // nothing published to re-validate: the authors' verdict stands, marked as such
    const outcome = {
      status: entry.publishedPlausible ? 'plausible' : 'implausible',
      reason: entry.publishedPlausible ? 'published as plausible; no patch was published, so it was not re-validated' : 'published without a plausible patch',
      finalPatch: '',
      plausible: entry.publishedPlausible,
      exactMatch: null,
      totals: totals(0),
    } as const;
    return { trajectory: trajectoryOf(entry, opts, bug, outcome, false) };
  }
  let note: string | undefined;
  try {
    if (entry.patch.kind === 'write-fix') {
      const notes = await applyWriteFix(workspace, bug, entry.patch.changes, opts.writeFixMode ?? 'code');
      if (notes.length) note = notes.join('; ');
    } else {
      await applyUnifiedDiff(workspace, entry.patch.diff);
    }
  } catch (e) {
    if (!(e instanceof ToolRefusal || e instanceof PatchApplyError)) throw e;
    const reason = `the published patch does not apply to the buggy tree: ${e.message}`;
    return { trajectory: trajectoryOf(entry, opts, bug, { status: 'implausible', reason, finalPatch: '', plausible: false, exactMatch: null, totals: totals(0) }, true), note: reason };
  }
  const pub = toPublicBug(bug);
  const finalPatch = await programPatch(workspace, pub);
  if (!finalPatch) {
    const reason = 'the published patch changes no program file';
    return { trajectory: trajectoryOf(entry, opts, bug, { status: 'implausible', reason, finalPatch: '', plausible: false, exactMatch: null, totals: totals(0) }, true), note: reason };
  }
  const patched = workspace.fork();
  patched.setOverlay(programOverlay(workspace, pub));
  const recheck = await validate(patched, bug);
  let match: boolean | null = null;
  if (bug.groundTruth.patch) match = await exactMatch(workspace, pub, bug.groundTruth.patch).catch(() => null);
  const outcome: Trajectory['outcome'] = {
    status: recheck.plausible ? 'plausible' : 'implausible',
    reason: `published patch (${entry.source}) re-validated${note ? `; ${note}` : ''}`,
    finalPatch,
    plausible: recheck.plausible,
    recheck,
    exactMatch: match,
    totals: totals(1),
  };
  return { trajectory: trajectoryOf(entry, opts, bug, outcome, true), ...(note ? { note } : {}) };
}

/** Per-bug agreement of a set of imported rows. */
export function bugAgreement(rows: readonly PublishedRunRow[]): PublishedBugAgreement[] {
  const byBug = new Map<string, PublishedRunRow[]>();
  for (const r of rows) byBug.set(r.bugId, [...(byBug.get(r.bugId) ?? []), r]);
  return [...byBug].map(([bugId, list]) => {
    const checked = list.filter((r) => r.ours !== null);
    const publishedPlausible = list.some((r) => r.published);
    const ourPlausible = checked.length ? checked.some((r) => r.ours) : null;
    return {
      bugId,
      entries: list.length,
      publishedPlausible,
      ourPlausible,
      agreement: ourPlausible === null ? null : ourPlausible === publishedPlausible,
      disagreeingEntries: list.filter((r) => r.agreement === false).length,
    };
  });
}

/** A variant holds one file's entries per bug: a second file of the bug would overwrite the first one's runs. */
export function refuseTwoFilesOfOneBug(entries: readonly PublishedEntry[]): void {
  const fileOf = new Map<string, string>();
  for (const e of entries) {
    const first = fileOf.get(e.bugId);
    if (first !== undefined && first !== e.file) {
      throw new Error(
        `${e.bugId} is in two files (${first} and ${e.file}): a variant holds one result per bug. Import each setting under its own --variant ` +
          '(HAFixAgent: the files of one history setting, e.g. *_1_result.json), or pick the files with --bugs.',
      );
    }
    fileOf.set(e.bugId, e.file);
  }
}

/** Imports `entries` as runs of `opts.variant`, one bug at a time (its workspace is opened once per entry). */
export async function importPublished(engine: PublishedImportEngine, records: RecordStore, validate: PatchValidator, entries: readonly PublishedEntry[], opts: PublishedImportOptions): Promise<PublishedImportResult> {
  if (!VARIANT_NAME.test(opts.variant)) throw new Error(`--variant ${JSON.stringify(opts.variant)}: a variant name is letters, digits and . _ - (it names runs and report rows)`);
  refuseTwoFilesOfOneBug(entries);
  const record = storeRecorder(records);
  const runs: PublishedRunRow[] = [];
  for (const entry of entries) {
    const { trajectory, note } = await runOf(engine, validate, entry, opts);
    await record(trajectory);
    const p = trajectory.published!;
    const row: PublishedRunRow = { runId: trajectory.runId, bugId: entry.bugId, entry: entry.entry, source: entry.source, published: entry.publishedPlausible, ours: p.revalidated ? (trajectory.outcome?.plausible ?? false) : null, agreement: p.agreement, ...(note ? { note } : {}) };
    runs.push(row);
    opts.onEntry?.(row);
  }
  const bugs = bugAgreement(runs);
  const compared = bugs.filter((b) => b.agreement !== null);
  return { variant: opts.variant, format: opts.format, runs, bugs, agreed: compared.filter((b) => b.agreement).length, compared: compared.length };
}
