// Defects4J's per-project checkout recipes (framework/core/Project/<P>.pm, `_post_checkout`), ported for the importer.
//
// Defects4J runs `_post_checkout` on every checkout of a bug, on the FIXED revision's tree, before the source patch is
// applied; so both the buggy and the fixed version carry its changes and the fix stays exactly the patch. Ported here
// is what changes source files or the class path:
//   - compile-errors/<name>-<lo>-<hi>[.optional].diff for every range holding the bug (Gson: inside gson/);
//   - Time: JodaTime/* moved to the root; JacksonCore/Databind/Xml: generated_sources/<version>/PackageVersion.java;
//     JacksonDatabind: `Module` spelled out (JDK 9's java.lang.Module makes it ambiguous); Lang: the `enum` package
//     renamed `oldenum`; Codec, Cli, Collections, Lang, Math: the listed files converted ISO-8859-1 → UTF-8;
//     Mockito: mockito_test_runners.patch (bugs 16, 17, 34–38), build.gradle's extra source directories and the
//     byte-buddy jar it names; Closure: gen/ (checked-in generated protobuf sources) as a source directory, and
//     Rhino renamed as its build's jarjar renames it, at the source level (closure-rhino.ts).
//   - jars checked into the revision's own tree (lib/**, build/lib/**, compileLib/): returned for the class path.
// What needs the project's own build (a PackageVersion.java that Defects4J does not ship, a byte-buddy version it
// does not ship) is refused: `Defects4jRefusal`, with the reason.
// Build-file edits (source/target 1.6, dead URLs, gradle wrappers) are not ported: RepairLab does not run those builds.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { BuildStep } from '../../contracts/bug.ts';
import { atDefects4jLevel, type JavaLevels } from './build-env.ts';
import { renameRhinoSources, rhinoBuildDir, rhinoRenamedPackage, RHINO_SOURCE_DIR } from './closure-rhino.ts';
import { filesUnder } from './files.ts';
import { Defects4jImportError, git } from './git.ts';

/** A bug Defects4J can build but RepairLab cannot: reported as refused, with the reason, instead of imported. */
export class Defects4jRefusal extends Defects4jImportError {
  constructor(
    bugId: string,
    readonly reason: string,
    input?: string,
  ) {
    super(`${bugId}: refused: ${reason}`, input);
    this.name = 'Defects4jRefusal';
  }
}

export interface PostCheckoutContext {
  /** Defects4J project id, e.g. Lang */
  project: string;
  bugId: number;
  /** the revision whose tree `dir` holds (the fixed revision) */
  revision: string;
  /** framework/projects/<project> of the Defects4J checkout */
  projectDir: string;
  /** the extracted tree; changed in place */
  dir: string;
  /** source and test directories from dir-layout.csv */
  layout: { src: string; test: string };
  /** the layout's source encoding (undefined: UTF-8); files Defects4J converts to UTF-8 stay as they are otherwise */
  encoding?: string;
}

export interface TreeJar {
  /** file name, as layout.jars names it */
  name: string;
  /** path in the tree */
  path: string;
}

export interface PostCheckoutResult {
  /** what the recipe did, one line each, for the import log */
  steps: string[];
  /** jars in the tree that belong on the class path */
  jars: TreeJar[];
  /** source and test directories besides dir-layout.csv's */
  sourceDirs: string[];
  testDirs: string[];
  /** the Java level the recipe sets (Mockito's gradle build), over what the build files say */
  javaLevels?: JavaLevels;
  /** programs the project's build runs after compiling (layout.buildSteps): Time's zone database */
  buildSteps: BuildStep[];
  /**
   * files of the tree Defects4J's `locale-*.diff` rewrote (Lang): their expectations are JDK 11's CLDR locale data
   * (its locale set: `it` spoken in VA and SM, …), so a bug whose trigger tests live there is checked under CLDR
   */
  cldrAdaptedFiles: string[];
  /** resource roots the recipe writes (layout.resourceDirs besides the import's own): Closure's copied resources */
  resourceDirs: string[];
}

export function postCheckout(ctx: PostCheckoutContext): PostCheckoutResult {
  const result: PostCheckoutResult = { steps: [], jars: [], sourceDirs: [], testDirs: [], buildSteps: [], cldrAdaptedFiles: [], resourceDirs: [] };
  // Time moves JodaTime/* up first: its compile-errors diffs are written against the moved layout
  if (ctx.project === 'Time') moveJodaTimeUp(ctx, result);
  applyCompileErrorDiffs(ctx, result);
  PROJECT_RECIPES[ctx.project]?.(ctx, result);
  result.jars = treeJars(ctx.dir);
  return result;
}

