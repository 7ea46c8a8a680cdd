// Defects4J importer (Node only: runs real git). Turns Defects4J bugs into RepairLab bugs:
//
//   importDefects4j({ projectRepo, d4jDir, project, bugs, outDir })
//
// Per bug, as Defects4J builds it: the buggy version is the FIXED revision with patches/<id>.src.patch
// applied (the patch goes fixed → buggy) and the tests Defects4J knows to be broken removed
// (failing_tests/<rev>, dependent_tests, random_tests). The buggy commit's parent is the original buggy
// revision, so `git blame` reaches the project's real history. The ground-truth fix is a child of the
// buggy commit (fixed revision tree, same broken tests removed) kept on refs/repairlab/fixes/<id>.
// Failing tests come from trigger_tests/<id>; perfect fault localization from the fix diff; source and
// test directories from dir-layout.csv. Output: one git bundle per bug (history up to the buggy
// revision only — the original fixed revision and later history are never included) and one BugSpec each.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BenchmarkIndex, BugSpec, type ProjectLayout } from '../contracts/bug.ts';
import { classifyFix } from './classify.ts';
import { faultLocalizationFromDiff } from './fault-localization.ts';

export interface ImportDefects4jOptions {
  /** the project's git repository (Defects4J: project_repos/<name>.git), bare or with a work tree */
  projectRepo: string;
  /** root of a Defects4J checkout (contains framework/projects/<project>/) */
  d4jDir: string;
  /** Defects4J project id, e.g. Lang */
  project: string;
  /** bug ids (numbers or a list such as "1-5,9"); default: every active bug */
  bugs?: number[] | string;
  /** receives <repoId>.bundle files, bugs/<id>.json and index.json */
  outDir: string;
  /** javac --release for the imported layout (Defects4J sources are old; 8 is the lowest JDK 17 accepts) */
  javaRelease?: number;
  /** extra jars the runner should put on the class path, by name */
  classpath?: string[];
  /** progress messages */
  log?: (message: string) => void;
}

export interface ImportedBug {
  spec: BugSpec;
  specPath: string;
  bundlePath: string;
  /** tests removed as broken, as Defects4J does */
  removedTests: string[];
  /** broken tests Defects4J lists whose method could not be found in the sources */
  unmatchedTests: string[];
  /** commits in the bundle */
  commits: number;
}

export interface ImportResult {
  index: BenchmarkIndex;
  bugs: ImportedBug[];
}

export class Defects4jImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Defects4jImportError';
  }
}

