// Each agent preset runs in Chromium — engine in the web worker, repository in IndexedDB, the real openai SDK
// against a real OpenAI-compatible server replaying the preset's demo recording, the real runner — to a
// plausible patch of the demo bug.
import { readFile } from 'node:fs/promises';
import { test, expect } from '@playwright/test';
import { parseCassette } from '../../worker/contracts/cassette.ts';
import { startCassetteServer } from '../../worker/llm/cassette-server.ts';
import { openBug, useModelEndpoint } from './helpers.ts';

const BUG = 'textkit-1';

interface IndexEntry {
  file: string;
  bugId: string;
  preset: string;
  overrides: Record<string, unknown>;
}

const index = async () => (JSON.parse(await readFile('public/cassettes/index.json', 'utf8')) as { cassettes: IndexEntry[] }).cassettes;

for (const preset of ['repairagent', 'hafixagent', 'passerine']) {
  test(`the ${preset} preset fixes the demo bug in the browser`, async ({ page }) => {
    const entry = (await index()).find((c) => c.preset === preset && c.bugId === BUG && c.file.includes('.fix.'))!;
    const cassette = parseCassette(JSON.parse(await readFile(`public/cassettes/${entry.file}`, 'utf8')), entry.file);
    const server = await startCassetteServer({ cassette, port: 0, allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
    try {
      await openBug(page, BUG);
      await useModelEndpoint(page, server.baseURL, cassette.model);
      await page.locator(`li[data-bug="${BUG}"]`).click();
      await page.locator('select[name="preset"]').selectOption(preset);
      if (Object.keys(entry.overrides).length) await page.locator('textarea[name="overrides"]').fill(JSON.stringify(entry.overrides));
      await page.getByRole('button', { name: 'Run agent' }).click();
      const outcome = page.getByTestId('outcome');
      await expect(outcome).toBeVisible({ timeout: 120_000 });
      await expect(outcome).toHaveAttribute('data-status', 'plausible');
      // one step card per recorded reply: the replay neither skipped nor repeated a call
      await expect(page.getByTestId('step')).toHaveCount(cassette.calls.length);
      await expect(page.getByTestId('final-diff')).toContainText('<=');
      await expect(page.getByTestId('exact-match')).toContainText('matches the developers’ fix');
      // a step's prompt is on the page only while it is open (full-history prompts grow with every step)
      const prompt = page.getByTestId('step').last().getByTestId('prompt');
      await expect(prompt.locator('pre')).toHaveCount(0);
      await prompt.locator('summary').click();
      await expect(prompt.locator('pre')).toHaveCount(cassette.calls.at(-1)!.messages!.length);
      await expect(prompt.locator('pre').first()).toContainText(cassette.calls.at(-1)!.messages![0]!.content.slice(0, 40));
    } finally {
      await server.close();
    }
  });
}

test('a HAFixAgent history variant puts the history section in the prompt, computed in the browser from the stored repository', async ({ page }) => {
  const entry = (await index()).find((c) => c.preset === 'hafixagent' && c.bugId === BUG && c.file.includes('.fix.'))!;
  const cassette = parseCassette(JSON.parse(await readFile(`public/cassettes/${entry.file}`, 'utf8')), entry.file);
  // the recorded replies, answered whatever the prompt (the recording was made without history)
  const server = await startCassetteServer({ cassette, strict: false, port: 0, allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
  try {
    await openBug(page, BUG);
    await useModelEndpoint(page, server.baseURL, cassette.model);
    await page.locator(`li[data-bug="${BUG}"]`).click();
    await page.locator('select[name="preset"]').selectOption('hafixagent');
    await page.locator('input[name="variant"][value="fn_pair"]').check();
    await page.getByRole('button', { name: 'Run agent' }).click();
    await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'plausible', { timeout: 120_000 });
    const prompt = page.getByTestId('step').first().getByTestId('prompt');
    await prompt.locator('summary').click();
    const instance = prompt.locator('pre').nth(1);
    await expect(instance).toContainText('## Historical context (fn_pair)');
    // fn_pair: the buggy function before and after the blame commit
    await expect(instance).toContainText(/The enclosing function .*truncate.* before this commit/);
    expect((await instance.textContent())!.match(/public static String truncate\(/g)).toHaveLength(2);
  } finally {
    await server.close();
  }
});

test('the price table is edited in Settings: a bad one is named and not saved; a model missing from it makes the cost unknown', async ({ page }) => {
  const entry = (await index()).find((c) => c.preset === 'oneshot' && c.file === `${BUG}.oneshot.fix.cassette.json`)!;
  const cassette = parseCassette(JSON.parse(await readFile(`public/cassettes/${entry.file}`, 'utf8')), entry.file);
  const server = await startCassetteServer({ cassette, port: 0, allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
  try {
    await openBug(page, BUG);
    await useModelEndpoint(page, server.baseURL, cassette.model);
    await page.getByRole('button', { name: 'Settings' }).click();
    const prices = page.locator('textarea[name="prices"]');
    await expect(prices).toHaveValue(/"gpt-4o"/);
    await prices.fill('{"other-model": {"inputPerMTok": "cheap"}}');
    await prices.dispatchEvent('change');
    await expect(page.getByTestId('prices-error')).toContainText('the price of "other-model" needs inputPerMTok and outputPerMTok');
    await prices.fill('{"other-model": {"inputPerMTok": 1, "outputPerMTok": 2}}');
    await prices.dispatchEvent('change');
    await expect(page.getByTestId('prices-error')).toHaveCount(0);
    await page.getByRole('button', { name: 'Bugs' }).click();
    await page.locator(`li[data-bug="${BUG}"]`).click();
    await page.locator('select[name="preset"]').selectOption('oneshot');
    await page.getByRole('button', { name: 'Run agent' }).click();
    await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'plausible', { timeout: 120_000 });
    await expect(page.getByTestId('cost-unknown')).toContainText(`no price for ${cassette.model}`);
    await expect(page.getByTestId('step').first()).toContainText('no price');
  } finally {
    await server.close();
  }
});

test("the model settings' sampling reaches the endpoint where the preset sets none; the preset's own temperature wins", async ({ page }) => {
  const entry = (await index()).find((c) => c.preset === 'hafixagent' && c.bugId === BUG && c.file.includes('.fix.'))!;
  const cassette = parseCassette(JSON.parse(await readFile(`public/cassettes/${entry.file}`, 'utf8')), entry.file);
  const server = await startCassetteServer({ cassette, port: 0, allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
  try {
    await openBug(page, BUG);
    await useModelEndpoint(page, server.baseURL, cassette.model);
    await page.getByRole('button', { name: 'Settings' }).click();
    for (const [name, value] of [['temperature', '0.7'], ['top-p', '0.9'], ['seed', '7'], ['max-tokens', '500']] as const) {
      await page.locator(`input[name="${name}"]`).fill(value);
      await page.locator(`input[name="${name}"]`).dispatchEvent('change');
    }
    await page.getByRole('button', { name: 'Bugs' }).click();
    await page.locator(`li[data-bug="${BUG}"]`).click();
    await page.locator('select[name="preset"]').selectOption('hafixagent');
    await page.getByRole('button', { name: 'Run agent' }).click();
    await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'plausible', { timeout: 120_000 });
    const chats = server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
    expect(chats).toHaveLength(cassette.calls.length);
    // HAFixAgent runs at temperature 0 (its paper); top_p, seed and max tokens come from the settings
    for (const c of chats) expect(c.sampling).toEqual({ temperature: 0, top_p: 0.9, seed: 7, max_tokens: 500 });
  } finally {
    await server.close();
  }
});

test('malformed overrides are refused with a message, and no run starts', async ({ page }) => {
  await openBug(page, BUG);
  await page.locator('textarea[name="overrides"]').fill('{"budgets": ');
  await page.getByRole('button', { name: 'Run agent' }).click();
  await expect(page.getByTestId('run-error')).toContainText(/Overrides: not valid JSON/);
  await expect(page.getByTestId('step')).toHaveCount(0);
});
