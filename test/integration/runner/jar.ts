// Builds a jar from Java sources with the JDK's javac and jar, for tests of jars by content (ProjectLayout.jars).
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * `sources`: path under the source root (e.g. `greet/Greeter.java`) → text. Returns the jar's bytes. `leaveOut`: class
 * files compiled but left out of the jar (e.g. `demo/Calc.class`: stand-ins for a project's classes a jar names).
 */
export async function buildJar(sources: Record<string, string>, javacArgs: string[] = ['--release', '8'], leaveOut: string[] = []): Promise<Uint8Array> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-jar-'));
  try {
    const files: string[] = [];
    for (const [name, text] of Object.entries(sources)) {
      const file = path.join(dir, 'src', name);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text);
      files.push(file);
    }
    const javac = spawnSync('javac', [...javacArgs, '-d', path.join(dir, 'classes'), ...files], { encoding: 'utf8' });
    if (javac.status !== 0) throw new Error(javac.stderr);
    for (const classFile of leaveOut) await rm(path.join(dir, 'classes', classFile));
    const jar = spawnSync('jar', ['cf', path.join(dir, 'out.jar'), '-C', path.join(dir, 'classes'), '.'], { encoding: 'utf8' });
    if (jar.status !== 0) throw new Error(jar.stderr);
    return new Uint8Array(await readFile(path.join(dir, 'out.jar')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