/** The jars' blob oids (the bytes the runner is sent), as layout.jars lists them. */
export function treeJarOids(dir: string, jars: TreeJar[]): { name: string; oid: string }[] {
  return jars.map((jar) => ({ name: jar.name, oid: git(['hash-object', '--', join(dir, jar.path)]).trim() }));
}

/** Adds `extra` to `jars`, keeping the first of two jars with one file name (names key the runner's class path). */
export function mergeJars<T extends { name: string }>(jars: T[], extra: T[]): T[] {
  const merged = new Map<string, T>();
  for (const jar of [...jars, ...extra]) if (!merged.has(jar.name)) merged.set(jar.name, jar);
  return [...merged.values()];
}

// ---- the generic part: compile-errors/ ----

/** `<name>-<lo>-<hi>.diff`, or `.optional.diff` (JacksonDatabind: a diff that may fail to apply). */
const COMPILE_ERROR_DIFF = /-(\d+)-(\d+)(\.optional)?\.diff$/;

/** The files a unified diff writes (its `+++ b/…` lines). */
function patchedFiles(diff: string): string[] {
  return [...readFileSync(diff, 'utf8').matchAll(/^\+\+\+ b\/(\S+)/gm)].map((m) => m[1]!);
}

function applyCompileErrorDiffs(ctx: PostCheckoutContext, result: PostCheckoutResult): void {
  const dir = join(ctx.projectDir, 'compile-errors');
  if (!existsSync(dir)) return;
  // Chart's ranges are over its Subversion revision numbers, every other project's over bug ids
  const key = ctx.project === 'Chart' ? Number(ctx.revision) : ctx.bugId;
  // All relevant files of Gson live in gson/
  const workDir = ctx.project === 'Gson' ? join(ctx.dir, 'gson') : ctx.dir;
  // Defects4J applies them in readdir order; sorted here so an import is reproducible
  for (const name of readdirSync(dir).sort()) {
    const m = COMPILE_ERROR_DIFF.exec(name);
    if (!m || key < Number(m[1]) || key > Number(m[2])) continue;
    const optional = m[3] !== undefined;
    const applied = applyPatch(workDir, join(dir, name));
    if (applied.ok) {
      result.steps.push(`applied compile-errors/${name}`);
      if (name.startsWith('locale-')) result.cldrAdaptedFiles.push(...patchedFiles(join(dir, name)));
    }
    else if (optional) result.steps.push(`skipped compile-errors/${name} (optional; does not apply)`);
    else {
      throw new Defects4jImportError(
        `${ctx.project}-${ctx.bugId}: compile-errors/${name} (for ${ctx.project === 'Chart' ? 'revisions' : 'bugs'} ${m[1]}–${m[2]}) does not apply to the fixed revision ${ctx.revision}: ${applied.error}`,
        join(dir, name),
        applied.command,
      );
    }
  }
}

/** `git apply` as Defects4J's Vcs::apply_patch runs it: -p1, else -p0, else -p2, each checked first. */
function applyPatch(workDir: string, patch: string): { ok: true } | { ok: false; error: string; command: string } {
  let error = '';
  // the tree is no repository: keep git from finding one above it (paths would then be taken from that repository's root)
  const env = { GIT_CEILING_DIRECTORIES: dirname(workDir) };
  for (const strip of ['-p1', '-p0', '-p2']) {
    try {
      git(['apply', '--check', '--whitespace=nowarn', strip, patch], { cwd: workDir, env });
    } catch (e) {
      error ||= (e as Error).message;
      continue;
    }
    git(['apply', '--whitespace=nowarn', strip, patch], { cwd: workDir, env });
    return { ok: true };
  }
  return { ok: false, error, command: `git apply -p1 ${patch}` };
}

// ---- the project-specific parts ----

type Recipe = (ctx: PostCheckoutContext, result: PostCheckoutResult) => void;

