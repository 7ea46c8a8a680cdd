// An experiment's report as ONE self-contained HTML file: the report's tables (the numbers of `experiment report
// --json`, rendered by the same table functions as --csv and --md) with each rate's denominator and the cells in error,
// every chart the Experiments tab draws (report-charts.ts, written as inline SVG) and every run's steps (thought,
// action, observation; long text collapsed). It works offline from file://: no external URL, no
// script, inline CSS only, and a strict CSP meta tag, so even a reply that smuggled markup past the escaping could
// fetch nothing. Every string from a run or a spec goes through `h`, which escapes whatever it interpolates.
import type { Trajectory, TrajStep } from '../contracts/trajectory.ts';
import type { ExperimentMetrics } from './analysis-seam.ts';
import { chartTables } from './analyses.ts';
import { errorCellTable, type ExperimentReport } from './report.ts';
import { DENOMINATOR_RULE, errorCells, variantDenominators, variantTable as variantRowsTable } from './report-denominators.ts';
import { reportCharts } from './report-charts.ts';
import { chartRoot, svgMarkup, type ChartSvg } from './charts/svg-tree.ts';
import { modelLabel, runModel } from './provenance.ts';
import type { StatisticsTable } from './report-statistics.ts';
import { cellTable, correctnessTable, disagreementTable, formatNumber, labelsSentence, plausibilityTable, smellTable, summaryTable, table5, toolUseTable, type Cell, type Table } from './report-tables.ts';

export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

export interface ReportHtmlOptions {
  /** shown in the header (default: now) */
  generatedAt?: string;
  /** text longer than this many characters is shown as head and tail, the whole in a collapsed block (default 2000) */
  collapseOver?: number;
}

