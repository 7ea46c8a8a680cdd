// BugSpec: what RepairLab knows about one Java bug. Single source of truth for the format
// (docs/formats/ JSON Schemas are generated from these zod schemas).
//
// The ground truth (`groundTruth`) never reaches an agent: the engine hands tools a PublicBug
// (see `toPublicBug`), and the agent's workspace is the buggy commit's tree only.
import { z } from 'zod';

/** Fully qualified test id as Defects4J prints it: `pkg.Class::method`. */
export const TestId = z.string().regex(/^[\w$.]+::[\w$]+$/, 'test ids look like pkg.Class::method');
export type TestId = z.infer<typeof TestId>;

export const JUnitVersion = z.enum(['junit3', 'junit4', 'junit5']);
export type JUnitVersion = z.infer<typeof JUnitVersion>;

/** A jar by content: `oid` is its git blob oid (sha1 of "blob <size>\\0" + bytes), the key /v1/blobs stores it under. */
export const ProjectJar = z.object({
  name: z.string().regex(/^[\w.+-]+\.jar$/, 'jar names look like commons-io-1.4.jar'),
  oid: z.string().regex(/^[0-9a-f]{40}$/),
});
export type ProjectJar = z.infer<typeof ProjectJar>;

/** A -source/-target level: 1.3 … 1.8, then 9 … 25. */
export const JavaLevel = z.string().regex(/^(1\.[3-8]|9|1[0-9]|2[0-5])$/, 'Java levels look like 1.4, 1.8 or 11');

/**
 * The java.base packages Defects4J's projects reflect into (JDK 8 let them; JDK 17 needs --add-opens). Not java.io:
 * the harness's result channel (stdin/stdout file descriptors) lives there (docs/runner-api.md "The result channel").
 */
export const DEFECTS4J_ADD_OPENS = [
  'java.base/java.lang',
  'java.base/java.lang.reflect',
  'java.base/java.util',
  'java.base/java.util.concurrent',
  'java.base/java.text',
  'java.base/java.math',
  'java.base/java.net',
  'java.base/java.nio.charset',
] as const;

/** Source encodings the runner can compile with (Java's names); the runner also writes patched files in it. */
export const SourceEncoding = z.enum(['UTF-8', 'ISO-8859-1', 'US-ASCII']);
export type SourceEncoding = z.infer<typeof SourceEncoding>;

/** Where and when an environment exclusion was measured: the runner's JDK, the day, the command that measured it. */
export const ExclusionMeasurement = z.object({
  jdk: z.string().min(1).describe('the JDK the tests ran on (the runner\'s /v1/health `jdk`), e.g. "17.0.15"'),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day like 2026-11-27').describe('the day (UTC) it was measured'),
  command: z.string().min(1).describe('the command that measured it'),
  defects4j: z.string().optional().describe('the Defects4J checkout\'s commit, when known'),
});
export type ExclusionMeasurement = z.infer<typeof ExclusionMeasurement>;

/** A test excluded for the environment, with why — kept apart from excludedTests (the benchmark's own broken tests). */
export const EnvironmentExclusion = z.object({
  test: z.string().regex(/^[\w$.]+(::[\w$]+)?$/, 'excluded tests look like pkg.Class::method or pkg.Class'),
  reason: z.string().min(1),
  measured: ExclusionMeasurement.optional().describe('where and when the failure was measured (exclusions shipped with RepairLab carry it)'),
});
export type EnvironmentExclusion = z.infer<typeof EnvironmentExclusion>;

/** Every test a layout leaves out of suite runs: the benchmark's broken tests and the environment's. */
export function allExcludedTests(layout: { excludedTests?: string[]; environmentExcludedTests?: EnvironmentExclusion[] }): string[] {
  return [...new Set([...(layout.excludedTests ?? []), ...(layout.environmentExcludedTests ?? []).map((e) => e.test)])];
}

/**
 * A program the project's build runs after compiling and before the tests, whose output the tests read as resources
 * (Joda-Time compiles its zone database with org.joda.time.tz.ZoneInfoCompiler). The runner runs it in the sandbox,
 * in a class loader of its own over the compiled (patched) classes, so a patch to the program it runs counts.
 */
