// What a Defects4J bug's build needs besides its sources, read from the Defects4J checkout and the revision:
// the jars of framework/projects/<P>/lib/, the Java source/target level, and the tests Defects4J excludes.
// Each becomes a field of the BugSpec's layout, which the runner applies (docs/runner-api.md).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import type { SourceEncoding } from '../../contracts/bug.ts';
import { readOptional } from './data.ts';

/**
 * JUnit and hamcrest come from the runner (its harness needs its own); every other jar of lib/ travels by content —
 * junit-addons (Cli 28–34's `junitx.framework.ArrayAssert`) too, which a name prefix alone took for JUnit.
 */
const RUNNER_PROVIDED = /^(junit(-dep)?|hamcrest(-core|-library|-all)?)(-\d[\w.-]*)?\.jar$/i;

export interface LibJar {
  /** file name, as layout.jars names it */
  name: string;
  /** path relative to lib/ */
  path: string;
  absolutePath: string;
}

/**
 * Every jar under framework/projects/<P>/lib/ (recursively: Lang keeps a Maven-style tree there) but JUnit and hamcrest.
 * Rule: all of them, not only those the revision's build names — <P>.build.xml puts the whole of lib/ on the tests'
 * class path (a fileset after the revision's own), and older revisions reach lib/ through maven.repo.local too; an
 * unused jar on the class path is harmless. Order: the jars the revision's build file lists (`revisionClassPath`),
 * in its order, then the others by path — as Defects4J's class path has them, so where lib/ holds several versions of
 * one artifact (JacksonXml: 15 jackson-databind jars) the revision's own version comes first and wins.
 * Two jars with one file name: the first in that order wins (names key the runner's class path).
 */
export function libJars(projectDir: string, revisionJars: string[] = []): LibJar[] {
  const lib = join(projectDir, 'lib');
  if (!existsSync(lib)) return [];
  const found: LibJar[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.jar') && !RUNNER_PROVIDED.test(entry)) found.push({ name: entry, path: relative(lib, path), absolutePath: path });
    }
  };
  walk(lib);
  const rank = (jar: LibJar) => {
    const i = revisionJars.indexOf(jar.path);
    return i < 0 ? revisionJars.length : i;
  };
  const byName = new Map<string, LibJar>();
  for (const jar of found.sort((a, b) => rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) if (!byName.has(jar.name)) byName.set(jar.name, jar);
  return [...byName.values()];
}

/**
 * The jars a revision's Defects4J build file lists for its tests, as paths under lib/ (Defects4J sets maven.repo.local
 * to lib/): the `build.test.classpath` of build_files/<rev>/maven-build.xml, else its `build.classpath`, for the first
 * of `revisions` that has one; [] when none does.
 */
export function revisionClassPath(projectDir: string, revisions: string[]): string[] {
  for (const rev of revisions) {
    const text = readOptional(join(projectDir, 'build_files', rev, 'maven-build.xml'));
    for (const id of ['build.test.classpath', 'build.classpath']) {
      const block = new RegExp(`<path\\s+id="${id.replaceAll('.', '\\.')}"\\s*>([\\s\\S]*?)</path>`).exec(text)?.[1];
      if (!block) continue;
      return [...block.matchAll(/<pathelement\s+location="\$\{maven\.repo\.local\}\/([^"]+\.jar)"/g)].map((m) => m[1]!);
    }
  }
  return [];
}

/**
 * The jars of `revisionJars` (revisionClassPath) that lib/ should hold and does not: the jar's version directory is
 * there, the jar is not — a Defects4J checkout whose clone lacks the blob (this machine's mirror of rjust/defects4j
 * lacks JacksonDatabind's groovy-1.7.9.jar and groovy-2.4.0.jar). Data, not a failure of the import. A jar whose
 * directory is absent too is one Defects4J never had (Lang's build files list jcip-annotations, which lib/ lacks).
 */
