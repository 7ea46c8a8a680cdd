// Bad input in the browser gets a clear message, and the run's record is kept: an unreachable runner, a wrong
// runner token, a model endpoint that refuses or blocks CORS, malformed model output, a patch that does not compile.
import { readFile } from 'node:fs/promises';
import { test, expect, type Page } from '@playwright/test';
import { parseCassette } from '../../worker/contracts/cassette.ts';
import { startCassetteServer, type CassetteServerOptions } from '../../worker/llm/cassette-server.node.ts';
import { openBug, serveRuntimeConfig, useModelEndpoint } from './helpers.ts';

const BUG = 'textkit-1';
const origin = () => process.env.E2E_APP_ORIGIN!;
const fixCassette = async () => parseCassette(JSON.parse(await readFile(`public/cassettes/${BUG}.oneshot.fix.cassette.json`, 'utf8')), 'fix cassette');

async function withModel(opts: Omit<CassetteServerOptions, 'port'>, body: (baseURL: string) => Promise<void>) {
  const server = await startCassetteServer({ port: 0, allowedOrigins: [origin()], ...opts });
  try {
    await body(server.baseURL);
  } finally {
    await server.close();
  }
}

async function setRunner(page: Page, url: string, token: string) {
  await page.getByRole('button', { name: 'Settings' }).click();
  for (const [name, value] of [['runner-url', url], ['runner-token', token]] as const) {
    await page.locator(`input[name="${name}"]`).fill(value);
    await page.locator(`input[name="${name}"]`).dispatchEvent('change');
  }
  await page.getByRole('button', { name: 'Bugs' }).click();
}

async function run(page: Page) {
  await page.locator('select[name="preset"]').selectOption('oneshot');
  await page.getByRole('button', { name: 'Run agent' }).click();
  await expect(page.getByTestId('outcome')).toBeVisible({ timeout: 120_000 });
}

async function expectRunRecorded(page: Page, status: string) {
  await page.getByRole('button', { name: 'Runs' }).click();
  await expect(page.locator(`tr.run[data-status="${status}"]`).first()).toBeVisible();
}

test('an unreachable runner is named, with what to do, and the run waits for it instead of telling the model', async ({ page }) => {
  await withModel({ cassette: await fixCassette() }, async (baseURL) => {
    await openBug(page, BUG);
    await useModelEndpoint(page, baseURL, 'any');
    await setRunner(page, 'http://127.0.0.1:9', process.env.E2E_RUNNER_TOKEN!);
    await page.locator('select[name="preset"]').selectOption('oneshot');
    await page.getByRole('button', { name: 'Run agent' }).click();
    const waiting = page.getByTestId('runner-waiting');
    await expect(waiting).toBeVisible({ timeout: 60_000 });
    await expect(waiting).toContainText('127.0.0.1:9');
    await expect(waiting).toContainText('Settings');
    // the outage is not a step the model sees
    await expect(page.locator('rl-step-card')).toHaveCount(0);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByTestId('outcome-status')).toContainText('stopped', { timeout: 60_000 });
    await expect(waiting).toHaveCount(0);
    await expectRunRecorded(page, 'stopped');
  });
});

test('a wrong runner token is reported as such, with where the token is, and the run waits instead of telling the model', async ({ page }) => {
  // no runner served: nothing for the page to read the token again from (runner-restart.spec.ts covers that)
  await serveRuntimeConfig(page, {});
  await withModel({ cassette: await fixCassette() }, async (baseURL) => {
    await openBug(page, BUG);
    await useModelEndpoint(page, baseURL, 'any');
    await setRunner(page, process.env.E2E_RUNNER_URL!, 'not-the-token');
    const down = page.getByTestId('runner-down');
    await expect(down).toHaveAttribute('data-problem', 'token');
    await expect(down).toContainText('Settings → Runner token');
    await page.locator('select[name="preset"]').selectOption('oneshot');
    await page.getByRole('button', { name: 'Run agent' }).click();
    const waiting = page.getByTestId('runner-waiting');
    await expect(waiting).toBeVisible({ timeout: 60_000 });
    await expect(waiting).toContainText('refused the token');
    await expect(waiting).toContainText('`Token: …`');
    await expect(waiting).toContainText('Settings → Runner token');
    // a token is not the model's to fix: no step shows it
    await expect(page.locator('rl-step-card')).toHaveCount(0);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByTestId('outcome-status')).toContainText('stopped', { timeout: 60_000 });
    await expectRunRecorded(page, 'stopped');
  });
});

test('a model endpoint that refuses the key is reported', async ({ page }) => {
  await withModel({ replies: ['never sent'], refuse: { status: 401 } }, async (baseURL) => {
    await openBug(page, BUG);
    await useModelEndpoint(page, baseURL, 'any');
    await run(page);
    await expect(page.getByTestId('outcome-status')).toContainText('error');
    await expect(page.getByTestId('outcome-reason')).toContainText(/401|key/i);
    await expectRunRecorded(page, 'error');
  });
});

test('a model endpoint that blocks CORS is diagnosed as CORS', async ({ page }) => {
  await withModel({ replies: ['never seen'], blockCors: true }, async (baseURL) => {
    await openBug(page, BUG);
    await useModelEndpoint(page, baseURL, 'any');
    await run(page);
    await expect(page.getByTestId('outcome-reason')).toContainText(/CORS|cross-origin/i);
    await expectRunRecorded(page, 'error');
  });
});

test('choosing a local provider preset says how to let the browser reach it', async ({ page }) => {
  await page.goto(process.env.E2E_APP_URL!);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.locator('select[name="endpoint-preset"]').selectOption('Ollama (local)');
  await expect(page.locator('input[name="base-url"]')).toHaveValue('http://127.0.0.1:11434/v1');
  await expect(page.getByTestId('cors-note')).toContainText('OLLAMA_ORIGINS');
  await page.locator('select[name="endpoint-preset"]').selectOption('vLLM (local)');
  await expect(page.getByTestId('cors-note')).toContainText('--allowed-origins');
});

test('malformed model output is fed back as a format error and the model recovers', async ({ page }) => {
  const cassette = parseCassette(JSON.parse(await readFile(`public/cassettes/${BUG}.oneshot.format-error.cassette.json`, 'utf8')), 'format-error cassette');
  await withModel({ cassette }, async (baseURL) => {
    await openBug(page, BUG);
    await useModelEndpoint(page, baseURL, cassette.model);
    await run(page);
    await expect(page.locator('[data-testid="step"][data-status="format-error"]').first()).toBeVisible();
    await expect(page.getByTestId('outcome')).toHaveAttribute('data-status', 'plausible');
    await expectRunRecorded(page, 'plausible');
  });
});

test('a patch that does not compile shows the compiler diagnostics', async ({ page }) => {
  const broken = [
    '```diff',
    '--- a/src/main/java/org/repairlab/textkit/Strings.java',
    '+++ b/src/main/java/org/repairlab/textkit/Strings.java',
    '@@ -58,1 +58,1 @@',
    '-        if (s.length() < maxLength) {',
    '+        if (s.length() <= maxLength) {{',
    '```',
  ].join('\n');
  await withModel({ replies: [broken, broken, broken], strict: false }, async (baseURL) => {
    await openBug(page, BUG);
    await useModelEndpoint(page, baseURL, 'any');
    await run(page);
    await expect(page.getByTestId('verdict').first()).toContainText('does not compile');
    await expect(page.getByTestId('verdict').first()).toContainText('Strings.java');
  });
});
