// Defects4J importer (Node only: runs real git). Turns Defects4J bugs into RepairLab bugs:
//
//   importDefects4j({ projectRepo, d4jDir, project, bugs, outDir })
//
// Per bug, as Defects4J builds it: the buggy version is the FIXED revision with patches/<id>.src.patch
// applied (the patch goes fixed → buggy) and the tests Defects4J knows to be broken emptied
// (failing_tests/<rev>, dependent_tests, random_tests). The buggy commit's parent is the original buggy
// revision; the buggy commit itself is a reconstruction, not history (its diff holds the developer fix's other
// hunks), so the BugSpec names the original revision as `historyCommit` and blame starts there
// (worker/history/history-base.ts). The ground-truth fix is a child of the buggy commit (fixed revision tree, same
// broken tests emptied) kept on refs/repairlab/fixes/<id>. Failing tests come from trigger_tests/<id>; perfect fault
// localization from the fix diff; source and test directories from dir-layout.csv; the report from an optional
// descriptions file, else the trigger tests' failure. Output: one git bundle per bug (history up to the buggy
// revision only — the original fixed revision and later history are never included) and one BugSpec each.
//
// One bug's failure (a missing revision, a patch that does not apply …) does not stop the others: it is returned in
// `failures`, naming the bug and the input at fault, and index.json is written for every bug that did import.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BenchmarkIndex, BugSpec, DEFECTS4J_ADD_OPENS, DEFECTS4J_RESOLVABLE_HOSTS, DEFECTS4J_SINGLE_CLASS_PATH, DEFECTS4J_WRITABLE_DIRS, type ProjectLayout } from '../../contracts/bug.ts';

/**
 * Projects whose tests expect JDK 8's locale data (Defects4J's metadata was made on Java 8): Time's month short names
 * (`Sep` in the UK, where JDK 17's CLDR says `Sept`) — with CLDR kept for locales COMPAT lacks; and Lang, whose
 * FastDateParser tests loop over every available locale: over JDK 17's ~1,000 CLDR locales a test takes 34 s (past the
 * check's 30 s limit; 16 such tests in a suite), over JDK 8's ~160 3 s — JDK 8's set alone (`compat-only`). JDK 17's
 * COMPAT data is not exactly JDK 8's (measured on Lang-1 and Lang-40: DateUtilsTest::testLANG799_* fail under it and
 * pass under CLDR): such tests are environment failures, recorded per bug with their reason. Except where Defects4J
 * rewrote a test for JDK 11's CLDR data (Lang's compile-errors/locale-*.diff: LocaleUtilsTest expects `it` spoken in
 * VA and SM): a bug whose trigger tests live in such a file keeps CLDR (Lang-26, 38, 50, 56, 57) — under JDK 8's
 * locale set Lang-57's fix fails three of its trigger tests.
 */
const LOCALE_DATA: Record<string, 'compat' | 'compat-only'> = { Time: 'compat', Lang: 'compat-only' };