const PROJECT_RECIPES: Record<string, Recipe> = {
  Chart: (ctx, r) => chartExperimental(ctx, r),
  Cli: (ctx, r) => convertToUtf8(ctx, r, [`${ctx.layout.test}/org/apache/commons/cli2/bug/BugLoopingOptionLookAlikeTest.java`]),
  Codec: (ctx, r) => {
    convertToUtf8(
      ctx,
      r,
      ['binary/Base64Test.java', 'language/ColognePhoneticTest.java', 'language/DoubleMetaphoneTest.java', 'language/SoundexTest.java'].map(
        (f) => `${ctx.layout.test}/org/apache/commons/codec/${f}`,
      ),
    );
    // Defects4J copies lib/…/commons-lang3-3.8.1.jar into the tree for the build's class path; every lib/ jar is on
    // RepairLab's class path already (build-env.ts libJars), so nothing is copied.
  },
  Collections: (ctx, r) => convertToUtf8(ctx, r, [`${ctx.layout.src}/org/apache/commons/collections/functors/ComparatorPredicate.java`]),
  Lang: (ctx, r) => {
    convertToUtf8(ctx, r, [`${ctx.layout.src}/org/apache/commons/lang3/text/translate/EntityArrays.java`, `${ctx.layout.src}/org/apache/commons/lang/Entities.java`]);
    for (const root of [ctx.layout.src, ctx.layout.test]) renameEnumPackage(ctx, r, root);
  },
  Math: (ctx, r) =>
    convertToUtf8(ctx, r, ['StorelessBivariateCovariance.java', 'StorelessCovariance.java'].map((f) => `${ctx.layout.src}/org/apache/commons/math3/stat/correlation/${f}`)),
  JacksonCore: (ctx, r) => copyPackageVersion(ctx, r, 'src/main/java/com/fasterxml/jackson/core/json/PackageVersion.java', 2),
  JacksonDatabind: (ctx, r) => {
    qualifyModule(ctx, r);
    copyPackageVersion(ctx, r, 'src/main/java/com/fasterxml/jackson/databind/cfg/PackageVersion.java', 2);
  },
  JacksonXml: (ctx, r) => copyPackageVersion(ctx, r, 'src/main/java/com/fasterxml/jackson/dataformat/xml/PackageVersion.java', 3),
  Mockito: (ctx, r) => {
    if ([16, 17, 34, 35, 36, 37, 38].includes(ctx.bugId)) {
      const patch = join(ctx.projectDir, 'mockito_test_runners.patch');
      const applied = applyPatch(ctx.dir, patch);
      if (!applied.ok) throw new Defects4jImportError(`Mockito-${ctx.bugId}: mockito_test_runners.patch does not apply to the fixed revision ${ctx.revision}: ${applied.error}`, patch, applied.command);
      r.steps.push('applied mockito_test_runners.patch');
    }
    gradleSourceDirs(ctx, r);
    copyByteBuddy(ctx, r);
    copyGradleHamcrest(ctx, r);
    gradleJavaLevel(ctx, r);
  },
  Time: (ctx, r) => zoneDatabaseStep(ctx, r),
  Closure: (ctx, r) => {
    // revisions whose build.xml compiles Rhino from lib/rhino and renames its packages with jarjar (to the package its
    // rule names); the others compile against a checked-in jar (lib/libtrunk_rhino_parser_jarjared.jar) or src/com/google/javascript/rhino
    const buildXmlPath = join(ctx.dir, 'build.xml');
    const buildXml = existsSync(buildXmlPath) ? readFileSync(buildXmlPath, 'utf8') : undefined;
    const rhinoDir = buildXml === undefined ? undefined : rhinoBuildDir(buildXml);
    if (buildXml !== undefined && rhinoDir) {
      const renamedTo = rhinoRenamedPackage(buildXml);
      const written = renameRhinoSources(ctx.dir, rhinoDir, `${ctx.revision}:build.xml`, renamedTo);
      r.sourceDirs.push(RHINO_SOURCE_DIR);
      r.steps.push(`Rhino as build.xml's "rhino" and "rhino-jarjar" targets make it: ${rhinoDir}/src (${written} files) renamed org.mozilla.javascript → ${renamedTo} into ${RHINO_SOURCE_DIR}, a source directory`);
    }
    // _post_checkout inserts ant.build.javac.source/target 1.6 unless build.xml sets them (`@Override` on interface methods needs 1.6)
    const setLevel = buildXml === undefined ? undefined : /<property\s+name="ant\.build\.javac\.source"\s+value="([^"]+)"/.exec(buildXml)?.[1];
    const level = setLevel ?? '1.6';
    r.javaLevels = { source: level, target: level, from: setLevel ? "build.xml's ant.build.javac.source" : 'Defects4J\'s Closure recipe (1.6 when build.xml sets no ant.build.javac.source)' };
    if (buildXml !== undefined) copyClassResources(ctx, r, buildXml);
    if (existsSync(join(ctx.dir, 'gen'))) {
      r.sourceDirs.push('gen');
      r.steps.push('gen/ (checked-in generated sources) added as a source directory');
    }
  },
};