export function missingRevisionJars(projectDir: string, revisionJars: string[]): string[] {
  const lib = join(projectDir, 'lib');
  return revisionJars.filter((j) => !RUNNER_PROVIDED.test(basename(j)) && !existsSync(join(lib, j)) && existsSync(dirname(join(lib, j))));
}

export interface JavaLevels {
  source: string;
  target: string;
  /** where the level was read: a file, or "default for <year>" */
  from: string;
}

/** "5" → "1.5", "8" → "1.8", "1.2" → "1.3" (ecj's lowest), "11" → "11"; undefined when not a level. */
export function normalizeLevel(text: string): string | undefined {
  const m = /^(?:1\.)?(\d+)$/.exec(text.trim());
  if (!m) return undefined;
  const major = Number(m[1]);
  if (major < 1 || major > 25) return undefined;
  if (major <= 3) return '1.3';
  return major <= 8 ? `1.${major}` : String(major);
}

const SOURCE_PATTERNS = [
  /^\s*maven\.compiler?\.source\s*[=:]\s*(\S+)/m, // maven-build.properties, project.properties
  /<maven\.compiler?\.source>\s*([^<\s]+)\s*</, // pom.xml properties
  /<property\s+name="(?:compile\.source|javac\.source|source\.level)"\s+value="([^"]+)"/, // ant properties
  /<javac\b[^>]*?\bsource="([^"$]+)"/s, // ant <javac source="1.4">
  /<source>\s*([\d.]+)\s*<\/source>/, // maven-compiler-plugin configuration
];
const TARGET_PATTERNS = [
  /^\s*maven\.compiler?\.target\s*[=:]\s*(\S+)/m,
  /<maven\.compiler?\.target>\s*([^<\s]+)\s*</,
  /<property\s+name="(?:compile\.target|javac\.target|target\.level)"\s+value="([^"]+)"/,
  /<javac\b[^>]*?\btarget="([^"$]+)"/s,
  /<target>\s*([\d.]+)\s*<\/target>/,
];
const BUILD_FILE_NAMES = ['maven-build.properties', 'project.properties', 'default.properties', 'build.properties', 'pom.xml', 'maven-build.xml', 'build.xml'];

function firstLevel(text: string, patterns: RegExp[]): string | undefined {
  for (const pattern of patterns) {
    const level = pattern.exec(text)?.[1];
    const normalized = level === undefined ? undefined : normalizeLevel(level);
    if (normalized) return normalized;
  }
  return undefined;
}

/** The level a project of that era was written for, when no build file says: Java 1.4 before 2005, 5 to 2010, 6 to 2013, then 8. */
export function levelByEra(year: number): string {
  return year < 2005 ? '1.4' : year <= 2010 ? '1.5' : year <= 2013 ? '1.6' : '1.8';
}

/** The build files to read for a revision, in order: Defects4J's build_files/<rev>/ for each revision, then the project's own at the first. */
function buildFileCandidates(projectDir: string, revisions: string[], readRevisionFile: (path: string) => string | undefined): { from: string; text: () => string }[] {
  const candidates: { from: string; text: () => string }[] = [];
  for (const rev of revisions) {
    for (const name of BUILD_FILE_NAMES) {
      const path = join(projectDir, 'build_files', rev, name);
      candidates.push({ from: path, text: () => readOptional(path) });
    }
  }
  for (const name of BUILD_FILE_NAMES) candidates.push({ from: `${name} at ${revisions[0]}`, text: () => readRevisionFile(name) ?? '' });
  return candidates;
}

/**
 * The lowest level Defects4J builds at. Its recipes rewrite every source/target level below 1.6 in the build files to
 * 1.6 ("Consistent target JVM version for all defect builds": Cli, Closure, Codec, Collections, Gson, JxPath, Math and
 * Mockito's `_post_checkout`), and the JDK it runs on (11) compiles nothing below 6 — so Lang and Time revisions whose
 * build asks for 1.3–1.5 are built at 6 or later too. The old level is not only unused but wrong: Defects4J's own diffs
 * need more (Lang 42–65's compile-errors/testOrder*.diff add JUnit annotations to 1.3-era tests; Lang's `enum` package
 * is renamed because `enum` is a keyword).
 */
