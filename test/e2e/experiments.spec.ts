// The Experiments tab end to end: an experiment built in the UI (2 bugs by the library filter × 2 variants × 2
// samples), estimated, started against a real OpenAI-compatible server (the cassette server in replies mode, every
// call answered with textkit-1's one-line fix) and the real runner; the page is reloaded while a cell's model call is
// held, the experiment is listed as interrupted and resumed, and it finishes. The results table shows exactly the
// numbers the engine's report function gives for the same experiment, the charts draw, and a cell opens its run.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { test, expect, type Locator, type Page } from '@playwright/test';
import { startCassetteServer, type CassetteServer } from '../../worker/llm/cassette-server.node.ts';
import type { ExperimentReport } from '../../worker/experiments/report.ts';
import { variantTable } from '../../worker/experiments/report-denominators.ts';
import { appUrl, serveRuntimeConfig, e2eRunner, useModelEndpoint } from './helpers.ts';

const FIX = (JSON.parse(readFileSync('public/cassettes/textkit-1.oneshot.fix.cassette.json', 'utf8')) as { calls: { response: { content: string } }[] }).calls[0]!.response.content;

/** A real HTTP proxy in front of the model server that holds chat calls while closed (a call stays in flight). */
class Gate {
  server!: Server;
  baseURL = '';
  open = true;
  held: { req: IncomingMessage; res: ServerResponse; body: Buffer }[] = [];
  calls = 0;
  constructor(private readonly upstream: string) {}

