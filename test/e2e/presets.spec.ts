// Each agent preset runs in Chromium — engine in the web worker, repository in IndexedDB, the real openai SDK
// against a real OpenAI-compatible server replaying the preset's demo recording, the real runner — to a
// plausible patch of the demo bug.
import { readFile } from 'node:fs/promises';
import { test, expect, type Page } from '@playwright/test';
import { parseCassette, type Cassette } from '../../worker/contracts/cassette.ts';
import { startCassetteServer, type CassetteServer } from '../../worker/llm/cassette-server.node.ts';
import { openBug, useModelEndpoint } from './helpers.ts';

const BUG = 'textkit-1';

interface IndexEntry {
  file: string;
  bugId: string;
  preset: string;
  overrides: Record<string, unknown>;
}

const index = async () => (JSON.parse(await readFile('public/cassettes/index.json', 'utf8')) as { cassettes: IndexEntry[] }).cassettes;

/**
 * A demo recording of `preset` on the bug served by a cassette server (strict: every prompt must match the recording),
 * the app's model endpoint pointed at it, the bug open; the server closes after `body`.
 */
async function withDemoRecording(
  page: Page,
  preset: string,
  body: (demo: { entry: IndexEntry; cassette: Cassette; server: CassetteServer }) => Promise<void>,
  opts: { strict?: boolean } = {},
) {
  const entry = (await index()).find((c) => c.preset === preset && c.file === `${BUG}.${preset}.fix.cassette.json`)!;
  const cassette = parseCassette(JSON.parse(await readFile(`public/cassettes/${entry.file}`, 'utf8')), entry.file);
  const server = await startCassetteServer({ cassette, port: 0, allowedOrigins: [process.env.E2E_APP_ORIGIN!], ...(opts.strict === false ? { strict: false } : {}) });
  try {
    await openBug(page, BUG);
    await useModelEndpoint(page, server.baseURL, cassette.model);
    await body({ entry, cassette, server });
  } finally {
    await server.close();
  }
}

/** Runs `preset` on the bug from the Bugs tab (with `prepare` after choosing it) and waits for a plausible outcome. */
async function runToPlausible(page: Page, preset: string, prepare: () => Promise<void> = async () => undefined) {
  await page.getByRole('button', { name: 'Bugs' }).click();
  await page.locator(`li[data-bug="${BUG}"]`).click();
  await page.locator('select[name="preset"]').selectOption(preset);
  await prepare();
  await page.getByRole('button', { name: 'Run agent' }).click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'plausible', { timeout: 120_000 });
}

for (const preset of ['repairagent', 'hafixagent', 'passerine']) {
  test(`the ${preset} preset fixes the demo bug in the browser`, async ({ page }) => {
    await withDemoRecording(page, preset, async ({ entry, cassette }) => {
      await runToPlausible(page, preset, async () => {
        if (Object.keys(entry.overrides).length) await page.locator('textarea[name="overrides"]').fill(JSON.stringify(entry.overrides));
      });
      // one step card per recorded reply: the replay neither skipped nor repeated a call
      await expect(page.getByTestId('step')).toHaveCount(cassette.calls.length);
      await expect(page.getByTestId('final-diff')).toContainText('<=');
      await expect(page.getByTestId('exact-match')).toContainText('matches the developers’ fix');
      // a step's prompt is on the page only while it is open (full-history prompts grow with every step)
      const prompt = page.getByTestId('step').last().getByTestId('prompt');
      await expect(prompt.locator('rl-long-text')).toHaveCount(0);
      await prompt.locator('summary').click();
      // one text per message (a long one shows as head and tail: rl-long-text)
      await expect(prompt.locator('rl-long-text')).toHaveCount(cassette.calls.at(-1)!.messages!.length);
      await expect(prompt.locator('rl-long-text').first()).toContainText(cassette.calls.at(-1)!.messages![0]!.content.slice(0, 40));
    });
  });
}

test('a HAFixAgent history variant puts the history section in the prompt, computed in the browser from the stored repository', async ({ page }) => {
  // the recorded replies, answered whatever the prompt (the recording was made without history)
  await withDemoRecording(
    page,
    'hafixagent',
    async () => {
      await runToPlausible(page, 'hafixagent', () => page.locator('input[name="variant"][value="fn_pair"]').check());
      const prompt = page.getByTestId('step').first().getByTestId('prompt');
      await prompt.locator('summary').click();
      const instance = prompt.locator('pre').nth(1);
      await expect(instance).toContainText('## Historical context (fn_pair)');
      // fn_pair: the buggy function before and after the blame commit
      await expect(instance).toContainText(/The enclosing function .*truncate.* before this commit/);
      expect((await instance.textContent())!.match(/public static String truncate\(/g)).toHaveLength(2);
    },
    { strict: false },
  );
});

test('the price table is edited in Settings: a bad one is named and not saved; a model missing from it makes the cost unknown', async ({ page }) => {
  await withDemoRecording(page, 'oneshot', async ({ cassette }) => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const prices = page.locator('textarea[name="prices"]');
    await expect(prices).toHaveValue(/"gpt-4o"/);
    await prices.fill('{"other-model": {"inputPerMTok": "cheap"}}');
    await prices.dispatchEvent('change');
    await expect(page.getByTestId('prices-error')).toContainText('the price of "other-model" needs inputPerMTok and outputPerMTok');
    await prices.fill('{"other-model": {"inputPerMTok": 1, "outputPerMTok": 2}}');
    await prices.dispatchEvent('change');
    await expect(page.getByTestId('prices-error')).toHaveCount(0);
    await runToPlausible(page, 'oneshot');
    await expect(page.getByTestId('cost-unknown')).toContainText(`no price for ${cassette.model}`);
    await expect(page.getByTestId('step').first()).toContainText('no price');
  });
});

test("the model settings' sampling reaches the endpoint where the preset sets none; the preset's own temperature wins", async ({ page }) => {
  await withDemoRecording(page, 'hafixagent', async ({ cassette, server }) => {
    await page.getByRole('button', { name: 'Settings' }).click();
    for (const [name, value] of [['temperature', '0.7'], ['top-p', '0.9'], ['seed', '7'], ['max-tokens', '500']] as const) {
      await page.locator(`input[name="${name}"]`).fill(value);
      await page.locator(`input[name="${name}"]`).dispatchEvent('change');
    }
    await runToPlausible(page, 'hafixagent');
    const chats = server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
    expect(chats).toHaveLength(cassette.calls.length);
    // HAFixAgent runs at temperature 0 (its paper); top_p, seed and max tokens come from the settings
    for (const c of chats) expect(c.sampling).toEqual({ temperature: 0, top_p: 0.9, seed: 7, max_tokens: 500 });
  });
});

test('malformed overrides are refused with a message, and no run starts', async ({ page }) => {
  await openBug(page, BUG);
  await page.locator('textarea[name="overrides"]').fill('{"budgets": ');
  await page.getByRole('button', { name: 'Run agent' }).click();
  await expect(page.getByTestId('run-error')).toContainText(/Overrides: not valid JSON/);
  await expect(page.getByTestId('step')).toHaveCount(0);
});