/** Utils::convert_file_encoding: the file read as ISO-8859-1 and written as UTF-8 (when it exists). */
function convertToUtf8(ctx: PostCheckoutContext, result: PostCheckoutResult, paths: string[]): void {
  for (const path of paths) {
    const file = join(ctx.dir, path);
    if (!existsSync(file)) continue;
    // compiled in the project's own 8-bit encoding, the file is right as it is; converting it would garble it
    if (ctx.encoding && ctx.encoding !== 'UTF-8') {
      result.steps.push(`kept ${path} in ${ctx.encoding} (the layout compiles in ${ctx.encoding})`);
      continue;
    }
    writeFileSync(file, Buffer.from(readFileSync(file).toString('latin1'), 'utf8'));
    result.steps.push(`converted ${path} from ISO-8859-1 to UTF-8`);
  }
}

/** The zone files Time.build.xml's `compile` target hands org.joda.time.tz.ZoneInfoCompiler, in its order. */
const JODA_ZONE_FILES = ['africa', 'antarctica', 'asia', 'australasia', 'europe', 'northamerica', 'southamerica', 'pacificnew', 'etcetera', 'backward', 'systemv'];

/**
 * Time: Joda-Time's build compiles its zone database after the classes (Time.build.xml, target `compile`:
 * ZoneInfoCompiler over <src>/org/joda/time/tz/src into the classes' org/joda/time/tz/data, with the UTC provider so
 * the compiler needs no database itself). Without it every test that names a zone fails in its set-up. A build step
 * (the runner runs it in the sandbox, over the patched classes), not an import-time one: it runs the project's code.
 */
function zoneDatabaseStep(ctx: PostCheckoutContext, result: PostCheckoutResult): void {
  const sources = `${ctx.layout.src}/org/joda/time/tz/src`;
  if (!existsSync(join(ctx.dir, sources))) return;
  // (a file the revision lacks would fail Defects4J's build too; none of its bugs' revisions does)
  const files = JODA_ZONE_FILES.filter((f) => existsSync(join(ctx.dir, sources, f)));
  result.buildSteps.push({
    name: 'the zone database',
    mainClass: 'org.joda.time.tz.ZoneInfoCompiler',
    args: ['-src', `{root}/${sources}`, '-dst', '{out}/org/joda/time/tz/data', ...files],
    systemProperties: { 'org.joda.time.DateTimeZone.Provider': 'org.joda.time.tz.UTCProvider' },
    // the build's <mkdir>: ZoneInfoCompiler before Joda-Time 1.6 refuses a destination that does not exist
    makeDirs: ['{out}/org/joda/time/tz/data'],
  });
  result.steps.push(`build step: ZoneInfoCompiler compiles ${sources} (${files.length} zone files) into org/joda/time/tz/data`);
}

/** Where Chart's experimental classes are compiled from (a build output: the name says so). */
export const CHART_EXPERIMENTAL_DIR = 'build/experimental-src';

/**
 * Chart, from Chart.build.xml (not the .pm): `compile.tests` depends on `compile-experimental`, which compiles
 * experimental/org/jfree/experimental/** but not its junit/ directories into the classes the tests compile and run
 * against (tests/…/DialPackageTests uses them). The runner compiles whole source directories, so those sources are
 * copied, byte for byte, to CHART_EXPERIMENTAL_DIR, a source directory.
 */
function chartExperimental(ctx: PostCheckoutContext, r: PostCheckoutResult): void {
  const from = join(ctx.dir, 'experimental');
  const root = join(from, 'org', 'jfree', 'experimental');
  if (!existsSync(root)) return;
  let copied = 0;
  for (const file of filesUnder(root)) {
    const rel = relative(from, file).split('\\').join('/');
    if (!rel.endsWith('.java') || rel.split('/').includes('junit')) continue;
    const to = join(ctx.dir, ...CHART_EXPERIMENTAL_DIR.split('/'), ...rel.split('/'));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(file, to);
    copied++;
  }
  r.sourceDirs.push(CHART_EXPERIMENTAL_DIR);
  r.steps.push(`experimental/org/jfree/experimental (${copied} files, junit/ left out) copied to ${CHART_EXPERIMENTAL_DIR}, a source directory, as Chart.build.xml's compile-experimental compiles it`);
}

