// From an imported repository to a bug, in Chromium against the real runner: the bundled textkit bundle is imported
// through the Repositories view under another name (mytext), its history browsed (every ref, newest first) and its
// files at a commit opened; a bug is made at the commit where the bundled textkit-1 lives (so the failing test is
// known), the failing test found by running the suite on the runner, the fixing commit picked (its diff gives the
// fault lines). A passing test is refused first, naming the field and the reason. The saved bug is listed in the bug
// browser, opens on the bug page, and an agent (scripted replies: the developers' fix) runs on it to a verdict.
import { readFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import type { BugSpec } from '../../worker/contracts/bug.ts';
import { appUrl, runToOutcome, useScriptedReplies } from './helpers.ts';

const REPO = 'mytext';
const BUG = 'mytext-1';
const textkit1 = JSON.parse(readFileSync('public/benchmarks/bugs/textkit-1.json', 'utf8')) as BugSpec;
const FAILING = textkit1.failingTests[0]!;
const PASSING = 'org.repairlab.textkit.StringsTest::truncateCutsLongStrings';
const TEST_FILE = 'src/test/java/org/repairlab/textkit/StringsTest.java';

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

test('a bug made from an imported bundle: history, files, buggy commit, failing test, fix; listed, opened, and run to a verdict', async ({ page }) => {
  await page.goto(appUrl());
  await page.getByRole('button', { name: 'Repositories' }).click();
  await page.locator('input[name="import"]').setInputFiles({ name: `${REPO}.bundle`, mimeType: 'application/octet-stream', buffer: readFileSync('public/benchmarks/textkit.bundle') });
  await expect(page.getByTestId('import-results')).toContainText(`${REPO}.bundle: repository ${REPO}`);
  await page.locator(`li[data-repo="${REPO}"] button[name="make-bug"]`).click();
  const maker = page.getByTestId('bug-maker');
  await expect(maker).toBeVisible();

  // the history: every ref's commits with their messages, the benchmark's bug and fix commits among them
  const log = maker.getByTestId('commit-log');
  const buggyRow = log.locator(`li[data-commit="${textkit1.buggyCommit}"]`);
  const fixRow = log.locator(`li[data-commit="${textkit1.groundTruth.fixedCommit}"]`);
  await expect(buggyRow).toContainText('Test truncate at the length limit');
  await expect(buggyRow).toContainText('repairlab/bugs/textkit-1');
  await expect(fixRow).toContainText('Do not truncate strings that fit exactly');
  await expect(log.locator('li[data-commit]')).toHaveCount(40);

  // the files at the buggy commit, folder by folder, and the test file opened
  await buggyRow.locator('button[name="browse"]').click();
  const tree = maker.getByTestId('file-tree');
  for (const dir of ['src', 'src/test', 'src/test/java', 'src/test/java/org', 'src/test/java/org/repairlab', 'src/test/java/org/repairlab/textkit']) {
    await tree.locator(`button[name="open-dir"][data-path="${dir}"]`).last().click();
  }
  await tree.locator(`button[name="open-file"][data-path="${TEST_FILE}"]`).click();
  await expect(tree.getByTestId('file-view')).toContainText('public void truncateKeepsStringThatFitsExactly()');

  // the buggy commit: the tests tree-sitter found there are offered; a passing one is refused with the reason
  await buggyRow.locator('button[name="pick-buggy"]').click();
  await expect(maker.getByTestId('buggy-commit')).toContainText('Test truncate at the length limit');
  await maker.locator(`input[name="failing-test"][value="${PASSING}"]`).check();
  await maker.locator('input[name="bug-id"]').fill(BUG);
  await maker.locator('input[name="bug-title"]').fill('truncate() cuts strings that already fit');
  await maker.locator('button[name="save-bug"]').click();
  await expect(maker.getByTestId('bug-maker-error')).toContainText(`failingTests[0]: ${PASSING} passes at the buggy commit`, { timeout: 120_000 });
  await expect(maker.getByTestId('bug-maker-error')).toContainText('a bug needs a failing test');
  await maker.locator(`input[name="failing-test"][value="${PASSING}"]`).uncheck();

  // the suite run on the runner names the failing test and picks it
  await maker.locator('button[name="find-failing"]').click();
  await expect(maker.getByTestId('suite-result')).toContainText('1 fail', { timeout: 120_000 });
  await expect(maker.locator(`input[name="failing-test"][value="${FAILING}"]`)).toBeChecked();
  await expect(maker.locator('input[name="failing-test"]:checked')).toHaveCount(1);

  // the fixing commit: its diff gives the category and the fault lines
  await fixRow.locator('button[name="pick-fixed"]').click();
  await expect(maker.getByTestId('fix-preview')).toContainText(`Category ${textkit1.category}`);
  await expect(maker.getByTestId('fix-preview')).toContainText(`Strings.java:${textkit1.faultLocalization[0]!.lines.join(',')}`);
  await shot(page, 'bug-maker');
  // at 800 px the history, the files and the form wrap: nothing scrolls sideways
  await page.setViewportSize({ width: 800, height: 900 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await page.setViewportSize({ width: 1280, height: 720 });
  await maker.locator('button[name="save-bug"]').click();
  await expect(maker.getByTestId('bug-saved')).toContainText(`Saved ${BUG}`, { timeout: 120_000 });
  await expect(page.locator(`li[data-made-bug="${BUG}"]`)).toBeVisible();

  // listed in the bug browser, tagged, and opened like a bundled bug
  await page.getByRole('button', { name: 'Bugs' }).click();
  const item = page.locator(`li[data-bug="${BUG}"]`);
  await expect(item).toContainText('truncate() cuts strings that already fit');
  await expect(item.getByTestId('made-here')).toBeVisible();
  await item.click();
  await expect(page.getByTestId('failing-tests')).toContainText('StringsTest::truncateKeepsStringThatFitsExactly');
  await expect(page.getByTestId('buggy-code').first()).toContainText('truncate');

  // an agent runs on it to a verdict: the one-shot preset answered with the developers' fix
  const fix = `A string of exactly maxLength already fits.\n\n\`\`\`diff\n${textkit1.groundTruth.patch}\`\`\`\n`;
  const server = await useScriptedReplies(page, [fix]);
  try {
    expect(await runToOutcome(page, BUG, 'oneshot')).toBe('plausible');
  } finally {
    await server.close();
  }
  await shot(page, 'made-bug-run');

  // deleted from the Repositories view, it leaves the bug browser
  await page.getByRole('button', { name: 'Repositories' }).click();
  await page.locator(`li[data-made-bug="${BUG}"] button[name="delete-bug"]`).click();
  await expect(page.locator(`li[data-made-bug="${BUG}"]`)).toHaveCount(0);
  await page.getByRole('button', { name: 'Bugs' }).click();
  await expect(page.locator('li[data-bug="textkit-1"]')).toBeVisible();
  await expect(page.locator(`li[data-bug="${BUG}"]`)).toHaveCount(0);
});

test('cloning from a host whose name does not resolve says so, naming the host, not "HTTP 403"', async ({ page }) => {
  await page.goto(appUrl());
  await page.getByRole('button', { name: 'Repositories' }).click();
  await page.locator('input[name="clone-url"]').fill('https://no-such-host.invalid/owner/repo.git');
  await page.locator('button[name="clone"]').click();
  const result = page.getByTestId('import-results').locator('li.bad');
  await expect(result).toContainText('could not resolve no-such-host.invalid', { timeout: 60_000 });
  await expect(result).toContainText('check the host in the clone URL');
  await expect(result).not.toContainText('HTTP 403');
});
