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

const STRINGS = 'src/main/java/org/repairlab/textkit/Strings.java';
/** the developers' fix of textkit-1, made with sed (HAFixAgent's bash) */
const FIX = bashReply(`sed -i 's/if (s.length() < maxLength) {/if (s.length() <= maxLength) {/' ${STRINGS}`, 'fix the bound.');
/** a wrong fix: the bound moved the other way */
const WRONG = bashReply(`sed -i 's/if (s.length() < maxLength) {/if (s.length() < maxLength - 1) {/' ${STRINGS}`, 'try another bound.');

test('three runs side by side: outcomes, final patches with the developers’ fix once revealed, and the prompt diff of a step', async ({ page }) => {
  test.setTimeout(300_000);
  await openBug(page, BUG);
  // run 1 fixes the bug, run 2 only looks around, run 3 writes a wrong fix; all three start alike (ls)
  const server = await useScriptedReplies(page, [bashReply('ls'), FIX, DONE, bashReply('ls'), bashReply('pwd'), DONE, bashReply('ls'), WRONG, DONE]);
  try {
    for (let i = 0; i < 3; i++) await runToOutcome(page, BUG, 'hafixagent');
  } finally {
    await server.close();
  }
  // chosen in the Runs list: oldest first, all three ticked
  await page.getByRole('button', { name: 'Runs' }).click();
  await expect(page.locator('tr.run')).toHaveCount(3);
  await page.locator('button[name="sort-started"]').click();
  for (const box of await page.locator('input[name="select-run"]').all()) await box.check();
  await page.locator('button[name="compare"]').click();
  const compare = page.getByTestId('run-compare');

  // outcomes and metrics, a column per run; the rows where they differ are marked
  const status = compare.locator('[data-testid="outcome-row"][data-metric="status"]');
  await expect(status).toHaveAttribute('data-differs', 'true');
  await expect(status.locator('[data-run="0"]')).toHaveText('plausible');
  await expect(status.locator('[data-run="1"]')).toHaveText('implausible');
  await expect(status.locator('[data-run="2"]')).toHaveText('implausible');
  await expect(compare.locator('[data-testid="outcome-row"][data-metric="patch"] [data-run="1"]')).toHaveText('no change');

  // the final patches side by side; the developers' fix only once asked for
  const patches = compare.getByTestId('compare-patch');
  await expect(patches).toHaveCount(3);
  await expect(patches.nth(0)).toContainText('+        if (s.length() <= maxLength) {');
  await expect(patches.nth(1)).toContainText('(no changes)');
  await expect(patches.nth(2)).toContainText('+        if (s.length() < maxLength - 1) {');
  await expect(compare.getByTestId('compare-ground-truth')).toHaveCount(0);
  await compare.getByRole('button', { name: "Reveal the developers' fix" }).click();
  const truth = compare.getByTestId('compare-ground-truth');
  await expect(truth).toHaveCount(1);
  await expect(truth).toContainText("The developers' fix");
  await expect(truth).toContainText('-        if (s.length() < maxLength) {');
  await expect(truth).toContainText('+        if (s.length() <= maxLength) {');
  // beside the patches, in the same row
  const [p3, gt] = [await patches.nth(2).boundingBox(), await truth.boundingBox()];
  expect(Math.abs(p3!.y - gt!.y)).toBeLessThan(5);
  expect(p3!.x).toBeLessThan(gt!.x);
  await expect(compare.getByRole('button', { name: "Reveal the developers' fix" })).toHaveCount(0);

  // the prompt diff opens on the first step where run 1's and run 2's prompts part: step 3 holds their second replies
  const prompts = compare.getByTestId('compare-prompts');
  await expect(prompts.locator('select[name="prompt-diff-step"]')).toHaveValue('2');
  const diff = prompts.getByTestId('prompt-step-diff');
  await expect(diff).toContainText('--- run 1 step 3');
  await expect(diff).toContainText('+pwd');
  await expect(diff).toContainText("-sed -i 's/if (s.length() < maxLength) {/if (s.length() <= maxLength) {/'");
  // run 3 against run 1 at the same step
  await prompts.locator('select[name="prompt-diff-b"]').selectOption('2');
  await expect(diff).toContainText('+++ run 3 step 3');
  await expect(diff).toContainText('maxLength - 1');
  // step 1 was asked alike
  await prompts.locator('select[name="prompt-diff-step"]').selectOption('0');
  await expect(prompts.getByTestId('prompt-diff-note')).toContainText('They are the same.');
  await expect(prompts.getByTestId('prompt-step-diff')).toHaveCount(0);
  await shot(page, 'compare-three');

  // at 800 px the page does not scroll sideways
  await page.setViewportSize({ width: 800, height: 900 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await shot(page, 'compare-three-800px');
});
