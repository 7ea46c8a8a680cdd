// Compare: two runs of the same bug whose replies differ, side by side aligned by step, reached from the Runs list
// (tick rows → Compare). The step where they differ is highlighted (action, tool result), the next step's prompt
// differs (it holds the earlier reply) and its diff names the two commands; steps that agree are not highlighted.
import { test, expect, type Page } from '@playwright/test';
import { bashReply, openBug, runToOutcome, useScriptedReplies } from './helpers.ts';

const BUG = 'textkit-1';
const DONE = bashReply('echo COMPLETE_REPAIR_SIGNAL', 'done.');

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

test('two runs whose second reply differs are compared step by step, the difference highlighted', async ({ page }) => {
  await openBug(page, BUG);
  // both start alike (ls), then one lists the sources and the other prints the working directory
  const server = await useScriptedReplies(page, [bashReply('ls'), bashReply('ls src'), DONE, bashReply('ls'), bashReply('pwd'), DONE]);
  try {
    await runToOutcome(page, BUG, 'hafixagent');
    await runToOutcome(page, BUG, 'hafixagent');
  } finally {
    await server.close();
  }
  await page.getByRole('button', { name: 'Runs' }).click();
  await expect(page.locator('tr.run')).toHaveCount(2);
  await expect(page.locator('button[name="compare"]')).toBeDisabled();
  // oldest first (the list starts newest first): run 1 is the one that listed src
  await page.locator('button[name="sort-started"]').click();
  for (const box of await page.locator('input[name="select-run"]').all()) await box.check();
  await page.locator('button[name="compare"]').click();

  const compare = page.getByTestId('run-compare');
  await expect(compare.getByTestId('compare-row')).toHaveCount(3);
  const cell = (step: number) => compare.locator(`[data-testid="compare-row"][data-step="${step}"] [data-testid="compare-cell"][data-run="1"]`);
  // step 1: the same reply, nothing highlighted
  await expect(cell(0)).toHaveAttribute('data-differs', '');
  // step 2: a different command and result
  await expect(cell(1)).toHaveAttribute('data-differs', /action/);
  await expect(cell(1)).toHaveAttribute('data-differs', /tool/);
  await expect(cell(1).locator('[data-field="action"]')).toHaveText('bash pwd');
  await expect(compare.locator('[data-testid="compare-row"][data-step="1"] [data-run="0"] [data-field="action"]')).toHaveText('bash ls src');
  // step 3: the prompt differs (it holds the earlier reply); its diff shows both commands
  await expect(cell(2)).toHaveAttribute('data-differs', /prompt/);
  await cell(2).getByTestId('prompt-diff').locator('summary').click();
  const diff = cell(2).locator('rl-diff-view');
  await expect(diff).toContainText('-ls src');
  await expect(diff).toContainText('+pwd');
  await shot(page, 'compare');

  await compare.locator('input[name="only-differences"]').check();
  await expect(compare.getByTestId('compare-row')).toHaveCount(2);

  // at 800 px the page does not scroll sideways
  await page.setViewportSize({ width: 800, height: 900 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await shot(page, 'compare-800px');
});
