// An experiment's results: the report's numbers as tables (per variant; and, when the report carries its metrics and
// statistics, the CLI's tables of them: per variant and category, smells, tool use, the tests with their readings),
// each variant's rates in words with their denominators (errors counted as not plausible: report-denominators.ts), and
// the charts, each with its table and CSV / SVG / PNG export. The charts are the engine's (report-charts.ts, the list the
// HTML report writes too; their numbers from `chartTables`, sent with the report view); here they are only shown.
import { LitElement, html, nothing } from 'lit';
import type { CellRecord } from '../../../../worker/contracts/experiment.ts';
import type { ExperimentReportView } from '../../../../worker/experiments/experiments-api.ts';
import { panelStyles } from '../../shared-styles.ts';
import { getEngine } from '../../../engine-client.ts';
import { DENOMINATOR_RULE, variantDenominators } from '../../../../worker/experiments/report-denominators.ts';
import { reportCharts } from '../../../../worker/experiments/report-charts.ts';
import { formatCell, numericColumns, tableCsv, variantTable, type Table } from '../results-data.ts';
import '../../charts/chart/chart.ts';
import { experimentResultsStyles } from './experiment-results.styles.ts';

/**
 * @summary An experiment's results: the report's numbers as tables and the charts (`rl-chart`), each with its table
 * and CSV / SVG / PNG export.
 *
 * The charts' numbers are the engine's (`chartTables` in worker/experiments/analyses.ts); here they are only drawn.
 *
 * @cssproperty --panel - surface of panels, cards, tables and fields
 * @cssproperty --line - border and rule colour
 * @cssproperty --bad - colour of failures and errors
 * @cssproperty --radius-lg - corner radius of panels and cards
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --space-4 - spacing step 4 (16 px)
 * @cssproperty --space-5 - spacing step 5 (24 px)
 * @cssproperty --text-sm - type size sm (13 px)
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
    // numbers right-aligned in tabular figures (tableStyles' .num)
    const num = numericColumns(table);
    return html`<div class="table-wrap"><table data-testid=${testId}>
        <thead><tr>${table.columns.map((c, i) => html`<th class=${num[i] ? 'num' : nothing}>${c}</th>`)}</tr></thead>
        <tbody>${table.rows.map((r) => html`<tr>${r.map((v, i) => html`<td class=${num[i] ? 'num' : nothing}>${formatCell(v)}</td>`)}</tr>`)}</tbody>
      </table></div>
      <button name="export-${name}-csv" @click=${() => this.exportCsv(table, name)}>CSV</button>`;
  }

  /** Each variant's rates in words, with their denominators and the errors in them; an incomplete variant is marked. */
  private renderDenominators() {
    return html`<ul class="denominators" data-testid="metric-denominators">
      ${this.view.report.variants.map(
        (r) => html`<li data-variant=${r.variant} data-incomplete=${r.unfinished ? 'yes' : 'no'}><b>${r.variant}</b>${r.unfinished ? html` <span class="incomplete">(incomplete)</span>` : ''}: ${variantDenominators(r).join(' · ')}</li>`,
      )}
    </ul>
    <p class="muted">${DENOMINATOR_RULE}</p>`;
  }

  override render() {
    const r = this.view.report;
    const id = r.experiment.id;
    return html`<button name="download-html-report" @click=${this.downloadHtml}>Download HTML report</button>
      ${this.fileError ? html`<div class="error" data-testid="html-report-error">${this.fileError}</div>` : ''}
      <h3>Per variant</h3>
      ${this.renderTable(variantTable(r), 'variant-table', 'variants')}
      ${this.renderDenominators()}
      ${this.view.tables.map((t) => html`<h3>${t.title}</h3>${this.renderTable(t.table, `table-${t.name}`, t.name)}`)}
      ${r.metrics.computed ? '' : html`<p class="muted" data-testid="metrics-note">Metrics ${r.metrics.note}</p>`}
      ${r.statistics.computed ? '' : html`<p class="muted" data-testid="statistics-note">Statistics ${r.statistics.note}</p>`}
      <div class="charts">
        ${reportCharts(r, this.view.charts, this.cells).map(
          (c) => html`<rl-chart name=${c.name} data-kind=${c.kind ?? nothing} heading=${c.heading} .table=${c.table} .draw=${c.draw} fileName="${id}.${c.name}"><p class="muted">${c.note}</p></rl-chart>`,
        )}
      </div>`;
  }
}
customElements.define('rl-experiment-results', RlExperimentResults);
