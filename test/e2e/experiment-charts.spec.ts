// The Experiments tab's charts and compare views end to end: an experiment built in the UI (textkit-1 and textkit-2 ×
// two Passerine variants × 2 samples) runs against a real OpenAI-compatible HTTP server that plays a Passerine agent
// by the bug and step it is asked about (textkit-1: cat, code_search, the developers' fix, test, finish; textkit-2:
// three searches and a give-up), and the real runner. Variant "short" may take one step only, so it fixes nothing:
// the variants differ on textkit-1 alone. Every chart draws from the engine's numbers (its table equals
// `chartTables` over `experimentReport`, the report the CLI prints), exports CSV / SVG / PNG, and the matrix's
// views show the right bugs.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { test, expect, type Locator, type Page } from '@playwright/test';
import type { ExperimentReport } from '../../worker/experiments/report.ts';
import { chartTables, type ChartTable, type ExperimentMetrics } from '../../worker/experiments/analyses.ts';
import { formatCell, tableCsv } from '../../src/components/experiments-view/results-data.ts';
import { appUrl, serveRuntimeConfig, e2eRunner, useModelEndpoint } from './helpers.ts';

const STRINGS = 'src/main/java/org/repairlab/textkit/Strings.java';
const act = (thought: string, action: string) => `THOUGHT: ${thought}\nACTION: ${action}`;
/** the agent's reply at each step, by bug */
const SCRIPT: Record<string, string[]> = {
  'textkit-1': [
    act('read the method', `cat ${STRINGS}`),
    act('where else is truncate used', 'code_search truncate'),
    act('a string of exactly maxLength fits', `edit ${STRINGS} 58 58\n        if (s.length() <= maxLength) {`),
    act('check', 'test'),
    act('fixed', 'finish success'),
  ],
  'textkit-2': [act('look', 'code_search slugify'), act('look', 'code_search null'), act('look', 'code_search title'), act('no idea', 'finish failure')],
};

