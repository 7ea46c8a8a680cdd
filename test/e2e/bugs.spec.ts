// The bug browser on a fresh browser profile: the bundled bugs are offered with no network beyond this machine,
// the filters agree with the benchmark index, and the ground truth stays hidden until a run of the bug finished.
import { readFile } from 'node:fs/promises';
import { test, expect, type Request } from '@playwright/test';
import { BugSpec } from '../../worker/contracts/bug.ts';
import { parseCassette } from '../../worker/contracts/cassette.ts';
import { startCassetteServer } from '../../worker/llm/cassette-server.node.ts';
import { appUrl, openBug, useModelEndpoint } from './helpers.ts';

async function bundledBugs(): Promise<BugSpec[]> {
  const index = JSON.parse(await readFile('public/benchmarks/index.json', 'utf8')) as { bugs: string[] };
  return Promise.all(index.bugs.map(async (p) => BugSpec.parse(JSON.parse(await readFile(`public/benchmarks/${p}`, 'utf8')))));
}

test('the first screen offers every bundled bug, reaching nothing beyond localhost', async ({ page, context }) => {
  const requests: string[] = [];
  const record = (r: Request) => requests.push(r.url());
  context.on('request', record); // page, worker and service-worker requests alike
  await page.goto(appUrl());
  const bugs = await bundledBugs();
  await expect(page.locator('li[data-bug]')).toHaveCount(bugs.length);
  await expect(page.getByTestId('bug-count')).toHaveText(`${bugs.length} of ${bugs.length} bugs`);
  // open one bug: its repository is imported from the bundled bundle into IndexedDB
  await page.locator('li[data-bug="textkit-2"]').click();
  await expect(page.getByTestId('bug-detail')).toBeVisible();
  const foreign = requests.filter((u) => !/^(https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/|data:|blob:)/.test(u));
  expect(requests.length).toBeGreaterThan(3);
  expect(foreign).toEqual([]);
});

test('the filters by library, category and blameability agree with the benchmark', async ({ page }) => {
  const bugs = await bundledBugs();
  await page.goto(appUrl());
  await expect(page.locator('li[data-bug]')).toHaveCount(bugs.length);
  const shown = async () => (await page.locator('li[data-bug]').evaluateAll((els) => els.map((e) => e.getAttribute('data-bug')))).sort();
  const ids = (xs: BugSpec[]) => xs.map((b) => b.id).sort();

  await page.locator('select[name="library"]').selectOption('csvkit');
  expect(await shown()).toEqual(ids(bugs.filter((b) => b.library === 'csvkit')));
  await page.locator('select[name="category"]').selectOption('SL');
  expect(await shown()).toEqual(ids(bugs.filter((b) => b.library === 'csvkit' && b.category === 'SL')));
  await page.locator('select[name="library"]').selectOption('');
  await page.locator('select[name="blameable"]').selectOption('false');
  const blamelessSL = ids(bugs.filter((b) => b.category === 'SL' && !b.blameable));
  expect(blamelessSL.length).toBeGreaterThan(0);
  expect(await shown()).toEqual(blamelessSL);
  await page.locator('select[name="category"]').selectOption('MFMH');
  const none = bugs.filter((b) => b.category === 'MFMH' && !b.blameable);
  if (none.length === 0) await expect(page.getByText('No bug matches these filters.')).toBeVisible();
});

test('a bug shows its report, failing tests and fault locations; the ground truth only after a run', async ({ page }) => {
  const bug = (await bundledBugs()).find((b) => b.id === 'textkit-1')!;
  const cassette = parseCassette(JSON.parse(await readFile('public/cassettes/textkit-1.oneshot.wrong.cassette.json', 'utf8')), 'wrong-patch cassette');
  const server = await startCassetteServer({ cassette, port: 0, allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
  try {
    await openBug(page, bug.id);
    // the report is rendered Markdown: `code` marks become <code> elements
    await expect(page.getByTestId('bug-report')).toContainText(bug.report.body.split('\n')[0]!.replaceAll('`', ''));
    for (const t of bug.failingTests) await expect(page.getByTestId('failing-tests')).toContainText(t);
    for (const f of bug.faultLocalization) await expect(page.getByTestId('fault-locations')).toContainText(f.file);
    // nothing of the fix is on the page before a run: no reveal control, no fixed line
    const fixedLine = bug.groundTruth.patch!.split('\n').find((l) => l.startsWith('+') && !l.startsWith('+++'))!.slice(1).trim();
    await expect(page.locator('button[name="reveal-ground-truth"]')).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText(fixedLine);
    // a (wrong) run, then the reveal
    await useModelEndpoint(page, server.baseURL, cassette.model);
    await page.locator(`li[data-bug="${bug.id}"]`).click();
    await page.locator('select[name="preset"]').selectOption('oneshot');
    await page.locator('textarea[name="overrides"]').fill('{"budgets": {"maxSteps": 1}}');
    await page.getByRole('button', { name: 'Run agent' }).click();
    await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'implausible', { timeout: 120_000 });
    await page.locator('button[name="reveal-ground-truth"]').click();
    await expect(page.getByTestId('ground-truth')).toContainText(fixedLine);
  } finally {
    await server.close();
  }
});
