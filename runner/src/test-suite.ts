// Which test classes form the suite a validation runs (layout.suiteFiles): Defects4J runs the test sources its
// per-project fileset `all.manual.tests` names — Time leaves out its TestAll suites and gj/, Math its random/ tests,
// Lang its performance tests — not every class under the test directory.
import type { ProjectLayout } from '../../worker/contracts/bug.ts';

/**
 * An Ant pattern as a regular expression over `/`-separated relative paths. Ant's language, not a shell glob: `**`
 * matches any number of directories (none included), `*` and `?` stay within one name, a trailing `/` means
 * everything below, and there are no braces or character classes.
 */
export function antPattern(pattern: string): RegExp {
  let p = pattern.replaceAll('\\', '/');
  if (p.endsWith('/')) p += '**';
  let re = '';
  for (let i = 0; i < p.length; ) {
    if (p.startsWith('**/', i)) {
      re += '(?:.*/)?';
      i += 3;
    } else if (p.startsWith('/**', i) && i + 3 === p.length) {
      re += '(?:/.*)?';
      i += 3;
    } else if (p.startsWith('**', i)) {
      re += '.*';
      i += 2;
    } else {
      const c = p[i]!;
      re += c === '*' ? '[^/]*' : c === '?' ? '[^/]' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      i++;
    }
  }
  return new RegExp(`^${re}$`);
}

/** Whether a test class (binary name of a top-level class) is in the layout's suite. */
export function suiteFilter(layout: Pick<ProjectLayout, 'suiteFiles'>): (testClass: string) => boolean {
  const files = layout.suiteFiles;
  if (!files) return () => true;
  const include = files.include.map(antPattern);
  const exclude = (files.exclude ?? []).map(antPattern);
  return (testClass) => {
    const path = `${testClass.replaceAll('.', '/')}.java`;
    return include.some((r) => r.test(path)) && !exclude.some((r) => r.test(path));
  };
}
