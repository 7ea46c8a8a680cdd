// The tests of a stored repository at a commit, and the project layout read from its tree — what the bug maker offers
// a person before the runner has run anything. The layout comes from where the Java files are (each folder's
// `package` line says which root it hangs under), the build file (pom.xml, build.gradle: the Java level) and the
// tests' imports (the JUnit generation); the tests from tree-sitter: JUnit 4/5 methods annotated as tests, and
// JUnit 3's public void test*() methods in classes that extend another.
import type { JavaAnalyzer } from '../java/index.ts';
import type { RepoSession } from '../repo/session.ts';
import type { JUnitVersion, ProjectJar, ProjectLayout } from '../contracts/bug.ts';
import type { CommitTests, FoundTest } from '../contracts/bug-from-repo.ts';

const decoder = new TextDecoder();
const TEST_ANNOTATION = /@(?:org\.junit\.(?:jupiter\.api\.|jupiter\.params\.)?)?(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b/;
const SKIPPED_ANNOTATION = /@(?:org\.junit\.(?:jupiter\.api\.)?)?(?:Ignore|Disabled)\b/;
/** a folder named test or tests (src/test/java, test, tests, src/test) holds tests */
const TEST_ROOT = /(^|\/)tests?(\/|$)/;
const JAR_NAME = /^[\w.+-]+\.jar$/;
/** the runner puts its own JUnit and hamcrest first (docs/runner-api.md): a project's copies are left out of `jars` */
const RUNNER_OWN_JAR = /^(junit|hamcrest)/i;

function packageOf(source: string): string {
  return /^\s*package\s+([\w.]+)\s*;/m.exec(source)?.[1] ?? '';
}

function dirOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at < 0 ? '' : path.slice(0, at);
}

/** The source root a folder of package `pkg` hangs under ('' = the top), or undefined when the folder does not end in the package's path. */
function rootOf(dir: string, pkg: string): string | undefined {
  if (!pkg) return dir;
  const tail = pkg.replace(/\./g, '/');
  if (dir === tail) return '';
  return dir.endsWith(`/${tail}`) ? dir.slice(0, dir.length - tail.length - 1) : undefined;
}

