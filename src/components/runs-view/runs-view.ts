import { LitElement, html, nothing } from 'lit';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import type { RunSummary } from '../../../worker/contracts/runs.ts';
import { RECORDING_SOURCE_WORDS } from '../../../worker/contracts/run-settings.ts';
import { getEngine } from '../../engine-client.ts';
import { panelStyles } from '../shared-styles.ts';
import { cellText, configSummary, experimentLabel, filterRuns, RUN_COLUMNS, shortRunId, sortRuns, type RunColumn, type RunFilter, type RunSort } from './run-rows.ts';
import type { Notice } from '../app/notices.ts';
import '../diff-view/diff-view.ts';
import type { RlTrajectoryViewer } from '../trajectory-viewer/trajectory-viewer.ts';
import '../trajectory-viewer/trajectory-viewer.ts';
import '../run-compare/run-compare.ts';
import { runsViewStyles } from './runs-view.styles.ts';

/**
 * @summary Saved runs (trajectories in IndexedDB): a sortable, filterable list; open one, compare several, delete, export.
 *
 * Each row names its run (a short id, the full one in its title, a Copy button) and the experiment cell it ran for.
 * Keyboard, with focus in the list: j/k or ↓/↑ move the selection, Home/End the first and last, Enter or o open the
 * selected run, f the status filter, / the search box (Enter or Escape there go back to the list); Escape in an
 * opened run goes back to its row.
 *
 * @fires notice - {Notice} a run id was copied (or could not be): for the app's notice area (bubbles, composed)
 *
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
 * @cssproperty --focus - the keyboard focus ring
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --space-4 - spacing step 4 (16 px)
 * @cssproperty --text-xs - type size xs (12 px)
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
    cursor: { state: true },
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
  /** the selected row (j/k move it, Enter opens it): its run id; the first row when unset or filtered away */
  declare cursor: string | undefined;

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
    this.cursor = runId;
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

  /** The rows on show, in the order shown (the keys move through these). */
  private get rows(): RunSummary[] {
    return sortRuns(filterRuns(this.runs, this.filter), this.sort);
  }

  /** The selected row's index among those shown: the cursor's, else the open run's, else the first. */
  private cursorIndex(rows: RunSummary[]): number {
    const at = rows.findIndex((r) => r.runId === (this.cursor ?? this.open?.runId));
    return at < 0 ? 0 : at;
  }

  /** Selects row i (clamped) and puts keyboard focus on it. */
  private moveTo(i: number) {
    const rows = this.rows;
    if (!rows.length) return;
    const run = rows[Math.max(0, Math.min(rows.length - 1, i))]!;
    this.cursor = run.runId;
    void this.updateComplete.then(() => {
      const tr = this.renderRoot.querySelector<HTMLElement>(`tr.run[data-run="${CSS.escape(run.runId)}"]`);
      tr?.focus();
      // nearest: the row comes into the table's box without the page jumping
      tr?.scrollIntoView({ block: 'nearest' });
    });
  }

  /** The list's keys (focus anywhere in the filters or the table; typing in a field is left alone). */
  private onListKey = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.composedPath()[0];
    const typing = (target instanceof HTMLInputElement && target.type !== 'checkbox') || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
    if (typing) {
      // from the search box back to the list: Enter (done typing) or Escape
      if (target instanceof HTMLInputElement && target.name === 'run-filter' && (e.key === 'Enter' || e.key === 'Escape')) {
        e.preventDefault();
        this.moveTo(this.cursorIndex(this.rows));
      }
      return;
    }
    // a button or checkbox keeps its own Enter and space
    const onControl = target instanceof HTMLElement && target.matches('button, a, input');
    const rows = this.rows;
    const at = this.cursorIndex(rows);
    const open = () => rows[at] && void this.show(rows[at]!.runId);
    const keys: Record<string, () => void> = {
      j: () => this.moveTo(at + 1),
      ArrowDown: () => this.moveTo(at + 1),
      k: () => this.moveTo(at - 1),
      ArrowUp: () => this.moveTo(at - 1),
      Home: () => this.moveTo(0),
      End: () => this.moveTo(rows.length - 1),
      o: open,
      ...(onControl ? {} : { Enter: open }),
      f: () => this.renderRoot.querySelector<HTMLSelectElement>('select[name="status-filter"]')?.focus(),
      '/': () => this.renderRoot.querySelector<HTMLInputElement>('input[name="run-filter"]')?.focus(),
    };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  };

  /** Escape in an opened run (its viewer leaves Escape alone outside its search box) goes back to the run's row. */
  private onOpenKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    const target = e.composedPath()[0];
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
    e.preventDefault();
    this.moveTo(this.cursorIndex(this.rows));
  };

  private async copyRunId(runId: string) {
    const say = (notice: Omit<Notice, 'id'>) =>
      this.dispatchEvent(new CustomEvent<Notice>('notice', { detail: { id: 'copy-run-id', ...notice }, bubbles: true, composed: true }));
    try {
      // no clipboard outside secure contexts (plain http on another host)
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(runId);
      say({ kind: 'success', text: `Copied run id ${runId}` });
    } catch {
      say({ kind: 'warning', text: `The browser did not allow copying: the run id is ${runId}` });
    }
  }

  private renderFilters() {
    const statuses = [...new Set(this.runs.map((r) => r.status))].sort();
    const presets = [...new Set(this.runs.map((r) => r.preset))].sort();
    const set = (patch: Partial<RunFilter>) => (this.filter = { ...this.filter, ...patch });
    return html`<div class="filters">
      <label>Search <input type="search" name="run-filter" placeholder="run, bug, experiment, model… (/)" .value=${this.filter.text}
        @input=${(e: Event) => set({ text: (e.target as HTMLInputElement).value })} /></label>
      <label>Status <select name="status-filter" @change=${(e: Event) => set({ status: (e.target as HTMLSelectElement).value })}>
        <option value="">any</option>${statuses.map((v) => html`<option value=${v} ?selected=${v === this.filter.status}>${v}</option>`)}</select></label>
      <label>Preset <select name="preset-filter" @change=${(e: Event) => set({ preset: (e.target as HTMLSelectElement).value })}>
        <option value="">any</option>${presets.map((v) => html`<option value=${v} ?selected=${v === this.filter.preset}>${v}</option>`)}</select></label>
      <button name="compare" ?disabled=${this.selected.length < 2} @click=${this.compare}>Compare ${this.selected.length ? `(${this.selected.length})` : ''}</button>
      <span class="muted keys" data-testid="runs-keys">Keys: j/k or ↓/↑ select · Enter or o open · f status filter · / search</span>
    </div>`;
  }

  /** What a column's cell shows (the text filter searches `cellText`; a cell may show it shorter, the whole in its title). */
  private renderCell(r: RunSummary, c: RunColumn) {
    switch (c) {
      case 'run':
        return html`<code title=${r.runId}>${shortRunId(r.runId)}</code><button class="copy" name="copy-run-id" title="Copy the run id ${r.runId}"
          aria-label="copy run id ${r.runId}" @click=${(e: Event) => (e.stopPropagation(), void this.copyRunId(r.runId))}>${COPY_ICON}</button>`;
      case 'bug':
        return html`<code>${r.bugId}</code>`;
      case 'experiment': {
        const x = r.experiment;
        if (!x) return html`<span class="muted" aria-label="no experiment">—</span>`;
        // two lines, neither broken: the experiment, then its variant and sample
        return html`<span class="exp" title=${x.experimentId}>${x.experimentName ?? x.experimentId}</span>
          <span class="muted cellpos">${x.variant} · #${x.sample + 1}${x.attempt ? ' · set-aside attempt' : ''}</span>`;
      }
      case 'model':
        // the model, then (muted) the recording it replayed: the cell reads as modelLabel, wrapping between words
        return r.recording ? html`${r.model} <span class="muted">· ${r.recording.name} (${RECORDING_SOURCE_WORDS[r.recording.source]})</span>` : r.model;
      case 'status':
        return html`<span class="status" data-kind=${statusKind(r.status)}>${r.status}</span>`;
      case 'started':
        return html`<time datetime=${r.createdAt} title=${cellText(r, c)}>${shortDate(r.createdAt)}</time>`;
      default:
        return cellText(r, c);
    }
  }

  private renderTable() {
    const rows = this.rows;
    const cursor = rows[this.cursorIndex(rows)]?.runId;
    const arrow = (c: RunColumn) => (this.sort.column === c ? (this.sort.descending ? ' ▼' : ' ▲') : '');
    return html`<div class="table-wrap"><table data-testid="runs-table">
      <thead><tr><th class="pick"><span class="visually-hidden">Compare</span></th>
        ${RUN_COLUMNS.map((c) => html`<th data-col=${c.id} class=${NUMERIC.has(c.id) ? 'num' : ''} aria-sort=${this.sort.column === c.id ? (this.sort.descending ? 'descending' : 'ascending') : 'none'}>
          <button name="sort-${c.id}" @click=${() => this.sortBy(c.id)}>${c.label}${arrow(c.id)}</button></th>`)}
        <th><span class="muted">Delete</span></th></tr></thead>
      <tbody>
      ${rows.map(
        (r) => html`<tr class="run" tabindex=${r.runId === cursor ? 0 : -1} data-run=${r.runId} data-status=${r.status}
            aria-selected=${r.runId === cursor ? 'true' : 'false'} aria-current=${this.open?.runId === r.runId ? 'true' : 'false'}
            aria-label="run ${r.runId} ${r.bugId} ${r.preset} ${configSummary(r)} ${r.model} ${r.status}"
            @click=${() => this.show(r.runId)}>
          <td class="pick" @click=${(e: Event) => e.stopPropagation()}><input type="checkbox" name="select-run" aria-label="select ${r.runId} to compare"
            .checked=${this.selected.includes(r.runId)} @change=${(e: Event) => this.toggleSelected(r.runId, (e.target as HTMLInputElement).checked)} /></td>
          ${RUN_COLUMNS.map((c) => html`<td data-col=${c.id} data-label=${c.label} class=${CELL_CLASS[c.id] ?? ''}
            title=${c.id === 'outcome' || c.id === 'model' || c.id === 'config' ? cellText(r, c.id) : nothing}>${this.renderCell(r, c.id)}</td>`)}
          <td @click=${(e: Event) => e.stopPropagation()}><button name="delete-run" class="quiet" aria-label="delete run ${r.runId}" @click=${() => (this.confirmDelete = r)}>Delete</button></td>
        </tr>`,
      )}
      </tbody></table></div>
      ${rows.length === 0 && this.runs.length ? html`<p class="muted" data-testid="no-match">No run matches the filter.</p>` : ''}`;
  }

  private renderOpen(t: Trajectory) {
    const cell = this.runs.find((r) => r.runId === t.runId);
    return html`<section class="opened" aria-label="run ${t.runId}" @keydown=${this.onOpenKey}>
      <div class="open-head">
        <h3>${t.bug.id} · ${t.config.preset}${t.config.variants.length ? ` (${t.config.variants.join(', ')})` : ''}
          · ${String(t.config.model.model ?? t.config.providerId)} · <code>${t.runId}</code></h3>
        <div class="actions">
          <button name="export" @click=${this.export}>Export trajectory</button>
          ${this.imported || t.imported ? '' : html`<button name="export-cassette" @click=${this.exportCassette}>Export as cassette (to replay)</button>`}
        </div>
      </div>
      ${cell?.experiment ? html`<div class="muted" data-testid="open-experiment">Experiment: ${experimentLabel(cell)}</div>` : ''}
      ${Object.keys(t.config.overrides).length ? html`<div class="muted" data-testid="open-overrides">Overrides: ${configSummary({ variants: [], overrides: t.config.overrides })}</div>` : ''}
      ${this.imported ? html`<p class="muted" data-testid="imported-note">${this.imported.stored ? `Imported from ${this.imported.file} (${this.imported.format} format) and stored as a run.` : `Opened from ${this.imported.file} (${this.imported.format} format): run ${t.runId} is stored already and was left as it is.`}</p>` : ''}
      <rl-trajectory-viewer .trajectory=${t} @fork-finished=${() => this.refresh()}></rl-trajectory-viewer>
      ${t.outcome ? html`<h3>Final patch (${t.outcome.status})</h3><rl-diff-view .diff=${t.outcome.finalPatch}></rl-diff-view>` : ''}
    </section>`;
  }

  override render() {
    return html`<div class="panel">
      <h2>Runs</h2>
      <label>Import a trajectory file (RepairLab, mini-swe-agent or SWE-agent): it is stored as a run
        <input type="file" name="import-trajectory" accept=".json,.traj,application/json" @change=${this.importFile} /></label>
      ${this.error ? html`<div class="error" data-testid="runs-error">${this.error}</div>` : ''}
      ${this.runs.length === 0 ? html`<p class="muted">No runs yet.</p>` : html`<div class="list" @keydown=${this.onListKey}>${this.renderFilters()}${this.renderTable()}</div>`}
      ${this.confirmDelete
        ? html`<div class="confirm" role="alertdialog" aria-label="confirm delete" data-testid="confirm-delete">
            Delete the run of <code>${this.confirmDelete.bugId}</code> (${this.confirmDelete.preset}, ${this.confirmDelete.steps} steps, ${this.confirmDelete.runId})? This cannot be undone.
            <button class="primary" name="confirm-delete" @click=${this.deleteConfirmed}>Delete</button>
            <button name="cancel-delete" @click=${() => (this.confirmDelete = undefined)}>Cancel</button></div>`
        : ''}
      ${this.comparing ? html`<h3>Compare</h3><rl-run-compare .runs=${this.comparing}></rl-run-compare>` : ''}
      ${this.open ? this.renderOpen(this.open) : ''}
    </div>`;
  }
}
customElements.define('rl-runs-view', RlRunsView);

