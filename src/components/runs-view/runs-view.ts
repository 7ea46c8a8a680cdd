import { LitElement, html } from 'lit';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import type { RunSummary } from '../../../worker/contracts/runs.ts';
import { getEngine } from '../../engine-client.ts';
import { panelStyles } from '../shared-styles.ts';
import { cellText, configSummary, filterRuns, RUN_COLUMNS, sortRuns, type RunColumn, type RunFilter, type RunSort } from './run-rows.ts';
import '../diff-view/diff-view.ts';
import type { RlTrajectoryViewer } from '../trajectory-viewer/trajectory-viewer.ts';
import '../trajectory-viewer/trajectory-viewer.ts';
import '../run-compare/run-compare.ts';
import { runsViewStyles } from './runs-view.styles.ts';

/**
 * @summary Saved runs (trajectories in IndexedDB): a sortable, filterable list; open one, compare several, delete, export.
 *
 * @cssproperty --bad - colour of failures and errors
 * @cssproperty --line - border and rule colour
 * @cssproperty --muted - colour of secondary text
 */
export class RlRunsView extends LitElement {
  static override properties = {
    runs: { state: true },
    open: { state: true },
    imported: { state: true },
    error: { state: true },
    sort: { state: true },
    filter: { state: true },
    selected: { state: true },
    comparing: { state: true },
    confirmDelete: { state: true },
  };
  declare runs: RunSummary[];
  declare open: Trajectory | undefined;
  /** the open trajectory came from a file: its name and format, and whether it was stored as a run */
  declare imported: { file: string; format: string; stored: boolean } | undefined;
  declare error: string | undefined;
  declare sort: RunSort;
  declare filter: RunFilter;
  /** run ids ticked for Compare */
  declare selected: string[];
  declare comparing: Trajectory[] | undefined;
  /** the run whose deletion waits for confirmation */
  declare confirmDelete: RunSummary | undefined;

  constructor() {
    super();
    this.runs = [];
    this.sort = { column: 'started', descending: true };
    this.filter = { text: '', status: '', preset: '' };
    this.selected = [];
  }

  static override styles = [panelStyles, runsViewStyles];

  override async connectedCallback() {
    super.connectedCallback();
    await this.refresh();
  }

