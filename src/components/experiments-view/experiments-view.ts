// The Experiments tab: the experiments in this browser (an unfinished one — a reload, a crash, a stop — offers
// Resume), a builder for a new one, and the open experiment: progress, pause / resume / stop, the live matrix and
// the results. Events stream from the worker (worker/experiments/experiments-api.ts) while this tab is open.
import { LitElement, html } from 'lit';
import type { CellRecord, ExperimentSpec } from '../../../worker/contracts/experiment.ts';
import type { BugSummary } from '../../../worker/contracts/bug-view.ts';
import type { ExperimentEvent, ExperimentProgress } from '../../../worker/experiments/scheduler.ts';
import type { PoolRunnerStatus } from '../../../worker/experiments/runner-pool.ts';
import { poolHeading, poolRows } from './pool-rows.ts';
import type { ExperimentListing, ExperimentReportView, ExperimentSnapshot } from '../../../worker/experiments/experiments-api.ts';
import { Comlink, getEngine } from '../../engine-client.ts';
import type { Settings } from '../../state/settings.ts';
import { loadApiKeys } from '../../state/api-keys.ts';
import { modelBaseURL } from '../../../worker/llm/provider-presets.ts';
import '../endpoint-key/endpoint-key.ts';
import type { PresetChoice } from '../run-view/run-choices.ts';
import { panelStyles } from '../shared-styles.ts';
import './experiment-builder/experiment-builder.ts';
import './experiment-matrix/experiment-matrix.ts';
import './experiment-results/experiment-results.ts';
import { experimentsViewStyles } from './experiments-view.styles.ts';
import { experimentsTab } from './tab-state.ts';
import { errorCells } from '../../../worker/experiments/report-denominators.ts';
import { experimentRunners } from '../../state/pool-settings.ts';

