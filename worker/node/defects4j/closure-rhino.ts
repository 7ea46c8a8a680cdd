// Closure's Rhino, as its ant build makes it, at the source level. Revisions of Closure 1–62, 107–133 and 161–176
// compile against a renamed Rhino: build.xml's "rhino" target compiles lib/rhino/src into js.jar and "rhino-jarjar"
// renames its packages with jarjar, by the rule build.xml gives (`org.mozilla.javascript.** →
// com.google.javascript.rhino.head.@1`; Closure 44–62 and 161: `com.google.javascript.jscomp.mozilla.rhino.@1`).
// RepairLab runs no project build, so the importer does the renaming on the
// sources: Rhino's src/ (under the directory the "rhino" target builds: lib/rhino, or lib/rhino/src/mozilla/js/rhino
// in the revisions that keep Rhino's CVS checkout) copied to RHINO_SOURCE_DIR with org/mozilla/javascript/** moved to
// the rule's package and every `org.mozilla.javascript` / `org/mozilla/javascript` in the files
// (package and import declarations, qualified names, the string constants jarjar rewrites: resource bundle names,
// class names looked up by name) renamed the same way. The runner then compiles it with the project's sources; its
// resource files (Messages.properties) sit beside the code, which makes the directory a resource folder too.
// org.mozilla.classfile (Rhino's bytecode writer) keeps its name, as the jarjar rule leaves it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { filesUnder } from './files.ts';
import { Defects4jImportError } from './git.ts';

/** Where the renamed sources go in the bug's tree (a build output: the name says so). */
export const RHINO_SOURCE_DIR = 'build/rhino-jarjar-src';

const FROM_DOTS = 'org.mozilla.javascript';
const FROM_PATH = 'org/mozilla/javascript';
/** the package of the jarjar rule most revisions have */
const HEAD = 'com.google.javascript.rhino.head';

/**
 * The directory build.xml's "rhino" target builds Rhino in (`<ant dir="lib/rhino/" target="jar">`), or undefined when
 * the revision has no such target.
 */
export function rhinoBuildDir(buildXml: string): string | undefined {
  const target = /<target\s+name="rhino"[^>]*>([\s\S]*?)<\/target>/.exec(buildXml);
  if (!target) return undefined;
  return (/<ant\b[^>]*\bdir="([^"]+)"/.exec(target[1]!)?.[1] ?? 'lib/rhino').replace(/\/+$/, '');
}

/**
 * The package build.xml's jarjar rule renames org.mozilla.javascript to (`<rule pattern="org.mozilla.javascript.**"
 * result="com.google.javascript.jscomp.mozilla.rhino.@1"/>`); com.google.javascript.rhino.head when it states none.
 */
export function rhinoRenamedPackage(buildXml: string): string {
  for (const rule of buildXml.matchAll(/<rule\b[^>]*>/g)) {
    const pattern = /\bpattern="([^"]+)"/.exec(rule[0])?.[1];
    const result = /\bresult="([^"]+)"/.exec(rule[0])?.[1];
    if (pattern === `${FROM_DOTS}.**` && result?.endsWith('.@1')) return result.slice(0, -'.@1'.length);
  }
  return HEAD;
}

/**
 * Writes the renamed Rhino sources of `<tree>/<buildDir>/src` under `<tree>/RHINO_SOURCE_DIR`, org.mozilla.javascript
 * renamed to `toPackage`; returns how many files it wrote. Only the package trees (org/**) are taken: the build files
 * beside them are not sources.
 */
export function renameRhinoSources(tree: string, buildDir: string, input?: string, toPackage = HEAD): number {
  const toPath = toPackage.split('.').join('/');
  const src = join(tree, ...buildDir.split('/'), 'src');
  if (!existsSync(join(src, ...FROM_PATH.split('/')))) {
    throw new Defects4jImportError(`build.xml's "rhino" target builds ${buildDir}, but ${buildDir}/src/${FROM_PATH} is missing: no Rhino sources to rename`, input);
  }
  let written = 0;
  for (const file of filesUnder(join(src, 'org'))) {
    const rel = relative(src, file).split('\\').join('/');
    if (rel.split('/').includes('CVS')) continue; // the CVS checkout's bookkeeping, not Rhino
    const target = rel.startsWith(`${FROM_PATH}/`) ? `${toPath}/${rel.slice(FROM_PATH.length + 1)}` : rel;
    const bytes = readFileSync(file);
    const text = /\.(java|properties)$/.test(rel) ? bytes.toString('latin1') : undefined;
    const out = join(tree, RHINO_SOURCE_DIR, ...target.split('/'));
    mkdirSync(dirname(out), { recursive: true });
    // latin1 both ways keeps every byte as it was, whatever the file's encoding: only ASCII names change
    writeFileSync(out, text === undefined ? bytes : Buffer.from(text.split(FROM_DOTS).join(toPackage).split(FROM_PATH).join(toPath), 'latin1'));
    written++;
  }
  return written;
}
