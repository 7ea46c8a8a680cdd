// The HTML report and the exports of a REAL experiment: the real scheduler and RunManager over a temporary record
// store, the real runner (javac/JUnit in bubblewrap) judging the patches, and a real OpenAI-compatible HTTP server (the
// cassette server in replies mode) playing the model. Cells run one at a time in their fixed order (bug × variant ×
// sample), so the replies decide each outcome: textkit-1 gets its fix three times out of four, textkit-2 gets prose
// carrying markup that must stay inert in the HTML.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../worker/bugs/engine.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RunManager } from '../../../worker/runs/run-manager.ts';
import { Experiments } from '../../../worker/experiments/scheduler.ts';
import { ExperimentsApi } from '../../../worker/experiments/experiments-api.ts';
import { loadTrajectory } from '../../../worker/records/persistence.ts';
import { reportAnalyses, bugMetaFromWorkspaces } from '../../../worker/experiments/analyses.ts';
import { loadJavaSyntax } from '../../../worker/experiments/metrics/index.ts';
import { nodeJavaWasm } from '../../../worker/java/wasm-files.node.ts';
import { startCassetteServer, type CassetteServer } from '../../../worker/llm/cassette-server.node.ts';
import { startRunner } from '../../../runner/src/index.ts';
import type { ExperimentRecord } from '../../../worker/contracts/experiment.ts';
import type { ExperimentReport } from '../../../worker/experiments/report.ts';
import { bugsCsvTable, cellsCsvTable, exportExperiment, parseExportFormat } from '../../../worker/experiments/exports.ts';
import { csvTable } from '../../../worker/experiments/report-tables.ts';
import { experimentFile, experimentReportHtml } from '../../../worker/experiments/report-files.ts';
import { escapeHtml, REPORT_CSP, variantTable } from '../../../worker/experiments/report-html.ts';
import { formatNumber } from '../../../worker/experiments/report-tables.ts';

const HOSTILE = 'I cannot fix this. <script>window.pwned = 1</script><img src="https://evil.example/x.png" onerror="alert(1)"> & "quotes"';
let runner: Awaited<ReturnType<typeof startRunner>>;
let model: CassetteServer;
let engine: Engine;
let experiment: ExperimentRecord;
let report: ExperimentReport;
const trajectory = (runId: string) => loadTrajectory(engine.platform.records, runId);

beforeAll(async () => {
  const fix = (JSON.parse(readFileSync('public/benchmarks/bugs/textkit-1.json', 'utf8')) as { groundTruth: { patch: string } }).groundTruth.patch;
  const fixReply = `The fix.\n\n\`\`\`diff\n${fix}\`\`\``;
  // cell order: textkit-1 one #1, one #2, two #1, two #2, then textkit-2 the same
  model = await startCassetteServer({ replies: [fixReply, fixReply, fixReply, 'No idea.', HOSTILE, HOSTILE, HOSTILE, HOSTILE], model: 'm' });
  runner = await startRunner({ port: 0, dataDir: mkdtempSync(join(tmpdir(), 'repairlab-report-runner-')), log: () => undefined });
  engine = new Engine(createNodePlatform({ root: mkdtempSync(join(tmpdir(), 'repairlab-report-files-')) }));
  const runs = new RunManager(engine, async () => undefined);
  const syntax = await loadJavaSyntax(await nodeJavaWasm());
  const api = new ExperimentsApi(new Experiments({ runs, records: engine.platform.records, listBugs: () => engine.listBugs() }), {}, trajectory, () => engine.listBugs(), async () =>
    reportAnalyses({ bugMeta: bugMetaFromWorkspaces(engine), syntax }),
  );
  const created = await api.create({
    schemaVersion: 1,
    name: 'report <b>files</b>',
    bugs: ['textkit-1', 'textkit-2'],
    variants: [
      { name: 'one', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } },
      { name: 'two', preset: 'oneshot', overrides: { budgets: { maxSteps: 1 } } },
    ],
    samples: 2,
    model: { provider: 'custom', baseURL: model.baseURL, model: 'm' },
    concurrency: { modelCalls: 1, validations: 1 },
  });
  const ended = new Promise<void>((resolve) => api.watch((e) => e.experimentId === created.id && e.type === 'progress' && (e.status === 'finished' || e.status === 'stopped') && resolve()));
  await api.run(created.id, { runners: [{ url: runner.url, token: runner.token }] });
  await ended;
  // the session's last event comes before its record's last write
  while ((await api.get(created.id)).liveness === 'live') await new Promise((r) => setTimeout(r, 50));
  experiment = (await api.get(created.id)).record;
  report = await api.report(created.id);
}, 300_000);

