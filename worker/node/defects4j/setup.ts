// `repairlab defects4j setup`: one command per project. Clones (or reuses) Defects4J and the project's history, imports
// every active bug with progress — the shipped environment exclusions applied, bug reports from HAFixAgent's
// descriptions when given — registers them, and says what is unavailable and why (deprecated bugs, missing data,
// refusals). Node only (runs git).
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkoutCommit, git, Defects4jImportError, resolveGitDir } from './git.ts';
import { readActiveBugs, readDescriptions, readOptional } from './data.ts';
import { importDefects4j, type ImportFailure, type ImportedBug } from './defects4j-import.ts';

/** Where Defects4J itself is cloned from when `--d4j` is not given. */
export const DEFECTS4J_URL = 'https://github.com/rjust/defects4j.git';

/** The projects' public histories (the ones the checks of docs/defects4j-import.md used), when no `--repo` is given. */
export const PROJECT_HISTORIES: Record<string, string> = {
  Chart: 'https://github.com/jfree/jfreechart.git',
  Cli: 'https://github.com/apache/commons-cli.git',
  Closure: 'https://github.com/google/closure-compiler.git',
  Codec: 'https://github.com/apache/commons-codec.git',
  Collections: 'https://github.com/apache/commons-collections.git',
  Compress: 'https://github.com/apache/commons-compress.git',
  Csv: 'https://github.com/apache/commons-csv.git',
  Gson: 'https://github.com/google/gson.git',
  JacksonCore: 'https://github.com/FasterXML/jackson-core.git',
  JacksonDatabind: 'https://github.com/FasterXML/jackson-databind.git',
  JacksonXml: 'https://github.com/FasterXML/jackson-dataformat-xml.git',
  Jsoup: 'https://github.com/jhy/jsoup.git',
  JxPath: 'https://github.com/apache/commons-jxpath.git',
  Lang: 'https://github.com/apache/commons-lang.git',
  Math: 'https://github.com/apache/commons-math.git',
  Mockito: 'https://github.com/mockito/mockito.git',
  Time: 'https://github.com/JodaOrg/joda-time.git',
};

export interface SetupOptions {
  project: string;
  /** a Defects4J checkout (folder) or a URL to clone; default DEFECTS4J_URL */
  d4j?: string;
  /** the project's history: a repository folder or a URL to clone; default Defects4J's project_repos/<name>.git, else PROJECT_HISTORIES */
  repo?: string;
  /** bug reports: HAFixAgent's bug_description.json (or the importer's own {"<id>": {title, body}}) */
  descriptions?: string;
  /** bug ids (default every active bug) */
  bugs?: string;
  /** where clones go (reused when there) */
  cacheDir: string;
  /** imported bundles, specs and index.json */
  outDir: string;
  exclusionsDir?: string;
  log?: (message: string) => void;
}

/** A bug that setup could not give the user, and why. */
export interface Unavailable {
  bugId: string;
  /** deprecated (Defects4J no longer lists it), data (the data lacks what it needs), refused (a build RepairLab does not run), failed (the import failed) */
  kind: 'deprecated' | 'data' | 'refused' | 'failed';
  why: string;
}

export interface SetupResult {
  project: string;
  d4jDir: string;
  /** the Defects4J checkout's commit, when it is a git checkout */
  d4jCommit?: string;
  projectRepo: string;
  /** active bugs Defects4J lists */
  active: number;
  /** of those, the ones Defects4J v3 added (not in v2.0.0's active-bugs.csv), when the checkout has that tag */
  addedInV3?: number[];
  imported: ImportedBug[];
  unavailable: Unavailable[];
  /** bugs that got their report from --descriptions */
  described: number;
}

const isUrl = (s: string) => /^(?:[a-z][a-z0-9+.-]*:\/\/|git@)/i.test(s);

/** A folder as is, or a URL cloned into the cache (reused when the clone is there). */
function localCopy(source: string, into: string, bare: boolean, what: string, log: (m: string) => void): string {
  if (!isUrl(source)) {
    if (!existsSync(source)) throw new Defects4jImportError(`${what} ${source} does not exist: give a folder or a URL to clone`, source);
    return resolve(source);
  }
  if (existsSync(into) && readdirSync(into).length) {
    log(`${what}: reusing ${into} (cloned from ${source} before; delete it to clone again)`);
    return into;
  }
  mkdirSync(into, { recursive: true });
  log(`${what}: cloning ${source} into ${into} …`);
  try {
    git(['clone', '--quiet', ...(bare ? ['--bare'] : []), source, into]);
  } catch (error) {
    throw new Defects4jImportError(`${what}: cloning ${source} failed: ${(error as Error).message}`, source, (error as Defects4jImportError).command);
  }
  return into;
}

/** Defects4J's name of the project's repository (framework/core/Project/<P>.pm: `my $name = "commons-lang"`). */
function repositoryName(d4jDir: string, project: string): string | undefined {
  return /my \$name\s*=\s*"([^"]+)"/.exec(readOptional(join(d4jDir, 'framework', 'core', 'Project', `${project}.pm`)))?.[1];
}

