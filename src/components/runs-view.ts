import { LitElement, css, html } from 'lit';
import type { Trajectory } from '../../worker/contracts/trajectory.ts';
import type { RunSummary } from '../../worker/run-manager.ts';
import { getEngine } from '../engine-client.ts';
import { panelStyles } from './shared-styles.ts';
import './step-card.ts';
import './diff-view.ts';

/** Saved runs (trajectories in IndexedDB): list, step through one, export it as a file. */
export class RlRunsView extends LitElement {
  static override properties = { runs: { state: true }, open: { state: true }, imported: { state: true }, error: { state: true } };
  declare runs: RunSummary[];
  declare open: Trajectory | undefined;
  /** the open trajectory came from a file: its name and format (shown, not stored) */
  declare imported: { file: string; format: string } | undefined;
  declare error: string | undefined;

  constructor() {
    super();
    this.runs = [];
  }

  static override styles = [
    panelStyles,
    css`
      table { border-collapse: collapse; width: 100%; font-size: 0.85rem; }
      td, th { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid var(--line); }
      tr.run { cursor: pointer; }
      tr.run:hover { background: #f1f3f8; }
    `,
  ];

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

  private async show(runId: string) {
    this.error = undefined;
    this.imported = undefined;
    this.open = await getEngine().getRun(runId);
  }

  /** Opens a trajectory file (RepairLab, mini-swe-agent or SWE-agent) for viewing; a file that is none names itself. */
  private async importFile(e: Event) {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    this.error = undefined;
    try {
      const { format, trajectory } = await getEngine().importTrajectory(await file.text(), file.name);
      this.open = trajectory;
      this.imported = { file: file.name, format };
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

  override render() {
    return html`<div class="panel">
      <h2>Runs</h2>
      <label>Open a trajectory file (RepairLab, mini-swe-agent or SWE-agent) to view it
        <input type="file" name="import-trajectory" accept=".json,.traj,application/json" @change=${this.importFile} /></label>
      ${this.error ? html`<div class="error" data-testid="runs-error">${this.error}</div>` : ''}
      ${this.runs.length === 0 ? html`<p class="muted">No runs yet.</p>` : ''}
      <table>
        ${this.runs.map(
          (r) => html`<tr class="run" data-run=${r.runId} data-status=${r.status} @click=${() => this.show(r.runId)}>
            <td>${new Date(r.createdAt).toLocaleString()}</td><td><code>${r.bugId}</code></td><td>${r.preset}</td>
            <td>${r.steps} steps</td><td class=${r.status === 'plausible' ? 'ok' : 'bad'}>${r.status}</td><td class="muted">${r.reason}</td></tr>`,
        )}
      </table>
      ${this.open
        ? html`<h3>${this.open.bug.id} · ${this.open.config.preset} · ${this.open.runId}
              <button name="export" @click=${this.export}>Export trajectory</button>
              ${this.imported ? '' : html`<button name="export-cassette" @click=${this.exportCassette}>Export as cassette (to replay)</button>`}</h3>
            ${this.imported ? html`<p class="muted" data-testid="imported-note">Opened from ${this.imported.file} (${this.imported.format} format), for viewing: it is not stored.</p>` : ''}
            ${this.open.steps.map((s) => html`<rl-step-card .step=${s}></rl-step-card>`)}
            ${this.open.outcome ? html`<h3>Final patch (${this.open.outcome.status})</h3><rl-diff-view .diff=${this.open.outcome.finalPatch}></rl-diff-view>` : ''}`
        : ''}
    </div>`;
  }
}
customElements.define('rl-runs-view', RlRunsView);