export const DEFECTS4J_LOWEST_LEVEL = '1.6';

/** "1.3" < "1.6" < "1.8" < "11". */
function levelNumber(level: string): number {
  return Number(level.startsWith('1.') ? level.slice(2) : level);
}

/** A level below DEFECTS4J_LOWEST_LEVEL raised to it, saying so in `from`. */
export function atDefects4jLevel(levels: JavaLevels): JavaLevels {
  const floor = levelNumber(DEFECTS4J_LOWEST_LEVEL);
  const raise = (level: string) => (levelNumber(level) < floor ? DEFECTS4J_LOWEST_LEVEL : level);
  const source = raise(levels.source);
  const target = raise(levels.target);
  if (source === levels.source && target === levels.target) return levels;
  return { source, target, from: `${levels.from}: ${levels.source}, raised to ${DEFECTS4J_LOWEST_LEVEL} as Defects4J builds it` };
}

/**
 * The source/target level of a revision. First the build files Defects4J ships for it (build_files/<fixed rev>/, then
 * <buggy rev>/), then the project's own build files at the fixed revision (`readRevisionFile`), each in the order of
 * BUILD_FILE_NAMES; else the era's default (`levelByEra` of the fixed revision's commit year). Either is raised to
 * DEFECTS4J_LOWEST_LEVEL when lower.
 */
export function javaLevels(projectDir: string, revisions: string[], readRevisionFile: (path: string) => string | undefined, year: number): JavaLevels {
  for (const candidate of buildFileCandidates(projectDir, revisions, readRevisionFile)) {
    const text = candidate.text();
    const source = text ? firstLevel(text, SOURCE_PATTERNS) : undefined;
    if (source) return atDefects4jLevel({ source, target: firstLevel(text, TARGET_PATTERNS) ?? source, from: candidate.from });
  }
  const level = levelByEra(year);
  return atDefects4jLevel({ source: level, target: level, from: `default for ${year}` });
}

/**
 * Where builds name the sources' encoding, most specific first: what the compile task itself is given (an ant
 * `<javac encoding="…">` — Lang's maven-build.xml says iso-8859-1 there while its properties also carry
 * project.build.sourceEncoding=UTF-8 for the site), then maven.compile.encoding, commons.encoding and
 * project.build.sourceEncoding, as properties or pom elements. Values naming a property (`${…}`) are skipped.
 */
const ENCODING_PATTERNS = [
  /<javac\b[^>]*?\bencoding="([^"$]+)"/s,
  /^\s*maven\.compile\.encoding\s*[=:]\s*(\S+)/m,
  /<maven\.compile\.encoding>\s*([^<\s$]+)\s*</,
  /^\s*commons\.encoding\s*[=:]\s*(\S+)/m,
  /<commons\.encoding>\s*([^<\s$]+)\s*</,
  /^\s*project\.build\.sourceEncoding\s*[=:]\s*(\S+)/m,
  /<project\.build\.sourceEncoding>\s*([^<\s$]+)\s*</,
];

/** A build file's encoding name as SourceEncoding spells it; undefined for one the runner does not know. */
export function normalizeEncoding(name: string): SourceEncoding | undefined {
  const key = name.trim().toLowerCase().replace(/[^a-z0-9]/g, '');
  if (key === 'utf8') return 'UTF-8';
  if (['iso88591', 'latin1', 'l1'].includes(key)) return 'ISO-8859-1';
  if (['usascii', 'ascii'].includes(key)) return 'US-ASCII';
  return undefined;
}

export interface EncodingFound {
  /** undefined: nothing said, or a name the runner does not know (`from` then says which) */
  encoding?: SourceEncoding;
  from: string;
}