/** Bug ids Defects4J v3 added: active now and absent from v2.0.0's active-bugs.csv (undefined when the checkout has no such tag). */
function addedSinceV2(d4jDir: string, project: string, active: number[]): number[] | undefined {
  let old: string;
  try {
    old = git(['show', `v2.0.0:framework/projects/${project}/active-bugs.csv`], { cwd: d4jDir });
  } catch {
    return undefined;
  }
  const before = new Set(old.split('\n').slice(1).map((l) => Number(l.split(',')[0])).filter((n) => Number.isInteger(n) && n > 0));
  return active.filter((id) => !before.has(id));
}

function deprecatedBugs(projectDir: string, project: string): Unavailable[] {
  const text = readOptional(join(projectDir, 'deprecated-bugs.csv'));
  const [header, ...rows] = text.split('\n').map((l) => l.trim()).filter(Boolean);
  if (!header) return [];
  const cols = header.split(',');
  const at = (row: string[], name: string) => row[cols.indexOf(name)] ?? '';
  return rows.map((line) => {
    const row = line.split(',');
    const version = at(row, 'deprecated.version');
    const reason = at(row, 'deprecated.reason').replace(/\./g, ' ');
    return { bugId: `${project}-${at(row, 'bug.id')}`, kind: 'deprecated' as const, why: `deprecated by Defects4J${version ? ` ${version}` : ''}${reason ? `: ${reason}` : ''} (deprecated-bugs.csv)` };
  });
}

function unavailableOf(f: ImportFailure): Unavailable {
  if (f.missingData) return { bugId: f.bugId, kind: 'data', why: f.missingData };
  if (f.refused) return { bugId: f.bugId, kind: 'refused', why: f.refused };
  return { bugId: f.bugId, kind: 'failed', why: `${f.message}${f.input ? ` (input at fault: ${f.input})` : ''}` };
}

export function setupDefects4j(options: SetupOptions): SetupResult {
  const log = options.log ?? (() => undefined);
  const d4jDir = localCopy(options.d4j ?? DEFECTS4J_URL, join(options.cacheDir, 'defects4j'), false, '--d4j', log);
  const projectDir = join(d4jDir, 'framework', 'projects', options.project);
  if (!existsSync(projectDir)) {
    const root = join(d4jDir, 'framework', 'projects');
    const known = existsSync(root) ? readdirSync(root).filter((n) => statSync(join(root, n)).isDirectory() && n !== 'lib').join(', ') : 'none: is --d4j a Defects4J checkout?';
    throw new Defects4jImportError(`no Defects4J project "${options.project}" under ${root} (found: ${known})`, projectDir);
  }
  const name = repositoryName(d4jDir, options.project);
  const inCheckout = name ? join(d4jDir, 'project_repos', `${name}.git`) : undefined;
  const repoSource = options.repo ?? (inCheckout && existsSync(inCheckout) ? inCheckout : PROJECT_HISTORIES[options.project]);
  if (!repoSource) throw new Defects4jImportError(`no history known for ${options.project}: give --repo <folder or URL> (the project's git repository)`, '--repo');
  const projectRepo = localCopy(repoSource, join(options.cacheDir, `${name ?? options.project}.git`), true, '--repo', log);
  resolveGitDir(projectRepo); // not a repository: said now, naming it

  const d4jCommit = checkoutCommit(d4jDir);
  const active = readActiveBugs(projectDir);
  const addedInV3 = addedSinceV2(d4jDir, options.project, active.map((b) => b.id));
  log(`${options.project}: ${active.length} active bug(s) in Defects4J${d4jCommit ? ` ${d4jCommit.slice(0, 12)}` : ''}${addedInV3 ? ` (${addedInV3.length} of them added in v3)` : ''}; history ${projectRepo}`);
  const total = options.bugs ? undefined : active.length;
  let n = 0;
  const result = importDefects4j({
    projectRepo,
    d4jDir,
    project: options.project,
    outDir: options.outDir,
    ...(options.bugs ? { bugs: options.bugs } : {}),
    ...(options.descriptions ? { descriptions: options.descriptions } : {}),
    ...(options.exclusionsDir ? { exclusionsDir: options.exclusionsDir } : {}),
    log: (m) => {
      if (/: building the buggy version of /.test(m)) n++;
      log(/: building the buggy version of /.test(m) ? `[${n}${total ? `/${total}` : ''}] ${m}` : m);
    },
  });
  const descriptions = options.descriptions ? readDescriptions(options.descriptions, options.project) : undefined;
  const described = descriptions ? result.bugs.filter((b) => descriptions.has(Number(b.spec.id.slice(options.project.length + 1)))).length : 0;
  return {
    project: options.project,
    d4jDir,
    ...(d4jCommit ? { d4jCommit } : {}),
    projectRepo,
    active: active.length,
    ...(addedInV3 ? { addedInV3 } : {}),
    imported: result.bugs,
    unavailable: [...deprecatedBugs(projectDir, options.project), ...result.failures.filter((f) => !/not in active-bugs\.csv/.test(f.message)).map(unavailableOf)],
    described,
  };
}
