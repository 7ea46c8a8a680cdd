// One chart with its numbers: the SVG drawing, the table it was drawn from, and CSV / SVG / PNG export. The drawing is
// the engine's (worker/experiments/charts/: the same one the HTML report writes), made into SVG elements here only once
// the chart scrolls into view, so a results page with many charts costs little until looked at.
import { LitElement, html, nothing } from 'lit';
import { panelStyles } from '../../shared-styles.ts';
import { formatCell, numericColumns, tableCsv, type Table } from '../../experiments-view/results-data.ts';
import { download, svgText, svgToPng } from '../chart-export.ts';
import type { ChartSvg } from '../../../../worker/experiments/charts/svg-tree.ts';
import { svgElement } from '../svg-dom.ts';
import { chartStyles } from './chart.styles.ts';

/**
 * @summary One chart with its numbers: the SVG drawing, the table it was drawn from, and CSV / SVG / PNG export.
 *
 * The drawing is made only once the chart scrolls into view, so a results page with many charts costs little until
 * looked at.
 *
 * @slot - a note between the drawing and its export buttons (what the chart counts)
 *
 * @cssproperty --space-2 - spacing step 2 (8 px)
 */
export class RlChart extends LitElement {
  static override properties = {
    name: {},
    heading: {},
    table: { attribute: false },
    draw: { attribute: false },
    fileName: {},
    visible: { state: true },
  };
  /** names the test ids (`chart-<name>`, `table-<name>`) */
  declare name: string;
  declare heading: string;
  declare table: Table;
  declare draw: () => ChartSvg;
  declare fileName: string;
  declare visible: boolean;
  private observer: IntersectionObserver | undefined;

  constructor() {
    super();
    this.visible = false;
    this.fileName = 'chart';
  }

  static override styles = [panelStyles, chartStyles];

  override firstUpdated() {
    this.observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        this.observer?.disconnect();
        this.visible = true;
      }
    });
    this.observer.observe(this);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.observer?.disconnect();
  }

  private get svgElement() {
    return this.renderRoot.querySelector('svg');
  }

  private exportCsv() {
    download(new Blob([tableCsv(this.table)], { type: 'text/csv' }), `${this.fileName}.csv`);
  }

  private exportSvg() {
    const el = this.svgElement;
    if (el) download(new Blob([svgText(el)], { type: 'image/svg+xml' }), `${this.fileName}.svg`);
  }

  private async exportPng() {
    const el = this.svgElement;
    if (el) download(await svgToPng(el), `${this.fileName}.png`);
  }

  override render() {
    const drawing = this.visible ? this.draw() : undefined;
    // numbers right-aligned in tabular figures (tableStyles' .num)
    const num = numericColumns(this.table);
    return html`<h3>${this.heading}</h3>
      <div class="drawing" data-testid="chart-${this.name}" data-drawn=${drawing ? 'yes' : 'no'}>
        ${drawing ? svgElement(drawing, this.heading) : ''}
      </div>
      <slot></slot>
      <div class="actions">
        <button name="export-csv" @click=${this.exportCsv}>CSV</button>
        <button name="export-svg" ?disabled=${!drawing} @click=${this.exportSvg}>SVG</button>
        <button name="export-png" ?disabled=${!drawing} @click=${this.exportPng}>PNG</button>
      </div>
      <div class="table-wrap"><table data-testid="table-${this.name}">
        <thead><tr>${this.table.columns.map((c, i) => html`<th class=${num[i] ? 'num' : nothing}>${c}</th>`)}</tr></thead>
        <tbody>${this.table.rows.map((r) => html`<tr>${r.map((v, i) => html`<td class=${num[i] ? 'num' : nothing}>${formatCell(v)}</td>`)}</tr>`)}</tbody>
      </table></div>`;
  }
}
customElements.define('rl-chart', RlChart);
