// The history explorer in Chromium against the built app: for a bundled blameable bug with two fault-localized files,
// the gutter's commit for every line equals `repairlab blame --json` (the CLI, run here on a clone of the same bundle)
// for the same file at the same revision; a commit opened from the gutter (by click, and by Enter) shows that commit's
// message and its diff of the file as git prints them; the fl_diff section equals `repairlab history --heuristic
// fl_diff`; at 800 px the page does not scroll sideways. A file of 3,000 lines is rendered a page at a time, opening on
// its fault line's page, its long lines scrolling inside the blame box. Screenshots go to the test output.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { deepFocus, openBug } from './helpers.ts';

const BUG = 'csvkit-3';
const spec = JSON.parse(readFileSync(`public/benchmarks/bugs/${BUG}.json`, 'utf8')) as { repoId: string; buggyCommit: string; historyCommit?: string; faultLocalization: { file: string }[]; repository: { bundle: string } };
const REVISION = spec.historyCommit ?? spec.buggyCommit;
const FILES = [...new Set(spec.faultLocalization.map((f) => f.file))];

let work: string;
let bare: string;
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const git = (...args: string[]) => execFileSync('git', ['-C', bare, '-c', 'core.abbrev=7', ...args], { encoding: 'utf8', env: gitEnv });
/** The CLI as a user runs it, with its own store (REPAIRLAB_HOME) so it leaves the checkout's alone. */
const repairlab = (...args: string[]) =>
  execFileSync('node', ['bin/repairlab.mjs', ...args], { encoding: 'utf8', env: { ...process.env, REPAIRLAB_HOME: join(work, 'home') }, maxBuffer: 1 << 26 });

test.beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'repairlab-e2e-history-explorer-'));
  bare = join(work, `${spec.repoId}.git`);
  execFileSync('git', ['clone', '-q', '--bare', `public/benchmarks/${spec.repository.bundle}`, bare], { env: gitEnv });
});
test.afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every row of the blame view (all pages): line number and commit. */
async function gutterCommits(page: Page): Promise<[number, string][]> {
  const out: [number, string][] = [];
  const next = page.locator('rl-blame-view').getByRole('button', { name: 'Next lines' });
  for (;;) {
    const rows = await page.locator('rl-blame-view .row').evaluateAll((els) => els.map((e) => [Number((e as HTMLElement).dataset.line), (e as HTMLElement).dataset.commit ?? ''] as [number, string]));
    out.push(...rows);
    if (!(await next.count()) || (await next.isDisabled())) return out;
    await next.click();
  }
}

/** What `repairlab blame --json` says for `file` at the bug's history revision. */
function cliBlame(file: string): [number, string][] {
  return repairlab('blame', bare, file, '--rev', REVISION, '--json')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { line: number; commit: string })
    .map((l) => [l.line, l.commit]);
}

async function expectCommitShown(page: Page, oid: string, path: string) {
  const panel = page.getByTestId('commit-details');
  await expect(panel).toHaveAttribute('data-commit', oid);
  await expect(page.getByTestId('commit-message')).toHaveText(git('log', '-1', '--format=%B', oid).replace(/\n+$/, ''), { useInnerText: false });
  const parents = git('rev-list', '--parents', '-n', '1', oid).trim().split(' ').slice(1);
  const diff = parents.length ? git('diff', '--no-renames', parents[0]!, oid, '--', path) : git('show', '--no-renames', '--format=', oid, '--', path);
  expect(diff).toContain('@@');
  // rl-diff-view renders one block per diff line (an empty line as a space)
  expect(await page.locator('rl-commit-panel rl-diff-view pre > span').allTextContents()).toEqual(diff.split('\n').map((l) => l || ' '));
}