export const BuildStep = z.object({
  name: z.string().min(1).describe('what the step makes, for messages (e.g. "the zone database")'),
  mainClass: z.string().regex(/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/, 'mainClass is a fully qualified class name, e.g. org.joda.time.tz.ZoneInfoCompiler'),
  args: z
    .array(z.string().regex(/^[^\t\n]*$/, 'build step arguments hold no tab or newline'))
    .describe('its arguments: {root} stands for the project root, {out} for the step\'s output directory (a resource root of the tests)'),
  systemProperties: z.record(z.string().regex(/^[\w.-]+$/), z.string().regex(/^[^\t\n]*$/)).default({}),
  makeDirs: z
    .array(z.string().regex(/^\{out\}(\/[^\t\n/]+)*$/, 'makeDirs are directories under {out}, e.g. {out}/org/joda/time/tz/data'))
    .default([])
    .describe('directories made before the step runs, as the build\'s <mkdir> (old ZoneInfoCompilers need their destination to exist)'),
});
export type BuildStep = z.infer<typeof BuildStep>;

/** A directory relative to the project root: `/`-separated, no `..`, `.` or empty segment, not absolute. */
const RelativeDir = z
  .string()
  .regex(/^(?!\/)(?!.*(^|\/)\.{1,2}(\/|$))(?!.*\/\/)[^\t\n\0]+(?<!\/)$/, 'a directory relative to the project root, e.g. target/classes (no .., no leading or trailing /)');

/**
 * Host names Defects4J's projects' tests resolve (but never connect to) on a machine with a network: JacksonDatabind's
 * TestJdkTypes, JDKStringLikeTypesTest and JDKTypeSerializationTest resolve google.com and ning.com.
 */
export const DEFECTS4J_RESOLVABLE_HOSTS = ['google.com', 'www.google.com', 'ning.com', 'www.ning.com'];

/**
 * Project directories Defects4J's projects' tests write (Defects4J's checkout is writable throughout; the runner's tree
 * is not): Cli's FileValidatorTest::testValidate_WritableFile checks src/test/data/writable.txt is writable and makes
 * readable.txt read-only. The import names them where the bug's tree has them (layout.writableDirs).
 */
export const DEFECTS4J_WRITABLE_DIRS: Record<string, string[]> = { Cli: ['src/test/data'] };

/**
 * Projects whose tests need Ant's single class path (layout.singleClassPath): Chart's testSerialization* tests (a
 * JCommon class's readObject resolves Chart's classes through the loader JCommon came from; on Chart-1's fix 19 fail
 * with the split class path, 1 with one path — a java.awt.AlphaComposite that was never Serializable). Defects4J
 * builds every project that way; the others keep the runner's split class path, where a jar is loaded once for every
 * validation: each per-class loader defines every linked jar's classes anew (JacksonDatabind-23's fix run took 354 s
 * with one path against ~220 s split, under load), and JacksonDatabind's PowerMock tests, which also need one path,
 * stay excluded for a verdict-integrity reason (docs/defects4j-import.md).
 */
export const DEFECTS4J_SINGLE_CLASS_PATH = new Set(['Chart']);

