// The foundation, end to end in Chromium: the demo bug is imported into IndexedDB, the engine worker runs the
// one-shot agent against a real OpenAI-compatible server replaying a recorded run (strict: every prompt must
// hash to the recorded one), and the real runner compiles and tests the patch in its sandbox.
import { readFile } from 'node:fs/promises';
import { test, expect } from '@playwright/test';
import { parseCassette } from '../../worker/contracts/cassette.ts';
import { startCassetteServer, type CassetteServer } from '../../worker/llm/cassette-server.node.ts';
import { openBug, useModelEndpoint } from './helpers.ts';

const BUG = 'textkit-1';

async function serveCassette(file: string): Promise<{ server: CassetteServer; model: string }> {
  const cassette = parseCassette(JSON.parse(await readFile(`public/cassettes/${file}`, 'utf8')), file);
  const server = await startCassetteServer({ cassette, port: 0, allowedOrigins: [process.env.E2E_APP_ORIGIN!], strict: true });
  return { server, model: cassette.model };
}

test('the demo bug is imported, shown, and fixed by the one-shot agent', async ({ page }) => {
  const { server, model } = await serveCassette(`${BUG}.oneshot.fix.cassette.json`);
  try {
    await openBug(page, BUG);
    // what the bug page shows comes from the repository now stored in IndexedDB
    await expect(page.getByTestId('bug-report')).not.toBeEmpty();
    await expect(page.getByTestId('failing-tests')).toContainText('StringsTest::truncateKeepsStringThatFitsExactly');
    await expect(page.getByTestId('buggy-code').first()).toContainText('truncate');
    const dbs = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
    expect(dbs).toContain('repairlab-fs');

    await useModelEndpoint(page, server.baseURL, model);
    await page.locator('select[name="preset"]').selectOption('oneshot');
    await page.getByRole('button', { name: 'Run agent' }).click();

    await expect(page.getByTestId('outcome-status')).toContainText('plausible', { timeout: 120_000 });
    await expect(page.getByTestId('final-diff')).toContainText('Strings.java');
    await expect(page.getByTestId('step').first()).toBeVisible();
    expect(server.served()).toBeGreaterThanOrEqual(1);
    expect(server.requests.some((r) => r.stream)).toBe(true);
  } finally {
    await server.close();
  }
});

test('a wrong patch is rejected with the failing test named', async ({ page }) => {
  const { server, model } = await serveCassette(`${BUG}.oneshot.wrong.cassette.json`);
  try {
    await openBug(page, BUG);
    await useModelEndpoint(page, server.baseURL, model);
    await page.locator('select[name="preset"]').selectOption('oneshot');
    await page.getByRole('button', { name: 'Run agent' }).click();
    await expect(page.getByTestId('outcome')).toBeVisible({ timeout: 120_000 });
    await expect(page.getByTestId('outcome-status')).not.toContainText('plausible patch');
    await expect(page.getByTestId('verdict').last()).toContainText('truncateKeepsStringThatFitsExactly');
  } finally {
    await server.close();
  }
});