/** The locale data of a bug's tests: its project's (LOCALE_DATA), or CLDR when a trigger test sits in a file Defects4J adapted to CLDR. */
export function localeDataOf(project: string, triggerTests: string[], cldrAdaptedFiles: string[]): ProjectLayout['localeData'] {
  const adapted = cldrAdaptedFiles.map((f) => f.replace(/\.java$/, '').replace(/\//g, '.'));
  const onCldr = triggerTests.some((t) => adapted.some((a) => a.endsWith(`.${t.slice(0, t.indexOf('::'))}`)));
  return onCldr ? undefined : LOCALE_DATA[project];
}
import { classifyFix } from '../../diff/fix-classification.ts';
import { emptyBrokenTests } from './broken-tests.ts';
import { javaLevels, libJars, missingRevisionJars, outputDirs, parseExcludedTests, revisionClassPath, sourceEncoding, suiteFiles } from './build-env.ts';
import { parseBugList, parseTestList, readActiveBugs, readDescriptions, readLayout, readOptional, type ActiveBug, type BugDescription } from './data.ts';
import { commitTree, Defects4jImportError, extractTree, git, resolveGitDir, writeTree } from './git.ts';
import { jdkInternalsUsedUnder } from './jdk-internal-imports.ts';
import { revisionCommits } from './svn-revisions.ts';
import { Defects4jRefusal, mergeJars, postCheckout, treeJarOids } from './post-checkout.ts';
import { faultLocalizationFromDiff } from '../../diff/fix-locations.ts';
import { exclusionsFilePath, readExclusionsFile, shippedExclusionsOf, SHIPPED_EXCLUSIONS_DIR } from './shipped-exclusions.ts';
import type { EnvironmentExclusionsFile } from '../../contracts/environment-exclusions.ts';

export { Defects4jImportError } from './git.ts';
export { parseBugList, parseTestList } from './data.ts';
export { emptyTestMethod } from './broken-tests.ts';

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
  /** a JSON file of bug reports, {"<id>": {"title", "body"}} (id: "1" or "Lang-1"); default: the trigger tests' failure */
  descriptions?: string;
  /**
   * where the projects' environment exclusion files are (<dir>/<Project>.json, docs/formats/environment-exclusions.md);
   * default the ones RepairLab ships; false: none (a spec with Defects4J's own exclusions only)
   */
  exclusionsDir?: string | false;
  /** progress messages */
  log?: (message: string) => void;
}

export interface ImportedBug {
  spec: BugSpec;
  specPath: string;
  bundlePath: string;
  /** tests emptied as broken, as Defects4J does (an empty test method in their place) */
  removedTests: string[];
  /** broken tests Defects4J lists whose method could not be found in the sources */
  unmatchedTests: string[];
  /** commits in the bundle */
  commits: number;
}

/** A bug that could not be imported, with the input at fault. */
export interface ImportFailure {
  bugId: string;
  message: string;
  /** the file of the Defects4J checkout or the revision at fault, when known */
  input?: string;
  /** the git command that failed, when one did */
  command?: string;
  /** set when the bug was refused (Defects4J builds it with a build RepairLab does not run): the reason */
  refused?: string;
  /** set when the data lacks what the bug needs (data, not a failure): what lacks what, e.g. "the repository lacks object …" */
  missingData?: string;
}

export interface ImportResult {
  index: BenchmarkIndex;
  bugs: ImportedBug[];
  failures: ImportFailure[];
}

// ---- the import ----

export function importDefects4j(options: ImportDefects4jOptions): ImportResult {
  const log = options.log ?? (() => undefined);
  const projectGitDir = resolveGitDir(options.projectRepo);
  const projectDir = join(options.d4jDir, 'framework', 'projects', options.project);
  if (!existsSync(projectDir)) {
    const known = existsSync(join(options.d4jDir, 'framework', 'projects')) ? readdirSync(join(options.d4jDir, 'framework', 'projects')).join(', ') : 'none';
    throw new Defects4jImportError(`no Defects4J project "${options.project}" under ${join(options.d4jDir, 'framework', 'projects')} (found: ${known})`, projectDir);
  }
  const active = readActiveBugs(projectDir);
  const wanted = options.bugs === undefined ? active.map((b) => b.id) : typeof options.bugs === 'string' ? parseBugList(options.bugs) : options.bugs;
  const activeCsv = join(projectDir, 'active-bugs.csv');
  const missing = wanted.filter((id) => !active.some((b) => b.id === id));
  // none of the asked bugs exists: a wrong flag; some of them (a range over deprecated ids): reported per bug
  if (missing.length === wanted.length) throw new Defects4jImportError(`bugs ${missing.join(', ')} are not in ${options.project}'s active-bugs.csv (deprecated or unknown)`, activeCsv);
  const descriptions = options.descriptions ? readDescriptions(options.descriptions, options.project) : new Map<number, BugDescription>();
  const exclusionsDir = options.exclusionsDir ?? SHIPPED_EXCLUSIONS_DIR;
  const environment = exclusionsDir === false ? undefined : readExclusionsFile(exclusionsDir, options.project);

  const outDir = resolve(options.outDir);
  mkdirSync(join(outDir, 'bugs'), { recursive: true });
  // tests broken at every revision; broken_tests is Math's name for another such list
  const brokenEverywhere = ['dependent_tests', 'random_tests', 'broken_tests'].flatMap((name) => parseExcludedTests(readOptional(join(projectDir, name))));
  const imported: ImportedBug[] = [];
  const failures: ImportFailure[] = [];
  for (const id of missing) {
    failures.push({ bugId: `${options.project}-${id}`, message: `${options.project}-${id}: not in active-bugs.csv (deprecated or unknown)`, input: activeCsv });
  }
  for (const id of wanted.filter((w) => !missing.includes(w))) {
    const bug = active.find((b) => b.id === id)!;
    const bugId = `${options.project}-${id}`;
    log(`${bugId}: building the buggy version of ${bug.fixedRevision.slice(0, 12)}`);
    try {
      imported.push(importOne(options, projectGitDir, projectDir, bug, outDir, brokenEverywhere, descriptions.get(id), environment));
    } catch (error) {
      const e = error as Defects4jImportError;
      if (!(error instanceof Defects4jImportError)) throw error; // a bug of the importer, not of the data
      const failure: ImportFailure = { bugId, message: e.message.startsWith(`${bugId}: `) ? e.message : `${bugId}: ${e.message}`, ...(e.input ? { input: e.input } : {}), ...(e.command ? { command: e.command } : {}), ...(error instanceof Defects4jRefusal ? { refused: error.reason } : {}), ...(e.missingData ? { missingData: e.missingData } : {}) };
      failures.push(failure);
      log(`${failure.message} — skipped`);
    }
  }
  const index = mergeIndex(outDir, imported);
  return { index, bugs: imported, failures };
}

/** Runs one step of a bug's import; a failure is attributed to the bug and, unless it names one, to `input`. */
function step<T>(bugId: string, input: string, what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof Defects4jImportError)) throw error;
    throw new Defects4jImportError(`${bugId}: ${what}: ${error.message}`, error.input ?? input, error.command, error.missingData);
  }
}

