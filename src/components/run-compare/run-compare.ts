import { LitElement, html } from 'lit';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import { panelStyles } from '../shared-styles.ts';
import { getEngine } from '../../engine-client.ts';
import { compareRows, promptDiff, type CompareCell, type CompareRow } from './compare-rows.ts';
import '../diff-view/diff-view.ts';
import '../trajectory-viewer/long-text/long-text.ts';
import { runCompareStyles } from './run-compare.styles.ts';

/**
 * @summary Two or more runs side by side, aligned by step index; what differs from the first run is highlighted.
 *
 * @cssproperty --line - border and rule colour
 * @cssproperty --muted - colour of secondary text
 */
export class RlRunCompare extends LitElement {
  static override properties = { runs: { attribute: false }, runIds: { attribute: false }, loadError: { state: true }, onlyDifferences: { state: true }, openDiffs: { state: true } };
  declare runs: Trajectory[];
  /** saved runs to compare by id (e.g. a fork and its parent): loaded from the engine into `runs` */
  declare runIds: string[] | undefined;
  declare loadError: string | undefined;
  declare onlyDifferences: boolean;
  /** "<step>:<run>" of the prompt diffs opened (diffs are computed only when opened) */
  declare openDiffs: Set<string>;
  private rows: CompareRow[] = [];

  constructor() {
    super();
    this.runs = [];
    this.onlyDifferences = false;
    this.openDiffs = new Set();
  }

  static override styles = [panelStyles, runCompareStyles];

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('runIds') && this.runIds) void this.load(this.runIds);
    if (changed.has('runs')) {
      this.rows = compareRows(this.runs);
      this.openDiffs = new Set();
    }
  }

  private async load(ids: string[]) {
    this.loadError = undefined;
    const runs = await Promise.all(ids.map((id) => getEngine().getRun(id)));
    if (ids !== this.runIds) return;
    const missing = ids.filter((_, i) => !runs[i]);
    if (missing.length) this.loadError = `These runs are gone: ${missing.join(', ')}.`;
    else this.runs = runs as Trajectory[];
  }

  private toggleDiff(key: string, open: boolean) {
    const next = new Set(this.openDiffs);
    if (open) next.add(key);
    else next.delete(key);
    this.openDiffs = next;
  }

  private renderCell(row: CompareRow, cell: CompareCell, k: number) {
    const d = new Set(cell.differs);
    const key = `${row.index}:${k}`;
    return html`<div class="cell ${cell.differs.length ? 'differs' : ''}" data-testid="compare-cell" data-run=${k} data-differs=${cell.differs.join(' ')}>
      <div><span class="field ${d.has('action') ? 'differs' : ''}" data-field="action">${cell.action}</span></div>
      ${cell.verdict ? html`<div class="field ${d.has('verdict') ? 'differs' : ''}" data-field="verdict">${cell.verdict}</div>` : ''}
      ${cell.tool ? html`<details><summary class="field ${d.has('tool') ? 'differs' : ''}" data-field="tool">Tool result</summary><rl-long-text .text=${cell.tool}></rl-long-text></details>` : ''}
      ${k > 0 && d.has('prompt')
        ? html`<details data-testid="prompt-diff" @toggle=${(e: Event) => this.toggleDiff(key, (e.target as HTMLDetailsElement).open)}>
            <summary class="field differs" data-field="prompt">Prompt differs from run 1</summary>
            ${this.openDiffs.has(key) ? html`<rl-diff-view .diff=${promptDiff(row.cells[0]!.step, cell.step, [`run 1 step ${row.index + 1}`, `run ${k + 1} step ${row.index + 1}`])}></rl-diff-view>` : ''}
          </details>`
        : ''}
    </div>`;
  }

  override render() {
    const columns = `3rem repeat(${this.runs.length}, minmax(0, 1fr))`;
    const rows = this.onlyDifferences ? this.rows.filter((r) => r.cells.some((c) => c.differs.length)) : this.rows;
    return html`<div data-testid="run-compare">
      ${this.loadError ? html`<div class="error">${this.loadError}</div>` : ''}
      <label><input type="checkbox" name="only-differences" .checked=${this.onlyDifferences}
        @change=${(e: Event) => (this.onlyDifferences = (e.target as HTMLInputElement).checked)} /> Only steps that differ</label>
      <div class="grid">
        <div class="row" style="grid-template-columns: ${columns}"><span></span>
          ${this.runs.map((r, k) => html`<div class="head">Run ${k + 1}: ${r.bug.id} · ${r.config.preset}${r.config.variants.length ? ` (${r.config.variants.join(', ')})` : ''} ·
            ${String(r.config.model.model ?? r.config.providerId)} · ${r.outcome?.status ?? r.status}<br /><span class="muted">${r.runId}</span>
            ${r.forkOf ? html`<br /><span class="muted" data-testid="compare-fork-of">fork of ${r.forkOf.runId} at step ${r.forkOf.step}</span>` : ''}</div>`)}
        </div>
        ${rows.map((row) => html`<div class="row" data-testid="compare-row" data-step=${row.index} style="grid-template-columns: ${columns}">
          <span class="idx">${row.index + 1}</span>${row.cells.map((c, k) => this.renderCell(row, c, k))}</div>`)}
      </div>
    </div>`;
  }
}
customElements.define('rl-run-compare', RlRunCompare);
