// The environment exclusions RepairLab ships per Defects4J project (docs/formats/environment-exclusions.md): read
// by every import, which writes a bug's entry into its spec (layout.environmentExcludedTests, each with where it was
// measured), and rewritten per bug by `defects4j check --record-env-failures`. Node only (reads and writes files).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EnvironmentExclusion, ExclusionMeasurement } from '../../contracts/bug.ts';
import { EnvironmentExclusionsFile } from '../../contracts/environment-exclusions.ts';
import { Defects4jImportError } from './git.ts';

/** Where the product's exclusion files live: data/defects4j/environment-exclusions/<Project>.json in the repository. */
export const SHIPPED_EXCLUSIONS_DIR = fileURLToPath(new URL('../../../data/defects4j/environment-exclusions/', import.meta.url));

export function exclusionsFilePath(dir: string, project: string): string {
  return join(dir, `${project}.json`);
}

/** The project's exclusions file; undefined when there is none (a project nobody measured). A damaged file is refused, named. */
export function readExclusionsFile(dir: string, project: string): EnvironmentExclusionsFile | undefined {
  const path = exclusionsFilePath(dir, project);
  if (!existsSync(path)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Defects4jImportError(`${path} is not JSON (${(error as Error).message}): restore it from git (git checkout -- ${path}) or measure again with \`defects4j check --record-env-failures\``, path);
  }
  const parsed = EnvironmentExclusionsFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Defects4jImportError(`${path}: ${issue.path.length ? `at ${issue.path.join('.')}: ` : ''}${issue.message} (format: docs/formats/environment-exclusions.md)`, path);
  }
  if (parsed.data.project !== project) throw new Defects4jImportError(`${path} is the exclusions file of ${parsed.data.project}, not of ${project}`, path);
  return parsed.data;
}

/** A bug's shipped exclusions as its spec carries them (the measurement inline); trigger tests are never excluded. */
export function shippedExclusionsOf(file: EnvironmentExclusionsFile | undefined, bugId: string, triggerTests: string[]): EnvironmentExclusion[] {
  return (file?.bugs[bugId] ?? [])
    .filter((e) => !triggerTests.includes(e.test))
    .map((e) => ({ test: e.test, reason: e.reason, measured: file!.measurements[e.measurement]! }));
}

/** The key a measurement is stored under: its day and JDK, numbered when another measurement of that day and JDK differs. */
function measurementKey(file: EnvironmentExclusionsFile, m: ExclusionMeasurement): string {
  const same = (a: ExclusionMeasurement) => JSON.stringify(a) === JSON.stringify(m);
  // the JDK's version number (health says "javac 17.0.15")
  const base = `${m.date}/jdk-${/\d[\w.+-]*/.exec(m.jdk)?.[0] ?? m.jdk.replace(/\W+/g, '-')}`;
  for (let n = 1; ; n++) {
    const key = n === 1 ? base : `${base}-${n}`;
    const known = file.measurements[key];
    if (!known || same(known)) return key;
  }
}

/**
 * The file with `bugId`'s entry replaced by `exclusions` (what one measurement found: tests without a measurement
 * get `measurement`); an empty list removes the bug. Measurements no exclusion names any more are dropped.
 */
export function withBugMeasured(file: EnvironmentExclusionsFile | undefined, project: string, bugId: string, exclusions: EnvironmentExclusion[], measurement: ExclusionMeasurement): EnvironmentExclusionsFile {
  const next: EnvironmentExclusionsFile = { schemaVersion: 1, project, measurements: { ...(file?.measurements ?? {}) }, bugs: { ...(file?.bugs ?? {}) } };
  delete next.bugs[bugId];
  if (exclusions.length) {
    next.bugs[bugId] = exclusions.map((e) => {
      const m = e.measured ?? measurement;
      const key = measurementKey(next, m);
      next.measurements[key] = m;
      return { test: e.test, reason: e.reason, measurement: key };
    });
  }
  const used = new Set(Object.values(next.bugs).flatMap((list) => list.map((e) => e.measurement)));
  for (const key of Object.keys(next.measurements)) if (!used.has(key)) delete next.measurements[key];
  return next;
}

const bugNumber = (id: string) => Number(id.slice(id.lastIndexOf('-') + 1));

/** Writes the file with bugs in numeric order and tests sorted, so a refresh's diff shows only what changed. */
export function writeExclusionsFile(dir: string, file: EnvironmentExclusionsFile): string {
  const checked = EnvironmentExclusionsFile.parse(file);
  const bugs = Object.fromEntries(
    Object.entries(checked.bugs)
      .sort(([a], [b]) => bugNumber(a) - bugNumber(b))
      .map(([id, list]) => [id, [...list].sort((a, b) => (a.test < b.test ? -1 : a.test > b.test ? 1 : 0))]),
  );
  const measurements = Object.fromEntries(Object.entries(checked.measurements).sort(([a], [b]) => (a < b ? -1 : 1)));
  mkdirSync(dir, { recursive: true });
  const path = exclusionsFilePath(dir, checked.project);
  // one line per exclusion: a refresh's diff is one line per test that changed
  const bugLines = Object.entries(bugs).map(([id, list]) => `    ${JSON.stringify(id)}: [\n${list.map((e) => `      ${JSON.stringify(e)}`).join(',\n')}\n    ]`);
  const text = [
    '{',
    '  "schemaVersion": 1,',
    `  "project": ${JSON.stringify(checked.project)},`,
    `  "measurements": ${JSON.stringify(measurements, null, 2).replace(/\n/g, '\n  ')},`,
    `  "bugs": {${bugLines.length ? `\n${bugLines.join(',\n')}\n  ` : ''}}`,
    '}',
  ].join('\n');
  writeFileSync(path, text + '\n');
  return path;
}
