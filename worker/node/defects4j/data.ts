// Readers of a Defects4J checkout's data files (framework/projects/<P>/…) and of the optional descriptions file.
// Each error names the file (and row or key) at fault.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Defects4jImportError } from './git.ts';

export interface ActiveBug {
  id: number;
  buggyRevision: string;
  fixedRevision: string;
  reportId: string;
  reportUrl: string;
}

/** "1-5,9" → [1, 2, 3, 4, 5, 9] */
export function parseBugList(text: string): number[] {
  const ids = new Set<number>();
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!range) throw new Defects4jImportError(`--bugs: "${part}" is not a bug id or a range like 1-5`, '--bugs');
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (to < from) throw new Defects4jImportError(`--bugs: range "${part}" ends before it starts`, '--bugs');
    for (let id = from; id <= to; id++) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

/** Test ids from a Defects4J test list (`--- pkg.Class::method` headers, stack traces ignored). */
export function parseTestList(text: string): string[] {
  return text
    .split('\n')
    .map((l) => /^---\s+([\w$.]+::[\w$]+)\s*$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => m[1]!);
}

function readCsv(path: string): string[][] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => l.split(',').map((c) => c.trim()));
}

export function readOptional(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

export function readActiveBugs(projectDir: string): ActiveBug[] {
  const path = join(projectDir, 'active-bugs.csv');
  if (!existsSync(path)) throw new Defects4jImportError(`${path} is missing: is --d4j the root of a Defects4J checkout, and --project a project id (e.g. Lang)?`, path);
  const [header, ...rows] = readCsv(path);
  const col = (name: string) => {
    const i = header!.indexOf(name);
    if (i < 0) throw new Defects4jImportError(`${path}: no "${name}" column (found ${header!.join(', ')})`, path);
    return i;
  };
  const [id, buggy, fixed, reportId, reportUrl] = ['bug.id', 'revision.id.buggy', 'revision.id.fixed', 'report.id', 'report.url'].map(col);
  return rows.map((r) => ({
    id: Number(r[id!]),
    buggyRevision: r[buggy!]!,
    fixedRevision: r[fixed!]!,
    reportId: r[reportId!] ?? '',
    reportUrl: r[reportUrl!] ?? '',
  }));
}

/**
 * Defects4J's relevant test classes of a bug (`relevant_tests/<id>`: the classes whose tests load a class the fix
 * modifies); undefined when Defects4J ships no list for it.
 */
export function readRelevantTestClasses(projectDir: string, id: number): Set<string> | undefined {
  const text = readOptional(join(projectDir, 'relevant_tests', String(id)));
  const classes = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return classes.length ? new Set(classes) : undefined;
}

export function readLayout(projectDir: string, bug: ActiveBug): { src: string; test: string } {
  const path = join(projectDir, 'dir-layout.csv');
  if (!existsSync(path)) throw new Defects4jImportError(`${path} is missing`, path);
  const rows = readCsv(path);
  const row = rows.find((r) => r[0] === bug.fixedRevision) ?? rows.find((r) => r[0] === bug.buggyRevision);
  if (!row || !row[1] || !row[2]) throw new Defects4jImportError(`${path} has no row for revision ${bug.fixedRevision} or ${bug.buggyRevision}`, path);
  return { src: row[1].replace(/\/+$/, ''), test: row[2].replace(/\/+$/, '') };
}

export interface BugDescription {
  title: string;
  body: string;
}

const DescriptionsFile = z.record(z.string(), z.object({ title: z.string().min(1), body: z.string() }).strict());

/**
 * HAFixAgent's bug descriptions (its repository's dataset/defects4j/bug_description/<Project>/bug_description.json):
 * `{"Cli_1": {"description": "<issue title>\n<issue text>", "desc_source": "jira"}}` — the title is the first line.
 */
const HafixDescriptions = z.record(z.string().regex(/^\w+_\d+$/), z.object({ description: z.string().min(1), desc_source: z.string() }));

/** HAFixAgent's shape, when the file has it (every key `<Project>_<n>` with a `description`). */
function fromHafix(json: unknown): Record<string, BugDescription> | undefined {
  if (typeof json !== 'object' || json === null || !Object.keys(json).length) return undefined;
  const parsed = HafixDescriptions.safeParse(json);
  if (!parsed.success) return undefined;
  return Object.fromEntries(
    Object.entries(parsed.data).map(([key, d]) => {
      const [first, ...rest] = d.description.split('\n');
      return [key.replace('_', '-'), { title: first!.trim() || key, body: rest.join('\n').trim() }];
    }),
  );
}

/**
 * A descriptions file: JSON `{ "<id>": { "title": …, "body": … } }`, the id being the bug number ("1") or the
 * RepairLab id ("Lang-1"), or HAFixAgent's bug_description.json (fromHafix). Returns the description of each bug
 * number of `project`.
 */
export function readDescriptions(path: string, project: string): Map<number, BugDescription> {
  if (!existsSync(path)) throw new Defects4jImportError(`--descriptions ${path} does not exist`, path);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Defects4jImportError(`--descriptions ${path} is not JSON: ${(error as Error).message}`, path);
  }
  const parsed = DescriptionsFile.safeParse(fromHafix(json) ?? json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Defects4jImportError(
      `--descriptions ${path}: ${issue.path.length ? `at ${issue.path.join('.')}: ` : ''}${issue.message} (expected {"<id>": {"title": "…", "body": "…"}}, id like "1" or "${project}-1", or HAFixAgent's {"${project}_1": {"description": "…", "desc_source": "…"}})`,
      path,
    );
  }
  const out = new Map<number, BugDescription>();
  for (const [key, description] of Object.entries(parsed.data)) {
    const m = new RegExp(`^(?:${project.replace(/[^\w]/g, '\\$&')}-)?(\\d+)$`).exec(key);
    if (!m) {
      // another project's bug is not an error (one file may describe several projects); anything else is
      if (/^[A-Za-z][\w]*-\d+$/.test(key)) continue;
      throw new Defects4jImportError(`--descriptions ${path}: key "${key}" is not a bug id (use "1" or "${project}-1")`, path);
    }
    out.set(Number(m[1]), description);
  }
  return out;
}
