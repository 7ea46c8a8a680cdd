// Readers of other tools' published per-bug results (docs/formats/published.md), each giving the same plain entries:
// a bug, a patch (RepairAgent's write_fix changes, a unified diff, or none) and the verdict its authors published.
//   hafix-repairagent / repairagent  plausible_patches_<Bug>.json: RepairAgent's write_fix changes, one entry per patch
//   hafix                            HAFixAgent's <Bug>_<setting>_result.json: repair_result.success and .patch (a diff)
//   hafix-birch                      BIRCH's test_results_mode_4_merged.csv: one row per attempt, verdicts only
// Nothing here reads a repository or a runner: worker/experiments/published-import.ts turns entries into runs.
import type { PublishedFormat } from '../contracts/trajectory.ts';
import { ToolRefusal } from '../tools/common.ts';
import { parseChanges, type FileChange } from '../tools/repairagent/patch.ts';

export type PublishedPatch = { kind: 'write-fix'; changes: FileChange[] } | { kind: 'diff'; diff: string } | { kind: 'none' };

export interface PublishedEntry {
  /** RepairLab's id of the bug (Cli-11) */
  bugId: string;
  /** the publication's id (Cli_11) */
  sourceBugId: string;
  file: string;
  /** position among the bug's entries in this file */
  entry: number;
  source: string;
  patch: PublishedPatch;
  publishedPlausible: boolean;
  info: Record<string, unknown>;
}

const FORMATS_DOC = 'docs/formats/published.md';

/** A published file that is not in the format asked for: names the file, the field and what to do. */
export class PublishedFormatError extends Error {
  constructor(file: string, field: string, problem: string, advice = `check --format, or see ${FORMATS_DOC} for the accepted shapes`) {
    super(`${file}: ${field}: ${problem}; ${advice}`);
    this.name = 'PublishedFormatError';
  }
}

/** Defects4J's `Cli_11` (HAFixAgent, RepairAgent) or `Cli-11` (BIRCH) as RepairLab names the bug: `Cli-11`. */
export function repairlabBugId(sourceId: string): string {
  return sourceId.trim().replace(/[_-](\d+)$/, '-$1');
}

function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new PublishedFormatError(file, '(whole file)', `not JSON (${(e as Error).message})`);
  }
}

/**
 * RepairAgent's published lines sometimes keep their line end (`"new_lines": ["break;\\n"]`, as Python's readlines
 * gives them) and sometimes not: a line is a line either way, so one trailing line end is dropped from every
 * `new_lines` item and `modified_line`.
 */
function lineEndsTrimmed(patch: unknown): unknown {
  const trim = (v: unknown) => (typeof v === 'string' ? v.replace(/\r?\n$/, '') : v);
  const change = (c: unknown): unknown => {
    if (!c || typeof c !== 'object' || Array.isArray(c)) return c;
    const o = { ...(c as Record<string, unknown>) };
    if (Array.isArray(o.insertions)) o.insertions = o.insertions.map((i) => (i && typeof i === 'object' && Array.isArray((i as Record<string, unknown>).new_lines) ? { ...i, new_lines: ((i as Record<string, unknown>).new_lines as unknown[]).map(trim) } : i));
    if (Array.isArray(o.modifications)) o.modifications = o.modifications.map((m) => (m && typeof m === 'object' ? { ...m, modified_line: trim((m as Record<string, unknown>).modified_line) } : m));
    return o;
  };
  return Array.isArray(patch) ? patch.map(change) : change(patch);
}

/**
 * RepairAgent's plausible_patches_<Bug>.json (HAFixAgent's re-run of RepairAgent publishes the same files): a list
 * of `{source, patch}`, where `patch` is one file change (`source: "mutant"`, with RepairAgent's `target_lines`) or a
 * list of them (`source: "write_fix"`); line numbers are 1-based, of the file at the buggy commit, and `file_name` is
 * relative to the source root. Every entry was plausible for its authors. An empty list: the bug was attempted and no
 * plausible patch was kept — one entry without a patch, published as not plausible.
 */
export function readRepairAgentPlausible(text: string, file: string, format: 'hafix-repairagent' | 'repairagent' = 'hafix-repairagent'): PublishedEntry[] {
  const m = /^plausible_patches_(.+)\.json$/.exec(baseName(file));
  if (!m) throw new PublishedFormatError(file, 'file name', 'expected plausible_patches_<Bug>.json (the bug comes from the name)', `rename the file or check --format (${FORMATS_DOC})`);
  const sourceBugId = m[1]!;
  const bugId = repairlabBugId(sourceBugId);
  const json = parseJson(text, file);
  if (!Array.isArray(json)) throw new PublishedFormatError(file, '(top level)', `expected a list of {source, patch}, got ${typeof json}`);
  if (json.length === 0) return [{ bugId, sourceBugId, file, entry: 0, source: 'none', patch: { kind: 'none' }, publishedPlausible: false, info: { format } }];
  return json.map((raw, i) => {
    const where = `[${i}]`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new PublishedFormatError(file, where, 'expected an object {source, patch}');
    const rec = raw as Record<string, unknown>;
    if (rec.patch === undefined) throw new PublishedFormatError(file, `${where}.patch`, 'missing (RepairAgent writes the write_fix changes there)');
    let changes: FileChange[];
    try {
      changes = parseChanges(lineEndsTrimmed(rec.patch));
    } catch (e) {
      if (e instanceof ToolRefusal) throw new PublishedFormatError(file, `${where}.patch`, e.message.replace(/^'changes'/, 'the patch'));
      throw e;
    }
    const source = typeof rec.source === 'string' ? rec.source : 'write_fix';
    return { bugId, sourceBugId, file, entry: i, source, patch: { kind: 'write-fix', changes }, publishedPlausible: true, info: { format } } satisfies PublishedEntry;
  });
}

