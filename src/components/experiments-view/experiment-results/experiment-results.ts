// An experiment's results: the report's numbers as tables (per variant; and, when the report carries its metrics and
// statistics, the CLI's tables of them: per variant and category, smells, tool use, the tests with their readings),
// and the charts, each with its table and CSV / SVG / PNG export. The charts' numbers are the engine's
// (`chartTables` in worker/experiments/analyses.ts, sent with the report view); here they are only drawn.
import { LitElement, html } from 'lit';
import type { CellRecord } from '../../../../worker/contracts/experiment.ts';
import type { ExperimentReportView } from '../../../../worker/experiments/experiments-api.ts';
import { panelStyles } from '../../shared-styles.ts';
import { getEngine } from '../../../engine-client.ts';
import { groupedBars } from '../../charts/bar-chart.ts';
import { boxChart } from '../../charts/distribution-chart.ts';
import { heatmap } from '../../charts/heatmap.ts';
import { upset, venn } from '../../charts/set-charts.ts';
import { lineChart, scatterChart } from '../../charts/xy-charts.ts';
import { barGroups, boxRows, costVsSuccess, curveSeries, fixedSets, formatCell, heatBlocks, plausibleAtK, smellGroups, tableCsv, variantTable, type Table } from '../results-data.ts';
import '../../charts/chart/chart.ts';
import { experimentResultsStyles } from './experiment-results.styles.ts';

/**
 * @summary An experiment's results: the report's numbers as tables and the charts (`rl-chart`), each with its table
 * and CSV / SVG / PNG export.
 *
 * The charts' numbers are the engine's (`chartTables` in worker/experiments/analyses.ts); here they are only drawn.
 *
 * @cssproperty --line - border and rule colour
 */
export class RlExperimentResults extends LitElement {
  static override properties = { view: { attribute: false }, cells: { attribute: false }, fileError: { state: true } };
  declare view: ExperimentReportView;
  declare cells: CellRecord[];
  /** why the HTML report could not be made */
  declare fileError: string | undefined;

  static override styles = [panelStyles, experimentResultsStyles];

  private exportCsv(table: Table, name: string) {
    const url = URL.createObjectURL(new Blob([tableCsv(table)], { type: 'text/csv' }));
    Object.assign(document.createElement('a'), { href: url, download: `${this.view.report.experiment.id}.${name}.csv` }).click();
    URL.revokeObjectURL(url);
  }

  /** The self-contained HTML report (tables, charts, every run's steps), made by the engine (worker/experiments/report-files.ts). */
  private async downloadHtml() {
    this.fileError = undefined;
    try {
      const file = await getEngine().experimentFile(this.view.report.experiment.id, 'html');
      const url = URL.createObjectURL(new Blob([file.text], { type: file.mediaType }));
      Object.assign(document.createElement('a'), { href: url, download: file.fileName }).click();
      URL.revokeObjectURL(url);
    } catch (e) {
      this.fileError = e instanceof Error ? e.message : String(e);
    }
  }

  private renderTable(table: Table, testId: string, name: string) {
    return html`<div class="table-wrap"><table data-testid=${testId}>
        <thead><tr>${table.columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
        <tbody>${table.rows.map((r) => html`<tr>${r.map((v) => html`<td>${formatCell(v)}</td>`)}</tr>`)}</tbody>
      </table></div>
      <button name="export-${name}-csv" @click=${() => this.exportCsv(table, name)}>CSV</button>`;
  }