afterAll(async () => {
  await model?.close();
  await runner?.close();
});

/** The cells of one table of the HTML, by column: [text, data-value] per row. */
function htmlTable(html: string, testId: string): Record<string, { text: string; value?: string }>[] {
  const body = new RegExp(`<table data-testid="${testId}">([\\s\\S]*?)</table>`).exec(html)?.[1];
  if (!body) throw new Error(`no table ${testId} in the report`);
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  return [...body.split('<tbody>')[1]!.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
    Object.fromEntries([...row!.matchAll(/<td[^>]*data-col="([^"]*)"(?: data-value="([^"]*)")?>([\s\S]*?)<\/td>/g)].map(([, col, value, text]) => [unescape(col!), { text: unescape(text!), ...(value !== undefined ? { value } : {}) }])),
  );
}

describe('the experiment the files are made of', () => {
  it('ran as the replies say: textkit-1 fixed 3 times of 4, textkit-2 never', () => {
    expect(report.variants.map((v) => [v.variant, v.plausible, v.bugsFixed, v.plausibleAt1])).toEqual([
      ['one', 2, 1, 0.5],
      ['two', 1, 1, 0.5],
    ]);
    expect(report.metrics.computed).toBe(true);
  });
});

describe('the HTML report', () => {
  it('shows the numbers of the JSON report in its tables', async () => {
    const { text: html, fileName } = await experimentReportHtml({ experiment, report, trajectory });
    expect(fileName).toBe(`${experiment.id}.report.html`);
    const rows = htmlTable(html, 'variant-table');
    // every column has a name of its own (the cell counts by status are headed `status: …`, apart from the plausible count)
    expect(new Set(variantTable(report).columns).size).toBe(variantTable(report).columns.length);
    expect(rows).toHaveLength(report.variants.length);
    report.variants.forEach((v, i) => {
      const row = rows[i]!;
      expect(row.variant!.text).toBe(v.variant);
      expect(Number(row['plausible@1']!.value)).toBe(v.plausibleAt1);
      expect(row['plausible@1']!.text).toBe(formatNumber(v.plausibleAt1!));
      expect(Number(row.plausible!.value)).toBe(v.plausible);
      expect(Number(row.bugs_fixed!.value)).toBe(v.bugsFixed);
      for (const status of ['plausible', 'not-plausible', 'budget', 'infrastructure-error', 'not-run'] as const) expect(Number(row[`status: ${status}`]!.value)).toBe(v.statuses[status]);
      expect(Number(row.calls!.value)).toBe(v.calls);
    });
    // one row per cell, each with its status and run, linking to the run's steps
    const cells = htmlTable(html, 'table-cells');
    expect(cells.map((c) => [c.bug!.text, c.variant!.text, c.status!.text, c.run!.text])).toEqual(report.cells.map((c) => [c.bugId, c.variant, c.status, c.runId]));
    for (const c of report.cells) expect(html).toContain(`<a href="#run-${c.runId}">steps</a>`);
    // the metrics summary row of each variant over all bugs: #pass as the JSON has it
    const summary = htmlTable(html, 'table-summary').filter((r) => r.category!.text === 'all');
    const metrics = report.metrics.computed ? (report.metrics.result as { summary: { variant: string; category: string; pass: number }[] }) : undefined;
    expect(summary.map((r) => [r.variant!.text, Number(r['#pass']!.value)])).toEqual(metrics!.summary.filter((s) => s.category === 'all').map((s) => [s.variant, s.pass]));
    // the charts are inline SVG, one bar per variant
    expect(html).toMatch(/<figure data-testid="chart-plausible-at-1">[\s\S]*?<svg/);
    expect(html.match(/<figure data-testid="chart-bugs-fixed">[\s\S]*?<\/figure>/)![0].match(/<rect /g)).toHaveLength(2);
  });

  it("holds every run's steps, with a model reply's markup escaped (inert), the experiment's name too", async () => {
    const { text: html } = await experimentReportHtml({ experiment, report, trajectory });
    expect(html.match(/<details class="run" id="run-/g)).toHaveLength(8);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>files</b>');
    expect(html).toContain(escapeHtml(HOSTILE));
    expect(html).toContain('report &lt;b&gt;files&lt;/b&gt;');
    // the fix's steps are there: thought/action/observation of a real run
    const t = (await trajectory(report.cells[0]!.runId!))!;
    expect(html).toContain(escapeHtml(t.steps[0]!.response!.content.slice(0, 40)));
  });

  it('asks for nothing outside the file: a strict CSP, no external URL, no script, links only within the page', async () => {
    const { text: html } = await experimentReportHtml({ experiment, report, trajectory });
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`);
    expect(REPORT_CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'");
    const attrs = [...html.matchAll(/\s(href|src|action|srcset|xlink:href)="([^"]*)"/g)].map(([, name, value]) => `${name}=${value}`);
    expect(attrs.length).toBeGreaterThan(0);
    for (const a of attrs) expect(a).toMatch(/^href=#run-[\w.@+-]+$/);
    expect(html).not.toMatch(/url\(|@import/);
    // the only URL-looking text is the hostile reply's, escaped inside a <pre>
    expect([...html.matchAll(/https?:\/\//g)].length).toBe((html.match(/evil\.example/g) ?? []).length);
  });

  it('collapses long text to head and tail, the whole in a <details>', async () => {
    const { text: html } = await experimentReportHtml({ experiment, report, trajectory }, { collapseOver: 40 });
    expect(html).toMatch(/characters left out/);
    expect(html).toMatch(/<details class="whole"><summary>Show all \d+ lines/);
  });
});

describe('the exports', () => {
  it('CSV per cell: status from the cell, tokens from its run, cost, steps and calls as the report counts them', async () => {
    const table = await cellsCsvTable(report, trajectory);
    expect(table.rows).toHaveLength(8);
    const col = (name: string) => table.columns.indexOf(name);
    for (const [i, c] of report.cells.entries()) {
      const row = table.rows[i]!;
      const t = (await trajectory(c.runId!))!;
      expect([row[col('variant')], row[col('bug')], row[col('sample')], row[col('status')], row[col('run')], row[col('steps')], row[col('calls')]]).toEqual([c.variant, c.bugId, c.sample, c.status, c.runId, c.steps, c.calls]);
      expect([row[col('input_tokens')], row[col('output_tokens')], row[col('run_outcome')]]).toEqual([t.outcome!.totals.inputTokens, t.outcome!.totals.outputTokens, t.outcome!.status]);
    }
    const file = await exportExperiment('cells-csv', { experiment, spec: experiment.spec as never, report, trajectory });
    expect(file.text.split('\n')[0]).toBe('index,variant,bug,sample,status,run_outcome,run,model,recording_source,cost_usd,input_tokens,output_tokens,steps,calls,retried_attempts,reason');
    // no run here replayed a recording: the model asked is named
    expect(table.rows.map((r) => [r[col('model')], r[col('recording_source')]])).toEqual(report.cells.map(() => ['m', null]));
    expect(file.text.trim().split('\n')).toHaveLength(9);
  });

  it('CSV per bug: plausible, attempted and in-error samples per variant', () => {
    expect(csvTable(bugsCsvTable(report))).toBe('bug,one plausible,one attempted,one in error,two plausible,two attempted,two in error\ntextkit-1,2,2,0,1,2,0\ntextkit-2,0,2,0,0,2,0\n');
  });

  it('JSON is the report; predictions are SWE-bench JSON Lines with each run\'s final patch', async () => {
    const json = await experimentFile({ experiment, report, trajectory }, 'json');
    expect(JSON.parse(json.text)).toEqual(JSON.parse(JSON.stringify(report)));
    const preds = await experimentFile({ experiment, report, trajectory }, 'predictions');
    expect(preds.fileName).toBe(`${experiment.id}.predictions.jsonl`);
    const lines = preds.text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    expect(lines).toHaveLength(8);
    for (const [i, p] of lines.entries()) {
      const c = report.cells[i]!;
      expect(Object.keys(p).sort()).toEqual(['instance_id', 'model_name_or_path', 'model_patch']);
      expect(p.instance_id).toBe(c.bugId);
      expect(p.model_name_or_path).toBe(`m/${experiment.id}/${c.variant}/sample-${c.sample}`);
      expect(p.model_patch).toBe((await trajectory(c.runId!))!.outcome!.finalPatch);
    }
    expect(lines.filter((p) => p.model_patch !== '').map((p) => p.instance_id)).toEqual(['textkit-1', 'textkit-1', 'textkit-1']);
  });

  it('a format that is none is named, with the ones there are', async () => {
    expect(() => parseExportFormat('xlsx')).toThrow('export format "xlsx": not one RepairLab writes; use one of cells-csv, bugs-csv, json, predictions.');
    await expect(experimentFile({ experiment, report, trajectory }, 'pdf')).rejects.toThrow(/"pdf".*html, cells-csv, bugs-csv, json, predictions/);
  });
});