/** The sources' encoding, read from the same build files as the levels, in the same order; none found: UTF-8 (the runner's default). */
export function sourceEncoding(projectDir: string, revisions: string[], readRevisionFile: (path: string) => string | undefined): EncodingFound {
  for (const candidate of buildFileCandidates(projectDir, revisions, readRevisionFile)) {
    const text = candidate.text();
    if (!text) continue;
    for (const pattern of ENCODING_PATTERNS) {
      const name = pattern.exec(text)?.[1];
      if (name === undefined) continue;
      const encoding = normalizeEncoding(name);
      return encoding ? { encoding, from: candidate.from } : { from: `${candidate.from} (says ${name}, which the runner does not know: UTF-8 used)` };
    }
  }
  return { from: 'no build file says (UTF-8)' };
}

/**
 * Tests a Defects4J test list names: `--- pkg.Class::method` and whole classes (`--- pkg.Class`), stack traces ignored.
 * failing_tests/<rev>, dependent_tests, random_tests and broken_tests all use this format.
 */
export function parseExcludedTests(text: string): string[] {
  return text
    .split('\n')
    .map((l) => /^---\s+([\w$.]+(?:::[\w$]+)?)\s*$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => m[1]!);
}

/**
 * The suite Defects4J runs (`defects4j test`): the `all.manual.tests` fileset of framework/projects/<P>/<P>.build.xml,
 * as layout.suiteFiles — its include and exclude patterns over test sources, without those naming a property (`${test}`
 * selects a single test when asked for one). Patterns over compiled classes (Closure's and Mockito's `**\/*Test.class`)
 * are read over the sources they come from. Undefined when the project has no such fileset: every test class runs.
 */
export function suiteFiles(projectDir: string): { include: string[]; exclude: string[] } | undefined {
  const buildFile = join(projectDir, `${basename(projectDir)}.build.xml`);
  if (!existsSync(buildFile)) return undefined;
  const fileset = /<fileset\s+id="all\.manual\.tests"[^>]*>([\s\S]*?)<\/fileset>/.exec(readFileSync(buildFile, 'utf8'))?.[1];
  if (fileset === undefined) return undefined;
  const patterns = (kind: 'include' | 'exclude') =>
    [...fileset.matchAll(new RegExp(`<${kind}\\s+name\\s*=\\s*(["'])(.*?)\\1`, 'g'))]
      .map((m) => m[2]!.trim())
      .filter((p) => p && !p.includes('${'))
      .map((p) => p.replace(/\.class$/, '.java'));
  const include = patterns('include');
  return include.length > 0 ? { include, exclude: patterns('exclude') } : undefined;
}

/**
 * Where Defects4J's build puts the classes (`classes.dir`, `test.classes.dir` of framework/projects/<P>/<P>.build.xml),
 * as layout.outputDirs, when the build file names them under the work directory: Cli's says `target/classes/` and
 * `target/test-classes/` (as `<condition … else="${d4j.workdir}/target/classes/">`), where its JDependTest reads
 * them. Undefined when it does not name both that way (a value built from other properties is not followed).
 */
export function outputDirs(projectDir: string): { classes: string; testClasses: string } | undefined {
  const buildFile = join(projectDir, `${basename(projectDir)}.build.xml`);
  if (!existsSync(buildFile)) return undefined;
  const text = readFileSync(buildFile, 'utf8');
  const dirOf = (property: string) => {
    const element = new RegExp(`<(?:property\\s+name|condition\\s+property)="${property.replace('.', '\\.')}"[^>]*>`).exec(text)?.[0];
    const value = element && /(?:value|else)="\$\{d4j\.workdir\}\/([^"$]+?)\/?"/.exec(element)?.[1];
    return value && !value.split('/').includes('..') ? value : undefined;
  };
  const classes = dirOf('classes.dir');
  const testClasses = dirOf('test.classes.dir');
  return classes && testClasses ? { classes, testClasses } : undefined;
}