const duration = (ms: number) => (ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`);

/**
 * @summary The Experiments tab: the experiments in this browser (an unfinished one offers Resume), a builder for a new
 * one, and the open experiment — progress, pause / resume / stop, the live matrix and the results.
 *
 * Events stream from the worker (worker/experiments/experiments-api.ts) while the tab is open. `open-run` from the matrix bubbles
 * through it to the app shell.
 *
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-4 - spacing step 4 (16 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlExperimentsView extends LitElement {
  static override properties = {
    bugs: { attribute: false },
    presets: { attribute: false },
    settings: { attribute: false },
    experiments: { state: true },
    open: { state: true },
    progress: { state: true },
    pool: { state: true },
    report: { state: true },
    building: { state: true },
    error: { state: true },
  };
  declare bugs: BugSummary[];
  declare presets: PresetChoice[];
  declare settings: Settings | undefined;
  declare experiments: ExperimentListing[];
  declare open: ExperimentSnapshot | undefined;
  declare progress: ExperimentProgress | undefined;
  /** the runners of the open experiment's session as its last pool event gave them (none before the first) */
  declare pool: PoolRunnerStatus[] | undefined;
  declare report: ExperimentReportView | undefined;
  declare building: boolean;
  declare error: string | undefined;
  private watchId: number | undefined;
  /** the experiment being fetched to open: its end, reported meanwhile, must fetch it again (a short one ends that fast) */
  private opening: string | undefined;

  constructor() {
    super();
    this.bugs = [];
    this.presets = [];
    this.experiments = [];
    // as the tab was left (tab-state.ts): the builder open or not, the experiment shown
    this.building = experimentsTab.building;
  }

  override updated() {
    experimentsTab.building = this.building;
    experimentsTab.openId = this.open?.record.id ?? this.opening ?? experimentsTab.openId;
  }

  static override styles = [panelStyles, experimentsViewStyles];

  override async connectedCallback() {
    super.connectedCallback();
    this.watchId = await getEngine().watchExperiments(Comlink.proxy((e: ExperimentEvent) => this.onEvent(e)));
    await this.refreshList();
    const shown = experimentsTab.openId;
    if (shown && !this.open && this.experiments.some((x) => x.record.id === shown)) await this.openExperiment(shown);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    if (this.watchId !== undefined) void getEngine().unwatchExperiments(this.watchId);
    this.watchId = undefined;
  }

  private async refreshList() {
    try {
      this.experiments = await getEngine().listExperiments();
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  private onEvent(e: ExperimentEvent) {
    if (e.type === 'progress') {
      const ended = e.status === 'finished' || e.status === 'stopped';
      if (this.open?.record.id === e.experimentId || this.opening === e.experimentId) {
        this.progress = e;
        if (ended) void this.openExperiment(e.experimentId);
      }
      if (ended) void this.refreshList();
      return;
    }
    if (e.type === 'pool') {
      if (this.open?.record.id === e.experimentId) this.pool = e.runners;
      return;
    }
    if (this.open?.record.id !== e.experimentId || e.type === 'stopping') return;
    const cell: CellRecord = e.cell;
    this.open = { ...this.open, cells: [...this.open.cells.filter((c) => c.index !== cell.index), cell].sort((a, b) => a.index - b.index) };
  }

  private async openExperiment(id: string) {
    this.error = undefined;
    if (this.open?.record.id !== id) this.pool = undefined;
    this.opening = id;
    try {
      const engine = getEngine();
      this.open = await engine.getExperiment(id);
      this.progress = this.open.progress;
      this.report = await engine.experimentReportView(id);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    } finally {
      if (this.opening === id) this.opening = undefined;
    }
  }

  private async act(what: 'pause' | 'resume' | 'stop' | 'retry', id: string) {
    this.error = undefined;
    try {
      const engine = getEngine();
      if (what === 'pause') await engine.pauseExperiment(id);
      else if (what === 'stop') await engine.stopExperiment(id);
      else {
        if (!this.settings) throw new Error('Settings are still loading.');
        // every key by origin: the engine gives the runs only the one for the spec's endpoint (plan.modelSettings)
        const settings = { ...experimentRunners(this.settings.runner, this.settings.pool), apiKeys: loadApiKeys() };
        if (what === 'retry') await engine.retryExperiment(id, settings);
        else await engine.resumeExperiment(id, settings);
      }
      await this.refreshList();
      await this.openExperiment(id);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  private async started(id: string) {
    this.building = false;
    await this.refreshList();
    await this.openExperiment(id);
  }

  /** What the user can do with an experiment now, in words and buttons. */
  private renderControls(x: ExperimentListing, paused: boolean) {
    const id = x.record.id;
    if (x.liveness === 'live')
      return html`${paused
          ? html`<button class="primary" name="resume-experiment" @click=${() => this.act('resume', id)}>Resume</button>`
          : html`<button name="pause-experiment" @click=${() => this.act('pause', id)}>Pause</button>`}
        <button name="stop-experiment" @click=${() => this.act('stop', id)}>Stop</button>`;
    if (x.liveness === 'elsewhere') return html`<span class="muted">running in another tab of this browser</span>`;
    if (x.record.status === 'finished') return '';
    return html`<button class="primary" name="resume-experiment" @click=${() => this.act('resume', id)}>Resume</button>
      <span class="muted">${x.record.status === 'stopped' ? `stopped${x.record.stopReason ? `: ${x.record.stopReason}` : ''}` : 'interrupted (the page was closed or reloaded)'}; resume goes on where it stopped</span>`;
  }

  private statusWord(x: ExperimentListing) {
    if (x.liveness === 'idle' && (x.record.status === 'running' || x.record.status === 'paused')) return 'interrupted';
    return x.record.status;
  }

  private renderList() {
    if (!this.experiments.length) return html`<p class="muted">No experiments yet.</p>`;
    return html`<table class="list" data-testid="experiments-list">
      <thead><tr><th>experiment</th><th>status</th><th>cells done</th><th>created</th><th></th></tr></thead>
      <tbody>${this.experiments.map(
        (x) => html`<tr data-experiment=${x.record.id} data-status=${this.statusWord(x)}>
          <td><button name="open-experiment" @click=${() => this.openExperiment(x.record.id)}>${(x.record.spec as { name?: string }).name ?? x.record.id}</button></td>
          <td>${this.statusWord(x)}</td><td>${x.done} / ${x.record.cells}</td><td>${new Date(x.record.createdAt).toLocaleString()}</td>
          <td>${x.liveness !== 'live' && x.record.status !== 'finished' ? this.renderControls(x, false) : ''}</td></tr>`,
      )}</tbody></table>`;
  }

  private renderProgress() {
    const p = this.progress;
    const o = this.open!;
    if (!p) return html`<div class="progress muted" data-testid="experiment-progress">${o.done} / ${o.record.cells} cells done</div>`;
    return html`<div class="progress" data-testid="experiment-progress">
      <b>${p.done} / ${p.total}</b> cells done · ${p.running} running · ${p.queued} queued · ${p.calls} model calls ·
      ${p.costUsd === null ? 'cost unknown (no price)' : `$${p.costUsd.toFixed(4)}`} · ${duration(p.elapsedMs)}${p.etaMs !== null && p.status === 'running' ? ` · about ${duration(p.etaMs)} left` : ''}
    </div>`;
  }

  /** The session's runners: up or lost, busy or idle, and their validations per minute (pool-rows.ts). */
  private renderPool() {
    const runners = this.pool;
    if (!runners?.length) return '';
    return html`<section data-testid="experiment-pool">
      <h3>Runners (${poolHeading(runners)})</h3>
      <div class="table-wrap"><table class="list">
        <thead><tr><th>runner</th><th>state</th><th>cells running</th><th>cells started</th><th>validations</th><th>validations / min</th></tr></thead>
        <tbody>${poolRows(runners).map(
          (r) => html`<tr data-runner=${r.id} data-state=${r.state}><td class="nowrap" title=${r.url}>${r.id}</td><td>${r.state}</td><td class="num">${r.running}</td><td class="num">${r.served}</td><td class="num">${r.validations}</td><td class="num">${r.perMinute}</td></tr>`,
        )}</tbody>
      </table></div>
    </section>`;
  }

  /**
   * The cells infrastructure failed (the endpoint could not serve them, the runner was gone): which variant, bug and
   * sample, and the error — with Retry, which runs just them again, afresh, once the cause is mended.
   */
  private renderErrors(o: ExperimentSnapshot) {
    const errors = errorCells(o.cells);
    if (!errors.length) return '';
    const why = o.liveness === 'live' ? 'the experiment is running: Retry waits for it to end (or Stop it)' : o.liveness === 'elsewhere' ? 'the experiment is running in another tab' : undefined;
    return html`<section data-testid="error-cells" data-count=${errors.length}>
      <h3>Cells in error (${errors.length})</h3>
      <p class="muted">Infrastructure failed these cells through every attempt — the model endpoint or the runner, not the agent. They count as not plausible in every rate. Retry runs just them again, afresh (their failed runs stay as attempts, paid for): mend the endpoint or the runner first.</p>
      <div class="table-wrap"><table class="list">
        <thead><tr><th>variant</th><th>bug</th><th>sample</th><th>attempts</th><th>error</th></tr></thead>
        <tbody>${errors.map(
          (c) => html`<tr data-cell=${c.index} data-variant=${c.variant} data-bug=${c.bugId}><td class="nowrap">${c.variant}</td><td class="nowrap">${c.bugId}</td><td class="num">${c.sample + 1}</td><td class="num">${c.attempts.length + 1}</td><td>${c.reason}</td></tr>`,
        )}</tbody>
      </table></div>
      <div class="controls">
        <button class="primary" name="retry-errors" ?disabled=${!!why} @click=${() => this.act('retry', o.record.id)}>Retry ${errors.length} cell${errors.length === 1 ? '' : 's'} in error</button>
        ${why ? html`<span class="muted">${why}</span>` : ''}
      </div>
    </section>`;
  }

  private renderOpen() {
    const o = this.open!;
    const name = (o.record.spec as { name?: string }).name;
    const hasErrors = o.cells.some((c) => c.status === 'infrastructure-error');
    return html`<div class="panel" data-testid="experiment-detail" data-experiment=${o.record.id}>
      <h2>${name ? `${name} (${o.record.id})` : o.record.id}</h2>
      <div class="controls" data-testid="experiment-status" data-status=${this.statusWord(o)}>${this.statusWord(o)} ${this.renderControls(o, o.paused)}${o.record.status === 'finished' || o.record.status === 'stopped' ? html`<rl-bundle-download .experimentId=${o.record.id}></rl-bundle-download>` : ''}</div>
      ${o.record.status === 'finished' && !hasErrors ? '' : html`<rl-endpoint-key .baseURL=${specEndpoint(o.record.spec)}></rl-endpoint-key>`}
      ${this.renderProgress()}
      ${this.renderPool()}
      ${this.renderErrors(o)}
      <h3>Matrix</h3>
      <rl-experiment-matrix .record=${o.record} .cells=${o.cells}></rl-experiment-matrix>
      <h3>Results <button name="refresh-results" @click=${() => this.openExperiment(o.record.id)}>Update</button></h3>
      ${this.report && this.report.report.experiment.id === o.record.id ? html`<rl-experiment-results .view=${this.report} .cells=${o.cells}></rl-experiment-results>` : html`<p class="muted">Loading the report…</p>`}
    </div>`;
  }

  override render() {
    return html`<div class="panel">
        <h2>Experiments</h2>
        ${this.renderList()}
        <div class="controls"><button name="new-experiment" @click=${() => (this.building = !this.building)}>${this.building ? 'Close the builder' : 'New experiment'}</button></div>
        ${this.error ? html`<div class="error" data-testid="experiments-error">${this.error}</div>` : ''}
      </div>
      ${this.building
        ? html`<rl-experiment-builder .bugs=${this.bugs} .presets=${this.presets} .settings=${this.settings}
            @experiment-started=${(e: CustomEvent<string>) => this.started(e.detail)}></rl-experiment-builder>`
        : ''}
      ${this.open ? this.renderOpen() : ''}`;
  }
}
customElements.define('rl-experiments-view', RlExperimentsView);

/** Where a recorded spec's model calls go (a resume needs that origin's key). */
function specEndpoint(spec: Record<string, unknown>): string | undefined {
  try {
    return modelBaseURL((spec as unknown as ExperimentSpec).model);
  } catch {
    return undefined;
  }
}