/** A real OpenAI-compatible server answering each chat call with the script's reply for the bug and step asked. */
async function scriptedAgentServer(): Promise<{ baseURL: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST, GET, OPTIONS' };
    if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (!req.url?.endsWith('/chat/completions')) return void res.writeHead(404, cors).end();
      const request = JSON.parse(body) as { stream?: boolean; messages: { role: string; content: string }[] };
      const bug = /Bug (\S+):/.exec(request.messages.map((m) => m.content).join('\n'))?.[1] ?? '';
      const step = request.messages.filter((m) => m.role === 'assistant').length;
      const script = SCRIPT[bug] ?? [];
      const content = script[Math.min(step, script.length - 1)] ?? act('unknown bug', 'finish failure');
      const usage = { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 };
      const base = { id: `c${step}`, created: 0, model: 'scripted-agent' };
      if (!request.stream) {
        res.writeHead(200, { 'content-type': 'application/json', ...cors });
        return void res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage }));
      }
      const chunk = (payload: object) => `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...payload })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream', ...cors });
      res.end(
        chunk({ choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: null }] }) +
          chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
          chunk({ choices: [], usage }) +
          'data: [DONE]\n\n',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function commit(field: Locator, value: string) {
  await field.fill(value);
  await field.dispatchEvent('change');
}

/** The rows of a chart's table as the page shows them. */
const shownRows = (page: Page, name: string) => page.getByTestId(`table-${name}`).locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
const expectedRows = (t: ChartTable) => t.rows.map((r) => r.map((v) => formatCell(v)));

let model: Awaited<ReturnType<typeof scriptedAgentServer>>;
test.beforeEach(async () => {
  model = await scriptedAgentServer();
});
test.afterEach(async () => {
  await model.close();
});

test('every chart draws the engine report’s numbers and exports them; the compare views pick the right bugs', async ({ page }, testInfo) => {
  const keepScreenshot = async (what: Locator, name: string) => {
    const path = testInfo.outputPath(name);
    await what.screenshot({ path });
    await testInfo.attach(name, { path, contentType: 'image/png' });
  };
  await serveRuntimeConfig(page, { runner: e2eRunner() });
  await page.goto(appUrl());
  await useModelEndpoint(page, model.baseURL, 'scripted-agent');
  // a price, so runs have a cost: every call is 1,000 + 100 tokens at $10 / $20 per million = $0.012
  await page.getByRole('button', { name: 'Settings' }).click();
  await commit(page.locator('textarea[name="prices"]'), JSON.stringify({ 'scripted-agent': { inputPerMTok: 10, outputPerMTok: 20 } }));
  await page.getByRole('button', { name: 'Experiments' }).click();
  await page.getByRole('button', { name: 'New experiment' }).click();
  await commit(page.locator('input[name="exp-name"]'), 'e2e-charts');
  await page.locator('select[name="exp-library"]').selectOption('textkit');
  await commit(page.locator('input[name="exp-limit"]'), '2');
  await expect(page.getByTestId('exp-bug-count')).toHaveText('2 bugs');
  await page.getByRole('button', { name: 'Add variant' }).click();
  for (const [i, name] of ['full', 'short'].entries()) {
    await page.locator('select[name="variant-preset"]').nth(i).selectOption('passerine');
    await commit(page.locator('input[name="variant-name"]').nth(i), name);
  }
  await commit(page.locator('textarea[name="variant-overrides"]').nth(1), '{"budgets":{"maxSteps":1}}');
  await commit(page.locator('input[name="exp-samples"]'), '2');
  await commit(page.locator('input[name="exp-concurrency"]'), '2');
  await page.getByRole('button', { name: 'Estimate calls and cost' }).click();
  await expect(page.getByRole('button', { name: 'Start' })).toBeEnabled();
  await page.getByRole('button', { name: 'Start' }).click();
  const detail = page.getByTestId('experiment-detail');
  await expect(detail).toBeVisible();
  const experimentId = (await detail.getAttribute('data-experiment'))!;
  await expect(page.getByTestId('experiment-status')).toHaveAttribute('data-status', 'finished', { timeout: 150_000 });
  await page.locator('button[name="refresh-results"]').click();

  // the engine's report (what `repairlab experiment report --json` prints for these records) and its chart tables
  const report = (await page.evaluate((id) => (globalThis as unknown as { repairlab: { engine: { experimentReport(id: string): Promise<unknown> } } }).repairlab.engine.experimentReport(id), experimentId)) as ExperimentReport;
  expect(report.metrics.computed).toBe(true);
  const charts = chartTables((report.metrics as { result: ExperimentMetrics }).result);
  // known by construction: "full" fixes textkit-1 in both samples, "short" fixes nothing, textkit-2 nobody
  expect(charts.fixedSets.rows).toEqual([['full', 'yes', 'no', 1, 'textkit-1'], ['(none)', 'no', 'no', 1, 'textkit-2']]);
  expect(charts.stepValues).toEqual({ full: [5, 5, 4, 4], short: [1, 1, 1, 1] });
  [5, 5, 4, 4].forEach((steps, i) => expect(charts.costValues.full![i]).toBeCloseTo(steps * 0.012, 10));
  expect(charts.toolUse.rows.find((r) => r[0] === 'code_search')).toEqual(['code_search', 8, 2]);
  expect(charts.smells.rows.find((r) => r[0] === 'full')!.slice(0, 6)).toEqual(['full', 4, 2, 0, 2, 0]);

  const expected: Record<string, ChartTable> = {
    'valid-at-k': charts.validAtK,
    'fixed-sets': charts.fixedSets,
    'cost-distribution': charts.costDistribution,
    'step-distribution': charts.stepDistribution,
    'tool-calls': charts.toolUse,
    'smell-counts': charts.smells,
    'commands-by-step': charts.commandsByStep,
  };
  for (const name of ['plausible-at-k', 'cost-vs-success', ...Object.keys(expected)]) {
    const drawing = page.getByTestId(`chart-${name}`);
    await drawing.scrollIntoViewIfNeeded();
    await expect(drawing).toHaveAttribute('data-drawn', 'yes');
    // drawn with data: marks beyond the axes (bars, boxes, dots, cells, lines)
    expect(await drawing.locator('svg rect, svg circle, svg polyline').count(), `marks of ${name}`).toBeGreaterThanOrEqual(3);
    const table = expected[name];
    if (table) {
      await expect(page.getByTestId(`table-${name}`).locator('thead th')).toHaveText(table.columns);
      expect(await shownRows(page, name)).toEqual(expectedRows(table));
    }
    await keepScreenshot(page.locator('rl-chart', { has: drawing }), `chart-${name}.png`);
  }
  // two variants: the fixed sets are drawn as a Venn diagram
  await expect(page.locator('rl-chart[name="fixed-sets"]')).toHaveAttribute('data-kind', 'venn');
  // plausible@k: the report's summary (category all), k = 1 and 2: "full" fixes one bug of two in every sample
  expect(await shownRows(page, 'plausible-at-k')).toEqual([['1', '0.5000', '0'], ['2', '0.5000', '0']]);

  // exports: the CSV is the table, the SVG the drawing, the PNG an image
  const toolUse = page.locator('rl-chart[name="tool-calls"]');
  const saved = async (button: string) => {
    const download = page.waitForEvent('download');
    await toolUse.locator(`button[name="${button}"]`).click();
    const file = await (await download).path();
    return readFileSync(file);
  };
  expect((await saved('export-csv')).toString('utf8')).toBe(tableCsv(charts.toolUse));
  const svgFile = (await saved('export-svg')).toString('utf8');
  expect(svgFile).toMatch(/^<\?xml[^>]*>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(svgFile).toContain('code_search');
  expect((await saved('export-png')).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

  // promptfoo's views over the matrix: only the bugs where the variants differ, failures, passes, all
  const rows = () => page.locator('[data-testid="experiment-matrix"] tbody tr[data-bug]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-bug')));
  const view = (label: string) => page.getByTestId('matrix-views').getByLabel(label).check();
  await page.getByTestId('matrix-views').scrollIntoViewIfNeeded();
  await view('Variants differ');
  await expect.poll(rows).toEqual(['textkit-1']);
  await expect(page.getByTestId('matrix-shown')).toHaveText('1 of 2 bugs');
  await keepScreenshot(page.locator('rl-experiment-matrix'), 'matrix-differ.png');
  await view('Passes');
  await expect.poll(rows).toEqual(['textkit-1']);
  await view('Failures');
  await expect.poll(rows).toEqual(['textkit-1', 'textkit-2']);
  await view('All');
  await expect.poll(rows).toEqual(['textkit-1', 'textkit-2']);
});
