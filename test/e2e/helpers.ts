// Shared steps of the e2e tests: open the app on a fresh profile, point Settings at a model endpoint.
import { expect, type BrowserContext, type Page } from '@playwright/test';
import type { RuntimeConfig } from '../../scripts/serve-app.ts';

export const appUrl = () => {
  const url = process.env.E2E_APP_URL;
  if (!url) throw new Error('E2E_APP_URL is not set: run the e2e tests through playwright.config.ts (global setup).');
  return url;
};

export async function openBug(page: Page, bugId: string) {
  await page.goto(appUrl());
  await page.locator(`li[data-bug="${bugId}"]`).click();
  await expect(page.getByTestId('bug-detail')).toBeVisible();
}

/**
 * Serves this page's /runtime-config.json as `npm start` writes it (the runner, and model endpoints such as the demo
 * recordings), so a test can use endpoints started in the test process.
 */
export async function serveRuntimeConfig(page: Page | BrowserContext, config: RuntimeConfig) {
  await page.route('**/runtime-config.json', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(config) }));
}

/** The e2e runner that global setup started (it allows the app's origin). */
export const e2eRunner = () => ({ url: process.env.E2E_RUNNER_URL!, token: process.env.E2E_RUNNER_TOKEN! });

/** The element that has keyboard focus, looking inside shadow roots. */
export async function deepFocus(page: Page) {
  return page.evaluateHandle(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el;
  });
}

export async function useModelEndpoint(page: Page, baseURL: string, model: string) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.locator('input[name="base-url"]').fill(baseURL);
  await page.locator('input[name="base-url"]').dispatchEvent('change');
  await page.locator('input[name="model"]').fill(model);
  await page.locator('input[name="model"]').dispatchEvent('change');
  await page.getByRole('button', { name: 'Bugs' }).click();
}

/** A model that answers `replies` in order whatever the prompt (a cassette server in replies mode), as the app's endpoint. */
export async function useScriptedReplies(page: Page, replies: string[]) {
  const { startCassetteServer } = await import('../../worker/llm/cassette-server.node.ts');
  const server = await startCassetteServer({ replies, port: 0, model: 'repairlab-demo-scripted', allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
  await useModelEndpoint(page, server.baseURL, 'repairlab-demo-scripted');
  return server;
}

/** Runs `preset` on the open bug (with named variants and overrides) and waits for its outcome. */
export async function runToOutcome(page: Page, bugId: string, preset: string, opts: { variants?: string[]; overrides?: Record<string, unknown> } = {}) {
  await page.getByRole('button', { name: 'Bugs' }).click();
  await page.locator(`li[data-bug="${bugId}"]`).click();
  await page.locator('select[name="preset"]').selectOption(preset);
  for (const v of opts.variants ?? []) await page.locator(`input[name="variant"][value="${v}"]`).check();
  if (opts.overrides) await page.locator('textarea[name="overrides"]').fill(JSON.stringify(opts.overrides));
  await page.locator('textarea[name="overrides"]').dispatchEvent('change');
  await page.getByRole('button', { name: 'Run agent' }).click();
  await expect(page.getByTestId('outcome')).toBeVisible({ timeout: 150_000 });
  return page.getByTestId('outcome').getAttribute('data-status');
}

/** A HAFixAgent reply running one bash command. */
export const bashReply = (command: string, thought = 'look around.') => `THOUGHT: ${thought}\n\n\`\`\`bash\n${command}\n\`\`\``;