export const ProjectLayout = z.object({
  sourceDirs: z.array(z.string()).min(1).describe('program source roots, e.g. src/main/java'),
  testDirs: z.array(z.string()).min(1).describe('test source roots, e.g. src/test/java'),
  resourceDirs: z.array(z.string()).default([]),
  testResourceDirs: z.array(z.string()).default([]),
  javaRelease: z.number().int().min(8).max(25).default(11).describe('javac --release'),
  junit: JUnitVersion.default('junit4'),
  classpath: z.array(z.string()).default([]).describe('extra jars known to the runner, by name (e.g. hamcrest)'),
  // The fields below are optional (the runner applies the defaults) so layouts written before them stay valid.
  jars: z
    .array(ProjectJar)
    .optional()
    .describe('jars the project compiles and tests against, by content: uploaded to the runner as blobs (POST /v1/blobs), cached by oid'),
  sourceLevel: JavaLevel.optional().describe('javac/ecj -source (e.g. "1.4"); below 1.8 the runner compiles with ecj'),
  targetLevel: JavaLevel.optional().describe('-target (default: sourceLevel)'),
  compiler: z.enum(['javac', 'ecj']).optional().describe('default: ecj when sourceLevel is below 1.8, javac otherwise'),
  addOpens: z
    .array(z.string().regex(/^java\.base\/[a-z][\w.]*$/, 'addOpens entries look like java.base/java.lang'))
    .optional()
    .describe('java.base packages opened to the tests (--add-opens …=ALL-UNNAMED); see DEFECTS4J_ADD_OPENS'),
  jdkInternalPackages: z
    .array(z.string().regex(/^com\.sun(\.[a-z_][\w]*)+$/, 'jdkInternalPackages entries are com.sun.* package names, e.g. com.sun.org.apache.xerces.internal.jaxp'))
    .optional()
    .describe(
      'JDK-internal packages the sources import, as Java 8\'s rt.jar had them (sources up to Java 8, compiled with ecj): compiled against the running JDK\'s classes and exported to the tests (--add-exports); the runner allows the internals of its EXPORTABLE_MODULES only',
    ),
  sunMiscUnsafe: z
    .enum(['absent', 'allocate-only'])
    .optional()
    .describe(
      'what code under test finds as sun.misc.Unsafe: absent (default: a ClassNotFoundException, as on a JVM without it) or allocate-only (an Unsafe whose only method is allocateInstance, for libraries that build objects without a constructor, as Gson does; the raw-memory methods never exist)',
    ),
  timeZone: z.string().regex(/^[A-Za-z0-9_+\-/]+$/).optional().describe('the tests\' TZ and user.timezone (default America/Los_Angeles, as Defects4J)'),
  locale: z.string().regex(/^[a-z]{2,3}(-[A-Z]{2})?$/).optional().describe('the tests\' default locale as a language tag (default en-US)'),
  excludedTests: z
    .array(z.string().regex(/^[\w$.]+(::[\w$]+)?$/, 'excluded tests look like pkg.Class::method or pkg.Class'))
    .optional()
    .describe('tests (pkg.Class::method) or whole classes left out of suite runs (Defects4J\'s broken tests)'),
  encoding: SourceEncoding.optional().describe('the sources\' character encoding, javac/ecj -encoding (default UTF-8)'),
  localeData: z
    .enum(['cldr', 'compat', 'compat-only'])
    .optional()
    .describe(
      'the JDK\'s locale data for the tests: cldr (JDK 9+ default), compat (JDK 8\'s: -Djava.locale.providers=COMPAT,CLDR) or compat-only (JDK 8\'s data and only its ~160 locales: -Djava.locale.providers=COMPAT)',
    ),
  environmentExcludedTests: z
    .array(EnvironmentExclusion)
    .optional()
    .describe('tests left out because they fail on the developer fix in the runner\'s environment (not the bug\'s): written by the import from the exclusions shipped with RepairLab (docs/formats/environment-exclusions.md), refreshed by `defects4j check --record-env-failures`'),
  suiteFiles: z
    .object({ include: z.array(z.string().min(1)), exclude: z.array(z.string().min(1)).default([]) })
    .optional()
    .describe('which test sources form the suite: Ant patterns over paths relative to a test directory, excludes winning (Defects4J\'s all.manual.tests fileset); default: every test class'),
  buildSteps: z.array(BuildStep).optional().describe('programs run after compiling, before the tests (e.g. Joda-Time\'s zone database compiler)'),
  outputDirs: z
    .object({ classes: RelativeDir, testClasses: RelativeDir })
    .optional()
    .describe(
      'where the project\'s build puts its compiled classes, relative to the root (a Defects4J build.xml\'s classes.dir / test.classes.dir): tests that read them by path (Cli\'s JDependTest reads target/classes) find the validation\'s classes there, read-only. Default: Maven\'s target/classes and target/test-classes when sourceDirs holds src/main/java, none otherwise',
    ),
  writableDirs: z
    .array(RelativeDir)
    .optional()
    .describe(
      'directories of the project (relative to the root) the tests may write: each validation gets a fresh copy of the snapshot\'s, so nothing a test writes reaches another validation (Cli\'s FileValidatorTest checks src/test/data/writable.txt is writable). Default: none, the tree is read-only to the tests',
    ),
  resolvableHosts: z
    .array(z.string().regex(/^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/, 'resolvableHosts are host names, e.g. google.com'))
    .max(100)
    .optional()
    .describe(
      'host names the tests resolve without connecting (JacksonDatabind\'s TestJdkTypes resolves google.com): answered inside the sandbox from its /etc/hosts with a documentation address (192.0.2.1, RFC 5737) no connection can reach; see DEFECTS4J_RESOLVABLE_HOSTS',
    ),
  singleClassPath: z
    .boolean()
    .optional()
    .describe(
      'true: every project jar loads with the project\'s classes, as on Ant\'s single class path (Defects4J\'s build), so a library sees them — JCommon\'s serialization resolves Chart\'s classes through its own loader, PowerMock\'s MockClassLoader reads the test\'s classes as resources through its own. Default false: a jar loads with the project\'s classes only when its code names one of them (Closure\'s caja), every other jar once, from the runner\'s class path',
    ),
  testClassLoaders: z
    .enum(['shared', 'per-class'])
    .optional()
    .describe(
      'per-class: each test class loads the project\'s classes through a class loader of its own, as Ant\'s <junit fork="no"> does with its default reloading (Defects4J\'s build), so static state a test class leaves (commons-lang\'s StandardToStringStyleTest leaves ToStringBuilder\'s default style) does not reach the next class. Default shared: one loader for the validation\'s tests',
    ),
});
export type ProjectLayout = z.infer<typeof ProjectLayout>;

