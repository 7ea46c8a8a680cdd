// The live matrix: one row per bug, one column per variant and sample. A cell shows its status; a cell with a run
// opens that run's trajectory in the Runs view (event `open-run`, handled by the app shell). promptfoo's views filter
// the rows: all, failures, passes, the bugs where the variants differ (matrix-filter.ts). Only the rows scrolled into
// view are in the DOM (row-window.ts), so an experiment of a thousand bugs scrolls as smoothly as one of ten.
import { LitElement, html } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { CellRecord, ExperimentRecord } from '../../../../worker/contracts/experiment.ts';
import { bugsInView, MATRIX_VIEWS, VIEW_LABEL, type MatrixView } from '../matrix-filter.ts';
import { rowWindow } from '../row-window.ts';
import { experimentMatrixStyles, ROW_PX } from './experiment-matrix.styles.ts';

export type MatrixStatus = CellRecord['status'] | 'queued';

const LABEL: Record<MatrixStatus, string> = {
  plausible: 'plausible',
  'not-plausible': 'not plausible',
  budget: 'budget',
  'infrastructure-error': 'infrastructure error',
  'not-run': 'not run',
  running: 'running',
  queued: 'queued',
};
const SYMBOL: Record<MatrixStatus, string> = { plausible: '✓', 'not-plausible': '✗', budget: '$', 'infrastructure-error': '!', 'not-run': '–', running: '…', queued: '·' };

/**
 * @summary The live matrix of an experiment: one row per bug, one column per variant and sample, a cell's status in each.
 *
 * The views filter the rows (all, failures, passes, where the variants differ: matrix-filter.ts); only the rows
 * scrolled into view are in the DOM (row-window.ts).
 *
 * @fires open-run - {string} the run id of the cell clicked, to open in the Runs view (bubbles, composed; the app shell handles it)
 *
 * @cssproperty --panel - surface of panels, cards, tables and fields
 * @cssproperty --panel-2 - a quieter surface: table headers, hovered rows, gutters
 * @cssproperty --ink - text colour
 * @cssproperty --muted - colour of secondary text
 * @cssproperty --line - border and rule colour
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --accent-soft - background of the selected or current item
 * @cssproperty --ok - colour of passes
 * @cssproperty --ok-soft - background of a pass
 * @cssproperty --bad - colour of failures and errors
 * @cssproperty --bad-soft - background of a failure or an error
 * @cssproperty --warn - colour of warnings and budget ends
 * @cssproperty --warn-soft - background of a warning
 * @cssproperty --focus - the keyboard focus ring
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --radius-sm - corner radius of small things (pills, fields)
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 * @cssproperty --text-md - type size md (14 px)
 */
export class RlExperimentMatrix extends LitElement {
  static override properties = { record: { attribute: false }, cells: { attribute: false }, view: { state: true }, scrollTop: { state: true }, viewportHeight: { state: true } };
  declare record: ExperimentRecord;
  declare cells: CellRecord[];
  declare view: MatrixView;
  declare scrollTop: number;
  declare viewportHeight: number;

  constructor() {
    super();
    this.view = 'all';
    this.scrollTop = 0;
    // until the scroller is measured: its largest height (CSS max-height below)
    this.viewportHeight = 640;
  }

  private onScroll(e: Event) {
    const el = e.target as HTMLElement;
    // re-render only when the window of rows moves by a row
    if (Math.floor(el.scrollTop / ROW_PX) !== Math.floor(this.scrollTop / ROW_PX) || el.clientHeight !== this.viewportHeight) {
      this.scrollTop = el.scrollTop;
      this.viewportHeight = el.clientHeight;
    }
  }

  static override styles = experimentMatrixStyles;

  private openRun(runId: string) {
    this.dispatchEvent(new CustomEvent('open-run', { detail: runId, bubbles: true, composed: true }));
  }

  override render() {
    const spec = this.record.spec as { variants: { name: string }[]; samples: number };
    const samples = Array.from({ length: spec.samples }, (_, i) => i);
    const byKey = new Map(this.cells.map((c) => [`${c.bugId} ${c.variant} ${c.sample}`, c]));
    const shown = new Set(bugsInView(this.record.bugs.map((b) => b.id), spec.variants.map((v) => v.name), this.cells, this.view));
    const bugs = this.record.bugs.filter((b) => shown.has(b.id));
    const win = rowWindow(this.scrollTop, this.viewportHeight, ROW_PX, bugs.length);
    const columns = 1 + spec.variants.length * spec.samples;
    return html`<fieldset class="views" data-testid="matrix-views"><legend class="muted">Show</legend>
        ${MATRIX_VIEWS.map((v) => html`<label><input type="radio" name="matrix-view" value=${v} .checked=${this.view === v} @change=${() => (this.view = v)} /> ${VIEW_LABEL[v]}</label>`)}
        <span class="muted" data-testid="matrix-shown">${bugs.length} of ${this.record.bugs.length} bugs</span>
      </fieldset>
      <div class="legend">${Object.entries(LABEL).map(([s, l]) => html`<span><span class="cell" data-status=${s}>${SYMBOL[s as MatrixStatus]}</span> ${l}</span>`)}</div>
      <div class="scroller" @scroll=${this.onScroll}><table data-testid="experiment-matrix" data-rows=${bugs.length}>
        <thead>
          <tr><th rowspan="2">bug</th>${spec.variants.map((v) => html`<th colspan=${spec.samples}>${v.name}</th>`)}</tr>
          <tr>${spec.variants.map(() => samples.map((s) => html`<th>#${s + 1}</th>`))}</tr>
        </thead>
        <tbody>
          ${win.before ? html`<tr aria-hidden="true" style="height: ${win.before}px"><td colspan=${columns}></td></tr>` : ''}
          ${repeat(
            bugs.slice(win.start, win.end),
            // keyed: rows still in view keep their DOM as the window moves, only the rows scrolled in are made
            (b) => b.id,
            (b) => html`<tr data-bug=${b.id}><th class="bug" scope="row">${b.id} <span class="muted">${b.category}</span></th>
              ${spec.variants.map((v) =>
                samples.map((s) => {
                  const cell = byKey.get(`${b.id} ${v.name} ${s}`);
                  const status: MatrixStatus = cell?.status ?? 'queued';
                  const title = `${b.id} · ${v.name} · sample ${s + 1}: ${LABEL[status]}${cell?.reason ? ` — ${cell.reason}` : ''}`;
                  return html`<td>${cell?.runId
                    ? html`<button class="cell" data-status=${status} data-cell=${`${b.id}|${v.name}|${s}`} title=${title} aria-label=${`${title}; open the run`}
                        @click=${() => this.openRun(cell.runId!)}>${SYMBOL[status]}</button>`
                    : html`<span class="cell" data-status=${status} data-cell=${`${b.id}|${v.name}|${s}`} title=${title} aria-label=${title}>${SYMBOL[status]}</span>`}</td>`;
                }),
              )}</tr>`,
          )}
          ${win.after ? html`<tr aria-hidden="true" style="height: ${win.after}px"><td colspan=${columns}></td></tr>` : ''}
        </tbody>
      </table></div>`;
  }
}
customElements.define('rl-experiment-matrix', RlExperimentMatrix);
