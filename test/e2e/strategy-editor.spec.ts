// The strategy editor end to end: a schema check that names an unknown key, a template edit that the prompt preview
// shows at once (with its diff from the preset), a budget set in the form, the edit saved as a named variant, a run
// of that variant (a person plays the model), and the run's recorded first prompt — which holds the edit and equals
// the preview.
import { test, expect, type Page } from '@playwright/test';
import { openBug } from './helpers.ts';

const BUG = 'textkit-1';
const MARK = 'EDITOR-MARK-7: answer tersely.';

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

async function usePerson(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.locator('input[name="kind"]').nth(1).check();
}

test('edit a template → the preview changes → a run of the saved variant records the edit in its first prompt', async ({ page }) => {
  await openBug(page, BUG);
  await usePerson(page);
  await page.getByRole('button', { name: 'Strategy editor' }).click();
  const editor = page.getByTestId('strategy-editor');
  await editor.locator('select[name="editor-preset"]').selectOption('hafixagent');
  await expect(editor.locator('select[name="editor-bug"]')).toHaveValue(BUG);
  const firstMessage = page.getByTestId('preview-message').first();
  await expect(firstMessage).toContainText('You are a helpful assistant that fixes bugs');
  await expect(page.getByTestId('preview-same')).toBeVisible();
  await shot(page, '1-preset-preview');

  // an unknown key is refused by name as it is typed (the whole strategy as JSON)
  await editor.getByRole('tab', { name: 'Everything (JSON)' }).click();
  await editor.getByTestId('json-editor').locator('.cm-content').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('End');
  await page.keyboard.type('\n"maxStepz": 3,');
  await expect(editor.getByTestId('validation')).toHaveAttribute('data-valid', 'no');
  await expect(editor.getByTestId('validation')).toContainText('unknown key maxStepz');
  await expect(editor.locator('button[name="save-variant"]')).toBeDisabled();
  await shot(page, '2-unknown-key');
  // starting again from the preset drops that edit
  await editor.locator('select[name="editor-preset"]').selectOption('oneshot');
  await editor.locator('select[name="editor-preset"]').selectOption('hafixagent');
  await expect(editor.getByTestId('validation')).toHaveAttribute('data-valid', 'yes');

  // the system template, edited in the code editor: the preview follows, with the diff from the preset's prompt
  await editor.getByRole('tab', { name: 'Prompts' }).click();
  await editor.getByTestId('template-editor').locator('.cm-content').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type(`${MARK}\n`);
  await expect(firstMessage).toContainText(MARK);
  await expect(page.getByTestId('preview-diff').first()).toContainText(`+${MARK}`);
  await expect(editor.getByTestId('strategy-diff')).toContainText(`+${MARK}`);
  // an edit not yet saved survives a visit to another tab
  await page.getByRole('button', { name: 'Runs' }).click();
  await expect(editor).toBeHidden();
  await page.getByRole('button', { name: 'Strategy editor' }).click();
  await expect(firstMessage).toContainText(MARK);
  await expect(editor.getByTestId('strategy-diff')).toContainText(`+${MARK}`);

  // a budget from the form
  await editor.getByRole('tab', { name: 'Parser, memory, budgets' }).click();
  await editor.locator('input[name="max-steps"]').fill('4');
  await editor.locator('input[name="max-steps"]').dispatchEvent('change');
  await expect(editor.getByTestId('strategy-diff')).toContainText('"maxSteps": 4');
  await expect(editor.getByTestId('validation')).toHaveAttribute('data-valid', 'yes');
  await shot(page, '3-edited-preview');

  await editor.locator('input[name="variant-name"]').fill('hafix-marked');
  await editor.locator('button[name="save-variant"]').click();
  await expect(editor.getByTestId('editor-message')).toContainText('Saved “hafix-marked”');

  // the run panel picks the saved variant; the person playing the model sees the edited prompt
  await page.getByRole('button', { name: 'Bugs' }).click();
  await page.locator(`li[data-bug="${BUG}"]`).click();
  await page.locator('select[name="saved-variant"]').selectOption('hafix-marked');
  await page.getByRole('button', { name: 'Run agent' }).click();
  const turn = page.getByTestId('human-turn');
  await expect(turn).toContainText('step 1');
  await expect(turn).toContainText(MARK);
  await turn.locator('textarea[name="human-reply"]').fill('THOUGHT: done.\n\n```bash\necho COMPLETE_REPAIR_SIGNAL\n```');
  await turn.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByTestId('outcome')).toBeVisible();
  await shot(page, '4-run-with-variant');

  // the record: the edit as overrides, the resolved strategy, and a first prompt equal to the preview's
  const recorded = await page.evaluate(async ({ bugId }) => {
    const engine = (globalThis as unknown as { repairlab: { engine: any } }).repairlab.engine; // eslint-disable-line @typescript-eslint/no-explicit-any
    const [run] = await engine.listRuns();
    const t = await engine.getRun(run.runId);
    const preview = await engine.previewPrompt({ bugId, preset: t.config.preset, overrides: t.config.overrides });
    return { preset: t.config.preset, overrides: t.config.overrides, strategy: t.config.strategy, first: t.steps[0].prompt.messages, preview: preview.messages };
  }, { bugId: BUG });
  expect(recorded.preset).toBe('hafixagent');
  expect(recorded.overrides.budgets).toEqual({ maxSteps: 4 });
  expect(recorded.strategy.prompt.system.startsWith(MARK)).toBe(true);
  expect(recorded.first[0].content.startsWith(MARK)).toBe(true);
  expect(recorded.first).toEqual(recorded.preview);
});

test('tools, states and transitions are edited in forms, and the preview of any state follows them', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 1000 });
  await openBug(page, BUG);
  await page.getByRole('button', { name: 'Strategy editor' }).click();
  const editor = page.getByTestId('strategy-editor');
  await editor.locator('select[name="editor-preset"]').selectOption('repairagent');
  const summary = page.getByTestId('preview-summary');
  await expect(summary).toContainText('State collect information to understand the bug');
  await expect(summary).toContainText('read_range');
  await expect(page.getByTestId('preview-startup')).toContainText('run_tests');

  // the tool set: read_range leaves every state, and the preview's tools
  await editor.getByRole('tab', { name: 'Tools' }).click();
  await editor.locator('tr[data-tool="read_range"] input[name="toolset"]').uncheck();
  await expect(summary).not.toContainText('read_range');
  await expect(editor.locator('tr[data-tool="read_range"] input[name="state-tool"]:checked')).toHaveCount(0);
  await expect(editor.getByTestId('strategy-diff')).toContainText('-        "read_range"');

  // states: a renamed state is renamed wherever the strategy names it; a new transition
  await editor.getByRole('tab', { name: 'States & transitions' }).click();
  const done = editor.locator('[data-state="done"] input[name="state-name"]');
  await done.fill('finished');
  await done.dispatchEvent('change');
  await editor.locator('button[name="add-transition"]').click();
  await expect(editor.getByTestId('validation')).toHaveAttribute('data-valid', 'yes');
  await expect(editor.getByTestId('strategy-diff')).toContainText('+    "finished"');
  await expect(editor.locator('[data-transition]')).toHaveCount(6);

  // the preview of another state: its tools
  await editor.locator('select[name="preview-state"]').selectOption('trying out candidate fixes');
  await expect(summary).toContainText('State trying out candidate fixes');
  await expect(summary).toContainText('goal_accomplished');
  await shot(page, 'forms-800px');

  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll).toBe(widths.client);
});