/** Markup that is already safe: only `h` makes it. */
class SafeHtml {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

type Part = SafeHtml | string | number | boolean | null | undefined | readonly Part[];
const part = (v: Part): string => (v instanceof SafeHtml ? v.html : Array.isArray(v) ? v.map(part).join('') : v === null || v === undefined || v === false ? '' : escapeHtml(String(v)));

/** A template whose interpolations are escaped (arrays joined), except markup `h` made. */
function h(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((v, i) => (out += part(v) + strings[i + 1]!));
  return new SafeHtml(out);
}

/** A table cell; a number also carries its exact value (`data-value`), for whoever checks the report against the JSON. */
function td(v: Cell, column: string): SafeHtml {
  if (typeof v === 'number') return h`<td class="num" data-col="${column}" data-value="${String(v)}">${formatNumber(v)}</td>`;
  return h`<td data-col="${column}">${v === null || v === undefined || v === '' ? '—' : String(v)}</td>`;
}

/** `rowClass`: a class for a row that needs marking (an incomplete variant), none for the rest. */
function table(t: Table, testId: string, link?: (row: Cell[]) => SafeHtml | undefined, rowClass?: (i: number) => string | undefined): SafeHtml {
  const tr = (i: number) => {
    const cls = rowClass?.(i);
    return cls ? h`<tr class="${cls}">` : h`<tr>`;
  };
  return h`<div class="wrap"><table data-testid="${testId}">
<thead><tr>${t.columns.map((c) => h`<th>${c}</th>`)}${link ? h`<th></th>` : ''}</tr></thead>
<tbody>${t.rows.map((r, i) => h`${tr(i)}${r.map((v, j) => td(v, t.columns[j]!))}${link ? h`<td>${link(r) ?? ''}</td>` : ''}</tr>\n`)}</tbody>
</table></div>`;
}

/**
 * The per-variant table: the report's VariantRow fields in the order of `report --csv` (the variants table), each count
 * beside its denominator; the cell counts by status are headed `status: <status>`, so none shares a name with another
 * column (`plausible`).
 */
export function variantTable(report: ExperimentReport): Table {
  return variantRowsTable(report.variants);
}

// ---- charts (inline SVG) ----

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const PALETTE = ['#3366cc', '#dc3912', '#ff9900', '#109618', '#990099', '#0099c6', '#dd4477', '#66aa00'];
const colour = (i: number) => PALETTE[i % PALETTE.length]!;

/** Horizontal bars, one per label; a null value is drawn as "—" with no bar. `of`: the value's denominator, for its label. */
function barChart(title: string, testId: string, bars: { label: string; value: number | null; of: number }[], max: number, show: (v: number, of: number) => string): SafeHtml {
  const rowH = 26;
  const labelW = 150;
  const plotW = 300;
  const height = 30 + bars.length * rowH;
  const scale = (v: number) => (max > 0 ? (v / max) * plotW : 0);
  return h`<figure data-testid="${testId}"><figcaption>${title}</figcaption>
<svg role="img" aria-label="${title}" width="${labelW + plotW + 160}" height="${height}" viewBox="0 0 ${labelW + plotW + 160} ${height}">
${bars.map((b, i) => {
  const y = 10 + i * rowH;
  const w = b.value === null ? 0 : scale(b.value);
  return h`<text x="${labelW - 6}" y="${y + 15}" text-anchor="end">${b.label}</text>
<rect x="${labelW}" y="${y}" width="${w.toFixed(1)}" height="${rowH - 8}" fill="${colour(i)}"><title>${b.label}: ${b.value === null ? '—' : show(b.value, b.of)}</title></rect>
<text class="value" x="${(labelW + w + 4).toFixed(1)}" y="${y + 15}">${b.value === null ? '—' : show(b.value, b.of)}</text>`;
})}
<line x1="${labelW}" y1="4" x2="${labelW}" y2="${height - 10}" stroke="#888"/>
</svg></figure>`;
}

/** A drawing of the engine's (report-charts.ts) as inline SVG markup: every text in it escaped by svgMarkup. */
const inlineSvg = (drawing: ChartSvg, label: string) => new SafeHtml(svgMarkup(chartRoot(drawing, label, true)));

function charts(report: ExperimentReport, metrics: ExperimentMetrics | undefined): SafeHtml {
  const variants = report.variants;
  // the report's own two bars, each value with its denominator (errors counted as not plausible)
  const own: SafeHtml[] = [
    barChart('plausible@1 per variant (of the bugs attempted)', 'chart-plausible-at-1', variants.map((v) => ({ label: v.variant, value: v.plausibleAt1, of: v.firstSamples })), 1, (v, of) => `${formatNumber(v)} (of ${plural(of, 'bug')})`),
    barChart('Bugs fixed per variant (at least one plausible sample)', 'chart-bugs-fixed', variants.map((v) => ({ label: v.variant, value: v.bugsFixed, of: v.bugsAttempted })), report.experiment.bugs, (v, of) => `${v} of ${of} attempted`),
  ];
  // every chart the Experiments tab draws, the same drawings and tables
  const app = reportCharts(report, metrics ? chartTables(metrics) : undefined).map(
    (c) => h`<figure data-testid="chart-${c.name}" data-chart="${c.name}"${c.kind ? h` data-kind="${c.kind}"` : ''}><figcaption>${c.heading}</figcaption>
${inlineSvg(c.draw(), c.heading)}
<p class="note">${c.note}</p>
<details><summary>Numbers</summary>${table(c.table, `table-${c.name}`)}</details></figure>`,
  );
  return h`<div class="charts">${own}${app}</div>`;
}

// ---- trajectories ----

/** Long text as head and tail, the whole of it one click away (a <details>, no script). */
function longText(text: string, collapseOver: number, cls = ''): SafeHtml {
  if (text.length <= collapseOver) return h`<pre class="${cls}">${text}</pre>`;
  const half = Math.floor(collapseOver / 2);
  const lines = text.split('\n').length;
  return h`<pre class="${cls}">${text.slice(0, half)}</pre><p class="cut">… ${text.length - 2 * half} characters left out …</p><pre class="${cls}">${text.slice(-half)}</pre>
<details class="whole"><summary>Show all ${lines} lines (${text.length} characters)</summary><pre class="${cls}">${text}</pre></details>`;
}

function stepHtml(s: TrajStep, collapseOver: number): SafeHtml {
  const command = s.parsed?.command;
  const action = command ? `${command.name} ${JSON.stringify(command.args)}` : s.tool ? `${s.tool.name} ${JSON.stringify(s.tool.args)}` : '';
  const observation = s.feedback ?? s.tool?.shown ?? '';
  return h`<li class="step" data-step="${s.index}"><h4>Step ${s.index + 1} <span class="muted">${s.state} · ${s.status} · ${s.tokens.input}+${s.tokens.output} tokens${s.costUsd === null ? '' : ` · $${formatNumber(s.costUsd)}`}</span></h4>
${s.parsed?.thought ? h`<div class="thought"><b>Thought</b>${longText(s.parsed.thought, collapseOver)}</div>` : ''}
${action ? h`<div class="action"><b>Action</b>${longText(action, collapseOver)}</div>` : ''}
${s.parsed?.error ? h`<div class="error"><b>Format error</b>${longText(s.parsed.error, collapseOver)}</div>` : ''}
${s.error ? h`<div class="error"><b>Error</b> ${s.error.code}: ${s.error.message}</div>` : ''}
${observation ? h`<div class="observation"><b>Observation</b>${longText(observation, collapseOver)}</div>` : ''}
${s.response ? h`<details class="reply"><summary>Model reply (${s.response.content.length} characters)</summary>${longText(s.response.content, collapseOver)}</details>` : ''}
</li>`;
}

function trajectoryHtml(t: Trajectory, cell: ExperimentReport['cells'][number] | undefined, collapseOver: number, fallbackModel: string): SafeHtml {
  const o = t.outcome;
  const model = modelLabel(runModel(t, fallbackModel));
  const title = cell ? `${cell.bugId} · ${cell.variant} · sample ${cell.sample + 1} · ${cell.status}` : `${t.bug.id} · ${t.config.preset} · ${o?.status ?? t.status}`;
  return h`<details class="run" id="run-${t.runId}" data-run="${t.runId}"><summary>${title} <span class="muted">(${plural(t.steps.length, 'step')}, run ${t.runId})</span></summary>
<p>${t.config.preset}${t.config.variants.length ? ` + ${t.config.variants.join(' + ')}` : ''} · <span data-testid="run-model">model ${model}</span> · outcome ${o?.status ?? t.status}${o ? ` — ${o.reason}` : ''}${o ? ` · ${o.totals.inputTokens}+${o.totals.outputTokens} tokens · cost ${o.totals.costUsd === null ? 'unknown' : `$${formatNumber(o.totals.costUsd)}`}` : ''}</p>
${o?.finalPatch ? h`<details><summary>Final patch</summary>${longText(o.finalPatch, collapseOver, 'diff')}</details>` : ''}
<ol class="steps">${t.steps.map((s) => stepHtml(s, collapseOver))}</ol>
</details>`;
}

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #222; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; } h4 { margin: 0.3rem 0; font-size: 0.95rem; }
.muted { color: #666; font-weight: normal; }
.wrap { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.8rem; margin: 0.5rem 0; }
th, td { text-align: left; padding: 0.2rem 0.5rem; border-bottom: 1px solid #ddd; white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5rem; }
figure { margin: 0; } figcaption { font-weight: 600; margin-bottom: 0.3rem; }
svg text { font: 12px system-ui, sans-serif; fill: #222; }
pre { white-space: pre-wrap; word-break: break-word; background: #f6f6f6; padding: 0.4rem; margin: 0.2rem 0; max-height: 30rem; overflow: auto; }
pre.diff { background: #f3f7ff; }
details.run { border: 1px solid #ccc; border-radius: 4px; padding: 0.3rem 0.6rem; margin: 0.4rem 0; }
details.run > summary { cursor: pointer; font-weight: 600; }
.steps { padding-left: 1.2rem; } .step { margin: 0.6rem 0; }
.thought b, .action b, .observation b, .error b { display: block; font-size: 0.8rem; color: #555; }
.error { color: #a00; } .cut { color: #666; font-style: italic; margin: 0; }
.note { color: #555; font-size: 0.8rem; max-width: 36rem; margin: 0.2rem 0; }
.denominators li { margin: 0.15rem 0; } .incomplete { color: #a00; font-weight: 600; }
tr.incomplete td[data-col="variant"]::after { content: " (incomplete)"; color: #a00; }
`;

/**
 * The report as one HTML document. `trajectories`: the runs of the report's cells (others are listed under "Other
 * runs"); a cell whose run is missing says so.
 */
export function renderExperimentReportHtml(report: ExperimentReport, trajectories: readonly Trajectory[], options: ReportHtmlOptions = {}): string {
  const e = report.experiment;
  const collapseOver = options.collapseOver ?? 2000;
  const byRun = new Map(trajectories.map((t) => [t.runId, t]));
  const metrics = report.metrics.computed ? (report.metrics.result as ExperimentMetrics) : undefined;
  const statistics = report.statistics.computed ? (report.statistics.result as StatisticsTable) : undefined;
  const title = `Experiment ${e.name ? `${e.name} (${e.id})` : e.id}`;
  const cellRuns = report.cells.filter((c) => c.runId);
  const inCells = new Set(cellRuns.map((c) => c.runId));
  const runLink = (row: Cell[]) => {
    const runId = row[6];
    return typeof runId === 'string' && byRun.has(runId) ? h`<a href="#run-${runId}">steps</a>` : undefined;
  };
  // who answered the runs: the model, or the demo recordings replayed (and who wrote them)
  const models = [...new Set(cellRuns.map((c) => modelLabel(runModel(byRun.get(c.runId!), e.model))))];
  const errors = errorCells(report.cells);
  const body = h`<h1>${title}</h1>
<p data-testid="experiment-summary">${e.status}${e.stopReason ? ` — ${e.stopReason}` : ''} · <span data-testid="experiment-model">model ${models.length ? models.join('; ') : e.model}</span> · ${plural(e.bugs, 'bug')} × ${plural(e.variants, 'variant')} × ${plural(e.samples, 'sample')} = ${plural(e.cells, 'cell')} · created ${e.createdAt} · report generated ${options.generatedAt ?? new Date().toISOString()}</p>
<h2>Per variant</h2>
${table(variantTable(report), 'variant-table', undefined, (i) => (report.variants[i]!.unfinished ? 'incomplete' : undefined))}
<ul class="denominators" data-testid="metric-denominators">
${report.variants.map((r) => h`<li data-variant="${r.variant}" data-incomplete="${r.unfinished ? 'yes' : 'no'}"><b>${r.variant}</b>${r.unfinished ? h` <span class="incomplete">(incomplete)</span>` : ''}: ${variantDenominators(r).join(' · ')}</li>
`)}
</ul>
<p class="muted">${DENOMINATOR_RULE}</p>
${errors.length
  ? h`<h2>Cells in error (${errors.length})</h2>
<p class="muted">Infrastructure failed these cells through every attempt: they count as not plausible above. Run them again with <code>repairlab experiment retry ${e.id}</code> or Retry in the Experiments tab.</p>
${table(errorCellTable(report.cells), 'error-cells')}`
  : ''}
<h2>Charts</h2>
${charts(report, metrics)}
${metrics
  ? h`<h2>Metrics per variant and category</h2>${table(summaryTable(metrics), 'table-summary')}
<h2>Correct patches</h2>${table(correctnessTable(metrics), 'table-correctness')}
<p data-testid="labels-summary">Correct: plausible and an exact or AST match with the developers' fix, or labelled correct (resolved label). ${labelsSentence(metrics)}</p>
${metrics.labels?.agreement.disagreements.length ? h`<h3>Disagreements</h3>${table(disagreementTable(metrics), 'table-disagreements')}` : ''}
<h2>Trajectory smells (share of runs)</h2>${table(smellTable(metrics), 'table-smells')}
<h2>Tool use</h2>${table(toolUseTable(metrics), 'table-tool-use')}`
  : h`<p class="muted" data-testid="metrics-note">Metrics ${report.metrics.computed ? '' : report.metrics.note}</p>`}
${statistics
  ? h`<h2>Statistics (α = ${statistics.alpha})</h2><p>Pairing: ${statistics.pairing}.</p>
<h3>Plausibility</h3>${table(plausibilityTable(statistics), 'table-plausibility')}
<h3>Correct patches</h3>${table(plausibilityTable(statistics, 'correctness'), 'table-correct-tests')}
<h3>Steps and cost (HAFixAgent's Table 5)</h3>${table(table5(statistics), 'table-table5')}`
  : h`<p class="muted" data-testid="statistics-note">Statistics ${report.statistics.computed ? '' : report.statistics.note}</p>`}
<h2>Cells</h2>
${table(cellTable(report.cells, metrics), 'table-cells', runLink)}
<h2>Trajectories</h2>
<p class="muted">Each run's steps: the thought, the action and what the agent was shown. Long text shows its head and tail; the whole is one click away.</p>
<div data-testid="trajectories">
${cellRuns.map((c) => {
  const t = byRun.get(c.runId!);
  return t ? trajectoryHtml(t, c, collapseOver, e.model) : h`<p class="muted">${c.bugId} · ${c.variant} · sample ${c.sample + 1}: run ${c.runId} is not in this report (its record is missing).</p>`;
})}
${trajectories.filter((t) => !inCells.has(t.runId)).map((t) => trajectoryHtml(t, undefined, collapseOver, e.model))}
</div>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="RepairLab">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body.html}
</body>
</html>
`;
}
