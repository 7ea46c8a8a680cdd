// The self-contained HTML report end to end: an experiment (2 bugs × 2 variants × 1 sample) runs in the browser
// against a real OpenAI-compatible server (the cassette server in replies mode: textkit-1's fix once, then prose, then
// a reply carrying markup) and the real runner; its results' "Download HTML report" button saves the report the engine
// writes; that file is opened from file:// in Chromium with every request routed and counted. It must show the numbers
// of the engine's JSON report, browse the runs' steps, keep the reply's <script> inert, and ask for nothing.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { test, expect } from '@playwright/test';
import { startCassetteServer, type CassetteServer } from '../../worker/llm/cassette-server.node.ts';
import type { ExperimentReport } from '../../worker/experiments/report.ts';
import { appUrl, e2eRunner } from './helpers.ts';

const FIX = (JSON.parse(readFileSync('public/cassettes/textkit-1.oneshot.fix.cassette.json', 'utf8')) as { calls: { response: { content: string } }[] }).calls[0]!.response.content;
const HOSTILE = 'Cannot fix. <script>window.pwned = 1</script><img src="https://example.invalid/x.png" onerror="window.pwned = 2">';

interface EngineHandle {
  createExperiment(spec: unknown): Promise<{ id: string }>;
  runExperiment(id: string, settings: unknown): Promise<void>;
  getExperiment(id: string): Promise<{ liveness: string; record: { status: string } }>;
  experimentReport(id: string): Promise<ExperimentReport>;
}
type Scripted = { repairlab: { engine: EngineHandle } };

let model: CassetteServer;
test.afterAll(async () => model?.close());

test('the HTML report of an experiment opens from file://, shows the JSON report\'s numbers and makes no request', async ({ page, context }, testInfo) => {
  test.setTimeout(240_000);
  // cell order: textkit-1 one, textkit-1 two, textkit-2 one, textkit-2 two
  model = await startCassetteServer({ replies: [FIX, 'Not sure.', HOSTILE, HOSTILE], port: 0, model: 'm', allowedOrigins: [process.env.E2E_APP_ORIGIN!] });
  await page.goto(appUrl());
  const spec = {
    schemaVersion: 1,
    name: 'html-report',
    bugs: ['textkit-1', 'textkit-2'],
    variants: [
      { name: 'one', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } },
      { name: 'two', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } },
    ],
    samples: 1,
    model: { provider: 'custom', baseURL: model.baseURL, model: 'm' },
    concurrency: { modelCalls: 1, validations: 1 },
  };
  const id = await page.evaluate(
    async ({ spec, runner }) => {
      const engine = (globalThis as unknown as Scripted).repairlab.engine;
      const { id } = await engine.createExperiment(spec);
      await engine.runExperiment(id, { runners: [runner] });
      return id;
    },
    { spec, runner: e2eRunner() },
  );
  const state = () => page.evaluate((id) => (globalThis as unknown as Scripted).repairlab.engine.getExperiment(id).then((e) => `${e.record.status}/${e.liveness}`), id);
  await expect.poll(state, { timeout: 180_000 }).toBe('finished/idle');
  const report = await page.evaluate((id) => (globalThis as unknown as Scripted).repairlab.engine.experimentReport(id), id);
  // one step each: a cell without a plausible patch ends on its step budget
  expect(report.variants.map((v) => [v.variant, v.plausible, v.statuses.budget])).toEqual([
    ['one', 1, 1],
    ['two', 0, 2],
  ]);

  // the results' button saves the engine's HTML report
  await page.getByRole('button', { name: 'Experiments' }).click();
  await page.locator(`tr[data-experiment="${id}"]`).getByRole('button', { name: 'html-report' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download HTML report' }).click();
  expect((await download).suggestedFilename()).toBe(`${id}.report.html`);
  const file = testInfo.outputPath(`${id}.report.html`);
  await (await download).saveAs(file);
  const fileUrl = pathToFileURL(file).href;

  // a fresh page, offline: every request is seen; only the file itself may load
  const viewer = await context.newPage();
  const requests: string[] = [];
  viewer.on('request', (r) => requests.push(r.url()));
  await viewer.route('**', (route) => (route.request().url() === fileUrl ? route.continue() : route.abort()));
  await viewer.goto(fileUrl);
  await expect(viewer.getByRole('heading', { level: 1 })).toHaveText(`Experiment html-report (${id})`);

  const rows = viewer.getByTestId('variant-table').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  for (const [i, v] of report.variants.entries()) {
    const cell = (col: string) => rows.nth(i).locator(`td[data-col="${col}"]`);
    await expect(cell('variant')).toHaveText(v.variant);
    await expect(cell('plausible@1')).toHaveAttribute('data-value', String(v.plausibleAt1));
    await expect(cell('plausible')).toHaveText(String(v.plausible));
    await expect(cell('bugs_fixed')).toHaveText(String(v.bugsFixed));
    await expect(cell('status: budget')).toHaveText(String(v.statuses.budget));
    await expect(cell('calls')).toHaveText(String(v.calls));
  }
  await expect(viewer.getByTestId('table-cells').locator('tbody tr')).toHaveCount(report.cells.length);
  await expect(viewer.getByTestId('chart-plausible-at-1').locator('svg rect')).toHaveCount(2);

  // browse a run: the hostile reply is shown as text and never ran
  const hostileRun = report.cells.find((c) => c.bugId === 'textkit-2')!.runId!;
  await viewer.locator(`a[href="#run-${hostileRun}"]`).click();
  const run = viewer.locator(`details[data-run="${hostileRun}"]`);
  await run.locator('summary').first().click();
  await run.locator('details.reply summary').first().click();
  await expect(run.locator('details.reply pre').first()).toContainText('<script>window.pwned = 1</script>');
  expect(await viewer.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  await testInfo.attach('html-report', { body: await viewer.screenshot({ fullPage: true }), contentType: 'image/png' });

  expect(requests.filter((u) => u !== fileUrl)).toEqual([]);
  expect(requests).toEqual([fileUrl]);
});