/** Two sheets, the copy icon (drawn, not a glyph: the system fonts may not have one). */
const COPY_ICON = html`<svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="1.5">
  <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" /><path d="M10.5 3.5v-1a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h1" /></svg>`;

/** Columns of numbers: right-aligned, tabular figures. */
const NUMERIC = new Set<RunColumn>(['steps', 'cost']);

/**
 * How each column's cells lay out. Short atomic values (ids, a status, a date) never wrap; free text wraps between
 * words only (never inside one: the table used to break "textkit-1" into "textki t-1"); long free text is cut to one
 * line with the whole in its title.
 */
const CELL_CLASS: Partial<Record<RunColumn, string>> = {
  run: 'nowrap',
  bug: 'nowrap',
  preset: 'nowrap',
  model: 'model',
  status: 'nowrap',
  outcome: 'clip reason',
  steps: 'num',
  cost: 'num',
  started: 'nowrap',
};

/** A status as its pill's colour: passed, failed, or still going / stopped by a person. */
function statusKind(status: string): 'ok' | 'bad' | 'neutral' {
  if (status === 'plausible') return 'ok';
  if (['running', 'paused', 'waiting-for-runner', 'stopped'].includes(status)) return 'neutral';
  return 'bad';
}

/** A start time short enough for a column: the time alone today, the day and time before (the title has it all). */
function shortDate(iso: string): string {
  const d = new Date(iso);
  const today = new Date().toDateString() === d.toDateString();
  return today
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}