/** Time: `mv JodaTime/* .` — the project lived in a JodaTime/ subdirectory in its early revisions. */
function moveJodaTimeUp(ctx: PostCheckoutContext, result: PostCheckoutResult): void {
  const sub = join(ctx.dir, 'JodaTime');
  if (!existsSync(sub)) return;
  // the shell glob skips dot files, as here
  for (const entry of readdirSync(sub).filter((e) => !e.startsWith('.'))) renameSync(join(sub, entry), join(ctx.dir, entry));
  result.steps.push('moved JodaTime/* to the root');
}

/** Lang: `enum` is a keyword since Java 5; the old `org.apache.commons.lang.enum` package becomes `oldenum`. */
function renameEnumPackage(ctx: PostCheckoutContext, result: PostCheckoutResult, root: string): void {
  const dir = join(ctx.dir, root, 'org/apache/commons/lang/enum');
  if (!existsSync(dir)) return;
  // sed 's/\.enum;/\.oldenum;/' on the files of the package only (first match per line), then the directory moves
  for (const file of filesUnder(dir)) {
    const text = readFileSync(file, 'latin1');
    const changed = text.replace(/^.*$/gm, (line) => line.replace('.enum;', '.oldenum;'));
    if (changed !== text) writeFileSync(file, changed, 'latin1');
  }
  renameSync(dir, join(ctx.dir, root, 'org/apache/commons/lang/oldenum'));
  result.steps.push(`renamed the package ${root}/org/apache/commons/lang/enum to oldenum`);
}

/** JacksonDatabind: its `Module` clashes with java.lang.Module (JDK 9); Defects4J's five seds, in order. */
const MODULE_EDITS: [RegExp, string][] = [
  [/ extends Module$/, ' extends com.fasterxml.jackson.databind.Module'],
  [/ Module /, ' com.fasterxml.jackson.databind.Module '],
  [/<Module>/, '<com.fasterxml.jackson.databind.Module>'],
  [/\(Module\)/, '(com.fasterxml.jackson.databind.Module)'],
  [/new Module\(\)/, 'new com.fasterxml.jackson.databind.Module()'],
];

function qualifyModule(ctx: PostCheckoutContext, result: PostCheckoutResult): void {
  let files = 0;
  for (const file of filesUnder(ctx.dir)) {
    const bytes = readFileSync(file);
    if (bytes.includes(0)) continue; // grep -l skips binary files' lines; sed would not match in them either
    const text = bytes.toString('latin1');
    let changed = text;
    // each sed replaces the first match of a line (no g flag)
    for (const [pattern, replacement] of MODULE_EDITS) changed = changed.replace(/^.*$/gm, (line) => line.replace(pattern, replacement));
    if (changed !== text) {
      writeFileSync(file, changed, 'latin1');
      files++;
    }
  }
  if (files > 0) result.steps.push(`qualified Module as com.fasterxml.jackson.databind.Module in ${files} file(s)`);
}

/**
 * Jackson: PackageVersion.java is generated by the Maven build from a template; Defects4J ships the generated file per
 * version. The version is the `maven.build.finalName` of maven-build.properties (the tree's, else the one Defects4J
 * ships in build_files/<rev>/), split on '-' (word 2: jackson-core-<v>, word 3: jackson-dataformat-xml-<v>).
 */
