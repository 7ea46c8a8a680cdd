// The history explorer's worker API on real git objects: the bundled textkit repository (a root commit, a merge, a
// rename, 30-odd commits) imported into the engine's store, checked against the git CLI on a bare clone of the same
// bundle. commitDetails: every commit's message, people, changed files and its diff of every file it changed equal
// git's; bad input is refused naming it. blameBugFile: every line's commit equals `git blame` at the bug's history
// base. historySection: the text is the one a HAFixAgent run's prompt contains (the prompt preview, which builds the
// first prompt with the run's own code).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { commitDetails } from '../../../worker/history/commit-details.ts';
import { blameBugFile, historySection } from '../../../worker/bugs/bug-history.ts';
import { gitBlame } from './parity.ts';

const home = mkdtempSync(join(tmpdir(), 'repairlab-history-explorer-'));
const bare = join(home, 'textkit.git');
let engine: Engine;

const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const git = (...args: string[]) => execFileSync('git', ['-C', bare, '-c', 'core.abbrev=7', ...args], { encoding: 'utf8', env, maxBuffer: 1 << 26 });

beforeAll(async () => {
  engine = new Engine(createNodePlatform({ root: join(home, 'engine') }));
  // the store imports the bundle the app ships; git reads a clone of the same bundle
  await engine.ensureRepository(await engine.catalog.bug('textkit-1'));
  execFileSync('git', ['clone', '-q', '--bare', 'public/benchmarks/textkit.bundle', bare], { env });
}, 120_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** What git prints for `oid`'s change of `file` against its first parent (renames not followed, as blame's paths are per commit). */
function gitFileDiff(oid: string, parents: string[], file: string): string {
  return parents.length ? git('diff', '--no-renames', parents[0]!, oid, '--', file) : git('show', '--no-renames', '--format=', oid, '--', file);
}

describe('commitDetails', () => {
  it("equals git for every commit of the repository: message, author, committer, changed files, and each changed file's diff", async () => {
    const commits = git('rev-list', '--all').trim().split('\n');
    expect(commits.length).toBeGreaterThan(20);
    let diffsCompared = 0;
    let sawMerge = false;
    let sawRoot = false;
    for (const oid of commits) {
      const parents = git('rev-list', '--parents', '-n', '1', oid).trim().split(' ').slice(1);
      sawMerge ||= parents.length > 1;
      sawRoot ||= parents.length === 0;
      const changed = (parents.length ? git('diff', '--no-renames', '--name-only', parents[0]!, oid) : git('show', '--no-renames', '--format=', '--name-only', oid)).trim().split('\n').filter(Boolean).sort();
      const [author, authorEmail, authorTime, committer, committerTime] = git('log', '-1', '--format=%an%n%ae%n%at%n%cn%n%ct', oid).trim().split('\n');
      for (const file of changed) {
        const details = await commitDetails(engine, 'textkit', oid, file);
        expect(details.diff, `${oid.slice(0, 7)} ${file}`).toBe(gitFileDiff(oid, parents, file));
        diffsCompared++;
        if (file !== changed[0]) continue;
        expect(details.oid).toBe(oid);
        expect(details.parents).toEqual(parents);
        expect(details.message).toBe(git('log', '-1', '--format=%B', oid).replace(/\n+$/, ''));
        expect(details.author).toMatchObject({ name: author, email: authorEmail, timestamp: Number(authorTime) });
        expect(details.committer).toMatchObject({ name: committer, timestamp: Number(committerTime) });
        expect(details.author.date).toBe(new Date(Number(authorTime) * 1000).toISOString().replace('T', ' ').slice(0, 19));
        expect([...details.changedFiles].sort()).toEqual(changed);
      }
    }
    expect(sawMerge && sawRoot).toBe(true);
    expect(diffsCompared).toBeGreaterThan(40);
  }, 120_000);

  it('gives an empty diff for a file the commit left unchanged, and accepts an abbreviated commit id', async () => {
    const [oid] = git('log', '-1', '--format=%H', '--', 'README.md').trim().split('\n');
    const untouched = git('ls-tree', '-r', '--name-only', oid!).split('\n').find((f) => f && !git('show', '--format=', '--name-only', oid!).split('\n').includes(f))!;
    const details = await commitDetails(engine, 'textkit', oid!.slice(0, 10), untouched);
    expect(details.oid).toBe(oid);
    expect(details.diff).toBe('');
  });

  it('refuses an unknown commit, a file in neither the commit nor its parent, and an unknown repository, naming each', async () => {
    const head = git('rev-parse', 'HEAD').trim();
    await expect(commitDetails(engine, 'textkit', 'f'.repeat(40), 'README.md')).rejects.toThrow(/ffffffff/);
    await expect(commitDetails(engine, 'textkit', head, 'no/such/File.java')).rejects.toThrow(/no\/such\/File\.java is neither in commit .* nor in its parent/);
    await expect(commitDetails(engine, 'textkit', head, '/etc/passwd')).rejects.toThrow(/must be a path inside the repository/);
    await expect(commitDetails(engine, 'no-such-repo', head, 'README.md')).rejects.toThrow(/no-such-repo is not in the local store/);
  });
});

