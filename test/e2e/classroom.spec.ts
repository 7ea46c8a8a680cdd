// The classroom: a person plays RepairAgent on the demo bug through the reply form only (no typed JSON), the state
// diagram lights the state each turn is in, a form reply makes the same step as the same text typed, and the presenter
// layout (keyboard only) shows the diagram beside the turn without sideways scrolling at 800 px.
import { test, expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { openBug } from './helpers.ts';
import { DEMO_CASSETTES } from '../../worker/records/demo-cassettes.ts';

const BUG = 'textkit-1';
const S1 = 'collect information to understand the bug';
const S2 = 'collect information to fix the bug';
const S3 = 'trying out candidate fixes';
const STRINGS = 'src/main/java/org/repairlab/textkit/Strings.java';
const TEST_FILE = 'src/test/java/org/repairlab/textkit/StringsTest.java';
/** the hand-written demo replies of RepairAgent on textkit-1: what the form must compose, byte for byte */
const DEMO_REPLIES = DEMO_CASSETTES.find((c) => c.preset === 'repairagent' && c.bugId === BUG)!.replies;

/**
 * A screenshot of the window, scrolled to `target`. Never beyond the window: Chromium captures a taller area by
 * resizing the window, and the next click then misses its element.
 */
async function shot(page: Page, testInfo: TestInfo, name: string, target?: Locator) {
  await target?.scrollIntoViewIfNeeded();
  await testInfo.attach(name, { body: await page.screenshot(), contentType: 'image/png' });
}

async function startHumanRepairAgent(page: Page) {
  await openBug(page, BUG);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('A person plays the model').check();
  await page.getByRole('button', { name: 'Bugs' }).click();
  await page.locator(`li[data-bug="${BUG}"]`).click();
  await page.locator('select[name="preset"]').selectOption('repairagent');
  await page.getByRole('button', { name: 'Run agent' }).click();
}

const litState = (page: Page) => page.locator('[data-testid="state-diagram"] g.node[data-lit="true"]');

/** Waits for turn `step`, checks the lit state and the offered commands, then answers through the form. */
async function answerWithForm(page: Page, step: number, state: string, tool: string, thought: string, fields: Record<string, string>) {
  const turn = page.getByTestId('human-turn');
  await expect(turn).toContainText(`step ${step}`);
  await expect(litState(page)).toHaveAttribute('data-state', state);
  await expect(litState(page)).toHaveCount(1);
  const form = turn.getByTestId('reply-form');
  await expect(form.getByTestId('reply-tools')).toContainText(state);
  await form.locator(`input[name="reply-tool"][value="${tool}"]`).check();
  await form.locator('textarea[name="reply-thought"]').fill(thought);
  for (const [name, value] of Object.entries(fields)) await form.locator(`[name="arg-${name}"]`).fill(value);
  await form.getByRole('button', { name: "Send the form's reply" }).click();
  await expect(page.getByTestId('step')).toHaveCount(step);
}

const stepsOf = (page: Page, runId: string) =>
  page.evaluate(async (id) => {
    const engine = (globalThis as unknown as { repairlab: { engine: { getRun(id: string): Promise<{ steps: { response?: { content: string }; parsed?: { command?: unknown }; state: string; stateAfter: string; tool?: { name: string; shown: string } }[] } | undefined> } } }).repairlab.engine;
    const run = await engine.getRun(id);
    return run!.steps.map((s) => ({ reply: s.response?.content, command: s.parsed?.command, state: s.state, stateAfter: s.stateAfter, tool: s.tool?.name, shown: s.tool?.shown }));
  }, runId);

test('a person plays RepairAgent through the form only; the lit state follows the run; a form reply is the typed reply', async ({ page }, testInfo) => {
  await startHumanRepairAgent(page);
  const turn = page.getByTestId('human-turn');
  await expect(turn).toContainText('step 1');
  // the output format is shown whole, outside the scrolling prompt
  const format = turn.getByTestId('output-format');
  await expect(format).toBeVisible();
  await expect(format).toContainText('Reply with one JSON object and nothing else');
  expect(await format.evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);
  // the commands offered are the start state's
  await expect(turn.locator('input[name="reply-tool"]')).toHaveCount(5);
  const offered = await turn.locator('input[name="reply-tool"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).sort());
  expect(offered).toEqual(['express_hypothesis', 'extract_tests', 'read_range', 'run_fault_localization', 'run_tests']);
  // a field error names the field and sends nothing
  await turn.locator('input[name="reply-tool"][value="read_range"]').check();
  await turn.locator('[name="arg-filepath"]').fill(STRINGS);
  await turn.locator('[name="arg-endline"]').fill('62');
  await turn.getByRole('button', { name: "Send the form's reply" }).click();
  await expect(turn.getByTestId('reply-form-error')).toContainText('"startline" is required');
  await expect(page.getByTestId('step')).toHaveCount(0);
  await shot(page, testInfo, 'classroom-form-step-1', turn.getByTestId('reply-form'));

  await answerWithForm(page, 1, S1, 'extract_tests', 'Start with the failing test to see what it expects.', { test_file_path: TEST_FILE });
  await answerWithForm(page, 2, S1, 'express_hypothesis', 'The test expects truncate("hello", 5) to return "hello". Fault localization points at the early return.', {
    hypothesis: 'truncate only returns the string unchanged when it is shorter than maxLength; at exactly maxLength it still cuts. The check must be <= instead of <.',
  });
  await answerWithForm(page, 3, S2, 'read_range', 'Read the method around the buggy line.', { filepath: STRINGS, startline: '54', endline: '62' });
  const changes = [{ file_name: STRINGS, insertions: [], deletions: [], modifications: [{ line_number: 58, modified_line: '        if (s.length() <= maxLength) {' }] }];
  await answerWithForm(page, 4, S2, 'write_fix', 'Line 58 compares with <; a string of exactly maxLength characters fits.', { changes: JSON.stringify(changes, null, 2) });
  await expect(page.getByTestId('step').nth(3).getByTestId('verdict')).toBeVisible({ timeout: 120_000 });
  await expect(turn).toContainText('step 5');
  await expect(litState(page)).toHaveAttribute('data-state', S3);
  await shot(page, testInfo, 'classroom-lit-trying-fixes', page.getByTestId('classroom-diagram'));
  await answerWithForm(page, 5, S3, 'goal_accomplished', 'All tests pass with the fix.', { reason: 'truncate keeps strings of exactly maxLength characters; all tests pass' });
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'plausible', { timeout: 120_000 });
  await expect(litState(page)).toHaveAttribute('data-state', 'done');
  await shot(page, testInfo, 'classroom-done', page.getByTestId('classroom-diagram'));

  // the form composed the hand-written demo replies exactly
  const runId = (await page.evaluate(async () => {
    const engine = (globalThis as unknown as { repairlab: { engine: { listRuns(): Promise<{ runId: string }[]> } } }).repairlab.engine;
    return (await engine.listRuns())[0]!.runId;
  }))!;
  const formSteps = await stepsOf(page, runId);
  expect(formSteps.map((s) => s.reply)).toEqual(DEMO_REPLIES);
  expect(formSteps.map((s) => s.stateAfter)).toEqual([S1, S2, S2, S3, 'done']);
  expect(formSteps.map((s) => s.command)).toEqual(DEMO_REPLIES.map((r) => (JSON.parse(r) as { command: unknown }).command));

  // the same replies typed into the text box make the same steps
  await page.getByRole('button', { name: 'Run agent' }).click();
  for (const [i, reply] of DEMO_REPLIES.slice(0, 3).entries()) {
    await expect(turn).toContainText(`step ${i + 1}`);
    await turn.locator('textarea[name="human-reply"]').fill(reply);
    await turn.getByRole('button', { name: 'Send reply', exact: true }).click();
    await expect(page.getByTestId('step')).toHaveCount(i + 1);
  }
  await expect(turn).toContainText('step 4');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('running')).toHaveCount(0);
  const typedRunId = await page.evaluate(async (formRun) => {
    const engine = (globalThis as unknown as { repairlab: { engine: { listRuns(): Promise<{ runId: string }[]> } } }).repairlab.engine;
    return (await engine.listRuns()).find((r) => r.runId !== formRun)!.runId;
  }, runId);
  expect((await stepsOf(page, typedRunId)).slice(0, 3)).toEqual(formSteps.slice(0, 3));
});

