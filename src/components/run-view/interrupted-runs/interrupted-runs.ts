import { LitElement, html } from 'lit';
import type { RunSummary } from '../../../../worker/contracts/runs.ts';
import { panelStyles } from '../../shared-styles.ts';

/**
 * @summary A bug's runs that a reload or a crash stopped, each with Continue (the run view's ContinueController finds
 * them and continues the one chosen).
 *
 * While `checkedFor` is set it also carries a hidden `data-testid="interrupted-checked"` marker naming that bug, so a
 * test can wait until the lookup answered before it counts the runs.
 *
 * @fires continue-run - {RunSummary} Continue was clicked on this run
 */
export class RlInterruptedRuns extends LitElement {
  static override properties = { runs: { attribute: false }, checkedFor: {}, running: { type: Boolean } };
  declare runs: RunSummary[];
  /** the bug the list was looked up for */
  declare checkedFor: string | undefined;
  /** a run is going on: nothing is offered meanwhile */
  declare running: boolean;

  constructor() {
    super();
    this.runs = [];
    this.running = false;
  }

  static override styles = [panelStyles];

  override render() {
    return html`${this.checkedFor ? html`<span hidden data-testid="interrupted-checked" data-bug=${this.checkedFor}></span>` : ''}
      ${this.runs.length && !this.running
        ? html`<div data-testid="interrupted-runs"><span class="muted">Stopped by a reload or a crash — continue it with the model chosen in Settings:</span>
            ${this.runs.map(
              (r) => html`<div data-testid="interrupted-run" data-run=${r.runId}>${r.preset} · ${r.steps} step${r.steps === 1 ? '' : 's'} · ${new Date(r.createdAt).toLocaleString()}
                <button name="continue-run" @click=${() => this.dispatchEvent(new CustomEvent<RunSummary>('continue-run', { detail: r }))}>Continue</button></div>`,
            )}</div>`
        : ''}`;
  }
}
customElements.define('rl-interrupted-runs', RlInterruptedRuns);
