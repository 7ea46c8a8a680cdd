// The keyless classroom mode (a person plays the model) and continuing a run after a reload: the run's steps are in
// IndexedDB after every step, so a reload loses at most the step in flight, and the run goes on under its own id.
import { test, expect, type Page } from '@playwright/test';
import { openBug } from './helpers.ts';

const BUG = 'textkit-1';

async function answer(page: Page, step: number, reply: string) {
  const turn = page.getByTestId('human-turn');
  await expect(turn).toContainText(`step ${step}`);
  await turn.locator('textarea[name="human-reply"]').fill(reply);
  await turn.getByRole('button', { name: 'Send reply' }).click();
}

/** A HAFixAgent run a person plays, answered once and waiting for step 2: a run going on, step 1 saved. */
async function playOneStep(page: Page) {
  await openBug(page, BUG);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.locator('input[name="kind"]').nth(1).check();
  await page.getByRole('button', { name: 'Bugs' }).click();
  await page.locator(`li[data-bug="${BUG}"]`).click();
  await page.locator('select[name="preset"]').selectOption('hafixagent');
  await page.getByRole('button', { name: 'Run agent' }).click();
  await answer(page, 1, 'THOUGHT: look at the sources.\n\n```bash\nls src/main/java/org/repairlab/textkit\n```');
  await expect(page.getByTestId('step')).toHaveCount(1);
  await expect(page.getByTestId('tool-result')).toContainText('Strings.java');
  await expect(page.getByTestId('human-turn')).toContainText('step 2');
}

test('a person plays the model; after a reload the interrupted run continues from its saved steps under the same id', async ({ page }) => {
  await playOneStep(page);
  // step 2 waits for the person: the page reloads (the worker and its run are gone)
  await page.reload();

  await page.locator(`li[data-bug="${BUG}"]`).click();
  const interrupted = page.getByTestId('interrupted-run');
  await expect(interrupted).toHaveCount(1);
  await expect(interrupted).toContainText('hafixagent · 1 step');
  const runId = await interrupted.getAttribute('data-run');
  await interrupted.getByRole('button', { name: 'Continue' }).click();
  // the saved step is shown, and the person is asked for step 2 — with the first reply and its result in the prompt
  await expect(page.getByTestId('step')).toHaveCount(1);
  await expect(page.getByTestId('human-turn')).toContainText('ls src/main/java/org/repairlab/textkit');
  await answer(page, 2, 'THOUGHT: done.\n\n```bash\necho COMPLETE_REPAIR_SIGNAL\n```');
  await expect(page.getByTestId('outcome')).toBeVisible();
  await expect(page.getByTestId('outcome-reason')).toContainText('COMPLETE_REPAIR_SIGNAL');
  await expect(page.getByTestId('step')).toHaveCount(2);
  await expect(page.getByTestId('interrupted-run')).toHaveCount(0);

  // one run, two steps, under the id it had before the reload
  await page.getByRole('button', { name: 'Runs' }).click();
  const rows = page.locator('tr.run');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-run', runId!);
  await expect(rows.first()).toContainText('2 steps');
});

test('a run going on in one tab is not offered to continue in another; once that tab closes, it is', async ({ context }) => {
  const first = await context.newPage();
  await playOneStep(first);

  // the second tab shares the records (IndexedDB): the run is saved as running, but the first tab holds it
  const second = await context.newPage();
  await openBug(second, BUG);
  await expect(second.locator(`[data-testid="interrupted-checked"][data-bug="${BUG}"]`)).toBeAttached();
  await expect(second.getByTestId('interrupted-run')).toHaveCount(0);

  await first.close();
  await second.reload();
  await second.locator(`li[data-bug="${BUG}"]`).click();
  await expect(second.getByTestId('interrupted-run')).toHaveCount(1);
});
