// Emptying the tests Defects4J knows to be broken (failing_tests/<rev>, dependent_tests, random_tests) in Java sources,
// as Defects4J's framework/util/rm_broken_tests.pl does: each becomes an empty test method that passes. Removing it
// instead left a JUnit 3 class whose only test was broken with none, and JUnit's TestSuite then reports a failing
// `junit.framework.TestSuite$1::warning` ("No tests found in …": JacksonDatabind-60's TestJava7Types).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Replaces test method `method` (with its annotations and Javadoc) in Java source by an empty test of the same name,
 * `@Test` kept when it had one (JUnit 4 or 5, by the import the file uses); null when not found.
 */
export function emptyTestMethod(source: string, method: string): string | null {
  const signature = new RegExp(`^[ \\t]*(?:(?:public|protected|private|static|final|synchronized)\\s+)*void\\s+${method.replace(/\$/g, '\\$')}\\s*\\(`, 'm');
  const match = signature.exec(source);
  if (!match) return null;
  // start: the signature line (the pattern is anchored at a line start), extended upwards over
  // annotations and a doc comment
  let start = match.index;
  while (start > 0) {
    const previous = source.lastIndexOf('\n', start - 2) + 1;
    if (/^(@|\*|\/\*|\/\/)/.test(source.slice(previous, start - 1).trim())) start = previous;
    else break;
  }
  // end: the brace closing the method body, skipping strings, chars and comments
  let i = source.indexOf('{', match.index);
  if (i < 0) return null;
  let depth = 0;
  for (; i < source.length; i++) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') i = source.indexOf('\n', i) - 1;
    else if (c === '/' && next === '*') i = source.indexOf('*/', i + 2) + 1;
    else if (c === '"' || c === "'") {
      for (i++; i < source.length && source[i] !== c; i++) if (source[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) break;
    if (i < 0) return null;
  }
  if (depth !== 0) return null;
  let end = i + 1;
  if (source[end] === '\n') end++;
  const cut = source.slice(start, match.index);
  const indent = /^[ \t]*/.exec(source.slice(match.index))![0];
  const annotated = /(^|\s)@(org\.junit\.(jupiter\.api\.)?)?Test\b/.test(cut);
  const jupiter = /^\s*import\s+org\.junit\.jupiter\.api\.(Test|\*)\s*;/m.test(source);
  const annotation = annotated ? `${indent}@${jupiter ? 'org.junit.jupiter.api.Test' : 'org.junit.Test'}\n` : '';
  const dummy = `${annotation}${indent}public void ${method}() {} // Defects4J: a broken test, emptied as rm_broken_tests.pl does\n`;
  return source.slice(0, start) + dummy + source.slice(end);
}

export function emptyBrokenTests(root: string, testDir: string, tests: string[]): { emptied: string[]; unmatched: string[] } {
  const emptied: string[] = [];
  const unmatched: string[] = [];
  for (const test of tests) {
    const [cls, method] = test.split('::') as [string, string];
    const file = join(root, testDir, cls.replace(/\$.*$/, '').replace(/\./g, '/') + '.java');
    // latin1 round-trips every byte: sources in ISO-8859-1 (Lang) or UTF-8 come back unchanged but for the cut
    const source = existsSync(file) ? readFileSync(file, 'latin1') : null;
    const edited = source === null ? null : emptyTestMethod(source, method);
    if (edited === null) unmatched.push(test);
    else {
      writeFileSync(file, edited, 'latin1');
      emptied.push(test);
    }
  }
  return { emptied, unmatched };
}