  /** The charts drawn from the engine's chart tables (absent when the report has no metrics). */
  private renderMetricCharts(id: string) {
    const c = this.view.charts;
    if (!c) return '';
    const sets = fixedSets(c.fixedSets, c.variants);
    const smells = smellGroups(c.smells);
    const heat = heatBlocks(c.commandsByStep);
    const vennFits = c.variants.length <= 3;
    return html`
      <rl-chart name="valid-at-k" heading="valid@k" .table=${c.validAtK} .draw=${() => lineChart(curveSeries(c.validAtK), 'k (samples drawn)', 'valid@k')} fileName="${id}.valid-at-k">
        <p class="muted">Valid: plausible and the same syntax tree as the developers' fix (docs/metrics.md); a bug with a sample of unknown validity is left out.</p>
      </rl-chart>
      <rl-chart name="fixed-sets" data-kind=${vennFits ? 'venn' : 'upset'} heading=${vennFits ? 'Bugs fixed, by variant (Venn)' : 'Bugs fixed, by set of variants (UpSet)'} .table=${c.fixedSets}
        .draw=${() => (vennFits ? venn(c.variants, sets) : upset(c.variants, sets))} fileName="${id}.fixed-sets">
        <p class="muted">A bug is fixed by a variant with at least one plausible sample; each row of the table is one exact set of variants.</p>
      </rl-chart>
      <rl-chart name="cost-distribution" heading="Cost per run (USD)" .table=${c.costDistribution} .draw=${() => boxChart(boxRows(c.costDistribution, c.costValues), 'cost per run (USD)')} fileName="${id}.cost-distribution">
        <p class="muted">Box: quartiles and median; whiskers: min and max; dots: the runs (unpriced runs left out).</p>
      </rl-chart>
      <rl-chart name="step-distribution" heading="Steps per run" .table=${c.stepDistribution} .draw=${() => boxChart(boxRows(c.stepDistribution, c.stepValues), 'steps per run')} fileName="${id}.step-distribution"></rl-chart>
      <rl-chart name="tool-calls" heading="Tool use per variant" .table=${c.toolUse} .draw=${() => groupedBars(c.variants, barGroups(c.toolUse), 'calls')} fileName="${id}.tool-calls">
        <p class="muted">Calls per tool (for bash, per program), as RepairAgent's Fig. 10.</p>
      </rl-chart>
      <rl-chart name="smell-counts" heading="Trajectory smells" .table=${c.smells} .draw=${() => groupedBars(smells.series, smells.groups, 'runs with the smell')} fileName="${id}.smell-counts">
        <p class="muted">Runs with each of Passerine's smells; the table also counts every occurrence.</p>
      </rl-chart>
      <rl-chart name="commands-by-step" heading="Command by step" .table=${c.commandsByStep} .draw=${() => heatmap(heat.blocks, heat.steps)} fileName="${id}.commands-by-step">
        <p class="muted">How many runs issued each command at each step, as Passerine's Fig. 8 (darker: more).</p>
      </rl-chart>`;
  }

  override render() {
    const r = this.view.report;
    const variants = variantTable(r);
    const atK = plausibleAtK(r, this.cells);
    const scatter = costVsSuccess(r);
    const id = r.experiment.id;
    return html`<button name="download-html-report" @click=${this.downloadHtml}>Download HTML report</button>
      ${this.fileError ? html`<div class="error" data-testid="html-report-error">${this.fileError}</div>` : ''}
      <h3>Per variant</h3>
      ${this.renderTable(variants, 'variant-table', 'variants')}
      ${this.view.tables.map((t) => html`<h3>${t.title}</h3>${this.renderTable(t.table, `table-${t.name}`, t.name)}`)}
      ${r.metrics.computed ? '' : html`<p class="muted" data-testid="metrics-note">Metrics ${r.metrics.note}</p>`}
      ${r.statistics.computed ? '' : html`<p class="muted" data-testid="statistics-note">Statistics ${r.statistics.note}</p>`}
      <div class="charts">
        <rl-chart name="plausible-at-k" heading="plausible@k" .table=${atK.table} .draw=${() => lineChart(curveSeries(atK.table), 'k (samples drawn)', 'plausible@k')} fileName="${id}.plausible-at-k">
          <p class="muted">${atK.source === 'report' ? "The report's metrics (category all)." : 'The unbiased pass@k estimator over the cells that ran (not-run and infrastructure errors left out), as the report carries no plausible@k yet.'}</p>
        </rl-chart>
        <rl-chart name="cost-vs-success" heading="Cost vs success" .table=${scatter.table}
          .draw=${() => scatterChart(scatter.table.rows.map((row) => ({ name: String(row[0]), x: Number(row[1]), y: Number(row[2]) })), scatter.frontier, scatter.costAxis, 'bugs fixed')} fileName="${id}.cost-vs-success">
          <p class="muted">Bugs with at least one plausible sample against the variant's ${scatter.costAxis === 'model calls' ? 'model calls (a cost is unknown: the model has no price)' : 'total cost'}; the dashed line joins the variants no other is both cheaper and better than (the Pareto frontier).</p>
        </rl-chart>
        ${this.renderMetricCharts(id)}
      </div>`;
  }
}
customElements.define('rl-experiment-results', RlExperimentResults);
