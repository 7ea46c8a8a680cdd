// The direct bug check: materialize commits from a bare repository (git archive), then compile and run
// every test with the real javac and JUnit 4 in one JVM per group of revisions
// (benchmarks/tools/JUnitRevisionCheck.java). It needs a JDK ≥ 11 and /usr/share/java/junit4.jar + hamcrest.
// The runner service (runner/) is the product path; this is the dependency-free check used by the tests.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProjectLayout } from '../../worker/contracts/bug.ts';
import { gitEnv } from '../git.ts';

const HARNESS = resolve(dirname(fileURLToPath(import.meta.url)), '../tools/JUnitRevisionCheck.java');
const JAVA_LIBS = ['/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar'];

export interface TestOutcome {
  id: string;
  status: 'pass' | 'fail';
  message: string;
}

export interface RevisionOutcome {
  dir: string;
  compiled: boolean;
  diagnostics: string[];
  tests: TestOutcome[];
}

export function missingJavaPrerequisites(): string[] {
  const missing = JAVA_LIBS.filter((jar) => !existsSync(jar));
  try {
    execFileSync('java', ['-version'], { stdio: 'pipe' });
    execFileSync('javac', ['-version'], { stdio: 'pipe' });
  } catch {
    missing.push('java (a JDK ≥ 11 on PATH)');
  }
  return missing;
}

/** Writes the tree of `commit` into `dir` (no checkout, no change to the repository). */
export function materializeCommit(gitDir: string, commit: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['--git-dir', gitDir, 'archive', '--format=tar', commit], { env: gitEnv(), maxBuffer: 512 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
}

/** Compiles and tests each revision directory; groups run in parallel JVMs (default 2). */
export async function runRevisions(dirs: string[], layout: ProjectLayout, parallel = 2): Promise<Map<string, RevisionOutcome>> {
  if (layout.sourceDirs.length !== 1 || layout.testDirs.length !== 1 || layout.junit !== 'junit4') {
    throw new Error('the direct JUnit check handles one source dir, one test dir and JUnit 4; use the runner for other layouts');
  }
  const groups: string[][] = Array.from({ length: Math.max(1, Math.min(parallel, dirs.length)) }, () => []);
  dirs.forEach((dir, i) => groups[i % groups.length]!.push(dir));
  const results = new Map<string, RevisionOutcome>();
  await Promise.all(groups.map((group) => runGroup(group, layout, results)));
  for (const dir of dirs) {
    if (!results.has(dir)) throw new Error(`the JUnit harness reported nothing for ${dir}`);
  }
  return results;
}

/** Compiles the harness once per content version (the source launcher would recompile it in every JVM). */
function compiledHarness(): string {
  const hash = createHash('sha256').update(readFileSync(HARNESS)).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), `repairlab-junit-harness-${hash}`);
  if (!existsSync(join(dir, 'JUnitRevisionCheck.class'))) {
    const staging = `${dir}.${process.pid}`;
    mkdirSync(staging, { recursive: true });
    execFileSync('javac', ['-cp', JAVA_LIBS.join(':'), '-d', staging, HARNESS], { stdio: 'pipe' });
    try {
      renameSync(staging, dir);
    } catch {
      // another process won the race; its copy is identical
    }
  }
  return dir;
}

function runGroup(dirs: string[], layout: ProjectLayout, results: Map<string, RevisionOutcome>): Promise<void> {
  if (dirs.length === 0) return Promise.resolve();
  const classpath = [compiledHarness(), ...JAVA_LIBS].join(':');
  const args = ['-cp', classpath, '-Xss4m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', 'JUnitRevisionCheck', String(layout.javaRelease), layout.sourceDirs[0]!, layout.testDirs[0]!, ...dirs];
  return new Promise((resolveGroup, reject) => {
    const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TZ: 'UTC', LC_ALL: 'C' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      for (const line of stdout.split('\n').filter((l) => l.startsWith('{'))) {
        const rec = JSON.parse(line) as { rev: string; compiled?: boolean; diagnostics?: string[]; test?: string; status?: 'pass' | 'fail'; message?: string };
        if (rec.compiled !== undefined) {
          results.set(rec.rev, { dir: rec.rev, compiled: rec.compiled, diagnostics: rec.diagnostics ?? [], tests: [] });
        } else if (rec.test) {
          results.get(rec.rev)!.tests.push({ id: rec.test, status: rec.status!, message: rec.message ?? '' });
        }
      }
      if (code !== 0) reject(new Error(`JUnit harness exited with ${code}: ${stderr.slice(0, 2000)}`));
      else resolveGroup();
    });
  });
}

export function failingIds(outcome: RevisionOutcome): string[] {
  return outcome.tests.filter((t) => t.status !== 'pass').map((t) => t.id).sort();
}

export const revisionDir = (root: string, bugId: string, side: 'buggy' | 'fixed') => join(root, bugId, side);