test('the presenter layout: keyboard only, the diagram beside the turn, no sideways scroll at 800 px', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await startHumanRepairAgent(page);
  await expect(page.getByTestId('human-turn')).toContainText('step 1');

  const toggle = page.getByRole('button', { name: 'Presenter layout', exact: true });
  await toggle.focus();
  await page.keyboard.press('Enter');
  const presenter = page.getByTestId('presenter');
  await expect(presenter).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  // focus starts inside the layout, on its way out
  await expect(page.getByRole('button', { name: 'Leave presenter layout (Esc)' })).toBeFocused();
  // the diagram and the turn are slotted into the layout (its children, shown inside its dialog)
  const diagram = page.locator('rl-presenter-layout [data-testid="state-diagram"]');
  const turn = page.getByTestId('human-turn');
  await expect(diagram).toBeVisible();
  await expect(turn).toBeVisible();
  await expect(litState(page)).toHaveAttribute('data-state', S1);
  // side by side: the diagram's column ends before the turn's begins, both start near the top
  const [d, t] = [await diagram.boundingBox(), await turn.boundingBox()];
  expect(d!.x + d!.width).toBeLessThanOrEqual(t!.x);
  expect(Math.abs(d!.y - t!.y)).toBeLessThan(120);
  const widths = async () =>
    presenter.evaluate((dialog) => ({
      dialog: [dialog.scrollWidth, dialog.clientWidth],
      page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
    }));
  let w = await widths();
  expect(w.dialog[0]).toBe(w.dialog[1]);
  expect(w.page[0]).toBe(w.page[1]);
  await shot(page, testInfo, 'presenter-800px');

  // the turn is answered by keyboard inside the layout: pick the command, type, send
  await turn.locator('input[name="reply-tool"][value="express_hypothesis"]').focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await page.keyboard.type('The early return uses < where <= is meant.');
  await page.keyboard.press('Tab');
  await page.keyboard.type('At exactly maxLength the string is cut though it fits.');
  await turn.getByRole('button', { name: "Send the form's reply" }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('human-turn')).toContainText('step 2');
  await expect(litState(page)).toHaveAttribute('data-state', S2);
  w = await widths();
  expect(w.dialog[0]).toBe(w.dialog[1]);
  await shot(page, testInfo, 'presenter-800px-state-2');

  // Escape leaves it; focus returns to the toggle
  await page.keyboard.press('Escape');
  await expect(presenter).toHaveCount(0);
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  const steps = page.getByTestId('step');
  await expect(steps).toHaveCount(1);
  await expect(steps.first().getByTestId('response')).toContainText('"name": "express_hypothesis"');
});