test('history explorer: blame equals `repairlab blame`, a gutter commit opens its message and diff, fl_diff equals `repairlab history`', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 800, height: 1000 });
  await openBug(page, BUG);
  const toggle = page.getByTestId('bug-detail').getByRole('button', { name: 'History' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('history-revision')).toHaveAttribute('data-revision', REVISION);

  // every line of both fault-localized files, first the default (the first), then the other chosen in the file select
  for (const [i, file] of FILES.entries()) {
    if (i > 0) await page.locator('select[name="history-file"]').selectOption(file);
    await expect(page.locator('select[name="history-file"]')).toHaveValue(file);
    await expect(page.locator(`rl-blame-view .row`).first()).toBeVisible();
    await expect(page.getByTestId('blame')).toHaveAttribute('aria-label', `Blame of ${file}`);
    const ours = await gutterCommits(page);
    const theirs = cliBlame(file);
    expect(theirs.length).toBeGreaterThan(20);
    expect(ours).toEqual(theirs);
  }

  // a click on the gutter of the fault-localized line opens the commit that last changed it
  const faultRow = page.locator('rl-blame-view .row.fault').first();
  const faultCommit = (await faultRow.getAttribute('data-commit'))!;
  await faultRow.locator('.gutter').click();
  const file = FILES[FILES.length - 1]!;
  await expectCommitShown(page, faultCommit, file);

  // by keyboard: Enter on another commit's gutter button opens that commit, and focus moves to the panel
  const otherLine = await page.locator('rl-blame-view .row').evaluateAll(
    (rows, fault) => rows.find((r) => (r as HTMLElement).dataset.commit !== fault && r.querySelector('button.gutter'))?.getAttribute('data-line'),
    faultCommit,
  );
  const otherButton = page.locator(`rl-blame-view .row[data-line="${otherLine}"]`);
  const otherCommit = (await otherButton.getAttribute('data-commit'))!;
  expect(otherCommit).not.toBe(faultCommit);
  await otherButton.locator('button.gutter').focus();
  await page.keyboard.press('Enter');
  await expectCommitShown(page, otherCommit, file);
  expect(await (await deepFocus(page)).evaluate((e) => e?.tagName)).toBe('H4');
  // Escape closes it and gives focus back to the gutter button; Enter there opens it again
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('commit-details')).toHaveCount(0);
  await expect.poll(async () => (await deepFocus(page)).evaluate((e) => (e as HTMLElement | null)?.closest('.row')?.getAttribute('data-commit'))).toBe(otherCommit);
  await page.keyboard.press('Enter');
  await expectCommitShown(page, otherCommit, file);

  // the fl_diff panel shows the section the prompt gets, verbatim; the CLI computes it for the same bug
  const flDiff = page.getByTestId('history-section-fl_diff');
  await flDiff.locator('summary').click();
  const expected = (JSON.parse(repairlab('history', BUG, '--heuristic', 'fl_diff', '--json')) as { text: string }).text;
  expect(expected).toContain('```diff');
  await expect(flDiff.getByTestId('history-section-text')).toHaveText(expected, { useInnerText: false });
  expect(await flDiff.getByTestId('history-section-text').textContent()).toBe(expected);

  // fn_pair opens in its own panel too
  const fnPair = page.getByTestId('history-section-fn_pair');
  await fnPair.locator('summary').press('Enter');
  await expect(fnPair.getByTestId('history-section-text')).toContainText('The enclosing function');

  // 800 px: nothing scrolls sideways, with the blame, a commit and two sections open
  const [scrollWidth, clientWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scrollWidth).toBe(clientWidth);
  const shot = testInfo.outputPath('history-explorer-800px.png');
  await page.screenshot({ path: shot, fullPage: true });
  await testInfo.attach('history-explorer-800px', { path: shot, contentType: 'image/png' });
  const explorerShot = testInfo.outputPath('history-explorer-panel.png');
  await page.getByTestId('history-explorer').screenshot({ path: explorerShot });
  await testInfo.attach('history-explorer-panel', { path: explorerShot, contentType: 'image/png' });
});

test('a file of thousands of lines is shown a page at a time, opening on the page of its first fault line', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await openBug(page, BUG);
  // the app's own blame view (defined with the bug detail) given a 3,000-line file: only one page is in the DOM
  const lines = 3000;
  await page.evaluate((lines) => {
    const commits = ['a'.repeat(40), 'b'.repeat(40)];
    const view = document.createElement('rl-blame-view') as HTMLElement & { blame: unknown };
    view.blame = {
      bugId: 'long', repoId: 'long', revision: commits[0], buggyCommit: commits[0], files: ['Long.java'], file: 'Long.java',
      lines: Array.from({ length: lines }, (_, i) => ({ line: i + 1, text: `int x${i + 1} = ${i + 1}; // ${'long line '.repeat(i % 7 ? 1 : 30)}`, commit: commits[Math.floor(i / 50) % 2], path: 'Long.java', origLine: i + 1 })),
      commits: Object.fromEntries(commits.map((oid) => [oid, { oid, date: '2024-01-01 00:00:00', timestamp: 0, author: 'Ada', summary: 's', message: 's' }])),
      faultLines: [2500],
    };
    document.body.append(view);
  }, lines);
  const view = page.locator('body > rl-blame-view');
  await expect(view.getByTestId('blame-pager')).toContainText('Lines 2401–2800 of 3000');
  await expect(view.locator('.row')).toHaveCount(400);
  await expect(view.locator('.row.fault')).toHaveAttribute('data-line', '2500');
  await view.getByRole('button', { name: 'Next lines' }).click();
  await expect(view.getByTestId('blame-pager')).toContainText('Lines 2801–3000 of 3000');
  await expect(view.locator('.row')).toHaveCount(200);
  await expect(view.getByRole('button', { name: 'Next lines' })).toBeDisabled();
  // each page starts with a gutter button, and each run of 50 lines from one commit has one
  await expect(view.locator('button.gutter')).toHaveCount(4);
  // the long lines scroll inside the blame box, not the page
  const [scrollWidth, clientWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scrollWidth).toBe(clientWidth);
  const shot = testInfo.outputPath('blame-long-file.png');
  await view.screenshot({ path: shot });
  await testInfo.attach('blame-long-file', { path: shot, contentType: 'image/png' });
});
