// Fork a saved run at step 3: a RepairAgent run of the keyless demo recording (a real cassette server, the real
// runner), opened in the Runs view; "Fork from here" on step 3 with a person playing the model from step 4. The person
// gets the reply form of any run a person plays (the state's commands as fields) and the last result above it; the
// fork's steps 1–3 are the parent's (its recorded replies, the same tool calls), step 4 is the person's, sent through
// the form; a Stop ends the fork in a sentence, and it opens beside its parent in the compare view; the Runs list
// names the parent.
import { test, expect } from '@playwright/test';
import { startDemoEndpoints, type DemoEndpoints } from '../../scripts/demo-endpoints.ts';
import { appUrl, e2eRunner, serveRuntimeConfig } from './helpers.ts';

const BUG = 'textkit-1';
const DEMO = 'textkit-1.repairagent.fix';
const STRINGS = 'src/main/java/org/repairlab/textkit/Strings.java';
const THOUGHT = 'Before fixing, read the whole method once more.';
/** the person's reply at step 4, where the recording wrote the fix: read the method again instead, as the form composes it */
const READ_MORE = JSON.stringify({ thoughts: THOUGHT, command: { name: 'read_range', args: { filepath: STRINGS, startline: 50, endline: 64 } } }, null, 2);

let demos: DemoEndpoints;
test.beforeAll(async () => {
  demos = await startDemoEndpoints({ allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
});
test.afterAll(async () => {
  await demos?.close();
});

type Step = { prompt: { messages: unknown[]; promptHash: string }; response?: { content: string }; tool?: { name: string; output: string }; feedback?: string; overlayChange?: unknown };
type Run = { runId: string; steps: Step[]; forkOf?: { runId: string; step: number; promptDiverged?: unknown }; outcome?: { status: string } };

test('a fork at step 3 replays steps 1–3 byte for byte, then a person takes over; it opens beside its parent', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  await serveRuntimeConfig(page, { runner: e2eRunner(), modelEndpoints: demos.endpoints });
  await page.goto(appUrl());
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.locator('select[name="endpoint-preset"]').selectOption(demos.endpoints.find((e) => e.demo?.file === DEMO)!.name);
  await page.getByRole('button', { name: 'Bugs' }).click();
  await page.locator(`li[data-bug="${BUG}"]`).click();
  await page.getByRole('button', { name: 'Run agent' }).click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'plausible', { timeout: 150_000 });

  // the saved run, opened in the Runs view at its step 3
  await page.getByRole('button', { name: 'Runs' }).click();
  const parentRow = page.locator('tr.run');
  await expect(parentRow).toHaveCount(1);
  const parentId = (await parentRow.getAttribute('data-run'))!;
  await parentRow.click();
  await page.locator('[data-testid="step-nav"] li[data-index="2"]').click();
  await page.getByRole('button', { name: 'Fork from here (step 3)' }).click();

  const panel = page.getByTestId('fork-panel');
  await panel.locator('input[name="fork-model"][value="human"]').check();
  await panel.getByRole('button', { name: 'Start the fork' }).click();
  // steps 1–3 replay on their own; the person is asked for step 4, with the parent's step-4 prompt
  const turn = panel.getByTestId('fork-human-turn');
  await expect(turn).toContainText('You are the model — step 4', { timeout: 60_000 });
  await expect(panel.getByTestId('fork-progress')).toHaveAttribute('data-steps', '3');
  // the reply form, as in any run a person plays: the commands of the state step 4 is in, one field per argument
  const form = turn.getByTestId('reply-form');
  await expect(form).toBeVisible();
  await expect(form.getByTestId('reply-tools')).toContainText('collect information to fix the bug');
  await expect(form.locator('input[name="reply-tool"][value="write_fix"]')).toHaveCount(1);
  // above it, the result of the parent's step 3 (replayed): read_range ran, no tests
  await expect(turn.getByTestId('last-result')).toContainText('step 3: read_range');
  await form.locator('input[name="reply-tool"][value="read_range"]').check();
  await form.locator('textarea[name="reply-thought"]').fill(THOUGHT);
  await form.locator('[name="arg-filepath"]').fill(STRINGS);
  await form.locator('[name="arg-startline"]').fill('50');
  await form.locator('[name="arg-endline"]').fill('64');
  await expect(form.getByTestId('reply-preview')).toHaveText(READ_MORE);
  await form.getByRole('button', { name: "Send the form's reply" }).click();
  // step 5: the person gives up here; the fork stops in a sentence and opens in the compare view
  await expect(turn).toContainText('You are the model — step 5', { timeout: 60_000 });
  await expect(turn.getByTestId('last-result')).toContainText('step 4: read_range');
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(panel.getByTestId('fork-outcome')).toHaveAttribute('data-status', 'stopped', { timeout: 30_000 });
  await expect(panel.getByTestId('fork-outcome-reason')).toHaveText('Stopped by you at step 5');

  const compare = panel.getByTestId('fork-compare');
  await expect(compare.getByTestId('compare-row')).toHaveCount(5, { timeout: 30_000 });
  await expect(compare.getByTestId('compare-fork-of')).toContainText(`fork of ${parentId} at step 3`);
  for (const step of [0, 1, 2]) await expect(compare.locator(`[data-testid="compare-row"][data-step="${step}"] [data-run="1"]`)).toHaveAttribute('data-differs', '');
  const step4 = compare.locator('[data-testid="compare-row"][data-step="3"] [data-run="1"]');
  await expect(step4).toHaveAttribute('data-differs', /action/);
  await expect(step4).not.toHaveAttribute('data-differs', /prompt/);
  await compare.scrollIntoViewIfNeeded();
  const shot = testInfo.outputPath('fork-beside-parent.png');
  await page.screenshot({ path: shot, fullPage: true });
  await testInfo.attach('fork-beside-parent', { path: shot, contentType: 'image/png' });

  // the records: steps 1–3 byte for byte (prompts, replies, tool calls and observations, workspace changes), step 4 the person's
  const [parent, fork] = await page.evaluate(async (parentId) => {
    const engine = (globalThis as unknown as { repairlab: { engine: { listRuns(): Promise<{ runId: string }[]>; getRun(id: string): Promise<unknown> } } }).repairlab.engine;
    const forkId = (await engine.listRuns()).find((r) => r.runId !== parentId)!.runId;
    return [await engine.getRun(parentId), await engine.getRun(forkId)];
  }, parentId) as [Run, Run];
  const same = (s: Step) => ({ prompt: s.prompt, reply: s.response?.content, tool: s.tool, feedback: s.feedback, overlay: s.overlayChange });
  expect(fork.steps.slice(0, 3).map(same)).toEqual(parent.steps.slice(0, 3).map(same));
  expect(fork.steps[3]!.prompt).toEqual(parent.steps[3]!.prompt);
  expect(fork.steps[3]!.response?.content).toBe(READ_MORE);
  expect(parent.steps[3]!.response?.content).not.toBe(READ_MORE);
  expect(fork.forkOf).toEqual({ runId: parentId, step: 3 });
  expect(fork.outcome?.status).toBe('stopped');

  // the Runs list (refreshed when the fork ended) names the fork's parent
  await expect(page.locator(`tr.run[data-run="${fork.runId}"] td[data-col="config"]`)).toContainText(`fork of ${parentId} at step 3`);

  // at 800 px the fork panel and the comparison fit: no sideways scroll
  await page.setViewportSize({ width: 800, height: 900 });
  await expect(compare).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
});