describe('blameBugFile and historySection', () => {
  it("blames the bug's first fault-localized file at its history base, every line as git blame does", async () => {
    const bug = await engine.catalog.bug('textkit-3');
    const view = await blameBugFile(engine, 'textkit-3');
    expect(view.file).toBe(bug.faultLocalization[0]!.file);
    expect(view.revision).toBe(bug.historyCommit ?? bug.buggyCommit);
    const theirs = gitBlame(bare, view.file, view.revision);
    expect(view.lines.map((l) => [l.line, l.commit, l.path, l.origLine])).toEqual(theirs.map((l) => [l.line, l.commit, l.path, l.origLine]));
    expect(view.lines.map((l) => l.text).join('\n')).toBe(git('show', `${view.revision}:${view.file}`).replace(/\n$/, ''));
    for (const oid of new Set(theirs.map((l) => l.commit))) expect(view.commits[oid]?.summary).toBe(git('log', '-1', '--format=%s', oid).trim());
    expect(view.faultLines).toEqual(bug.faultLocalization.filter((f) => f.file === view.file).flatMap((f) => f.lines));
  });

  it('refuses a file that is not one of the bug\'s fault-localized files, naming the choices', async () => {
    await expect(blameBugFile(engine, 'textkit-3', 'README.md')).rejects.toThrow(/README\.md is not a fault-localized file of bug textkit-3: choose one of src\//);
  });

  it('gives each section exactly as a HAFixAgent run puts it in its prompt (paper and released-code variants)', async () => {
    for (const heuristic of ['fn_all', 'fn_pair', 'fl_diff'] as const) {
      for (const variants of [[], ['code']]) {
        const section = await historySection(engine, initJavaForNode, 'textkit-1', heuristic, variants);
        expect(section.text, heuristic).toMatch(/\nCommit: [0-9a-f]{40}\n/);
        const preview = await engine.previewPrompt({ bugId: 'textkit-1', preset: 'hafixagent', variants: [...variants, heuristic] });
        expect(preview.messages.map((m) => m.content).join('\n'), `${heuristic} ${variants.join()}`).toContain(`\n${section.text}`);
      }
    }
  }, 120_000);
});

describe('blameBugFile of an imported Defects4J bug (reconstructed buggy commit)', () => {
  it('blames at the original revision the history reads (historyCommit), never at the reconstruction, as git blame does there', async () => {
    const { importDefects4j } = await import('../../../worker/node/defects4j/defects4j-import.ts');
    const { createDefects4jFixture } = await import('../benchmarks/support/defects4j-fixture.ts');
    const root = join(home, 'd4j');
    const fixture = createDefects4jFixture(root);
    const imported = importDefects4j({ projectRepo: fixture.projectRepo, d4jDir: fixture.d4jDir, project: 'Calc', outDir: join(root, 'out') });
    const calc3 = imported.bugs.find((b) => b.spec.id === 'Calc-3')!;
    const d4jEngine = new Engine(createNodePlatform({ root: join(root, 'home') }));
    const files = [
      { name: `${calc3.spec.repoId}.bundle`, bytes: new Uint8Array(readFileSync(calc3.bundlePath)) },
      { name: `${calc3.spec.id}.json`, bytes: new Uint8Array(readFileSync(join(root, 'out', calc3.specPath))) },
    ];
    for (const r of await d4jEngine.importFiles(files)) expect(r.ok, r.message).toBe(true);

    const view = await blameBugFile(d4jEngine, 'Calc-3');
    expect(calc3.spec.historyCommit).toBe(fixture.revisions.buggy3);
    expect(view.revision).toBe(fixture.revisions.buggy3);
    expect(view.buggyCommit).not.toBe(view.revision);
    const theirs = gitBlame(fixture.projectRepo, view.file, fixture.revisions.buggy3);
    expect(view.lines.map((l) => [l.line, l.commit])).toEqual(theirs.map((l) => [l.line, l.commit]));
    expect(view.lines.some((l) => l.commit === view.buggyCommit)).toBe(false);
    // the fault-localized lines, mapped onto that revision, are the ones HAFixAgent's extractor blames
    expect(view.faultLines.length).toBeGreaterThan(0);
    const blamedCommit = view.lines[view.faultLines[0]! - 1]!.commit;
    const details = await commitDetails(d4jEngine, view.repoId, blamedCommit, view.lines[view.faultLines[0]! - 1]!.path);
    expect(details.oid).toBe(blamedCommit);
  }, 120_000);
});