/** One hunk of perfect fault localization, in the buggy version's line numbers (1-based). */
export const FaultLocation = z.object({
  file: z.string(),
  lines: z.array(z.number().int().positive()).min(1),
  /** modify/delete: the listed lines change; insert: code is missing right after the listed line (fault of omission). */
  kind: z.enum(['modify', 'delete', 'insert']),
  method: z.string().optional(),
  className: z.string().optional(),
});
export type FaultLocation = z.infer<typeof FaultLocation>;

/** HAFixAgent's categories: single line, single hunk, single file multi hunk, multi file multi hunk. */
export const BugCategory = z.enum(['SL', 'SH', 'SFMH', 'MFMH']);
export type BugCategory = z.infer<typeof BugCategory>;

export const RepositorySource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('bundled'), bundle: z.string().describe('path under public/benchmarks/') }),
  z.object({ kind: z.literal('url'), url: z.string().url() }),
  z.object({ kind: z.literal('imported'), repoId: z.string() }),
]);
export type RepositorySource = z.infer<typeof RepositorySource>;

export const GroundTruth = z.object({
  fixedCommit: z.string().regex(/^[0-9a-f]{40}$/).optional(),
  /** Unified diff from buggy to fixed (program files only). */
  patch: z.string().optional(),
});
export type GroundTruth = z.infer<typeof GroundTruth>;

export const BugSpec = z.object({
  schemaVersion: z.literal(1),
  id: z.string().regex(/^[A-Za-z0-9][\w.-]*$/),
  library: z.string(),
  repository: RepositorySource,
  /** Repository id inside RepairLab's store (one store entry can serve many bugs). */
  repoId: z.string(),
  buggyCommit: z.string().regex(/^[0-9a-f]{40}$/),
  /** Where history starts when the buggy commit is a reconstruction (Defects4J: the original buggy revision, the buggy
   * commit's parent): blame and the history heuristics read this commit's history, never the buggy commit's own change. */
  historyCommit: z.string().regex(/^[0-9a-f]{40}$/).optional().describe('commit whose history blame reads (default: buggyCommit)'),
  layout: ProjectLayout,
  failingTests: z.array(TestId).min(1),
  report: z.object({ title: z.string(), body: z.string() }),
  faultLocalization: z.array(FaultLocation).min(1),
  category: BugCategory,
  blameable: z.boolean(),
  defectKinds: z.array(z.string()).default([]),
  groundTruth: GroundTruth,
});
export type BugSpec = z.infer<typeof BugSpec>;

export type PublicBug = Omit<BugSpec, 'groundTruth'>;

/** The only view of a bug given to tools, prompts and trajectories. */
export function toPublicBug(bug: BugSpec): PublicBug {
  const { groundTruth: _hidden, ...rest } = bug;
  return rest;
}

/** public/benchmarks/index.json */
export const BenchmarkIndex = z.object({
  schemaVersion: z.literal(1),
  repositories: z.array(
    z.object({ repoId: z.string(), library: z.string(), bundle: z.string(), sha256: z.string(), bytes: z.number().int(), commits: z.number().int() }),
  ),
  bugs: z.array(z.string().describe('path of a BugSpec JSON under public/benchmarks/')),
});
export type BenchmarkIndex = z.infer<typeof BenchmarkIndex>;
