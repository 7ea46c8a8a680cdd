// What a layout asks of the toolchain beyond its sources: jars by content, source/target levels and the compiler
// they need, and the JVM options and environment Defects4J's harness gives the tests. Both paths read it from here.
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { allExcludedTests, type BuildStep, type ProjectLayout } from '../../worker/contracts/bug.ts';
import { HttpError } from './errors.ts';
import { ECJ_JAR, java8Api, projectJars } from './java-env.ts';
import { jdkInternals } from './jdk-internals.ts';
import type { SnapshotStore } from './store.ts';

export const DEFAULT_TIME_ZONE = 'America/Los_Angeles';
export const DEFAULT_LOCALE = 'en-US';

/**
 * Packages never opened, whatever the layout asks: java.io holds the file descriptors of the result channel
 * (stdin carries the answer key, stdout the answer), and the JDK's internals are what ProjectLoader hides.
 */
const NEVER_OPENED = [/^java\.base\/java\.io(\.|$)/, /^java\.base\/(jdk|sun)\./];

export interface ProjectSettings {
  /**
   * the compile class path (absolute jar paths): the uploaded ones (in layout order), then the named ones. The
   * project's own jars come first, as in its build: Mockito's sources implement hamcrest 1.1's Matcher, which the
   * runner's hamcrest 1.3 would shadow. At run time the runner's JUnit and hamcrest come first instead (the JVM's
   * -cp: projectJars, then uploadedJars), as Defects4J runs tests with junit-4.12-hamcrest-1.3 first.
   */
  jars: string[];
  /** uploaded jar files, bound read-only into the sandbox */
  uploadedJars: string[];
  compiler: 'javac' | 'ecj';
  /**
   * ecj's -bootclasspath: the Java 8 API old sources compile against, then the JDK internals they import
   * (jdk-internals.ts); absent for javac and for levels above 8
   */
  bootClassPath?: string[];
  /** javac --release when compiling with javac */
  release: number;
  source: string;
  target: string;
  /** -encoding for javac/ecj, and the charset patched sources are written in (Java's name) */
  encoding: string;
  /** JVM flags and environment for the test JVM */
  jvmOptions: string[];
  env: Record<string, string>;
  /** the benchmark's broken tests and the environment's (layout.environmentExcludedTests) */
  excludedTests: string[];
  /** layout.buildSteps as the harness's `buildStep` entries (buildStepEntry) */
  buildSteps: string[];
  /** where the tests find the compiled classes (layout.outputDirs or Maven's convention; outputDirsOf) */
  outputDirs?: { classes: string; testClasses: string };
  /** project directories the tests may write, a fresh copy per validation (layout.writableDirs) */
  writableDirs: string[];
  /** names the sandbox's /etc/hosts answers (layout.resolvableHosts) */
  resolvableHosts: string[];
  /** a class loader per test class or one for the validation (layout.testClassLoaders) */
  testClassLoaders: 'shared' | 'per-class';
  /** every project jar with the project's classes (layout.singleClassPath) */
  singleClassPath: boolean;
}

/** Maven's output directories, where tests of a Maven-built project look for classes (Cli's JDependTest). */
export const MAVEN_OUTPUT_DIRS = { classes: 'target/classes', testClasses: 'target/test-classes' } as const;

/**
 * Where the tests find the compiled classes: the layout's own, else Maven's convention for a Maven source layout
 * (src/main/java), else nowhere (an Ant layout names its build.xml's classes.dir explicitly).
 */
export function outputDirsOf(layout: ProjectLayout): { classes: string; testClasses: string } | undefined {
  if (layout.outputDirs) return layout.outputDirs;
  return layout.sourceDirs.includes('src/main/java') ? { ...MAVEN_OUTPUT_DIRS } : undefined;
}

/**
 * A build step as one request value, a java command line without the class path: `+mkdir=<dir>` fields, `-Dkey=value`
 * fields, the main class, then its arguments, tab-separated ({root} and {out} are the harness's to fill in).
 */
export function buildStepEntry(step: BuildStep): string {
  const dirs = (step.makeDirs ?? []).map((d) => `+mkdir=${d}`);
  const props = Object.entries(step.systemProperties ?? {}).map(([k, v]) => `-D${k}=${v}`);
  return [...dirs, ...props, step.mainClass, ...step.args].join('\t');
}

/** Node's name for a layout encoding, to write patched sources in the bytes the compiler reads. */
export function nodeEncoding(encoding: string): BufferEncoding {
  return encoding === 'ISO-8859-1' ? 'latin1' : encoding === 'US-ASCII' ? 'ascii' : 'utf8';
}