/**
 * HAFixAgent's own per-bug result, <Bug>_<setting>_result.json: `project_name`, `bug_id`, `history_category`, and
 * `repair_result` with `success` (its plausibility) and `patch` (a git diff of the whole change, repository paths).
 * Its figures (steps, calls, cost, duration) are kept in `info`. The file's `bug_info.golden_patch` is never read.
 */
export function readHafixResult(text: string, file: string): PublishedEntry[] {
  const json = parseJson(text, file);
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new PublishedFormatError(file, '(top level)', 'expected an object with project_name, bug_id and repair_result');
  const rec = json as Record<string, unknown>;
  const project = rec.project_name;
  const bug = rec.bug_id;
  if (typeof project !== 'string' || project === '') throw new PublishedFormatError(file, 'project_name', 'missing or not a string');
  if (typeof bug !== 'string' && typeof bug !== 'number') throw new PublishedFormatError(file, 'bug_id', 'missing (the bug number, e.g. "11")');
  const result = rec.repair_result;
  if (!result || typeof result !== 'object' || Array.isArray(result)) throw new PublishedFormatError(file, 'repair_result', 'missing or not an object');
  const r = result as Record<string, unknown>;
  if (typeof r.success !== 'boolean') throw new PublishedFormatError(file, 'repair_result.success', `expected true or false, got ${JSON.stringify(r.success)}`);
  if (r.patch !== undefined && r.patch !== null && typeof r.patch !== 'string') throw new PublishedFormatError(file, 'repair_result.patch', 'expected a unified diff as a string');
  const diff = typeof r.patch === 'string' ? r.patch : '';
  const sourceBugId = `${project}_${String(bug)}`;
  const setting = typeof rec.history_category === 'string' ? rec.history_category : 'unknown';
  const info: Record<string, unknown> = { format: 'hafix', history_category: setting };
  for (const k of ['exit_status', 'model_cost', 'model_calls', 'agent_steps']) if (r[k] !== undefined) info[k] = r[k];
  const timing = r.timing as Record<string, unknown> | undefined;
  if (timing && typeof timing.duration_seconds === 'number') info.duration_seconds = timing.duration_seconds;
  return [{ bugId: repairlabBugId(sourceBugId), sourceBugId, file, entry: 0, source: `hafixagent:${setting}`, patch: diff.trim() ? { kind: 'diff', diff } : { kind: 'none' }, publishedPlausible: r.success, info }];
}

/** One CSV record per line of RFC 4180 text (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = (): void => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endField();
      rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== '' || row.length) {
    endField();
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}

/**
 * BIRCH's test_results_mode_4_merged.csv as HAFixAgent publishes it: `bug,pass,test_fail,compile_fail,failed_tests,…`,
 * one row per attempt (a bug has several). No patch is published, so nothing can be re-validated: one entry per bug,
 * plausible when any attempt passed (HAFixAgent's reading), with the attempts' verdicts in `info`.
 */
export function readBirchCsv(text: string, file: string): PublishedEntry[] {
  const rows = parseCsv(text);
  const header = rows[0]?.map((h) => h.trim());
  if (!header) throw new PublishedFormatError(file, '(header)', 'the file is empty');
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new PublishedFormatError(file, `column ${name}`, `missing from the header (${header.join(',')})`);
    return i;
  };
  const [bugCol, passCol, testFailCol, compileFailCol] = [col('bug'), col('pass'), col('test_fail'), col('compile_fail')];
  const byBug = new Map<string, { passes: number; attempts: number; compileFailures: number; testFailures: number }>();
  rows.slice(1).forEach((row, i) => {
    const line = `row ${i + 2}`;
    const id = row[bugCol]?.trim();
    if (!id) throw new PublishedFormatError(file, `${line}, column bug`, 'empty');
    const pass = row[passCol]?.trim().toLowerCase();
    if (pass !== 'yes' && pass !== 'no') throw new PublishedFormatError(file, `${line}, column pass`, `expected Yes or No, got ${JSON.stringify(row[passCol] ?? '')}`);
    const b = byBug.get(id) ?? { passes: 0, attempts: 0, compileFailures: 0, testFailures: 0 };
    b.attempts++;
    if (pass === 'yes') b.passes++;
    if (row[compileFailCol]?.trim().toLowerCase() === 'yes') b.compileFailures++;
    if (row[testFailCol]?.trim().toLowerCase() === 'yes') b.testFailures++;
    byBug.set(id, b);
  });
  return [...byBug].map(([id, b]) => ({ bugId: repairlabBugId(id), sourceBugId: id, file, entry: 0, source: 'birch', patch: { kind: 'none' }, publishedPlausible: b.passes > 0, info: { format: 'hafix-birch', ...b } }));
}

/** The entries of one published file in `format`. */
export function readPublishedFile(format: PublishedFormat, text: string, file: string): PublishedEntry[] {
  switch (format) {
    case 'hafix-repairagent':
    case 'repairagent':
      return readRepairAgentPlausible(text, file, format);
    case 'hafix':
      return readHafixResult(text, file);
    case 'hafix-birch':
      return readBirchCsv(text, file);
  }
}

/** Which files of a directory a format reads (the rest are left alone). */
export function isPublishedFileOf(format: PublishedFormat, name: string): boolean {
  const base = baseName(name);
  if (format === 'hafix') return /_result\.json$/.test(base);
  if (format === 'hafix-birch') return base.endsWith('.csv');
  return /^plausible_patches_.+\.json$/.test(base);
}
