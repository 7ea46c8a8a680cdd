// One chart of the results with its numbers as a table beneath, exported as CSV (the table) or PNG (the canvas).
// chart.js is loaded and the chart drawn only when the chart scrolls into view, so a results page with many charts
// costs nothing until it is looked at.
import { LitElement, css, html, type PropertyValues } from 'lit';
import type { Chart, ChartConfiguration } from 'chart.js';
import { panelStyles } from '../shared-styles.ts';
import { formatCell, tableCsv, type Table } from './results-data.ts';

export type ChartKind = 'plausible-at-k' | 'cost-vs-success';

const COLOURS = ['#1a56db', '#c2410c', '#047857', '#7c3aed', '#b91c1c', '#0e7490', '#a16207', '#be185d'];

export class RlExperimentChart extends LitElement {
  static override properties = {
    kind: {},
    heading: {},
    table: { attribute: false },
    xLabel: {},
    yLabel: {},
    frontier: { attribute: false },
    fileName: {},
    drawn: { state: true },
  };
  declare kind: ChartKind;
  declare heading: string;
  declare table: Table;
  declare xLabel: string;
  declare yLabel: string;
  /** cost-vs-success: the variants on the Pareto frontier, cheapest first */
  declare frontier: string[];
  declare fileName: string;
  declare drawn: boolean;
  private chart: Chart | undefined;
  private observer: IntersectionObserver | undefined;

  constructor() {
    super();
    this.frontier = [];
    this.drawn = false;
    this.fileName = 'chart';
  }

  static override styles = [
    panelStyles,
    css`
      .canvas-box { position: relative; height: 16rem; max-width: 40rem; }
      table { border-collapse: collapse; font-size: 0.8rem; margin: 0.4rem 0; }
      td, th { text-align: left; padding: 0.2rem 0.5rem; border-bottom: 1px solid var(--line); }
      .actions { display: flex; gap: 0.5rem; }
    `,
  ];

  override firstUpdated() {
    this.observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        this.observer?.disconnect();
        void this.draw();
      }
    });
    this.observer.observe(this);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.observer?.disconnect();
    this.chart?.destroy();
    this.chart = undefined;
  }

  override updated(changed: PropertyValues) {
    if (changed.has('table') && this.chart) void this.draw();
  }

  private async draw() {
    const { default: ChartJs } = await import('chart.js/auto');
    const canvas = this.renderRoot.querySelector('canvas');
    if (!canvas) return;
    this.chart?.destroy();
    const config = (this.kind === 'plausible-at-k' ? this.lineConfig() : this.scatterConfig()) as ChartConfiguration;
    this.chart = new ChartJs(canvas, config);
    this.drawn = true;
  }

  private lineConfig(): ChartConfiguration<'line'> {
    const [, ...variants] = this.table.columns;
    return {
      type: 'line',
      data: {
        labels: this.table.rows.map((r) => String(r[0])),
        datasets: variants.map((v, i) => ({ label: v, data: this.table.rows.map((r) => r[i + 1] as number | null), borderColor: COLOURS[i % COLOURS.length], backgroundColor: COLOURS[i % COLOURS.length] })),
      },
      options: { animation: false, maintainAspectRatio: false, scales: { x: { title: { display: true, text: this.xLabel } }, y: { min: 0, max: 1, title: { display: true, text: this.yLabel } } } },
    };
  }

  private scatterConfig(): ChartConfiguration<'scatter'> {
    const points = this.table.rows.map((r) => ({ variant: String(r[0]), x: r[1] as number, y: r[2] as number }));
    const frontier = this.frontier.map((v) => points.find((p) => p.variant === v)!).filter(Boolean);
    return {
      type: 'scatter',
      data: {
        datasets: [
          ...points.map((p, i) => ({ label: p.variant, data: [{ x: p.x, y: p.y }], pointRadius: 6, backgroundColor: COLOURS[i % COLOURS.length] })),
          { label: 'Pareto frontier', data: frontier.map((p) => ({ x: p.x, y: p.y })), showLine: true, borderDash: [4, 4], borderColor: '#555', pointRadius: 0 },
        ],
      },
      options: { animation: false, maintainAspectRatio: false, scales: { x: { title: { display: true, text: this.xLabel } }, y: { beginAtZero: true, title: { display: true, text: this.yLabel } } } },
    };
  }

  private download(href: string, name: string) {
    Object.assign(document.createElement('a'), { href, download: name }).click();
  }

  private exportCsv() {
    const url = URL.createObjectURL(new Blob([tableCsv(this.table)], { type: 'text/csv' }));
    this.download(url, `${this.fileName}.csv`);
    URL.revokeObjectURL(url);
  }

  private exportPng() {
    const canvas = this.renderRoot.querySelector('canvas');
    if (canvas) this.download(canvas.toDataURL('image/png'), `${this.fileName}.png`);
  }

  override render() {
    return html`<h3>${this.heading}</h3>
      <div class="canvas-box"><canvas data-testid="chart-${this.kind}" data-drawn=${this.drawn ? 'yes' : 'no'} role="img" aria-label=${this.heading}></canvas></div>
      <div class="actions">
        <button name="export-csv" @click=${this.exportCsv}>CSV</button>
        <button name="export-png" ?disabled=${!this.drawn} @click=${this.exportPng}>PNG</button>
      </div>
      <table data-testid="table-${this.kind}">
        <thead><tr>${this.table.columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
        <tbody>${this.table.rows.map((r) => html`<tr>${r.map((v) => html`<td>${formatCell(v)}</td>`)}</tr>`)}</tbody>
      </table>`;
  }
}
customElements.define('rl-experiment-chart', RlExperimentChart);