/** The Java level the build file asks for: `javaRelease`, plus `sourceLevel` below 1.8. */
function javaLevelOf(buildFiles: { path: string; text: string }[]): { javaRelease: number; sourceLevel?: string; from?: string } | undefined {
  const patterns = [
    /<maven\.compiler\.release>\s*([\d.]+)\s*</,
    /<maven\.compiler\.source>\s*([\d.]+)\s*</,
    /<release>\s*([\d.]+)\s*<\/release>/,
    /<source>\s*([\d.]+)\s*<\/source>/,
    /sourceCompatibility\s*=\s*['"]?(?:JavaVersion\.VERSION_)?([\d._]+)/,
    /JavaLanguageVersion\.of\(\s*(\d+)\s*\)/,
  ];
  for (const file of buildFiles) {
    for (const pattern of patterns) {
      const raw = pattern.exec(file.text)?.[1]?.replace(/_/g, '.');
      if (!raw) continue;
      const old = /^1\.([3-8])$/.exec(raw);
      if (old) return Number(old[1]) < 8 ? { javaRelease: 8, sourceLevel: raw, from: file.path } : { javaRelease: 8, from: file.path };
      const n = Number(raw);
      if (Number.isInteger(n) && n >= 8 && n <= 25) return { javaRelease: n, from: file.path };
    }
  }
  return undefined;
}

/** The tests a test source declares, as `pkg.Class::method` (top-level, non-abstract classes; nested classes are not listed). */
export function testsInSource(java: JavaAnalyzer, source: string, file: string): FoundTest[] {
  const pkg = packageOf(source);
  const lines = source.split('\n');
  const found: FoundTest[] = [];
  for (const type of java.types(source)) {
    if (type.kind !== 'class' || type.name.includes('.')) continue;
    const declaration = lines.slice(type.start - 1, type.start + 2).join(' ');
    if (new RegExp(`\\babstract\\b[^{]*\\bclass\\s+${type.name}\\b`).test(declaration)) continue;
    const extendsAnother = new RegExp(`\\bclass\\s+${type.name}\\b[^{]*\\bextends\\b`).test(declaration);
    for (const method of type.methods) {
      if (method.kind !== 'method' || SKIPPED_ANNOTATION.test(method.signature)) continue;
      const annotated = TEST_ANNOTATION.test(method.signature);
      const junit3 = extendsAnother && /\bpublic\b/.test(method.signature) && new RegExp(`\\bvoid\\s+${method.name}\\s*\\(\\s*\\)`).test(method.signature) && /^test/.test(method.name);
      if (!annotated && !junit3) continue;
      const className = pkg ? `${pkg}.${type.name}` : type.name;
      found.push({ id: `${className}::${method.name}`, className, method: method.name, file });
    }
  }
  return found;
}

/**
 * The layout of the tree at `commit`. What cannot be read is said in `notes` and falls back to Maven's defaults
 * (src/main/java, src/test/java, Java 11, JUnit 4), which the person can change before saving.
 */
export async function readLayout(session: RepoSession, commit: string): Promise<{ commit: string; layout: ProjectLayout; notes: string[] }> {
  const oid = await session.resolveRef(commit);
  const files = await session.listTree(oid);
  const text = async (f: { oid: string }) => decoder.decode(await session.readBlob(f.oid));
  const notes: string[] = [];

  // One file per folder says the folder's package (a folder's files share one), and so the root it hangs under.
  const javaFiles = files.filter((f) => f.path.endsWith('.java'));
  const firstPerDir = new Map<string, (typeof javaFiles)[number]>();
  for (const f of javaFiles) if (!firstPerDir.has(dirOf(f.path))) firstPerDir.set(dirOf(f.path), f);
  const roots = new Set<string>();
  for (const [dir, f] of firstPerDir) {
    const root = rootOf(dir, packageOf(await text(f)));
    if (root !== undefined) roots.add(root);
  }
  // Java files in the default package at the top of the tree (build scripts, examples) make no source root: the
  // runner takes folders
  const sortedRoots = [...roots].filter((r) => r !== '').sort();
  const testDirs = sortedRoots.filter((r) => TEST_ROOT.test(r));
  const sourceDirs = sortedRoots.filter((r) => !TEST_ROOT.test(r));
  if (!javaFiles.length) notes.push('The tree at this commit has no Java files: RepairLab makes bugs of Java projects.');
  if (!testDirs.length) notes.push('No test folder found (a folder named test or tests holding Java files): set the test folders by hand.');
  if (!sourceDirs.length) notes.push('No program source folder found: set the source folders by hand.');

  const inTests = (path: string) => testDirs.some((d) => path.startsWith(`${d}/`));
  let junit: JUnitVersion | undefined;
  for (const f of javaFiles.filter((f) => inTests(f.path))) {
    const source = await text(f);
    if (/\bimport\s+(static\s+)?org\.junit\.jupiter\./.test(source)) junit = 'junit5';
    else if (junit !== 'junit5' && /\bimport\s+(static\s+)?org\.junit\./.test(source)) junit = 'junit4';
    else if (!junit && /\bimport\s+junit\.framework\./.test(source)) junit = 'junit3';
  }
  if (!junit) notes.push('No JUnit import found in the tests: JUnit 4 assumed.');

  const buildFiles: { path: string; text: string }[] = [];
  for (const name of ['pom.xml', 'build.gradle', 'build.gradle.kts']) {
    const f = files.find((x) => x.path === name);
    if (f) buildFiles.push({ path: name, text: await text(f) });
  }
  const level = javaLevelOf(buildFiles);
  if (level) notes.push(`Java ${level.sourceLevel ?? level.javaRelease} from ${level.from}.`);
  else notes.push('No Java level found in pom.xml or build.gradle: Java 11 assumed.');

  const jars: ProjectJar[] = [];
  for (const f of files) {
    const name = f.path.slice(f.path.lastIndexOf('/') + 1);
    if (!name.endsWith('.jar') || inTests(f.path) || RUNNER_OWN_JAR.test(name)) continue;
    if (!JAR_NAME.test(name)) {
      notes.push(`The jar ${f.path} has a name the runner does not take (letters, digits, '.', '+', '_' and '-'): left out.`);
      continue;
    }
    jars.push({ name, oid: f.oid });
  }
  if (jars.length) notes.push(`Jars on the class path: ${jars.map((j) => j.name).join(', ')}.`);

  const has = (dir: string) => files.some((f) => f.path.startsWith(`${dir}/`));
  const version = junit ?? 'junit4';
  const layout: ProjectLayout = {
    sourceDirs: sourceDirs.length ? sourceDirs : ['src/main/java'],
    testDirs: testDirs.length ? testDirs : ['src/test/java'],
    resourceDirs: has('src/main/resources') ? ['src/main/resources'] : [],
    testResourceDirs: has('src/test/resources') ? ['src/test/resources'] : [],
    javaRelease: level?.javaRelease ?? 11,
    junit: version,
    classpath: version === 'junit5' ? ['junit5', 'hamcrest'] : ['junit4', 'hamcrest'],
    ...(level?.sourceLevel ? { sourceLevel: level.sourceLevel } : {}),
    ...(jars.length ? { jars } : {}),
  };
  return { commit: oid, layout, notes };
}

/** The layout of the tree at `commit` (readLayout) and the test methods under its test folders. */
export async function commitTests(session: RepoSession, java: JavaAnalyzer, commit: string): Promise<CommitTests> {
  const { commit: oid, layout, notes } = await readLayout(session, commit);
  const inTests = (path: string) => layout.testDirs.some((d) => path.startsWith(`${d.replace(/\/+$/, '')}/`));
  const tests: FoundTest[] = [];
  for (const f of (await session.listTree(oid)).filter((f) => f.path.endsWith('.java') && inTests(f.path))) {
    const source = decoder.decode(await session.readBlob(f.oid));
    // only files that can declare a test are parsed
    if (!TEST_ANNOTATION.test(source) && !/\bvoid\s+test\w*\s*\(/.test(source)) continue;
    tests.push(...testsInSource(java, source, f.path));
  }
  tests.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (!tests.length) notes.push(`No test method found under ${layout.testDirs.join(', ')}: name failing tests by hand (pkg.Class::method), or run the suite.`);
  return { repoId: session.repoId, commit: oid, layout, tests, notes };
}
