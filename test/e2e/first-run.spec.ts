// The first five minutes, as README.md "Using it" tells them: a fresh browser profile, the runtime config `npm start`
// serves (the runner and one demo endpoint per recording: scripts/demo-endpoints.ts), open textkit-1 and press Run
// agent — with the preset the panel shows, and then with every other preset. Each run is answered by the demo
// recording that fits it (the run panel picks it and names it) and ends with a verdict: plausible, never a replay that
// diverges at model call 1. Where no recording fits (a bug without recordings, a variant), the panel says why before
// anything runs, Run agent waits, and this bug's recordings are one click away. The Runs list then names each run's
// recording and who wrote its replies.
import { test, expect, type Page } from '@playwright/test';
import { startDemoEndpoints, type DemoEndpoints } from '../../scripts/demo-endpoints.ts';
import { appUrl, e2eRunner, serveRuntimeConfig } from './helpers.ts';

const BUG = 'textkit-1';
// the calls each textkit-1 recording holds (public/cassettes/index.json): one step per call
const STEPS: Record<string, number> = { oneshot: 1, repairagent: 5, hafixagent: 5, passerine: 4 };

let demos: DemoEndpoints;
test.beforeAll(async () => {
  demos = await startDemoEndpoints({ allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
});
test.afterAll(async () => {
  await demos?.close();
});

/** Model calls all the demo endpoints answered so far. */
const answered = () => demos.servers.reduce((n, s) => n + s.served(), 0);

/** A fresh profile (a new page of its own context) on the app as `npm start` serves it: nothing chosen in Settings. */
async function freshApp(page: Page) {
  await serveRuntimeConfig(page, { runner: e2eRunner(), modelEndpoints: demos.endpoints });
  await page.goto(appUrl());
}

async function openBug(page: Page, bugId: string) {
  await page.locator(`li[data-bug="${bugId}"]`).click();
  await expect(page.getByTestId('bug-detail')).toBeVisible();
}

/** Presses Run agent and waits for the verdict; the run is the recording's, step for step, and nothing diverged. */
async function runAndExpectPlausible(page: Page, preset: string) {
  const before = answered();
  await expect(page.getByTestId('run-blocked')).toHaveCount(0);
  await page.getByRole('button', { name: 'Run agent' }).click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'plausible', { timeout: 150_000 });
  await expect(page.getByTestId('step')).toHaveCount(STEPS[preset]!);
  await expect(page.getByTestId('step').and(page.locator('[data-status="llm-error"]'))).toHaveCount(0);
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  expect(answered() - before, `the ${preset} run's model calls were answered by the demo endpoints`).toBe(STEPS[preset]);
}

test('README first steps: a fresh profile opens textkit-1 and every preset\'s run ends plausible, each with its recording named', async ({ page }, testInfo) => {
  test.setTimeout(720_000);
  await freshApp(page);
  await openBug(page, BUG);

  // the panel's own preset first, as the README says: nothing chosen anywhere
  const first = await page.locator('select[name="preset"]').inputValue();
  expect(Object.keys(STEPS)).toContain(first);
  await expect(page.getByTestId('run-active-demo')).toContainText(`${BUG}.${first}.`);
  await expect(page.getByTestId('run-active-demo')).toContainText('replies written by hand');
  await runAndExpectPlausible(page, first);

  for (const preset of Object.keys(STEPS).filter((p) => p !== first)) {
    await page.locator('select[name="preset"]').selectOption(preset);
    // the recording that fits this preset on this bug is the model now, and the panel says which
    await expect(page.getByTestId('run-active-demo')).toContainText(`${BUG}.${preset}.fix on ${BUG} with ${preset} — replies written by hand`);
    await runAndExpectPlausible(page, preset);
    if (preset === 'passerine') await expect(page.locator('textarea[name="overrides"]')).toHaveValue('{"sampling":{"trajectories":1}}');
  }
  const shot = testInfo.outputPath('first-run.png');
  await page.screenshot({ path: shot, fullPage: true });
  await testInfo.attach('first-run', { path: shot, contentType: 'image/png' });

  // the Runs list names each run's recording and who wrote its replies
  await page.getByRole('button', { name: 'Runs' }).click();
  await expect(page.locator('tr.run')).toHaveCount(4);
  for (const preset of Object.keys(STEPS)) {
    await expect(page.locator('tr.run', { hasText: `${BUG}.${preset}.fix (replies written by hand)` })).toHaveCount(1);
  }
});

test('no recording fits: the reason shows before any run, Run agent waits, and one click picks a recording that does', async ({ page }) => {
  await freshApp(page);
  const before = answered();

  // a bug no demo recording was made on
  await openBug(page, 'textkit-2');
  await expect(page.getByTestId('run-blocked')).toContainText('No demo recording was made on textkit-2: the demo recordings replay runs on numkit-3, textkit-1, textkit-3, textkit-4.');
  await expect(page.getByRole('button', { name: 'Run agent' })).toBeDisabled();
  await expect(page.getByTestId('run-active-demo')).toHaveCount(0);

  // a variant: the recordings were made without any
  await openBug(page, BUG);
  await page.locator('select[name="preset"]').selectOption('passerine');
  await expect(page.getByTestId('run-active-demo')).toContainText('textkit-1.passerine.fix');
  await page.locator('input[name="variant"][value="single-trajectory"]').check();
  await expect(page.getByTestId('run-blocked')).toContainText('No demo recording fits this run: textkit-1.passerine.fix was recorded without variants (this run asks for single-trajectory).');
  await expect(page.getByRole('button', { name: 'Run agent' })).toBeDisabled();
  await expect(page.getByTestId('run-active-demo')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Use textkit-1 · repairagent recording' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Use textkit-1 · oneshot recording (wrong)' })).toBeVisible();

  await page.getByRole('button', { name: 'Use textkit-1 · oneshot recording (wrong)' }).click();
  await expect(page.getByTestId('run-blocked')).toHaveCount(0);
  await expect(page.locator('select[name="preset"]')).toHaveValue('oneshot');
  await expect(page.locator('input[name="variant"]:checked')).toHaveCount(0);
  await expect(page.locator('textarea[name="overrides"]')).toHaveValue('{"budgets":{"maxSteps":1}}');
  await expect(page.getByTestId('run-active-demo')).toContainText('textkit-1.oneshot.wrong on textkit-1 with oneshot — replies written by hand');
  await expect(page.getByRole('button', { name: 'Run agent' })).toBeEnabled();

  // nothing ran meanwhile: no step, no model call
  await expect(page.getByTestId('step')).toHaveCount(0);
  expect(answered()).toBe(before);

  // the recording picked replays its own run: the wrong patch, rejected by the runner
  await page.getByRole('button', { name: 'Run agent' }).click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'implausible', { timeout: 150_000 });
  await expect(page.getByTestId('run-error')).toHaveCount(0);
});
