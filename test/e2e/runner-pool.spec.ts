// The page takes a runner pool descriptor (docs/formats/runner-pool.md): two real runners (bubblewrap, javac/JUnit)
// started here with one shared token, a descriptor that names them and says the token is to be asked for, pasted in
// Settings; the page asks for the token, and an experiment built in the Experiments tab runs on both — the runner
// table lists both, each having started cells, and a validation comes back plausible through the pool. The token is in no link and the descriptor in Settings holds none.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, type Locator } from '@playwright/test';
import { startRunner, type RunningRunner } from '../../runner/src/index.ts';
import { startCassetteServer, type CassetteServer } from '../../worker/llm/cassette-server.node.ts';
import { appUrl, serveRuntimeConfig, e2eRunner, useModelEndpoint } from './helpers.ts';

const FIX = (JSON.parse(readFileSync('public/cassettes/textkit-1.oneshot.fix.cassette.json', 'utf8')) as { calls: { response: { content: string } }[] }).calls[0]!.response.content;
const TOKEN = 'pool-e2e-token-4f1d9c2b7a6e5d3c';

let runners: RunningRunner[] = [];
let model: CassetteServer;
let dataDirs: string[] = [];

test.beforeAll(async () => {
  const origin = process.env.E2E_APP_ORIGIN!;
  dataDirs = [1, 2].map((i) => mkdtempSync(join(tmpdir(), `repairlab-e2e-pool-${i}-`)));
  runners = await Promise.all(dataDirs.map((dataDir) => startRunner({ port: 0, token: TOKEN, allowedOrigins: [origin], workers: 1, dataDir })));
  model = await startCassetteServer({ replies: Array<string>(40).fill(FIX), port: 0, model: 'repairlab-demo-scripted', allowedOrigins: [origin] });
});

test.afterAll(async () => {
  await Promise.allSettled([...runners.map((r) => r.close()), model?.close()]);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

async function commit(field: Locator, value: string) {
  await field.fill(value);
  await field.dispatchEvent('change');
}

test('a pool descriptor of two runners in Settings: the token asked for, an experiment runs on both', async ({ page }) => {
  await serveRuntimeConfig(page, { runner: e2eRunner() });
  await page.goto(appUrl());
  await useModelEndpoint(page, model.baseURL, 'repairlab-demo-scripted');

  const descriptor = {
    schemaVersion: 1,
    kind: 'repairlab-runner-pool',
    name: 'e2e',
    engine: 'static',
    tokenFrom: { ask: true },
    runners: runners.map((r, i) => ({ id: `runner-${i + 1}`, url: r.url, capacity: 1, engine: 'static' })),
  };
  await page.getByRole('button', { name: 'Settings' }).click();
  // a descriptor holding a token is refused, saying why
  await commit(page.locator('textarea[name="pool-descriptor"]'), JSON.stringify({ ...descriptor, token: TOKEN }));
  await expect(page.getByTestId('pool-error')).toContainText('never holds a token');
  await commit(page.locator('textarea[name="pool-descriptor"]'), JSON.stringify(descriptor));
  await expect(page.getByTestId('pool-summary')).toContainText('e2e (static): 2 runners, 2 validations at once');
  await expect(page.getByTestId('pool-token-needed')).toBeVisible();
  await commit(page.locator('input[name="pool-token"]'), TOKEN);
  await expect(page.getByTestId('pool-token-needed')).toHaveCount(0);

  await page.getByRole('button', { name: 'Experiments' }).click();
  await page.getByRole('button', { name: 'New experiment' }).click();
  await commit(page.locator('input[name="exp-name"]'), 'e2e-pool');
  await page.locator('select[name="exp-library"]').selectOption('textkit');
  await commit(page.locator('input[name="exp-limit"]'), '4');
  await expect(page.getByTestId('exp-bug-count')).toHaveText('4 bugs');
  // one model call a cell: the experiment ends, with no validation in flight when the runners close
  await page.locator('select[name="variant-preset"]').first().selectOption('oneshot');
  await page.getByRole('button', { name: 'Estimate calls and cost' }).click();
  await page.getByRole('button', { name: 'Start' }).click();
  const detail = page.getByTestId('experiment-detail');
  await expect(detail).toBeVisible();

  // the runner table: both runners of the descriptor, up, each having started cells
  const pool = page.getByTestId('experiment-pool');
  await expect(pool.locator('h3')).toHaveText('Runners (2 of 2 up)', { timeout: 120_000 });
  await expect(pool.locator('tbody tr')).toHaveCount(2);
  await expect(pool.locator('tbody tr[data-runner="runner-1"] td').first()).toHaveAttribute('title', runners[0]!.url);
  await expect(pool.locator('tbody tr[data-runner="runner-2"] td').first()).toHaveAttribute('title', runners[1]!.url);
  // both take cells (a bug goes to the runner with the most free capacity), and validations come back through the
  // pool: textkit-1's cell is plausible (the model answers every call with its fix); no cell is in error
  const started = (id: string) => pool.locator(`tbody tr[data-runner="${id}"] td`).nth(3);
  for (const id of ['runner-1', 'runner-2']) await expect.poll(async () => Number(await started(id).textContent()), { timeout: 120_000 }).toBeGreaterThan(0);
  const matrix = page.locator('[data-testid="experiment-matrix"]');
  await expect(matrix.locator('[data-status="plausible"]')).toHaveCount(1, { timeout: 150_000 });
  await expect(page.getByTestId('experiment-status')).toHaveAttribute('data-status', 'finished', { timeout: 240_000 });
  const errors = page.getByTestId('error-cells');
  expect(await errors.count(), (await errors.count()) ? ((await errors.textContent()) ?? '') : '').toBe(0);
  expect(page.url()).not.toContain(TOKEN);
});