function importOne(
  options: ImportDefects4jOptions,
  projectGitDir: string,
  projectDir: string,
  bug: ActiveBug,
  outDir: string,
  brokenEverywhere: string[],
  description: BugDescription | undefined,
  environment: EnvironmentExclusionsFile | undefined,
): ImportedBug {
  const bugId = `${options.project}-${bug.id}`;
  const repoId = `d4j-${bugId}`;
  const work = mkdtempSync(join(tmpdir(), `repairlab-d4j-${bugId}-`));
  try {
    const srcPatchPath = join(projectDir, 'patches', `${bug.id}.src.patch`);
    if (!existsSync(srcPatchPath)) throw new Defects4jImportError(`${bugId}: ${srcPatchPath} is missing`, srcPatchPath);
    // git commits of the revisions (Defects4J's ids are commits, or Subversion numbers for Chart); Defects4J's own
    // files (dir-layout.csv, failing_tests/, build_files/, compile-errors/) stay keyed by its ids
    const at = revisionCommits(projectGitDir, bug, srcPatchPath, { repo: options.projectRepo, project: options.project });
    if (at.mapped) options.log?.(`${bugId}: ${at.mapped}`);
    const layout = step(bugId, join(projectDir, 'dir-layout.csv'), 'reading the layout', () => readLayout(projectDir, bug));
    const triggerPath = join(projectDir, 'trigger_tests', String(bug.id));
    const failingTests = parseTestList(readOptional(triggerPath));
    if (failingTests.length === 0) throw new Defects4jImportError(`${bugId}: trigger_tests/${bug.id} lists no test (expected "--- pkg.Class::method" lines)`, triggerPath);
    const excluded = [...new Set([...parseExcludedTests(readOptional(join(projectDir, 'failing_tests', bug.fixedRevision))), ...brokenEverywhere])].filter(
      (t) => !failingTests.includes(t) && !failingTests.some((f) => f.startsWith(`${t}::`)),
    );
    // methods are cut from the sources as Defects4J does; every entry (and whole classes) is also excluded from runs
    const broken = excluded.filter((t) => t.includes('::'));

    // A repository that borrows the project's objects; only what the bug's refs reach goes into the bundle.
    const gitDir = join(work, 'repo.git');
    git(['init', '--quiet', '--bare', '--initial-branch=main', gitDir]);
    writeFileSync(join(gitDir, 'objects', 'info', 'alternates'), join(projectGitDir, 'objects') + '\n');

    // fixed revision, broken tests emptied → the fixed tree; + src patch (fixed → buggy) → the buggy tree
    const fixedDir = join(work, 'fixed');
    step(bugId, bug.fixedRevision, `checking out the fixed revision ${bug.fixedRevision}`, () => extractTree(projectGitDir, at.fixed, fixedDir));
    // the build files of Defects4J (by its ids) and of the project (at the fixed commit): encoding and Java level
    const readFixedFile = (path: string) => {
      try {
        return git(['show', `${at.fixed}:${path}`], { gitDir: projectGitDir });
      } catch {
        return undefined;
      }
    };
    const revisions = [bug.fixedRevision, bug.buggyRevision];
    const encoding = sourceEncoding(projectDir, revisions, readFixedFile);
    // Defects4J's _post_checkout, on the fixed tree before the src patch: buggy and fixed both carry it (or a refusal)
    const recipeOn = (dir: string) => postCheckout({ project: options.project, bugId: bug.id, revision: bug.fixedRevision, projectDir, dir, layout, encoding: encoding.encoding });
    const recipe = recipeOn(fixedDir);
    for (const s of recipe.steps) options.log?.(`${bugId}: ${s}`);
    const { emptied, unmatched } = emptyBrokenTests(fixedDir, layout.test, broken);
    const fixedTree = writeTree(gitDir, fixedDir);
    const buggyDir = join(work, 'buggy');
    step(bugId, bug.fixedRevision, `checking out the fixed revision ${bug.fixedRevision}`, () => extractTree(projectGitDir, at.fixed, buggyDir));
    recipeOn(buggyDir);
    emptyBrokenTests(buggyDir, layout.test, broken);
    step(bugId, srcPatchPath, `patches/${bug.id}.src.patch does not apply to the fixed revision ${bug.fixedRevision}`, () =>
      git(['apply', '--whitespace=nowarn', '-p1', srcPatchPath], { cwd: buggyDir }),
    );
    const buggyTree = writeTree(gitDir, buggyDir);
    const roots = [layout.src, layout.test, ...recipe.sourceDirs, ...recipe.testDirs];
    const internals = jdkInternalsUsedUnder([fixedDir, buggyDir].flatMap((dir) => roots.map((r) => join(dir, r))));
    const jdkInternalPackages = internals.packages;
    if (jdkInternalPackages.length) options.log?.(`${bugId}: imports the JDK-internal ${jdkInternalPackages.join(', ')} (compiled against the JDK's classes, exported to the tests)`);
    if (internals.allocatesThroughUnsafe) options.log?.(`${bugId}: allocates objects through sun.misc.Unsafe (the runner's allocate-only Unsafe)`);

    const when = git(['log', '-1', '--format=%ct +0000', at.fixed], { gitDir: projectGitDir }).trim();
    const buggyCommit = commitTree(gitDir, buggyTree, at.buggy,
      `Defects4J ${bugId}: buggy version\n\nFixed revision ${bug.fixedRevision} with the source patch reverted and ${emptied.length} broken test(s) emptied.\n`, when);
    const fixedCommit = commitTree(gitDir, fixedTree, buggyCommit, `Defects4J ${bugId}: developer fix (ground truth)\n`, when);
    git(['update-ref', 'refs/heads/main', at.buggy], { gitDir });
    git(['update-ref', `refs/repairlab/bugs/${bugId}`, buggyCommit], { gitDir });
    git(['update-ref', `refs/repairlab/fixes/${bugId}`, fixedCommit], { gitDir });

    // lib/ jars as blobs, reachable from a ref so the bundle carries them (the workspace reads them by oid)
    // the test classes `defects4j test` runs: the project's all.manual.tests fileset
    const suite = suiteFiles(projectDir);
    const classPath = revisionClassPath(projectDir, revisions);
    const lacking = missingRevisionJars(projectDir, classPath);
    if (lacking.length) {
      throw new Defects4jImportError(
        `Defects4J's lib/ lacks ${lacking.join(', ')}, which the revision's build file puts on the tests' class path: the version directory is there, the jar is not — an incomplete Defects4J checkout (fetch rjust/defects4j whole)`,
        join(projectDir, 'lib', lacking[0]!),
        undefined,
        `Defects4J's checkout lacks lib/${lacking.join(', lib/')}`,
      );
    }
    const jars = libJars(projectDir, classPath);
    if (jars.length > 0) {
      const jarDir = join(work, 'jars');
      mkdirSync(jarDir);
      for (const jar of jars) copyFileSync(jar.absolutePath, join(jarDir, jar.name));
      git(['update-ref', `refs/repairlab/jars/${bugId}`, writeTree(gitDir, jarDir)], { gitDir });
    }
    const jarOids = jars.map((jar) => ({ name: jar.name, oid: git(['hash-object', '--', join(work, 'jars', jar.name)]).trim() }));
    const localeData = localeDataOf(options.project, failingTests, recipe.cldrAdaptedFiles);
    const levels = recipe.javaLevels ?? javaLevels(projectDir, revisions, readFixedFile, new Date(Number(when.split(' ')[0]) * 1000).getUTCFullYear());
    options.log?.(
      `${bugId}: Java ${levels.source} (from ${levels.from}), encoding ${encoding.encoding ?? 'UTF-8'} (from ${encoding.from}), ${jars.length} jar(s) from Defects4J's framework/projects/${options.project}/lib/, ${excluded.length} excluded test(s)`,
    );

    const patch = git(['diff', '--no-color', '--no-ext-diff', '--full-index', '-U3', buggyCommit, fixedCommit], { gitDir });
    const inSrc = (p: string) => p.startsWith(layout.src + '/') && p.endsWith('.java');
    const programPatch = programOnly(patch, inSrc);
    if (!programPatch) throw new Defects4jImportError(`${bugId}: the source patch changes no .java file under ${layout.src}`, srcPatchPath);
    const classification = classifyFix(programPatch, { isProgramFile: inSrc });
    const readBuggyFile = (path: string) => {
      try {
        return git(['show', `${buggyCommit}:${path}`], { gitDir });
      } catch {
        return undefined;
      }
    };
    const buildOutputs = outputDirs(projectDir);
    const writableDirs = (DEFECTS4J_WRITABLE_DIRS[options.project] ?? []).filter((d) => existsSync(join(fixedDir, d)));
    // what fails on the fix in the runner's environment and not in Defects4J's, as measured and shipped (not re-measured here)
    const environmentExcludedTests = shippedExclusionsOf(environment, bugId, failingTests);
    if (environmentExcludedTests.length) {
      const days = [...new Set(environmentExcludedTests.map((e) => `${e.measured!.date} on JDK ${e.measured!.jdk}`))].join(', ');
      options.log?.(`${bugId}: ${environmentExcludedTests.length} test(s) excluded for the environment, as measured ${days} (${exclusionsFilePath(options.exclusionsDir || SHIPPED_EXCLUSIONS_DIR, options.project)})`);
    }
    const projectLayout: ProjectLayout = {
      sourceDirs: [layout.src, ...recipe.sourceDirs],
      testDirs: [layout.test, ...recipe.testDirs],
      // where tests find class-path data: Maven's resource folders (Math's test data), and source folders that keep
      // resources beside the code, as older ant layouts do (Jsoup's entities-*.properties, JxPath's test XML)
      resourceDirs: [...resourceFolders(fixedDir, 'src/main/resources', [layout.src, ...recipe.sourceDirs]), ...recipe.resourceDirs],
      testResourceDirs: resourceFolders(fixedDir, 'src/test/resources', [layout.test, ...recipe.testDirs]),
      javaRelease: options.javaRelease ?? 8,
      junit: 'junit4',
      classpath: options.classpath ?? ['junit4', 'hamcrest'],
      jars: mergeJars(jarOids, treeJarOids(fixedDir, recipe.jars)),
      sourceLevel: levels.source,
      targetLevel: levels.target,
      addOpens: [...DEFECTS4J_ADD_OPENS],
      // names tests resolve without connecting (JacksonDatabind's google.com): answered inside the sandbox, as a
      // networked machine would, instead of being excluded as environment failures
      resolvableHosts: [...DEFECTS4J_RESOLVABLE_HOSTS],
      // Ant's <junit fork="no"> loads each test class's project classes afresh (reloading): static state stays per class
      testClassLoaders: 'per-class',
      // the project's jars with its classes, as Ant's one class path has them (PowerMock reads classes as resources)
      ...(DEFECTS4J_SINGLE_CLASS_PATH.has(options.project) ? { singleClassPath: true } : {}),
      // where the build puts the classes, for tests that read them by path (Cli's JDependTest: target/classes)
      ...(buildOutputs ? { outputDirs: buildOutputs } : {}),
      // project directories Defects4J's writable checkout lets tests write (DEFECTS4J_WRITABLE_DIRS)
      ...(writableDirs.length ? { writableDirs } : {}),
      ...(jdkInternalPackages.length ? { jdkInternalPackages } : {}),
      ...(internals.allocatesThroughUnsafe ? { sunMiscUnsafe: 'allocate-only' as const } : {}),
      // Defects4J's harness runs the tests with TZ=America/Los_Angeles in an en-US locale
      timeZone: 'America/Los_Angeles',
      locale: 'en-US',
      ...(localeData ? { localeData } : {}),
      excludedTests: excluded,
      ...(environmentExcludedTests.length ? { environmentExcludedTests } : {}),
      ...(encoding.encoding && encoding.encoding !== 'UTF-8' ? { encoding: encoding.encoding } : {}),
      ...(recipe.buildSteps.length ? { buildSteps: recipe.buildSteps } : {}),
      ...(suite ? { suiteFiles: suite } : {}),
    };
    const bundleName = `${repoId}.bundle`;
    const spec = BugSpec.parse({
      schemaVersion: 1,
      id: bugId,
      library: options.project,
      repository: { kind: 'bundled', bundle: bundleName },
      repoId,
      buggyCommit,
      historyCommit: at.buggy,
      layout: projectLayout,
      failingTests,
      report: description ?? reportFor(bugId, bug, readOptional(triggerPath)),
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
    return { spec, specPath, bundlePath, removedTests: emptied, unmatchedTests: unmatched, commits };
  } catch (error) {
    if (error instanceof Defects4jImportError && !error.message.startsWith(`${bugId}: `)) {
      throw new Defects4jImportError(`${bugId}: ${error.message}`, error.input, error.command, error.missingData);
    }
    throw error;
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

/** `maven` when the tree has it, then each source folder that holds a file other than Java sources and package docs. */
function resourceFolders(tree: string, maven: string, sourceFolders: string[]): string[] {
  const holdsResources = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((e) =>
      e.isDirectory() ? holdsResources(join(dir, e.name)) : e.isFile() && !e.name.endsWith('.java') && e.name !== 'package.html' && e.name !== 'package-info.java',
    );
  return [maven, ...new Set(sourceFolders)].filter((d) => existsSync(join(tree, d)) && (d === maven || holdsResources(join(tree, d))));
}
