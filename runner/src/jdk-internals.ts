// JDK-internal packages a project's sources import (layout.jdkInternalPackages). Java 8's rt.jar held them beside the
// API, and Defects4J's JDK 8/11 compiled and ran such code (Closure's XtbMessageBundle builds its SAX parser from
// com.sun.org.apache.xerces.internal.jaxp.SAXParserFactoryImpl). The Java 8 API the runner compiles old sources
// against (ct.sym: java8Api) has no internal package, and JDK 17 encapsulates them. The runner takes the classes
// from the running JDK's module image (jimage) into a directory appended to ecj's boot class path, and exports the
// listed packages to the code under test (--add-exports <module>/<package>=ALL-UNNAMED).
import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { chmod, cp, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { HttpError } from './errors.ts';
import { jdkHome } from './java-env.ts';

/**
 * The modules whose internals may be exported: XML, desktop, naming and RMI code that applications of the Java 8 era
 * used directly. Never java.base (the harness's result channel and raw memory live behind it), nor the modules that
 * reach other JVMs, the compiler the warm harness runs, or the JVM's own internals (jdk.attach, jdk.jdi, jdk.compiler,
 * jdk.internal.*).
 */
export const EXPORTABLE_MODULES = ['java.xml', 'java.xml.crypto', 'java.desktop', 'java.naming', 'java.rmi', 'java.sql.rowset', 'jdk.xml.dom'] as const;

export interface JdkInternals {
  /** a directory of the modules' internal class files, for ecj's boot class path after the Java 8 API */
  classDir: string;
  /** --add-exports options, one per listed package */
  jvmOptions: string[];
}

const pending = new Map<string, Promise<JdkInternals>>();

/** The internals of `packages` (sorted, deduplicated), extracted once per JDK and package set into <dataDir>/api. */
export function jdkInternals(dataDir: string, packages: readonly string[]): Promise<JdkInternals> {
  const wanted = [...new Set(packages)].sort();
  const key = `${dataDir}\n${wanted.join('\n')}`;
  let p = pending.get(key);
  if (!p) {
    p = Promise.resolve().then(() => extract(dataDir, wanted));
    p.catch(() => pending.delete(key));
    pending.set(key, p);
  }
  return p;
}

const escape = (s: string) => s.replace(/[.$]/g, '\\$&');

function jimageExtract(dir: string, regex: string): void {
  const modules = path.join(jdkHome(), 'lib', 'modules');
  const jimage = path.join(jdkHome(), 'bin', 'jimage');
  const tool = existsSync(jimage) ? jimage : 'jimage';
  const r = spawnSync(tool, ['extract', '--dir', dir, '--include', `regex:${regex}`, modules], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    throw new Error(`Could not read the JDK's internal classes (${tool} extract ${modules}): ${r.error?.message ?? r.stderr.trim()}. The runner needs a full JDK ≥ 17 (with bin/jimage).`);
  }
}

/** The module of each package, by which module directory jimage extracts its classes into. */
function modulesOf(dataDir: string, packages: string[]): Map<string, string> {
  const probe = path.join(dataDir, 'api', `probe-${randomUUID()}`);
  try {
    jimageExtract(probe, `/[^/]+/(${packages.map((p) => escape(p.replaceAll('.', '/'))).join('|')})/[^/]+\\.class`);
    const found = new Map<string, string>();
    for (const mod of existsSync(probe) ? readdirSync(probe) : []) {
      for (const pkg of packages) if (existsSync(path.join(probe, mod, ...pkg.split('.')))) found.set(pkg, mod);
    }
    return found;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

async function extract(dataDir: string, packages: string[]): Promise<JdkInternals> {
  const modules = modulesOf(dataDir, packages);
  const absent = packages.filter((p) => !modules.has(p));
  if (absent.length) {
    throw new HttpError(400, 'bad-request', `layout.jdkInternalPackages lists ${absent.join(', ')}, which the runner's JDK (${jdkHome()}) does not have: remove ${absent.length === 1 ? 'it' : 'them'}, or run the runner on a JDK that has ${absent.length === 1 ? 'it' : 'them'}.`);
  }
  const refused = packages.filter((p) => !(EXPORTABLE_MODULES as readonly string[]).includes(modules.get(p)!));
  if (refused.length) {
    throw new HttpError(400, 'bad-request', `layout.jdkInternalPackages lists ${refused.map((p) => `${p} (module ${modules.get(p)})`).join(', ')}: the runner exports the internals of ${EXPORTABLE_MODULES.join(', ')} only. Remove ${refused.length === 1 ? 'it' : 'them'}.`);
  }
  const owners = [...new Set(modules.values())].sort();
  // the modules' whole com/sun trees: an internal class's signatures name other internal packages, which ecj resolves
  const release = readFileSync(path.join(jdkHome(), 'release'), 'utf8');
  const hash = createHash('sha256').update(`${jdkHome()}\n${release}\n${owners.join(',')}`).digest('hex').slice(0, 16);
  const classDir = path.join(dataDir, 'api', `jdk-internals-${hash}`);
  if (!existsSync(classDir)) {
    const tmp = `${classDir}.tmp-${process.pid}-${randomUUID()}`;
    jimageExtract(tmp, `/(${owners.map(escape).join('|')})/com/sun/.+\\.class`);
    // one class tree (jimage writes <module>/<path>): a boot class path entry is a package root
    const merged = path.join(tmp, 'classes');
    for (const mod of owners) await cp(path.join(tmp, mod), merged, { recursive: true });
    // readable to the sandbox's user, whatever the runner's umask
    for (const entry of await readdir(merged, { recursive: true, withFileTypes: true })) {
      await chmod(path.join(entry.parentPath ?? entry.path, entry.name), entry.isDirectory() ? 0o755 : 0o644);
    }
    await chmod(merged, 0o755);
    await rename(merged, classDir).catch(async (e: NodeJS.ErrnoException) => {
      if (!existsSync(classDir)) throw e; // a concurrent extraction won the race
    });
    await rm(tmp, { recursive: true, force: true });
    await chmod(path.dirname(classDir), 0o755).catch(() => undefined);
  }
  return { classDir, jvmOptions: packages.flatMap((p) => ['--add-exports', `${modules.get(p)}/${p}=ALL-UNNAMED`]) };
}
