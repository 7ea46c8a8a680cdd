// The Runs list: labelled columns with each run's preset, variants, overrides and model; sort by a header, filter by
// text, status and preset; keyboard-focusable rows (Enter opens); delete with confirmation removes the run from the
// store. Runs are made cheaply by a model that answers scripted replies (a cassette server in replies mode).
import { test, expect, type Page } from '@playwright/test';
import { bashReply, deepFocus, openBug, runToOutcome, useScriptedReplies } from './helpers.ts';

const BUG = 'textkit-1';
const DONE = bashReply('echo COMPLETE_REPAIR_SIGNAL', 'done.');

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

const rows = (page: Page) => page.locator('tr.run');
const column = (page: Page, col: string) => rows(page).locator(`td[data-col="${col}"]`);

test('runs are listed with their configuration, sorted, filtered, opened by keyboard and deleted after confirmation', async ({ page }) => {
  await openBug(page, BUG);
  // three runs: HAFixAgent fn_all with overrides (3 steps), HAFixAgent bare (1 step), one-shot (1 step, no patch)
  const server = await useScriptedReplies(page, [bashReply('ls'), bashReply('pwd'), DONE, DONE, 'no diff in this reply']);
  try {
    await runToOutcome(page, BUG, 'hafixagent', { variants: ['fn_all'], overrides: { budgets: { maxSteps: 7 } } });
    await runToOutcome(page, BUG, 'hafixagent');
    await runToOutcome(page, BUG, 'oneshot', { overrides: { budgets: { maxSteps: 1 } } });
  } finally {
    await server.close();
  }

  await page.getByRole('button', { name: 'Runs' }).click();
  await expect(rows(page)).toHaveCount(3);
  for (const label of ['Bug', 'Preset', 'Variants / overrides', 'Model', 'Status', 'Outcome', 'Steps', 'Cost', 'Started'])
    await expect(page.getByRole('button', { name: label, exact: false }).first()).toBeVisible();
  // an fn_all run names its variant, its overrides and its model, not just "hafixagent"
  const fnAll = rows(page).filter({ hasText: 'fn_all' });
  await expect(fnAll).toHaveCount(1);
  await expect(fnAll.locator('td[data-col="config"]')).toHaveText('fn_all · budgets.maxSteps=7');
  await expect(fnAll.locator('td[data-col="model"]')).toHaveText('repairlab-demo-scripted');
  await expect(fnAll.locator('td[data-col="steps"]')).toHaveText('3 steps');
  await shot(page, 'runs-list');

  // sort by steps: a number column sorts largest first, a second click reverses it
  await page.locator('button[name="sort-steps"]').click();
  await expect(column(page, 'steps')).toHaveText(['3 steps', '1 step', '1 step']);
  await page.locator('button[name="sort-steps"]').click();
  await expect(column(page, 'steps')).toHaveText(['1 step', '1 step', '3 steps']);
  await page.locator('button[name="sort-preset"]').click();
  await expect(column(page, 'preset')).toHaveText(['hafixagent', 'hafixagent', 'oneshot']);

  // filters: text over every column, status, preset
  await page.locator('input[name="run-filter"]').fill('maxSteps=7');
  await expect(rows(page)).toHaveCount(1);
  await page.locator('input[name="run-filter"]').fill('');
  await page.locator('select[name="preset-filter"]').selectOption('oneshot');
  await expect(rows(page)).toHaveCount(1);
  await expect(column(page, 'preset')).toHaveText(['oneshot']);
  await page.locator('select[name="preset-filter"]').selectOption('');
  const oneshotStatus = await rows(page).filter({ hasText: 'oneshot' }).locator('td[data-col="status"]').textContent();
  const hafixStatuses = await rows(page).filter({ hasText: 'hafixagent' }).locator('td[data-col="status"]').allTextContents();
  await page.locator('select[name="status-filter"]').selectOption(oneshotStatus!);
  await expect(rows(page)).toHaveCount(1 + hafixStatuses.filter((st) => st === oneshotStatus).length);
  await page.locator('select[name="status-filter"]').selectOption('');
  await page.locator('input[name="run-filter"]').fill('no-such-run-anywhere');
  await expect(page.getByTestId('no-match')).toBeVisible();
  await page.locator('input[name="run-filter"]').fill('');
  await expect(rows(page)).toHaveCount(3);

  // keyboard: rows take focus and Enter opens the run
  await page.locator('input[name="run-filter"]').focus();
  let focused = '';
  for (let i = 0; i < 20 && !focused.startsWith('TR'); i++) {
    await page.keyboard.press('Tab');
    focused = await (await deepFocus(page)).evaluate((el) => (el ? `${el.tagName}:${el.getAttribute('data-run') ?? ''}` : ''));
  }
  expect(focused).toMatch(/^TR:run-/);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('trajectory-viewer')).toBeVisible();
  await expect(page.getByTestId('step-nav').locator('li').first()).toBeFocused();

  // delete: asks first; Cancel keeps the run, Delete removes it from the store (gone after a reload too)
  const doomed = await fnAll.getAttribute('data-run');
  await fnAll.locator('button[name="delete-run"]').click();
  await expect(page.getByTestId('confirm-delete')).toContainText(doomed!);
  await shot(page, 'runs-delete-confirm');
  await page.locator('button[name="cancel-delete"]').click();
  await expect(rows(page)).toHaveCount(3);
  await fnAll.locator('button[name="delete-run"]').click();
  await page.locator('button[name="confirm-delete"]').click();
  await expect(rows(page)).toHaveCount(2);
  await expect(page.locator(`tr.run[data-run="${doomed}"]`)).toHaveCount(0);
  const stored = await page.evaluate(async () => {
    const engine = (globalThis as unknown as { repairlab: { engine: { listRuns(): Promise<{ runId: string }[]> } } }).repairlab.engine;
    return (await engine.listRuns()).map((r) => r.runId);
  });
  expect(stored).not.toContain(doomed);
  expect(stored).toHaveLength(2);
});

test('at 800 px the Runs list does not scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await openBug(page, BUG);
  const server = await useScriptedReplies(page, [bashReply('ls'), DONE]);
  try {
    await runToOutcome(page, BUG, 'hafixagent', { variants: ['fn_all'], overrides: { budgets: { maxSteps: 5 } } });
  } finally {
    await server.close();
  }
  await page.getByRole('button', { name: 'Runs' }).click();
  await expect(rows(page)).toHaveCount(1);
  await rows(page).first().click();
  await expect(page.getByTestId('trajectory-viewer')).toBeVisible();
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(widths[0]).toBe(widths[1]);
  await shot(page, 'runs-800px');
});

test('Stop during a person’s turn clears the reply panel and ends the run as stopped by you, at that step', async ({ page }) => {
  await openBug(page, BUG);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.locator('input[name="kind"]').nth(1).check();
  await page.getByRole('button', { name: 'Bugs' }).click();
  await page.locator(`li[data-bug="${BUG}"]`).click();
  await page.locator('select[name="preset"]').selectOption('hafixagent');
  await page.getByRole('button', { name: 'Run agent' }).click();
  await expect(page.getByTestId('human-turn')).toBeVisible();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'stopped');
  await expect(page.getByTestId('human-turn')).toHaveCount(0);
  await expect(page.getByTestId('outcome-reason')).toHaveText('Stopped by you at step 1');
  await shot(page, 'stopped');
});