  async refresh() {
    try {
      this.runs = await getEngine().listRuns();
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  /** Opens a saved run (its row's click; the Experiments tab opens a cell's run with it). */
  async show(runId: string) {
    this.error = undefined;
    this.imported = undefined;
    this.comparing = undefined;
    this.open = await getEngine().getRun(runId);
    await this.updateComplete;
    // the keyboard goes on in the viewer: j/k step through the run just opened
    const viewer = this.renderRoot.querySelector<RlTrajectoryViewer>('rl-trajectory-viewer');
    viewer?.scrollIntoView({ block: 'start' });
    viewer?.focusStep();
  }

  private sortBy(column: RunColumn) {
    this.sort = { column, descending: this.sort.column === column ? !this.sort.descending : column === 'started' || column === 'cost' || column === 'steps' };
  }

  private toggleSelected(runId: string, on: boolean) {
    this.selected = on ? [...this.selected, runId] : this.selected.filter((id) => id !== runId);
  }

  private async compare() {
    this.error = undefined;
    try {
      const runs = await Promise.all(this.selected.map((id) => getEngine().getRun(id)));
      const missing = this.selected.filter((_, i) => !runs[i]);
      if (missing.length) throw new Error(`These runs are gone: ${missing.join(', ')}. Refresh the list.`);
      this.open = undefined;
      this.comparing = runs as Trajectory[];
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  private async deleteConfirmed() {
    const run = this.confirmDelete;
    if (!run) return;
    this.confirmDelete = undefined;
    try {
      await getEngine().deleteRun(run.runId);
      this.selected = this.selected.filter((id) => id !== run.runId);
      if (this.open?.runId === run.runId) this.open = undefined;
      await this.refresh();
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  /** Imports a trajectory file (RepairLab, mini-swe-agent or SWE-agent) as a stored run and opens it; a file that is none names itself. */
  private async importFile(e: Event) {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    this.error = undefined;
    try {
      const { format, trajectory, stored } = await getEngine().importTrajectoryRun(await file.text(), file.name);
      this.open = trajectory;
      this.imported = { file: file.name, format, stored };
      await this.refresh();
    } catch (err) {
      this.error = err instanceof Error ? err.message : String(err);
    } finally {
      input.value = '';
    }
  }

  /** The open run as a cassette: load it under Settings → Model (a recording) to replay the run exactly. */
  private async exportCassette() {
    const t = this.open;
    if (!t) return;
    try {
      const cassette = await getEngine().cassetteOf(t);
      this.download(JSON.stringify(cassette, null, 2), `${t.bug.id}.${t.config.preset}.${t.runId}.cassette.json`);
    } catch (err) {
      this.error = err instanceof Error ? err.message : String(err);
    }
  }

  private download(text: string, name: string) {
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: name });
    a.click();
    URL.revokeObjectURL(url);
  }

  private export() {
    const t = this.open;
    if (!t) return;
    this.download(JSON.stringify(t, null, 2), `${t.bug.id}.${t.config.preset}.${t.runId}.trajectory.json`);
  }

  private renderFilters() {
    const statuses = [...new Set(this.runs.map((r) => r.status))].sort();
    const presets = [...new Set(this.runs.map((r) => r.preset))].sort();
    const set = (patch: Partial<RunFilter>) => (this.filter = { ...this.filter, ...patch });
    return html`<div class="filters">
      <label>Filter <input type="search" name="run-filter" placeholder="bug, model, variant, outcome…" .value=${this.filter.text}
        @input=${(e: Event) => set({ text: (e.target as HTMLInputElement).value })} /></label>
      <label>Status <select name="status-filter" @change=${(e: Event) => set({ status: (e.target as HTMLSelectElement).value })}>
        <option value="">any</option>${statuses.map((v) => html`<option value=${v} ?selected=${v === this.filter.status}>${v}</option>`)}</select></label>
      <label>Preset <select name="preset-filter" @change=${(e: Event) => set({ preset: (e.target as HTMLSelectElement).value })}>
        <option value="">any</option>${presets.map((v) => html`<option value=${v} ?selected=${v === this.filter.preset}>${v}</option>`)}</select></label>
      <button name="compare" ?disabled=${this.selected.length < 2} @click=${this.compare}>Compare ${this.selected.length ? `(${this.selected.length})` : ''}</button>
    </div>`;
  }

  private renderTable() {
    const rows = sortRuns(filterRuns(this.runs, this.filter), this.sort);
    const arrow = (c: RunColumn) => (this.sort.column === c ? (this.sort.descending ? ' ▼' : ' ▲') : '');
    return html`<div class="table-wrap"><table data-testid="runs-table">
      <thead><tr><th><span class="muted">Compare</span></th>
        ${RUN_COLUMNS.map((c) => html`<th aria-sort=${this.sort.column === c.id ? (this.sort.descending ? 'descending' : 'ascending') : 'none'}>
          <button name="sort-${c.id}" @click=${() => this.sortBy(c.id)}>${c.label}${arrow(c.id)}</button></th>`)}
        <th><span class="muted">Delete</span></th></tr></thead>
      <tbody>
      ${rows.map(
        (r) => html`<tr class="run" tabindex="0" data-run=${r.runId} data-status=${r.status} aria-selected=${this.open?.runId === r.runId ? 'true' : 'false'}
            aria-label="run ${r.bugId} ${r.preset} ${configSummary(r)} ${r.model} ${r.status}"
            @click=${() => this.show(r.runId)} @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && e.target === e.currentTarget && this.show(r.runId)}>
          <td @click=${(e: Event) => e.stopPropagation()}><input type="checkbox" name="select-run" aria-label="select ${r.runId} to compare"
            .checked=${this.selected.includes(r.runId)} @change=${(e: Event) => this.toggleSelected(r.runId, (e.target as HTMLInputElement).checked)} /></td>
          ${RUN_COLUMNS.map((c) => html`<td data-col=${c.id} data-label=${c.label} class=${c.id === 'status' ? (r.status === 'plausible' ? 'ok' : 'bad') : c.id === 'outcome' ? 'muted reason' : ''}>${c.id === 'bug' ? html`<code>${cellText(r, c.id)}</code>` : cellText(r, c.id)}</td>`)}
          <td @click=${(e: Event) => e.stopPropagation()}><button name="delete-run" aria-label="delete run ${r.runId}" @click=${() => (this.confirmDelete = r)}>Delete</button></td>
        </tr>`,
      )}
      </tbody></table></div>
      ${rows.length === 0 && this.runs.length ? html`<p class="muted" data-testid="no-match">No run matches the filter.</p>` : ''}`;
  }

  override render() {
    return html`<div class="panel">
      <h2>Runs</h2>
      <label>Import a trajectory file (RepairLab, mini-swe-agent or SWE-agent): it is stored as a run
        <input type="file" name="import-trajectory" accept=".json,.traj,application/json" @change=${this.importFile} /></label>
      ${this.error ? html`<div class="error" data-testid="runs-error">${this.error}</div>` : ''}
      ${this.runs.length === 0 ? html`<p class="muted">No runs yet.</p>` : html`${this.renderFilters()}${this.renderTable()}`}
      ${this.confirmDelete
        ? html`<div class="confirm" role="alertdialog" aria-label="confirm delete" data-testid="confirm-delete">
            Delete the run of <code>${this.confirmDelete.bugId}</code> (${this.confirmDelete.preset}, ${this.confirmDelete.steps} steps, ${this.confirmDelete.runId})? This cannot be undone.
            <button class="primary" name="confirm-delete" @click=${this.deleteConfirmed}>Delete</button>
            <button name="cancel-delete" @click=${() => (this.confirmDelete = undefined)}>Cancel</button></div>`
        : ''}
      ${this.comparing ? html`<h3>Compare</h3><rl-run-compare .runs=${this.comparing}></rl-run-compare>` : ''}
      ${this.open
        ? html`<h3>${this.open.bug.id} · ${this.open.config.preset}${this.open.config.variants.length ? ` (${this.open.config.variants.join(', ')})` : ''}
              · ${String(this.open.config.model.model ?? this.open.config.providerId)} · ${this.open.runId}
              <button name="export" @click=${this.export}>Export trajectory</button>
              ${this.imported || this.open.imported ? '' : html`<button name="export-cassette" @click=${this.exportCassette}>Export as cassette (to replay)</button>`}</h3>
            ${Object.keys(this.open.config.overrides).length ? html`<div class="muted" data-testid="open-overrides">Overrides: ${configSummary({ variants: [], overrides: this.open.config.overrides })}</div>` : ''}
            ${this.imported ? html`<p class="muted" data-testid="imported-note">${this.imported.stored ? `Imported from ${this.imported.file} (${this.imported.format} format) and stored as a run.` : `Opened from ${this.imported.file} (${this.imported.format} format): run ${this.open.runId} is stored already and was left as it is.`}</p>` : ''}
            <rl-trajectory-viewer .trajectory=${this.open} @fork-finished=${() => this.refresh()}></rl-trajectory-viewer>
            ${this.open.outcome ? html`<h3>Final patch (${this.open.outcome.status})</h3><rl-diff-view .diff=${this.open.outcome.finalPatch}></rl-diff-view>` : ''}`
        : ''}
    </div>`;
  }
}
customElements.define('rl-runs-view', RlRunsView);