/**
 * JDK 8's locale data on JDK 17: `compat` keeps CLDR as the fallback for locales COMPAT lacks (JDK 17 then lists ~1,000
 * locales); `compat-only` is JDK 8's default (its JRE data alone, ~160 locales), which tests that loop over every
 * locale expect (Lang's FastDateParser loops: 3 s a test instead of 34 s).
 */
export const LOCALE_PROVIDERS = { compat: '-Djava.locale.providers=COMPAT,CLDR', 'compat-only': '-Djava.locale.providers=COMPAT' } as const;

/** The compiler a layout needs: ecj for sources below 1.8 (javac 17 cannot compile them), javac otherwise. */
export function compilerOf(layout: ProjectLayout): 'javac' | 'ecj' {
  if (layout.compiler) return layout.compiler;
  return layout.sourceLevel && /^1\.[3-7]$/.test(layout.sourceLevel) ? 'ecj' : 'javac';
}

/** The level classes are compiled for: targetLevel, else sourceLevel, else javaRelease. */
function targetOf(layout: ProjectLayout): string {
  return layout.targetLevel ?? layout.sourceLevel ?? String(layout.javaRelease);
}

/** Whether a level is Java 8 or older (the levels compiled against the Java 8 API). */
function upToJava8(level: string): boolean {
  return /^1\.[3-8]$/.test(level) || level === '8';
}

/** Checks what can be checked without the store (names, opens, the compiler's presence); throws a 400. */
export function checkLayoutSettings(layout: ProjectLayout): void {
  try {
    projectJars(layout.junit, layout.classpath);
  } catch (e) {
    throw new HttpError(400, 'bad-request', (e as Error).message);
  }
  for (const open of layout.addOpens ?? []) {
    if (NEVER_OPENED.some((r) => r.test(open))) {
      throw new HttpError(400, 'bad-request', `layout.addOpens asks for ${open}, which the runner never opens (the harness's result channel and the JDK's internals live there): remove it.`);
    }
  }
  if (layout.jdkInternalPackages?.length && !(compilerOf(layout) === 'ecj' && upToJava8(targetOf(layout)))) {
    // javac's --release hides a system module's internals and cannot be combined with --add-exports
    throw new HttpError(400, 'bad-request', `layout.jdkInternalPackages needs sources up to Java 8 compiled with ecj (the layout's compiler is ${compilerOf(layout)}, target ${targetOf(layout)}): set compiler "ecj" and sourceLevel "1.8" or below, or remove the packages.`);
  }
  if (compilerOf(layout) === 'ecj' && !existsSync(ECJ_JAR)) {
    throw new HttpError(400, 'bad-request', `The layout needs ecj (source level ${layout.sourceLevel ?? '?'}), which is not installed at ${ECJ_JAR}: apt-get install ecj on the runner's machine.`);
  }
  checkEnvironmentDirs(layout);
}