test('the strategy editor draws the machine being edited, the previewed state lit', async ({ page }, testInfo) => {
  await openBug(page, BUG);
  await page.getByRole('button', { name: 'Strategy editor' }).click();
  const editor = page.getByTestId('strategy-editor');
  await editor.locator('select[name="editor-preset"]').selectOption('repairagent');
  const diagram = editor.getByTestId('editor-state-diagram');
  const lit = diagram.locator('g.node[data-lit="true"]');
  await expect(lit).toHaveAttribute('data-state', S1);
  await editor.locator('select[name="preview-state"]').selectOption(S3);
  await expect(lit).toHaveAttribute('data-state', S3);
  // an edit of the states is redrawn at once
  await editor.getByRole('tab', { name: 'States & transitions' }).click();
  const done = editor.locator('[data-state="done"] input[name="state-name"]');
  await done.fill('finished');
  await done.dispatchEvent('change');
  await expect(diagram.locator('g.node[data-state="finished"]')).toHaveCount(1);
  await expect(diagram.locator('g.node[data-state="done"]')).toHaveCount(0);
  await shot(page, testInfo, 'editor-diagram', diagram);
});

test('the presenter shows the last tool result — whether write_fix passed — above the turn; Stop ends the run in a sentence', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  await startHumanRepairAgent(page);
  const turn = page.getByTestId('human-turn');
  // the demo's first four replies, typed: the fourth is write_fix, validated on the runner
  for (const [i, reply] of DEMO_REPLIES.slice(0, 4).entries()) {
    await expect(turn).toContainText(`step ${i + 1}`, { timeout: 120_000 });
    await turn.locator('textarea[name="human-reply"]').fill(reply);
    await turn.getByRole('button', { name: 'Send reply', exact: true }).click();
    await expect(page.getByTestId('step')).toHaveCount(i + 1, { timeout: 120_000 });
  }
  await expect(turn).toContainText('step 5');

  await page.getByRole('button', { name: 'Presenter layout', exact: true }).click();
  const presenter = page.locator('rl-run-presenter');
  const last = presenter.getByTestId('last-result');
  // the class sees what write_fix did before the next turn: the verdict in large type, then the result itself
  await expect(last).toBeVisible();
  await expect(last).toHaveAttribute('data-kind', 'pass');
  await expect(last).toContainText('step 4: write_fix');
  await expect(last.getByTestId('last-result-headline')).toHaveText('Validation passed: all tests pass');
  await expect(last.getByTestId('last-tool-result')).toContainText('The fix is plausible: all tests pass.');
  await expect(presenter.getByTestId('human-turn')).toContainText('step 5');
  // the result comes first in the turn's column, the form below it
  const [r, t] = [await last.boundingBox(), await presenter.getByTestId('human-turn').boundingBox()];
  expect(r!.y + r!.height).toBeLessThanOrEqual(t!.y);
  await shot(page, testInfo, 'presenter-last-result');

  // Stop (outside the layout) ends the run as stopped, in a sentence: in the outcome, the stopped step and the record
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'stopped');
  const reason = page.getByTestId('outcome-reason');
  await expect(reason).toHaveText(/^Stopped by you at step 5/);
  await expect(reason).not.toContainText('aborted');
  await expect(page.getByTestId('step').nth(4).getByTestId('step-error')).toHaveText('Stopped by you at step 5');
  const record = await page.evaluate(async () => {
    const engine = (globalThis as unknown as { repairlab: { engine: { listRuns(): Promise<{ runId: string }[]>; getRun(id: string): Promise<unknown> } } }).repairlab.engine;
    return JSON.stringify(await engine.getRun((await engine.listRuns())[0]!.runId));
  });
  expect((JSON.parse(record) as { outcome: { reason: string } }).outcome.reason).toMatch(/^Stopped by you at step 5/);
  expect(record).not.toMatch(/aborted without reason/);
  await shot(page, testInfo, 'stopped-in-a-sentence', reason);
});
