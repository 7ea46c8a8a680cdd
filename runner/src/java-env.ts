// The Java toolchain the runner uses: the JDK, Debian's JUnit/hamcrest/JaCoCo jars, and the harness
// (runner/java/src) compiled once per content hash into the data directory.
import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JUnitVersion } from '../../worker/contracts/bug.ts';

export const JAVA_DIR = process.env.REPAIRLAB_JAVA_LIBS ?? '/usr/share/java';
const HARNESS_SRC = fileURLToPath(new URL('../java/src', import.meta.url));
/** JaCoCo behind JDK types (repairlab.coverage.JacocoProbes): compiled apart, loaded by the harness in a loader of its own */
const COVERAGE_SRC = fileURLToPath(new URL('../java/coverage', import.meta.url));

/**
 * JDK internals the warm harness uses (flags for compiling and running it): javac's JavacTaskPool (JShell's), so the
 * warm compiler reuses javac contexts; javac's release platforms, so --release's ct.sym is opened once (ReleasePlatform);
 * and the ASM inside java.base, which rebuilds batched variants' classes and renames UnsafeAllocateOnly to sun.misc.Unsafe
 * and ProjectSecurityManager to each project loader's security slot.
 */
export const JAVAC_POOL_ACCESS = [
  '--add-exports', 'jdk.compiler/com.sun.tools.javac.api=repairlab.harness',
  '--add-exports', 'jdk.compiler/com.sun.tools.javac.platform=repairlab.harness',
  '--add-exports', 'java.base/jdk.internal.org.objectweb.asm=repairlab.harness',
  '--add-exports', 'java.base/jdk.internal.org.objectweb.asm.tree=repairlab.harness',
  '--add-exports', 'java.base/jdk.internal.org.objectweb.asm.commons=repairlab.harness',
];

/**
 * How a harness JVM starts: the harness as the named module repairlab.harness (runner/java/src/module-info.java —
 * code under test cannot reflect into it), reading the class path, where JUnit and the project's jars stay. JaCoCo
 * and its ASM are not on the class path (they would shadow a project's own ASM): the harness loads them apart, from
 * `repairlab.coverage.path`. The class path holds the runner's JUnit and hamcrest first, then the project's jars
 * (`repairlab.project.jars`: only these may be defined beside the project's classes, see LinkedJars.java).
 */
export function harnessLaunch(harnessDir: string, jars: { runner: string[]; project: string[] }, command: string[]): string[] {
  return [
    // ALL-DEFAULT: the modules a class-path application gets (java.xml, java.sql, jdk.unsupported, …); launched with
    // -m, the JVM would otherwise resolve only what the harness requires, and project code would miss them
    '--module-path', path.join(harnessDir, 'module'), '--add-modules', 'ALL-DEFAULT', '--add-reads', 'repairlab.harness=ALL-UNNAMED', ...JAVAC_POOL_ACCESS,
    `-Drepairlab.coverage.path=${[path.join(harnessDir, 'coverage'), ...COVERAGE_JARS].join(':')}`,
    `-Drepairlab.project.jars=${jars.project.join(':')}`,
    '-cp', [...jars.runner, ...jars.project].join(':'),
    '-m', 'repairlab.harness/repairlab.harness.Harness', ...command,
  ];
}

const jar = (name: string) => path.join(JAVA_DIR, name);

/** Debian's ecj (package ecj → libeclipse-jdt-core-java): compiles -source 1.3 … 1.7 code on a modern JVM. */
export const ECJ_JAR = process.env.REPAIRLAB_ECJ_JAR ?? jar('eclipse-jdt-core.jar');

/** Jars by the names layouts use in `classpath` (ProjectLayout.classpath). */
export const KNOWN_JARS: Record<string, string[]> = {
  junit4: [jar('junit4.jar')],
  hamcrest: [jar('hamcrest.jar')],
  'hamcrest-core': [jar('hamcrest.jar')],
  'hamcrest-library': [jar('hamcrest.jar')],
  junit5: [jar('junit-platform-console-standalone.jar')],
  jacoco: [jar('org.jacoco.core.jar'), jar('asm.jar'), jar('asm-commons.jar'), jar('asm-tree.jar')],
};

const COVERAGE_JARS = KNOWN_JARS.jacoco!;

/** The runner's jars on the harness JVM's class path (before the layout's own; coverage is loaded apart: harnessLaunch) and on javac's. */
export function projectJars(junit: JUnitVersion, extra: string[]): string[] {
  const jars = [...KNOWN_JARS.junit4!, ...KNOWN_JARS.hamcrest!];
  if (junit === 'junit5') jars.unshift(...KNOWN_JARS.junit5!);
  for (const name of extra) {
    const known = KNOWN_JARS[name];
    if (!known) throw new Error(`Unknown classpath entry "${name}": the runner knows ${Object.keys(KNOWN_JARS).join(', ')}.`);
    jars.push(...known);
  }
  return [...new Set(jars)];
}

