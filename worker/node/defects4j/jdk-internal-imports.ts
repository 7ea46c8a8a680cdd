// JDK-internal packages a bug's sources import (ProjectLayout.jdkInternalPackages): Java 8's rt.jar held them beside
// the API, so Defects4J's JDK compiled and ran them (Closure-53's XtbMessageBundle imports
// com.sun.org.apache.xerces.internal.jaxp.SAXParserFactoryImpl; the runner brings exactly the listed packages), and
// sun.misc.Unsafe's allocateInstance (Gson), which the runner offers alone (ProjectLayout.sunMiscUnsafe).
import { readFileSync } from 'node:fs';
import { filesUnder } from './files.ts';

// `import com.sun.a.b.Type;`, `import com.sun.a.b.*;`, `import static com.sun.a.b.Type.member;`
const COM_SUN_IMPORT = /^\s*import\s+(?:static\s+)?(com\.sun(?:\.[a-z_]\w*)+)\.(?:[A-Z*])/gm;

/**
 * The packages of `com.sun.*` imports with an `internal` segment in `sources`, sorted: the JDK names its non-API
 * com.sun packages so (com.sun.org.apache.xerces.internal, com.sun.xml.internal); com.sun.net.httpserver and the
 * like are API, which the Java 8 API the runner compiles against already has.
 */
export function jdkInternalImports(sources: Iterable<string>): string[] {
  const found = new Set<string>();
  for (const text of sources) {
    if (!text.includes('com.sun.')) continue;
    for (const m of text.matchAll(COM_SUN_IMPORT)) {
      if (m[1]!.split('.').includes('internal')) found.add(m[1]!);
    }
  }
  return [...found].sort();
}

/**
 * Whether `sources` build objects through sun.misc.Unsafe's allocateInstance, found by name (Gson's UnsafeAllocator):
 * then the layout asks the runner for its allocate-only Unsafe (ProjectLayout.sunMiscUnsafe).
 */
export function allocatesThroughUnsafe(sources: Iterable<string>): boolean {
  for (const text of sources) if (text.includes('sun.misc.Unsafe') && text.includes('allocateInstance')) return true;
  return false;
}

export interface JdkInternalsUsed {
  /** layout.jdkInternalPackages */
  packages: string[];
  /** layout.sunMiscUnsafe "allocate-only" */
  allocatesThroughUnsafe: boolean;
}

/** What of the JDK's internals the Java files under `dirs` (of extracted trees) use. */
export function jdkInternalsUsedUnder(dirs: string[]): JdkInternalsUsed {
  const sources: string[] = [];
  for (const dir of dirs) {
    for (const file of safeFilesUnder(dir)) if (file.endsWith('.java')) sources.push(readFileSync(file, 'latin1'));
  }
  return { packages: jdkInternalImports(sources), allocatesThroughUnsafe: allocatesThroughUnsafe(sources) };
}

function safeFilesUnder(dir: string): string[] {
  try {
    return filesUnder(dir);
  } catch {
    return []; // a source root the revision does not have
  }
}
