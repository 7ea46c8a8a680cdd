// The bundled textkit repository with real history after textkit-1's fix: a branch `later` from the fix commit whose
// first commit adds a test to StringsTest (a later revision of the bug's trigger test class that the developers' fix
// passes and a candidate hard-wired to the trigger test's input fails), then a commit that leaves the test file alone,
// then one that adds a second test. Built with the git CLI (fixed identities and dates) into a bundle that replaces
// textkit.bundle in a test's repository store. Used by the later-revision and review-evidence tests.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const STRINGS_TEST = 'src/test/java/org/repairlab/textkit/StringsTest.java';
const BUNDLE = join(process.cwd(), 'public/benchmarks/textkit.bundle');

function addTest(source: string, method: string): string {
  const end = source.lastIndexOf('}');
  return `${source.slice(0, end)}\n    @Test\n${method}\n}\n`;
}

export const LATER_TEST = '    public void truncateKeepsEveryStringThatFitsExactly() {\n        assertEquals("world", Strings.truncate("world", 5));\n        assertEquals("abc", Strings.truncate("abc", 3));\n    }';
export const LATER_TEST_2 = '    public void truncateCutsOneOverTheLimit() {\n        assertEquals("hel...", Strings.truncate("hello world", 6));\n    }';

/** Builds `<dir>/textkit-later.bundle`; returns its path and the commits of the `later` branch, oldest first. */
export function buildLaterHistory(dir: string, fixCommit: string): { bundle: string; later: string[] } {
  let tick = 0;
  const env = () => {
    const date = `${1_900_000_000 + ++tick * 3600} +0000`;
    return { ...process.env, GIT_AUTHOR_NAME: 'Ada Tester', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada Tester', GIT_COMMITTER_EMAIL: 'ada@example.com', GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  };
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: env(), maxBuffer: 1 << 26 });
  git('init', '-q', '-b', 'scratch');
  git('fetch', '-q', BUNDLE, '+refs/*:refs/*');
  git('checkout', '-q', '-b', 'later', fixCommit);
  const file = join(dir, STRINGS_TEST);
  const later: string[] = [];
  const commit = (message: string) => {
    git('add', '-A');
    git('commit', '-q', '-m', message);
    later.push(git('rev-parse', 'HEAD').trim());
  };
  writeFileSync(file, addTest(readFileSync(file, 'utf8'), LATER_TEST));
  commit('Test truncate at the limit with other strings');
  writeFileSync(join(dir, 'README.md'), `${readFileSync(join(dir, 'README.md'), 'utf8')}\nTruncation keeps strings that fit.\n`);
  commit('README: truncation');
  writeFileSync(file, addTest(readFileSync(file, 'utf8'), LATER_TEST_2));
  commit('Test truncate one over the limit');
  git('checkout', '-q', 'main');
  const bundle = join(dir, 'textkit-later.bundle');
  git('bundle', 'create', '-q', bundle, '--all');
  return { bundle, later };
}