export function missingJars(): string[] {
  return [...KNOWN_JARS.junit4!, ...KNOWN_JARS.hamcrest!, ...KNOWN_JARS.junit5!, ...COVERAGE_JARS].filter((j) => !existsSync(j));
}

export function jdkVersion(): string {
  const r = spawnSync('javac', ['-version'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error('javac was not found: install a JDK ≥ 17 (Debian: apt-get install openjdk-17-jdk-headless).');
  return (r.stdout || r.stderr).trim();
}

function javaSources(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.java')) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

function javac(args: string[], what: string): void {
  const r = spawnSync('javac', ['-nowarn', '-Xlint:none', '-encoding', 'UTF-8', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`The runner's ${what} did not compile:\n${r.stderr}`);
}

/**
 * Compiles the harness (unsandboxed: it is the runner's own code) into <dataDir>/harness/<hash>: `module/` (the
 * repairlab.harness module) and `coverage/` (JacocoProbes, against JaCoCo); returns that dir.
 */
export async function buildHarness(dataDir: string): Promise<string> {
  const sources = javaSources(HARNESS_SRC);
  const coverageSources = javaSources(COVERAGE_SRC);
  const hash = createHash('sha256');
  for (const s of [...sources, ...coverageSources]) hash.update(s).update(readFileSync(s));
  const dir = path.join(dataDir, 'harness', hash.digest('hex').slice(0, 16));
  if (existsSync(dir)) return dir;
  const tmp = `${dir}.tmp-${process.pid}-${randomUUID()}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  const cp = [...KNOWN_JARS.junit4!, ...KNOWN_JARS.junit5!].join(':');
  // (--add-exports of a system module cannot be combined with --release)
  javac([...JAVAC_POOL_ACCESS, '--add-reads', 'repairlab.harness=ALL-UNNAMED', '-d', path.join(tmp, 'module'), '-cp', cp, ...sources], 'Java harness');
  javac(['--release', '11', '-d', path.join(tmp, 'coverage'), '-cp', COVERAGE_JARS.join(':'), ...coverageSources], 'coverage probes (JaCoCo)');
  await rename(tmp, dir).catch(async (e: NodeJS.ErrnoException) => {
    if (!existsSync(dir)) throw e; // a concurrent start won the race
    await rm(tmp, { recursive: true, force: true });
  });
  await chmod(path.dirname(dir), 0o755);
  return dir;
}

let javaHome: string | undefined;

/** The running JDK's java.home (where lib/ct.sym lives). */
export function jdkHome(): string {
  if (javaHome) return javaHome;
  const r = spawnSync('java', ['-XshowSettings:properties', '-version'], { encoding: 'utf8' });
  const m = /^\s*java\.home = (.+)$/m.exec(r.stderr ?? '');
  if (!m) throw new Error('Could not find the JDK\'s java.home (java -XshowSettings:properties): install a JDK ≥ 17.');
  return (javaHome = m[1]!.trim());
}

const javaApis = new Map<string, Promise<string>>();

/**
 * The Java 8 class library's API as class files, for ecj's -bootclasspath: old sources must compile against the
 * library Defects4J compiled them against, not JDK 17's (where, e.g., java.util.Random gained RandomGenerator's
 * instance nextLong(long), which commons-lang's static JVMRandom.nextLong(long) may not hide). Taken from the JDK's
 * own ct.sym (javac's --release data: class files named .sig, under directories named by the releases that share
 * them) into <dataDir>/api/java8-<hash>, once.
 */
export function java8Api(dataDir: string): Promise<string> {
  let pending = javaApis.get(dataDir);
  if (!pending) {
    pending = extractJava8Api(dataDir);
    pending.catch(() => javaApis.delete(dataDir));
    javaApis.set(dataDir, pending);
  }
  return pending;
}

async function extractJava8Api(dataDir: string): Promise<string> {
  const ctSym = path.join(jdkHome(), 'lib', 'ct.sym');
  const bytes = await readFile(ctSym).catch(() => {
    throw new Error(`The JDK has no ${ctSym}: old sources need it to compile against the Java 8 API (install a full JDK ≥ 17).`);
  });
  const dir = path.join(dataDir, 'api', `java8-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`);
  if (existsSync(dir)) return dir;
  // entries look like 879A/java.base/java/util/Random.sig: the first segment lists the releases (7, 8, 9, A = 10 …)
  const entries = unzipSync(bytes, { filter: (f) => f.name.endsWith('.sig') && (f.name.split('/')[0] ?? '').includes('8') });
  const tmp = `${dir}.tmp-${process.pid}-${randomUUID()}`;
  for (const [name, content] of Object.entries(entries)) {
    const rel = name.split('/').slice(2).join('/').replace(/\.sig$/, '.class');
    const target = path.join(tmp, rel);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    await writeFile(target, content, { mode: 0o644 });
  }
  await chmod(path.dirname(tmp), 0o755).catch(() => undefined);
  await rename(tmp, dir).catch(async (e: NodeJS.ErrnoException) => {
    if (!existsSync(dir)) throw e;
    await rm(tmp, { recursive: true, force: true });
  });
  return dir;
}
