// Cells the model endpoint cannot serve, end to end. The model endpoint is a demo recording (the textkit-1 one-shot fix,
// a real cassette server replaying the bundled recording), offered as `npm start` offers it and chosen in Settings;
// an experiment over textkit-1 and textkit-2 is built in the UI. Before Start the estimate names the cell the recording
// cannot serve; the builder keeps its form through a visit to Settings and says why Start is disabled after an edit.
// The experiment runs with the real runner: textkit-2's cell ends in an infrastructure error (the recording diverges),
// and the results say so — plausible@1 = 0.50 of 2 bugs with the error counted, the cell listed with its error, the
// Failures view showing it. Then the endpoint is mended (a real proxy in front of the recording starts answering
// textkit-2 with its developers' fix) and Retry runs that cell alone, to plausible.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { test, expect, type Locator, type Page } from '@playwright/test';
import { startCassetteServer, type CassetteServer } from '../../worker/llm/cassette-server.node.ts';
import { parseCassette } from '../../worker/contracts/cassette.ts';
import type { ExperimentReport } from '../../worker/experiments/report.ts';
import { demoEndpointName } from '../../src/state/settings.ts';
import { appUrl, e2eRunner, serveRuntimeConfig } from './helpers.ts';

const RECORDING = 'textkit-1.oneshot.fix';
const cassette = parseCassette(JSON.parse(readFileSync(`public/cassettes/${RECORDING}.cassette.json`, 'utf8')), RECORDING);
const TEXTKIT_2_FIX = (JSON.parse(readFileSync('public/benchmarks/bugs/textkit-2.json', 'utf8')) as { groundTruth: { patch: string } }).groundTruth.patch;

/**
 * A real HTTP proxy in front of the demo recording: every call goes to the recording until `mended`; from then on a
 * call about textkit-2 goes to a second server that answers with textkit-2's fix (the endpoint "fixed" for retry).
 */
class MendableEndpoint {
  server!: Server;
  baseURL = '';
  mended = false;
  /** the bug each chat call asked about, in order */
  asked: string[] = [];
  constructor(
    private readonly recording: string,
    private readonly fixed: string,
  ) {}

