// The trajectory viewer on a long run, by keyboard alone: j/k and arrows step, Enter/space collapse and expand, f jumps
// to the first failing validation, / focuses the search, n/N go from match to match; a long tool output is collapsed
// to head and tail with the count of hidden characters; the ground truth shows beside the trajectory once revealed.
// The run (120 steps) is made cheaply: a scripted model (cassette server in replies mode) driving HAFixAgent's bash.
import { test, expect, type Page } from '@playwright/test';
import { bashReply, openBug, runToOutcome, useScriptedReplies } from './helpers.ts';

const BUG = 'textkit-1';
const STEPS = 120;

/** 120 replies: listings, one long output (step 5), a marker to search for (steps 20 and 90), a failing test (step 40). */
function replies(): string[] {
  const out: string[] = [];
  for (let i = 1; i <= STEPS - 1; i++) {
    if (i === 5) out.push(bashReply('seq 1 5000', 'a long output.'));
    else if (i === 20 || i === 90) out.push(bashReply('echo NEEDLE-MARK', 'the marker.'));
    else if (i === 40) out.push(bashReply('defects4j test', 'run the tests on the buggy code.'));
    else out.push(bashReply(i % 2 ? 'ls' : 'pwd'));
  }
  out.push(bashReply('echo COMPLETE_REPAIR_SIGNAL', 'done.'));
  return out;
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

const current = (page: Page) => page.getByTestId('open-step');

test('a 120-step run is stepped through, searched and collapsed with the keyboard alone', async ({ page }) => {
  test.setTimeout(400_000);
  await openBug(page, BUG);
  const server = await useScriptedReplies(page, replies());
  try {
    await runToOutcome(page, BUG, 'hafixagent', { overrides: { budgets: { maxSteps: STEPS + 5 } } });
  } finally {
    await server.close();
  }
  await page.getByRole('button', { name: 'Runs' }).click();
  await page.locator('tr.run').first().focus();
  await page.keyboard.press('Enter');
  const nav = page.getByTestId('step-nav');
  await expect(nav.locator('li')).toHaveCount(STEPS);
  // lazy: one step card on the page, not 120
  await expect(page.locator('rl-step-card')).toHaveCount(1);
  await expect(current(page)).toHaveAttribute('data-step', '0');

  for (const key of ['j', 'ArrowDown', 'j', 'j']) await page.keyboard.press(key);
  await expect(current(page)).toHaveAttribute('data-step', '4');
  await page.keyboard.press('k');
  await page.keyboard.press('ArrowUp');
  await expect(current(page)).toHaveAttribute('data-step', '2');
  await page.keyboard.press('End');
  await expect(current(page)).toHaveAttribute('data-step', String(STEPS - 1));
  await page.keyboard.press('Home');

  // step 5's output (seq 1 5000) is collapsed to head and tail, expandable
  for (let i = 0; i < 4; i++) await page.keyboard.press('j');
  await expect(current(page)).toHaveAttribute('data-step', '4');
  const hidden = current(page).getByTestId('hidden-chars');
  await expect(hidden).toHaveText(/… [0-9,]+ characters hidden …/);
  await shot(page, 'viewer-collapsed-output');
  // (the agent's own observation trimming keeps 7,500 characters at each end: line 1500 is in them)
  await expect(current(page).getByTestId('tool-result')).not.toContainText(/\b1500\s+1501\b/);
  await hidden.click();
  await expect(current(page).getByTestId('tool-result')).toContainText(/\b1500\s+1501\b/);

  // Enter collapses and expands the open step (focus back on the navigator first)
  await nav.locator('li[aria-current="step"]').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('step-collapsed')).toBeVisible();
  await page.keyboard.press(' ');
  await expect(page.locator('rl-step-card')).toHaveCount(1);

  // f: the first failing validation (the test run at step 40)
  await page.keyboard.press('f');
  await expect(current(page)).toHaveAttribute('data-step', '39');
  await expect(current(page).getByTestId('verdict')).toContainText('failing');
  await shot(page, 'viewer-first-failing');

  // search: / focuses it, Enter goes to the first match after the open step, n/N next/previous (wrapping)
  await page.keyboard.press('/');
  await page.keyboard.type('needle-mark');
  await expect(page.getByTestId('match-count')).toHaveText('2 steps match');
  await page.keyboard.press('Enter');
  await expect(current(page)).toHaveAttribute('data-step', '89');
  await expect(current(page).locator('rl-step-card')).toContainText('NEEDLE-MARK');
  expect(await current(page).locator('rl-step-card').evaluate((el) => el.shadowRoot!.querySelectorAll('rl-long-text').length)).toBeGreaterThan(0);
  const marks = await current(page).locator('rl-step-card').evaluate((el) =>
    [...el.shadowRoot!.querySelectorAll('rl-long-text')].reduce((n, t) => n + t.shadowRoot!.querySelectorAll('mark').length, 0));
  expect(marks).toBeGreaterThan(0);
  await page.keyboard.press('n');
  await expect(current(page)).toHaveAttribute('data-step', '19');
  await page.keyboard.press('N');
  await expect(current(page)).toHaveAttribute('data-step', '89');
  await shot(page, 'viewer-search');

  // the ground truth beside the trajectory once revealed
  await page.locator('button[name="reveal-ground-truth"]').click();
  await expect(page.getByTestId('ground-truth-side')).toContainText('Strings.java');
  await shot(page, 'viewer-ground-truth');
});