/** Whether directory `a` is `b` or lies inside it (relative paths). */
function within(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`);
}

/**
 * The output and writable directories may not overlap each other or the source roots: the tests would write the
 * classes that run, or the sources the warm worker compiles from (and the view of the tree could not be built).
 */
function checkEnvironmentDirs(layout: ProjectLayout): void {
  const out = outputDirsOf(layout);
  const outputs = out ? [out.classes, out.testClasses] : [];
  const roots = [...layout.sourceDirs, ...layout.testDirs];
  const clash = (what: string, dir: string, others: string[], whose: string) => {
    const other = others.find((o) => within(dir, o) || within(o, dir));
    if (other !== undefined) {
      throw new HttpError(400, 'bad-request', `layout.${what} names ${dir}, which overlaps ${whose} ${other}: give the layout separate directories (e.g. outputDirs under target/, writableDirs for test data only).`);
    }
  };
  if (out && (within(out.classes, out.testClasses) || within(out.testClasses, out.classes))) {
    throw new HttpError(400, 'bad-request', `layout.outputDirs names ${out.classes} and ${out.testClasses}, one inside the other: program and test classes go to separate directories.`);
  }
  for (const o of outputs) clash('outputDirs', o, roots, 'the source root');
  for (const w of layout.writableDirs ?? []) {
    // a test root may hold the tests' data (Cli's src/test/data under the test root src/test): the copy is made after
    // the sources are read and afresh for each validation, so a test's writes reach no compile and no other validation
    clash('writableDirs', w, layout.sourceDirs, 'the source root');
    const holdsTestRoot = layout.testDirs.find((t) => within(t, w));
    if (holdsTestRoot !== undefined) {
      throw new HttpError(400, 'bad-request', `layout.writableDirs names ${w}, which holds the test root ${holdsTestRoot}: name the test data directory inside it instead (e.g. ${holdsTestRoot}/data).`);
    }
    clash('writableDirs', w, outputs, 'the output directory');
  }
}

/**
 * The uploaded jars as files named <oid>.jar under <dataDir>/jars (made once per oid from the blob store). A jar
 * whose blob is missing is a 409 `missing-jars` listing the oids to upload with POST /v1/blobs.
 */
export async function uploadedJarFiles(store: SnapshotStore, layout: ProjectLayout): Promise<string[]> {
  const jars = layout.jars ?? [];
  const missing = jars.filter((j) => !store.hasBlob(j.oid));
  if (missing.length) {
    throw new HttpError(409, 'missing-jars', `The runner lacks ${missing.length} jar(s) of the layout (${missing.map((j) => j.name).join(', ')}): POST them to /v1/blobs, then validate again.`, {
      missingBlobs: missing.map((j) => j.oid),
    });
  }
  const dir = path.join(store.dataDir, 'jars');
  await mkdir(dir, { recursive: true, mode: 0o755 });
  await chmod(dir, 0o755).catch(() => undefined);
  const out: string[] = [];
  for (const j of jars) {
    const file = path.join(dir, `${j.oid}.jar`);
    if (!existsSync(file)) {
      const tmp = `${file}.${randomUUID()}.tmp`;
      await copyFile(store.blobFile(j.oid), tmp);
      await chmod(tmp, 0o644);
      await rename(tmp, file);
    }
    out.push(file);
  }
  return [...new Set(out)];
}

export async function projectSettings(store: SnapshotStore, layout: ProjectLayout, userHome: string): Promise<ProjectSettings> {
  checkLayoutSettings(layout);
  const uploadedJars = await uploadedJarFiles(store, layout);
  const compiler = compilerOf(layout);
  const source = layout.sourceLevel ?? String(layout.javaRelease);
  const target = targetOf(layout);
  const timeZone = layout.timeZone ?? DEFAULT_TIME_ZONE;
  const [language, country] = (layout.locale ?? DEFAULT_LOCALE).split('-');
  const jvmOptions = [
    `-Duser.timezone=${timeZone}`,
    `-Duser.language=${language}`,
    ...(country ? [`-Duser.country=${country}`] : []),
    `-Duser.home=${userHome}`,
    ...(layout.localeData && layout.localeData !== 'cldr' ? [LOCALE_PROVIDERS[layout.localeData]] : []),
    ...(layout.addOpens ?? []).flatMap((o) => ['--add-opens', `${o}=ALL-UNNAMED`]),
    // ProjectLoader then defines UnsafeAllocateOnly as sun.misc.Unsafe
    ...(layout.sunMiscUnsafe === 'allocate-only' ? ['-Drepairlab.sunMiscUnsafe=allocate-only'] : []),
  ];

  const internals = layout.jdkInternalPackages?.length ? await jdkInternals(store.dataDir, layout.jdkInternalPackages) : undefined;
  jvmOptions.push(...(internals?.jvmOptions ?? []));
  const bootClassPath = compiler === 'ecj' && upToJava8(target) ? [await java8Api(store.dataDir), ...(internals ? [internals.classDir] : [])] : undefined;
  const outputDirs = outputDirsOf(layout);
  return {
    ...(bootClassPath ? { bootClassPath } : {}),
    jars: [...uploadedJars, ...projectJars(layout.junit, layout.classpath)],
    uploadedJars,
    compiler,
    release: layout.javaRelease,
    source,
    target,
    encoding: layout.encoding ?? 'UTF-8',
    jvmOptions,
    // (LANG stays the sandbox's C.UTF-8: the JVM takes its locale from user.language/user.country)
    env: { TZ: timeZone, HOME: userHome },
    excludedTests: allExcludedTests(layout),
    buildSteps: (layout.buildSteps ?? []).map(buildStepEntry),
    ...(outputDirs ? { outputDirs } : {}),
    writableDirs: [...new Set(layout.writableDirs ?? [])],
    resolvableHosts: [...new Set(layout.resolvableHosts ?? [])],
    testClassLoaders: layout.testClassLoaders ?? 'shared',
    singleClassPath: layout.singleClassPath ?? false,
  };
}
