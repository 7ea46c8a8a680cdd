// An experiment's results: the report's numbers as tables (per variant; and, when the report carries its metrics and
// statistics, the CLI's tables of them: per variant and category, smells, tool use, the tests with their readings),
// and two charts with their tables.
import { LitElement, css, html } from 'lit';
import type { CellRecord } from '../../../worker/contracts/experiment.ts';
import type { ExperimentReportView } from '../../../worker/engine-api.ts';
import { panelStyles } from '../shared-styles.ts';
import { costVsSuccess, formatCell, plausibleAtK, tableCsv, variantTable, type Table } from './results-data.ts';
import './experiment-chart.ts';

export class RlExperimentResults extends LitElement {
  static override properties = { view: { attribute: false }, cells: { attribute: false } };
  declare view: ExperimentReportView;
  declare cells: CellRecord[];

  static override styles = [
    panelStyles,
    css`
      .table-wrap { overflow-x: auto; }
      table { border-collapse: collapse; font-size: 0.8rem; }
      td, th { text-align: left; padding: 0.2rem 0.5rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
      .charts { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); }
    `,
  ];

  private exportCsv(table: Table, name: string) {
    const url = URL.createObjectURL(new Blob([tableCsv(table)], { type: 'text/csv' }));
    Object.assign(document.createElement('a'), { href: url, download: `${this.view.report.experiment.id}.${name}.csv` }).click();
    URL.revokeObjectURL(url);
  }

  private renderTable(table: Table, testId: string, name: string) {
    return html`<div class="table-wrap"><table data-testid=${testId}>
        <thead><tr>${table.columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
        <tbody>${table.rows.map((r) => html`<tr>${r.map((v) => html`<td>${formatCell(v)}</td>`)}</tr>`)}</tbody>
      </table></div>
      <button name="export-${name}-csv" @click=${() => this.exportCsv(table, name)}>CSV</button>`;
  }

  override render() {
    const r = this.view.report;
    const variants = variantTable(r);
    const atK = plausibleAtK(r, this.cells);
    const scatter = costVsSuccess(r);
    const id = r.experiment.id;
    return html`<h3>Per variant</h3>
      ${this.renderTable(variants, 'variant-table', 'variants')}
      ${this.view.tables.map((t) => html`<h3>${t.title}</h3>${this.renderTable(t.table, `table-${t.name}`, t.name)}`)}
      ${r.metrics.computed ? '' : html`<p class="muted" data-testid="metrics-note">Metrics ${r.metrics.note}</p>`}
      ${r.statistics.computed ? '' : html`<p class="muted" data-testid="statistics-note">Statistics ${r.statistics.note}</p>`}
      <div class="charts">
        <div>
          <rl-experiment-chart kind="plausible-at-k" heading="plausible@k" .table=${atK.table} xLabel="k (samples drawn)" yLabel="plausible@k" fileName="${id}.plausible-at-k"></rl-experiment-chart>
          <p class="muted">${atK.source === 'report' ? "The report's metrics (category all)." : 'The unbiased pass@k estimator over the cells that ran (not-run and infrastructure errors left out), as the report carries no plausible@k yet.'}</p>
        </div>
        <div>
          <rl-experiment-chart kind="cost-vs-success" heading="Cost vs success" .table=${scatter.table} .frontier=${scatter.frontier} xLabel=${scatter.costAxis} yLabel="bugs fixed" fileName="${id}.cost-vs-success"></rl-experiment-chart>
          <p class="muted">Bugs with at least one plausible sample against the variant's ${scatter.costAxis === 'model calls' ? 'model calls (a cost is unknown: the model has no price)' : 'total cost'}; the dashed line joins the variants no other is both cheaper and better than (the Pareto frontier).</p>
        </div>
      </div>`;
  }
}
customElements.define('rl-experiment-results', RlExperimentResults);