interface ActiveBug {
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
    if (!range) throw new Defects4jImportError(`--bugs: "${part}" is not a bug id or a range like 1-5`);
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (to < from) throw new Defects4jImportError(`--bugs: range "${part}" ends before it starts`);
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

function readActiveBugs(projectDir: string): ActiveBug[] {
  const path = join(projectDir, 'active-bugs.csv');
  if (!existsSync(path)) throw new Defects4jImportError(`${path} is missing: is --d4j the root of a Defects4J checkout, and --project a project id (e.g. Lang)?`);
  const [header, ...rows] = readCsv(path);
  const col = (name: string) => {
    const i = header!.indexOf(name);
    if (i < 0) throw new Defects4jImportError(`${path}: no "${name}" column (found ${header!.join(', ')})`);
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

function readLayout(projectDir: string, bug: ActiveBug): { src: string; test: string } {
  const path = join(projectDir, 'dir-layout.csv');
  if (!existsSync(path)) throw new Defects4jImportError(`${path} is missing`);
  const rows = readCsv(path);
  const row = rows.find((r) => r[0] === bug.fixedRevision) ?? rows.find((r) => r[0] === bug.buggyRevision);
  if (!row || !row[1] || !row[2]) throw new Defects4jImportError(`${path} has no row for bug ${bug.id} (revision ${bug.fixedRevision} or ${bug.buggyRevision})`);
  return { src: row[1].replace(/\/+$/, ''), test: row[2].replace(/\/+$/, '') };
}

function readOptional(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

// ---- git, isolated from the user's configuration so the ids only depend on the inputs ----

function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: tmpdir(),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    LC_ALL: 'C',
    TZ: 'UTC',
    ...extra,
  };
}

const PINNED = ['-c', 'core.autocrlf=false', '-c', 'commit.gpgSign=false', '-c', 'pack.threads=1', '-c', 'diff.renames=false', '-c', 'diff.algorithm=myers', '-c', 'core.quotePath=false'];

function git(args: string[], opts: { gitDir?: string; cwd?: string; input?: string | Buffer; env?: Record<string, string> } = {}): string {
  const full = [...PINNED, ...(opts.gitDir ? ['--git-dir', opts.gitDir] : []), ...args];
  try {
    return execFileSync('git', full, { cwd: opts.cwd, input: opts.input, env: gitEnv(opts.env), encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as { stderr?: string | Buffer; message: string };
    throw new Defects4jImportError(`git ${args.join(' ')} failed: ${(e.stderr ? e.stderr.toString() : e.message).trim()}`);
  }
}

function resolveGitDir(projectRepo: string): string {
  if (!existsSync(projectRepo)) throw new Defects4jImportError(`--project-repo ${projectRepo} does not exist`);
  try {
    return git(['rev-parse', '--absolute-git-dir'], { cwd: projectRepo }).trim();
  } catch {
    throw new Defects4jImportError(`--project-repo ${projectRepo} is not a git repository (Defects4J keeps them in project_repos/)`);
  }
}

function extractTree(gitDir: string, revision: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['--git-dir', gitDir, 'archive', '--format=tar', revision], { env: gitEnv(), maxBuffer: 1024 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar, maxBuffer: 1024 * 1024 * 1024 });
}

/** Writes a directory as a tree object (every file, ignore rules disabled). */
function writeTree(gitDir: string, dir: string): string {
  const index = join(mkdtempSync(join(tmpdir(), 'repairlab-d4j-index-')), 'index');
  try {
    git(['--work-tree', dir, 'add', '--all', '--force', '.'], { gitDir, cwd: dir, env: { GIT_INDEX_FILE: index } });
    return git(['write-tree'], { gitDir, env: { GIT_INDEX_FILE: index } }).trim();
  } finally {
    rmSync(join(index, '..'), { recursive: true, force: true });
  }
}

function commitTree(gitDir: string, tree: string, parent: string, message: string, when: string): string {
  const ident = { GIT_AUTHOR_NAME: 'RepairLab Defects4J import', GIT_AUTHOR_EMAIL: 'defects4j-import@repairlab.invalid', GIT_COMMITTER_NAME: 'RepairLab Defects4J import', GIT_COMMITTER_EMAIL: 'defects4j-import@repairlab.invalid', GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when };
  return git(['commit-tree', tree, '-p', parent], { gitDir, input: message, env: ident }).trim();
}

// ---- removing broken tests from Java sources ----

/** Removes test method `method` (with its annotations and Javadoc) from Java source; null when not found. */
export function removeTestMethod(source: string, method: string): string | null {
  const signature = new RegExp(`^[ \\t]*(?:(?:public|protected|private|static|final|synchronized)\\s+)*void\\s+${method.replace(/\$/g, '\\$')}\\s*\\(`, 'm');
  const match = signature.exec(source);
  if (!match) return null;
  // start: the signature line (the pattern is anchored at a line start), extended upwards over
  // annotations and a doc comment
  let start = match.index;
  while (start > 0) {
    const previous = source.lastIndexOf('\n', start - 2) + 1;
    if (/^(@|\*|\/\*|\/\/)/.test(source.slice(previous, start - 1).trim())) start = previous;
    else break;
  }
  // end: the brace closing the method body, skipping strings, chars and comments
  let i = source.indexOf('{', match.index);
  if (i < 0) return null;
  let depth = 0;
  for (; i < source.length; i++) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') i = source.indexOf('\n', i) - 1;
    else if (c === '/' && next === '*') i = source.indexOf('*/', i + 2) + 1;
    else if (c === '"' || c === "'") {
      for (i++; i < source.length && source[i] !== c; i++) if (source[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) break;
    if (i < 0) return null;
  }
  if (depth !== 0) return null;
  let end = i + 1;
  if (source[end] === '\n') end++;
  return source.slice(0, start) + source.slice(end);
}

function removeBrokenTests(root: string, testDir: string, tests: string[]): { removed: string[]; unmatched: string[] } {
  const removed: string[] = [];
  const unmatched: string[] = [];
  for (const test of tests) {
    const [cls, method] = test.split('::') as [string, string];
    const file = join(root, testDir, cls.replace(/\$.*$/, '').replace(/\./g, '/') + '.java');
    const source = existsSync(file) ? readFileSync(file, 'utf8') : null;
    const edited = source === null ? null : removeTestMethod(source, method);
    if (edited === null) unmatched.push(test);
    else {
      writeFileSync(file, edited);
      removed.push(test);
    }
  }
  return { removed, unmatched };
}

// ---- the import ----

export function importDefects4j(options: ImportDefects4jOptions): ImportResult {
  const log = options.log ?? (() => undefined);
  const projectGitDir = resolveGitDir(options.projectRepo);
  const projectDir = join(options.d4jDir, 'framework', 'projects', options.project);
  if (!existsSync(projectDir)) {
    const known = existsSync(join(options.d4jDir, 'framework', 'projects')) ? readdirSync(join(options.d4jDir, 'framework', 'projects')).join(', ') : 'none';
    throw new Defects4jImportError(`no Defects4J project "${options.project}" under ${join(options.d4jDir, 'framework', 'projects')} (found: ${known})`);
  }
  const active = readActiveBugs(projectDir);
  const wanted = options.bugs === undefined ? active.map((b) => b.id) : typeof options.bugs === 'string' ? parseBugList(options.bugs) : options.bugs;
  const missing = wanted.filter((id) => !active.some((b) => b.id === id));
  if (missing.length) throw new Defects4jImportError(`bugs ${missing.join(', ')} are not in ${options.project}'s active-bugs.csv (deprecated or unknown)`);

  const outDir = resolve(options.outDir);
  mkdirSync(join(outDir, 'bugs'), { recursive: true });
  const brokenEverywhere = [...parseTestList(readOptional(join(projectDir, 'dependent_tests'))), ...parseTestList(readOptional(join(projectDir, 'random_tests')))];
  const imported: ImportedBug[] = [];
  for (const id of wanted) {
    const bug = active.find((b) => b.id === id)!;
    log(`${options.project}-${id}: building the buggy version of ${bug.fixedRevision.slice(0, 12)}`);
    imported.push(importOne(options, projectGitDir, projectDir, bug, outDir, brokenEverywhere));
  }
  const index = mergeIndex(outDir, imported);
  return { index, bugs: imported };
}

function importOne(options: ImportDefects4jOptions, projectGitDir: string, projectDir: string, bug: ActiveBug, outDir: string, brokenEverywhere: string[]): ImportedBug {
  const bugId = `${options.project}-${bug.id}`;
  const repoId = `d4j-${bugId}`;
  const work = mkdtempSync(join(tmpdir(), `repairlab-d4j-${bugId}-`));
  try {
    for (const rev of [bug.buggyRevision, bug.fixedRevision]) {
      try {
        git(['cat-file', '-e', `${rev}^{commit}`], { gitDir: projectGitDir });
      } catch {
        throw new Defects4jImportError(`${bugId}: revision ${rev} is not in ${options.projectRepo}; is it the repository Defects4J uses for ${options.project}?`);
      }
    }
    const layout = readLayout(projectDir, bug);
    const srcPatchPath = join(projectDir, 'patches', `${bug.id}.src.patch`);
    if (!existsSync(srcPatchPath)) throw new Defects4jImportError(`${bugId}: ${srcPatchPath} is missing`);
    const failingTests = parseTestList(readOptional(join(projectDir, 'trigger_tests', String(bug.id))));
    if (failingTests.length === 0) throw new Defects4jImportError(`${bugId}: trigger_tests/${bug.id} lists no test (expected "--- pkg.Class::method" lines)`);
    const broken = [...new Set([...parseTestList(readOptional(join(projectDir, 'failing_tests', bug.fixedRevision))), ...brokenEverywhere])].filter(
      (t) => !failingTests.includes(t),
    );

    // A repository that borrows the project's objects; only what the bug's refs reach goes into the bundle.
    const gitDir = join(work, 'repo.git');
    git(['init', '--quiet', '--bare', '--initial-branch=main', gitDir]);
    writeFileSync(join(gitDir, 'objects', 'info', 'alternates'), join(projectGitDir, 'objects') + '\n');

    // fixed revision, broken tests removed → the fixed tree; + src patch (fixed → buggy) → the buggy tree
    const fixedDir = join(work, 'fixed');
    extractTree(projectGitDir, bug.fixedRevision, fixedDir);
    const { removed, unmatched } = removeBrokenTests(fixedDir, layout.test, broken);
    const fixedTree = writeTree(gitDir, fixedDir);
    const buggyDir = join(work, 'buggy');
    extractTree(projectGitDir, bug.fixedRevision, buggyDir);
    removeBrokenTests(buggyDir, layout.test, broken);
    try {
      git(['apply', '--whitespace=nowarn', '-p1', srcPatchPath], { cwd: buggyDir });
    } catch (e) {
      throw new Defects4jImportError(`${bugId}: patches/${bug.id}.src.patch does not apply to the fixed revision ${bug.fixedRevision}: ${(e as Error).message}`);
    }
    const buggyTree = writeTree(gitDir, buggyDir);

    const when = git(['log', '-1', '--format=%ct +0000', bug.fixedRevision], { gitDir: projectGitDir }).trim();
    const buggyCommit = commitTree(gitDir, buggyTree, bug.buggyRevision,
      `Defects4J ${bugId}: buggy version\n\nFixed revision ${bug.fixedRevision} with the source patch reverted and ${removed.length} broken test(s) removed.\n`, when);
    const fixedCommit = commitTree(gitDir, fixedTree, buggyCommit, `Defects4J ${bugId}: developer fix (ground truth)\n`, when);
    git(['update-ref', 'refs/heads/main', bug.buggyRevision], { gitDir });
    git(['update-ref', `refs/repairlab/bugs/${bugId}`, buggyCommit], { gitDir });
    git(['update-ref', `refs/repairlab/fixes/${bugId}`, fixedCommit], { gitDir });

    const patch = git(['diff', '--no-color', '--no-ext-diff', '--full-index', '-U3', buggyCommit, fixedCommit], { gitDir });
    const inSrc = (p: string) => p.startsWith(layout.src + '/') && p.endsWith('.java');
    const programPatch = programOnly(patch, inSrc);
    if (!programPatch) throw new Defects4jImportError(`${bugId}: the source patch changes no .java file under ${layout.src}`);
    const classification = classifyFix(programPatch, { isProgramFile: inSrc });
    const readBuggyFile = (path: string) => {
      try {
        return git(['show', `${buggyCommit}:${path}`], { gitDir });
      } catch {
        return undefined;
      }
    };
    const projectLayout: ProjectLayout = {
      sourceDirs: [layout.src],
      testDirs: [layout.test],
      resourceDirs: [],
      testResourceDirs: [],
      javaRelease: options.javaRelease ?? 8,
      junit: 'junit4',
      classpath: options.classpath ?? ['junit4', 'hamcrest'],
    };
    const bundleName = `${repoId}.bundle`;
    const spec = BugSpec.parse({
      schemaVersion: 1,
      id: bugId,
      library: options.project,
      repository: { kind: 'bundled', bundle: bundleName },
      repoId,
      buggyCommit,
      layout: projectLayout,
      failingTests,
      report: reportFor(bugId, bug, readOptional(join(projectDir, 'trigger_tests', String(bug.id)))),
      faultLocalization: faultLocalizationFromDiff(programPatch, { isProgramFile: inSrc, readBuggyFile }),
      category: classification.category,
      blameable: classification.blameable,
      defectKinds: [],
      groundTruth: { fixedCommit, patch: programPatch },
    });
    const commits = Number(git(['rev-list', '--all', '--count'], { gitDir }).trim());
    const bundlePath = join(outDir, bundleName);
    rmSync(bundlePath, { force: true });
    git(['bundle', 'create', '--quiet', bundlePath, '--all'], { gitDir });
    const specPath = `bugs/${bugId}.json`;
    writeFileSync(join(outDir, specPath), JSON.stringify(spec, null, 2) + '\n');
    return { spec, specPath, bundlePath, removedTests: removed, unmatchedTests: unmatched, commits };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The part of a multi-file diff that touches program files. */
function programOnly(patch: string, isProgram: (path: string) => boolean): string {
  const sections = patch.split(/^(?=diff --git )/m).filter(Boolean);
  return sections
    .filter((s) => {
      const m = /^diff --git a\/(\S+) b\/(\S+)/.exec(s);
      return m !== null && (isProgram(m[1]!) || isProgram(m[2]!));
    })
    .join('');
}

function reportFor(bugId: string, bug: ActiveBug, triggerText: string): BugSpec['report'] {
  // Defects4J ships no report texts: name the tracker entry and show what the failing tests print.
  const excerpt = triggerText.split('\n').slice(0, 12).join('\n').trim();
  const title = bug.reportId && bug.reportId !== 'UNKNOWN' ? `${bug.reportId} (Defects4J ${bugId})` : `Defects4J ${bugId}`;
  const body = [bug.reportUrl && bug.reportUrl !== 'UNKNOWN' ? `Issue: ${bug.reportUrl}` : '', 'Failing tests on the buggy version:', '', excerpt].filter((l, i) => i > 0 || l).join('\n');
  return { title, body };
}

/** Adds the imported bugs to outDir/index.json (created if absent), replacing earlier imports of the same bugs. */
function mergeIndex(outDir: string, imported: ImportedBug[]): BenchmarkIndex {
  const path = join(outDir, 'index.json');
  const index: BenchmarkIndex = existsSync(path) ? BenchmarkIndex.parse(JSON.parse(readFileSync(path, 'utf8'))) : { schemaVersion: 1, repositories: [], bugs: [] };
  for (const bug of imported) {
    const bytes = readFileSync(bug.bundlePath);
    const repo = {
      repoId: bug.spec.repoId,
      library: bug.spec.library,
      bundle: `${bug.spec.repoId}.bundle`,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
      commits: bug.commits,
    };
    index.repositories = [...index.repositories.filter((r) => r.repoId !== repo.repoId), repo];
    index.bugs = [...index.bugs.filter((b) => b !== bug.specPath), bug.specPath];
  }
  const checked = BenchmarkIndex.parse(index);
  writeFileSync(path, JSON.stringify(checked, null, 2) + '\n');
  return checked;
}