function copyPackageVersion(ctx: PostCheckoutContext, result: PostCheckoutResult, target: string, word: number): void {
  const candidates = [join(ctx.dir, 'maven-build.properties'), join(ctx.projectDir, 'build_files', ctx.revision, 'maven-build.properties')];
  const properties = candidates.find((p) => existsSync(p));
  const line = properties ? readFileSync(properties, 'utf8').split('\n').find((l) => l.includes('maven.build.finalName')) : undefined;
  const version = line?.trim().split('-')[word];
  const generated = version ? join(ctx.projectDir, 'generated_sources', version, 'PackageVersion.java') : undefined;
  if (generated && existsSync(generated)) {
    mkdirSync(join(ctx.dir, target, '..'), { recursive: true });
    copyFileSync(generated, join(ctx.dir, target));
    result.steps.push(`copied generated_sources/${version}/PackageVersion.java to ${target}`);
    return;
  }
  // only a bug whose sources need the generated class cannot compile without it
  if (existsSync(join(ctx.dir, `${target}.in`)) && !existsSync(join(ctx.dir, target))) {
    const why = version ? `Defects4J ships no generated_sources/${version}/PackageVersion.java` : `no maven.build.finalName in ${properties ?? 'maven-build.properties (none found)'}`;
    throw new Defects4jRefusal(`${ctx.project}-${ctx.bugId}`, `needs ${target}, which the Maven build generates from ${target}.in; ${why}`, generated ?? properties ?? ctx.projectDir);
  }
}

/** Mockito: build.gradle's `java.srcDirs '<main>', '<extra>'` (e.g. mockmaker/bytebuddy/main/java) beyond dir-layout.csv's. */
function gradleSourceDirs(ctx: PostCheckoutContext, result: PostCheckoutResult): void {
  const build = join(ctx.dir, 'build.gradle');
  if (!existsSync(build)) return;
  for (const m of readFileSync(build, 'utf8').matchAll(/java\.srcDirs\s*=?\s*([^\n]+)/g)) {
    const dirs = [...m[1]!.matchAll(/['"]([^'"]+)['"]/g)].map((d) => d[1]!.replace(/\/+$/, ''));
    const into = dirs.includes(ctx.layout.test) ? result.testDirs : dirs.includes(ctx.layout.src) ? result.sourceDirs : undefined;
    for (const dir of dirs.filter((d) => d !== ctx.layout.src && d !== ctx.layout.test && existsSync(join(ctx.dir, d)))) {
      if (into && !into.includes(dir)) {
        into.push(dir);
        result.steps.push(`${dir} added as a ${into === result.testDirs ? 'test' : 'source'} directory (build.gradle)`);
      }
    }
  }
}