  async start() {
    this.server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (d: Buffer) => parts.push(d));
      req.on('end', () => {
        const body = Buffer.concat(parts);
        let bug = '';
        if (req.method === 'POST') {
          const messages = (JSON.parse(body.toString('utf8')) as { messages?: { content: string }[] }).messages ?? [];
          bug = /Bug (\S+):/.exec(messages.map((m) => m.content).join('\n'))?.[1] ?? '';
          this.asked.push(bug);
        }
        const up = new URL(req.url ?? '/', this.mended && bug === 'textkit-2' ? this.fixed : this.recording);
        const out = httpRequest(up, { method: req.method, headers: { ...req.headers, host: up.host } }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        out.on('error', () => res.destroy());
        out.end(body);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

let recording: CassetteServer;
let fixed: CassetteServer;
let endpoint: MendableEndpoint;

test.beforeEach(async () => {
  recording = await startCassetteServer({ cassette, port: 0 });
  fixed = await startCassetteServer({ replies: Array.from({ length: 10 }, () => `The fix.\n\n\`\`\`diff\n${TEXTKIT_2_FIX}\`\`\``), port: 0, model: cassette.model });
  endpoint = new MendableEndpoint(recording.url, fixed.url);
  await endpoint.start();
});
test.afterEach(async () => {
  await endpoint.close();
  await recording.close();
  await fixed.close();
});

async function commit(field: Locator, value: string) {
  await field.fill(value);
  await field.dispatchEvent('change');
}

const matrixCell = (page: Page, bug: string) => page.locator(`[data-testid="experiment-matrix"] [data-cell="${bug}|oneshot|0"]`);
const engineReport = (page: Page, id: string) =>
  page.evaluate((id) => (globalThis as unknown as { repairlab: { engine: { experimentReport(id: string): Promise<unknown> } } }).repairlab.engine.experimentReport(id), id) as Promise<ExperimentReport>;

test('the estimate names the cells a demo recording cannot serve; their errors are counted, listed, and retried', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  const demoName = demoEndpointName(RECORDING, 'hand-authored');
  await serveRuntimeConfig(page, {
    runner: e2eRunner(),
    modelEndpoints: [{ name: demoName, baseURL: endpoint.baseURL, model: cassette.model, demo: { bugId: 'textkit-1', preset: 'oneshot', overrides: {}, file: RECORDING, source: 'hand-authored' } }],
  });
  await page.goto(appUrl());
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.locator('select[name="endpoint-preset"]').selectOption(demoName);
  await expect(page.getByTestId('active-demo')).toContainText(RECORDING);

  // the builder: two bugs by id, the one-shot preset, one sample, one run at a time
  await page.getByRole('button', { name: 'Experiments' }).click();
  await page.getByRole('button', { name: 'New experiment' }).click();
  await commit(page.locator('input[name="exp-name"]'), 'e2e-errors');
  await page.locator('input[name="bug-mode"][value="ids"]').check();
  await commit(page.locator('input[name="exp-ids"]'), 'textkit-1 textkit-2');
  await commit(page.locator('input[name="exp-concurrency"]'), '1');
  await expect(page.getByTestId('exp-bug-count')).toHaveText('2 bugs');

  // a visit to Settings keeps the form
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Experiments' }).click();
  await expect(page.locator('input[name="exp-name"]')).toHaveValue('e2e-errors');
  await expect(page.locator('input[name="exp-ids"]')).toHaveValue('textkit-1 textkit-2');
  await expect(page.getByTestId('exp-bug-count')).toHaveText('2 bugs');

  // Start says why it is disabled; the estimate names the cell the recording cannot serve
  const start = page.getByRole('button', { name: 'Start' });
  await expect(start).toBeDisabled();
  await expect(page.getByTestId('start-blocked')).toContainText('press Estimate first');
  await page.getByRole('button', { name: 'Estimate calls and cost' }).click();
  const unservable = page.getByTestId('exp-unservable');
  await expect(unservable).toHaveAttribute('data-count', '1');
  await expect(unservable.locator('li')).toHaveCount(1);
  await expect(unservable.locator('li[data-variant="oneshot"][data-bug="textkit-2"]')).toContainText(`${RECORDING} was recorded on textkit-1, not textkit-2`);
  await expect(unservable).toContainText('cannot serve 1 of 2 variant × bug pairs');
  await expect(start).toBeEnabled();
  await page.screenshot({ path: testInfo.outputPath('1-estimate-names-unservable-cells.png'), fullPage: true });

  // an edit after the estimate: Start waits for a new one, and says so
  await commit(page.locator('input[name="exp-name"]'), 'e2e-errors-2');
  await expect(start).toBeDisabled();
  await expect(page.getByTestId('start-blocked')).toHaveText('Start is disabled: the estimate is for the old settings: press Estimate');
  await expect(page.getByTestId('exp-estimate')).toHaveAttribute('data-stale', 'yes');
  await page.getByRole('button', { name: 'Estimate calls and cost' }).click();
  await expect(start).toBeEnabled();
  await expect(page.getByTestId('start-blocked')).toHaveCount(0);

  await start.click();
  const detail = page.getByTestId('experiment-detail');
  await expect(detail).toBeVisible();
  const experimentId = (await detail.getAttribute('data-experiment'))!;
  await expect(page.getByTestId('experiment-status')).toHaveAttribute('data-status', 'finished', { timeout: 150_000 });
  await expect(matrixCell(page, 'textkit-1')).toHaveAttribute('data-status', 'plausible');
  await expect(matrixCell(page, 'textkit-2')).toHaveAttribute('data-status', 'infrastructure-error');
  expect(endpoint.asked).toEqual(['textkit-1', 'textkit-2']);

  // the numbers say their denominators: the error is attempted, not a success
  await page.locator('button[name="refresh-results"]').click();
  const report = await engineReport(page, experimentId);
  expect(report.variants[0]).toMatchObject({ plausibleAt1: 0.5, firstSamples: 2, firstSampleErrors: 1, bugsFixed: 1, bugsAttempted: 2 });
  const line = page.locator('[data-testid="metric-denominators"] li[data-variant="oneshot"]');
  await expect(line).toContainText('plausible@1 = 0.50 (1 of 2 bugs; 1 cell in error counted as not plausible)');
  await expect(line).toContainText('bugs fixed = 1 of 2 bugs attempted');
  const variantRow = page.getByTestId('variant-table').locator('tbody tr').first();
  const header = await page.getByTestId('variant-table').locator('thead th').allTextContents();
  await expect(variantRow.locator('td').nth(header.indexOf('plausible@1'))).toHaveText('0.5000');
  await expect(variantRow.locator('td').nth(header.indexOf('first_samples_in_error'))).toHaveText('1');

  // the cell in error is listed: variant, bug, sample, the error
  const errors = page.getByTestId('error-cells');
  await expect(errors.locator('tbody tr')).toHaveCount(1);
  const errorRow = errors.locator('tbody tr[data-variant="oneshot"][data-bug="textkit-2"]');
  await expect(errorRow.locator('td')).toHaveText(['oneshot', 'textkit-2', '1', '1', report.cells.find((c) => c.bugId === 'textkit-2')!.reason]);
  expect(report.cells.find((c) => c.bugId === 'textkit-2')!.reason).toMatch(/diverge|recorded/i);
  // the Failures view shows the bug the endpoint could not serve
  await page.getByTestId('matrix-views').getByLabel('Failures').check();
  await expect(page.getByTestId('matrix-shown')).toHaveText('1 of 2 bugs');
  await page.getByTestId('matrix-views').getByLabel('In error').check();
  await expect(page.getByTestId('matrix-shown')).toHaveText('1 of 2 bugs');
  await errors.screenshot({ path: testInfo.outputPath('2-error-cells.png') });
  await page.screenshot({ path: testInfo.outputPath('2-error-counted-and-listed.png'), fullPage: true });
  await page.getByTestId('matrix-views').getByLabel('All').check();

  // mend the endpoint, then Retry: only textkit-2's cell runs again, and it is fixed
  endpoint.mended = true;
  await errors.getByRole('button', { name: 'Retry 1 cell in error' }).click();
  await expect(page.getByTestId('experiment-status')).toHaveAttribute('data-status', 'finished', { timeout: 150_000 });
  await expect(matrixCell(page, 'textkit-2')).toHaveAttribute('data-status', 'plausible', { timeout: 30_000 });
  expect(endpoint.asked).toEqual(['textkit-1', 'textkit-2', 'textkit-2']);
  await page.locator('button[name="refresh-results"]').click();
  await expect(page.getByTestId('error-cells')).toHaveCount(0);
  await expect(line).toContainText('plausible@1 = 1.00 (2 of 2 bugs)');
  const after = await engineReport(page, experimentId);
  expect(after.variants[0]).toMatchObject({ plausibleAt1: 1, firstSampleErrors: 0, bugsFixed: 2 });
  const retried = after.cells.find((c) => c.bugId === 'textkit-2')!;
  expect(retried.attempts).toHaveLength(1);
  expect(retried.attempts[0]!.reason).toMatch(/diverge|recorded/i);
  expect(after.cells.find((c) => c.bugId === 'textkit-1')).toEqual(report.cells.find((c) => c.bugId === 'textkit-1'));
  await page.screenshot({ path: testInfo.outputPath('3-after-retry.png'), fullPage: true });
});