  async start() {
    this.server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (d: Buffer) => parts.push(d));
      req.on('end', () => {
        const call = { req, res, body: Buffer.concat(parts) };
        if (req.method === 'POST') this.calls++;
        if (req.method === 'POST' && !this.open) this.held.push(call);
        else this.forward(call);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  private forward({ req, res, body }: { req: IncomingMessage; res: ServerResponse; body: Buffer }) {
    if (res.destroyed || req.socket.destroyed) return; // the page that asked has gone (reloaded)
    const up = new URL(req.url ?? '/', this.upstream);
    const out = httpRequest(up, { method: req.method, headers: { ...req.headers, host: up.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    out.end(body);
  }

  releaseOne() {
    const call = this.held.shift();
    if (call) this.forward(call);
  }

  openUp() {
    this.open = true;
    for (const call of this.held.splice(0)) this.forward(call);
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

let model: CassetteServer;
let gate: Gate;

test.beforeEach(async () => {
  model = await startCassetteServer({ replies: Array.from({ length: 200 }, () => FIX), model: 'repairlab-demo-scripted' });
  gate = new Gate(model.url);
  await gate.start();
});
test.afterEach(async () => {
  await gate.close();
  await model.close();
});

/** Types into a field and commits it as a person leaving the field would (the form reads `change`). */
async function commit(field: Locator, value: string) {
  await field.fill(value);
  await field.dispatchEvent('change');
}

const matrixCells = (page: Page, status: string) => page.locator(`[data-testid="experiment-matrix"] [data-status="${status}"]`);

test('an experiment built in the UI runs, survives a reload, resumes, and shows the numbers the engine reports', async ({ page }, testInfo) => {
  await serveRuntimeConfig(page, { runner: e2eRunner() });
  await page.goto(appUrl());
  await useModelEndpoint(page, gate.baseURL, 'repairlab-demo-scripted');
  await page.getByRole('button', { name: 'Experiments' }).click();
  await page.getByRole('button', { name: 'New experiment' }).click();

  // 2 bugs by the bug browser's filter fields, 2 variants, 2 samples, one run at a time
  await commit(page.locator('input[name="exp-name"]'), 'e2e-matrix');
  await page.locator('select[name="exp-library"]').selectOption('textkit');
  await commit(page.locator('input[name="exp-limit"]'), '2');
  await expect(page.getByTestId('exp-bug-count')).toHaveText('2 bugs');
  await page.getByRole('button', { name: 'Add variant' }).click();
  await expect(page.getByTestId('variant-row')).toHaveCount(2);
  await commit(page.locator('input[name="variant-name"]').nth(1), 'oneshot-1step');
  await commit(page.locator('textarea[name="variant-overrides"]').nth(1), '{"budgets":{"maxSteps":1}}');
  await commit(page.locator('input[name="exp-samples"]'), '2');
  await commit(page.locator('input[name="exp-concurrency"]'), '1');

  // the estimate before starting: 8 runs, 1 to maxSteps calls each (3 for oneshot, 1 for the other), a free model
  await expect(page.getByRole('button', { name: 'Start' })).toBeDisabled();
  await page.getByRole('button', { name: 'Estimate calls and cost' }).click();
  await expect(page.getByTestId('exp-estimate-calls')).toHaveText('8–16');
  await expect(page.getByTestId('exp-estimate-cost')).toHaveText('$0.0000');
  await page.screenshot({ path: testInfo.outputPath('1-builder-with-estimate.png'), fullPage: true });

  // start with the model's calls held: the first cell's call is released, the second's stays in flight
  gate.open = false;
  await page.getByRole('button', { name: 'Start' }).click();
  const detail = page.getByTestId('experiment-detail');
  await expect(detail).toBeVisible();
  const experimentId = (await detail.getAttribute('data-experiment'))!;
  await expect.poll(() => gate.held.length).toBe(1);
  gate.releaseOne();
  await expect(matrixCells(page, 'plausible')).toHaveCount(1);
  await expect.poll(() => gate.held.length).toBe(1);
  await expect(matrixCells(page, 'running')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('2-running.png'), fullPage: true });

  // reload mid-way: the worker and its session are gone; the records are not
  await page.reload();
  gate.openUp();
  await page.getByRole('button', { name: 'Experiments' }).click();
  const row = page.locator(`tr[data-experiment="${experimentId}"]`);
  await expect(row).toHaveAttribute('data-status', 'interrupted');
  await expect(row).toContainText('1 / 8');
  // Resume goes on with it and opens it
  await row.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('experiment-status')).toHaveAttribute('data-status', 'finished', { timeout: 150_000 });
  await expect(page.getByTestId('experiment-progress')).toContainText('8 / 8');

  // the results are the engine's report, number for number
  const report = (await page.evaluate((id) => (globalThis as unknown as { repairlab: { engine: { experimentReport(id: string): Promise<unknown> } } }).repairlab.engine.experimentReport(id), experimentId)) as ExperimentReport;
  expect(report.experiment).toMatchObject({ id: experimentId, status: 'finished', bugs: 2, variants: 2, samples: 2, cells: 8 });
  const fmt = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(4) : String(v));
  const table = page.getByTestId('variant-table');
  await expect(table.locator('tbody tr')).toHaveCount(2);
  // the engine's per-variant table (each count beside its denominator), cell for cell
  const engineTable = variantTable(report.variants);
  await expect(table.locator('thead th')).toHaveText(engineTable.columns);
  for (const [i, row] of engineTable.rows.entries()) await expect(table.locator('tbody tr').nth(i).locator('td')).toHaveText(row.map(fmt));
  expect(report.variants.map((r) => [r.plausibleAt1, r.firstSamples, r.bugsFixed, r.bugsAttempted])).toEqual([[0.5, 2, 1, 2], [0.5, 2, 1, 2]]);
  // textkit-1's fix is plausible in all four of its cells; nothing was lost or run twice across the reload
  expect(report.variants.reduce((n, r) => n + r.cells, 0)).toBe(8);
  expect(report.variants.reduce((n, r) => n + r.statuses.plausible, 0)).toBe(4);
  expect(report.variants.map((r) => r.bugsFixed)).toEqual([1, 1]);
  await expect(matrixCells(page, 'plausible')).toHaveCount(4);
  // the report's metrics and statistics, as the CLI's tables: #pass per variant and category as the report computed it
  const metrics = report.metrics as { computed: boolean; result?: { summary: { variant: string; category: string; pass: number }[] } };
  if (metrics.computed) {
    const summary = page.getByTestId('table-summary');
    await expect(summary.locator('tbody tr')).toHaveCount(metrics.result!.summary.length);
    const passColumn = await summary.locator('thead th').allTextContents().then((h) => h.indexOf('#pass'));
    for (const [i, s] of metrics.result!.summary.entries()) await expect(summary.locator('tbody tr').nth(i).locator('td').nth(passColumn)).toHaveText(String(s.pass));
  } else {
    await expect(page.getByTestId('metrics-note')).toBeVisible();
  }
  if (report.statistics.computed) await expect(page.getByTestId('table-plausibility').locator('tbody tr').first()).toBeVisible();
  else await expect(page.getByTestId('statistics-note')).toBeVisible();

  // both charts draw, with their tables
  for (const kind of ['plausible-at-k', 'cost-vs-success']) {
    const canvas = page.getByTestId(`chart-${kind}`);
    await canvas.scrollIntoViewIfNeeded();
    await expect(canvas).toHaveAttribute('data-drawn', 'yes');
    await expect(page.getByTestId(`table-${kind}`).locator('tbody tr')).toHaveCount(2);
  }
  await expect(page.getByTestId('table-plausible-at-k').locator('tbody tr').first().locator('td')).toHaveText(['1', '0.5000', '0.5000']);
  await page.screenshot({ path: testInfo.outputPath('3-results.png'), fullPage: true });

  // a cell opens its run in the Runs view
  const cell = page.locator('[data-testid="experiment-matrix"] button[data-cell="textkit-1|oneshot|0"]');
  await cell.click();
  await expect(page.locator('rl-trajectory-viewer')).toBeVisible();
  await expect(page.locator('rl-runs-view h3').first()).toContainText('textkit-1 · oneshot');
  await page.screenshot({ path: testInfo.outputPath('4-cell-run.png'), fullPage: true });
});