/** Mockito: build.gradle's sourceCompatibility (raised to 1.6 when lower, as Defects4J's sed does: atDefects4jLevel). */
function gradleJavaLevel(ctx: PostCheckoutContext, result: PostCheckoutResult): void {
  const build = join(ctx.dir, 'build.gradle');
  if (!existsSync(build)) return;
  const level = /sourceCompatibility\s*=\s*['"]?(1\.\d|\d+)/.exec(readFileSync(build, 'utf8'))?.[1];
  if (!level) return;
  result.javaLevels = atDefects4jLevel({ source: level, target: level, from: `build.gradle's sourceCompatibility ${level}` });
}

/**
 * Mockito: chooseDepedencyVersion.sh asks gradle which byte-buddy the revision depends on and copies Defects4J's
 * byte-buddy/byte-buddy-<v>.jar into compileLib/. Read here from the revision's gradle files.
 */
function copyByteBuddy(ctx: PostCheckoutContext, result: PostCheckoutResult): void {
  const gradleFiles = filesUnder(ctx.dir).filter((f) => f.endsWith('.gradle'));
  let named = false;
  for (const file of gradleFiles) {
    const text = readFileSync(file, 'utf8');
    if (!/byte-buddy/.test(text)) continue;
    named = true;
    const version = /net\.bytebuddy:byte-buddy:([\w.-]+)['"]/.exec(text)?.[1] ?? /bytebuddy\s*[:=]\s*['"]([\w.-]+)['"]/i.exec(text)?.[1];
    if (!version) continue;
    const jar = join(ctx.projectDir, 'byte-buddy', `byte-buddy-${version}.jar`);
    if (!existsSync(jar)) {
      throw new Defects4jRefusal(`Mockito-${ctx.bugId}`, `depends on byte-buddy ${version} (${relative(ctx.dir, file)}), which Defects4J does not ship in byte-buddy/`, jar);
    }
    mkdirSync(join(ctx.dir, 'compileLib'), { recursive: true });
    copyFileSync(jar, join(ctx.dir, 'compileLib', `byte-buddy-${version}.jar`));
    result.steps.push(`copied byte-buddy/byte-buddy-${version}.jar to compileLib/ (as chooseDepedencyVersion.sh)`);
    return;
  }
  if (named) throw new Defects4jRefusal(`Mockito-${ctx.bugId}`, `depends on byte-buddy but its gradle files name no version RepairLab can read (Defects4J asks gradle)`, ctx.revision);
}

/**
 * Mockito's gradle builds compile against the hamcrest-core their gradle files name (1.1: LocalizedMatcher implements
 * 1.1's Matcher, which has no describeMismatch). Defects4J's lib/ ships hamcrest-core-1.1.jar beside hamcrest-all-1.3;
 * the one named is copied into compileLib/ like byte-buddy. Absent from lib/: nothing is copied (the runner's 1.3).
 */
function copyGradleHamcrest(ctx: PostCheckoutContext, result: PostCheckoutResult): void {
  for (const file of filesUnder(ctx.dir).filter((f) => f.endsWith('.gradle'))) {
    const version = /org\.hamcrest:hamcrest-core:([\w.-]+)['"]/.exec(readFileSync(file, 'utf8'))?.[1];
    if (!version) continue;
    const jar = join(ctx.projectDir, 'lib', `hamcrest-core-${version}.jar`);
    if (!existsSync(jar)) return;
    mkdirSync(join(ctx.dir, 'compileLib'), { recursive: true });
    copyFileSync(jar, join(ctx.dir, 'compileLib', `hamcrest-core-${version}.jar`));
    result.steps.push(`copied lib/hamcrest-core-${version}.jar to compileLib/ (${relative(ctx.dir, file)} compiles against it)`);
    return;
  }
}

// ---- jars in the tree ----

/**
 * Where revisions keep jars they compile against; build tools (lib/build), source jars and JUnit (the runner's harness
 * runs its own) are left out. A hamcrest the revision ships stays: its sources may be written against it (Mockito's
 * and Closure's hamcrest-core 1.1), and the runner compiles against the project's jars first.
 */
const JAR_DIRS = ['lib', 'build/lib', 'compileLib'];
const NOT_ON_CLASS_PATH = /(^|[./-])junit([.-]|$)|-sources\.jar$|^gradle-wrapper/i;

function treeJars(dir: string): TreeJar[] {
  const found: TreeJar[] = [];
  for (const jarDir of JAR_DIRS) {
    if (!existsSync(join(dir, jarDir))) continue;
    for (const file of filesUnder(join(dir, jarDir))) {
      const path = relative(dir, file);
      const name = path.split('/').pop()!;
      if (!name.endsWith('.jar') || NOT_ON_CLASS_PATH.test(name) || path.startsWith('lib/build/')) continue;
      found.push({ name, path });
    }
  }
  return mergeJars([], found);
}

/** Where Closure's resources copied into the class directory go: a resource root of the layout. */
export const CLOSURE_RESOURCE_DIR = 'build/classes-resources';

/**
 * Closure's build.xml copies resources into the class directory where the code looks for them, e.g.
 * `<copy file="${src.dir}/com/google/javascript/rhino/Messages.properties" todir="${classes.dir}/rhino_ast/java/com/google/javascript/rhino/"/>`
 * (ScriptRuntime's bundle `rhino_ast.java.com.google.javascript.rhino.Messages`): without it 6,726 of Closure-1's
 * 7,799 tests failed on the fix with MissingResourceException. Each such copy is made under CLOSURE_RESOURCE_DIR, a
 * resource root; a copy to the file's own package path needs none (the source folder is a resource root already).
 */
function copyClassResources(ctx: PostCheckoutContext, r: PostCheckoutResult, buildXml: string): void {
  let copied = 0;
  for (const m of buildXml.matchAll(/<copy\s+file="\$\{src\.dir\}\/([^"]+)"\s+todir="\$\{classes\.dir\}\/([^"]*)"/g)) {
    const [, file, todir] = m as unknown as [string, string, string];
    const target = `${todir.replace(/\/+$/, '')}/${file.slice(file.lastIndexOf('/') + 1)}`;
    const source = join(ctx.dir, ctx.layout.src, file);
    if (target === file || !existsSync(source)) continue;
    const out = join(ctx.dir, CLOSURE_RESOURCE_DIR, target);
    mkdirSync(dirname(out), { recursive: true });
    copyFileSync(source, out);
    copied++;
  }
  if (copied) {
    r.resourceDirs.push(CLOSURE_RESOURCE_DIR);
    r.steps.push(`${copied} resource(s) build.xml copies into the class directory written under ${CLOSURE_RESOURCE_DIR}, a resource directory`);
  }
}

