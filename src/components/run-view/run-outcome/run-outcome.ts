import { LitElement, html } from 'lit';
import type { Outcome, TrajStep } from '../../../../worker/contracts/trajectory.ts';
import { panelStyles } from '../../shared-styles.ts';
import '../../diff-view/diff-view.ts';
import { runOutcomeStyles } from './run-outcome.styles.ts';

const OUTCOME_TEXT: Record<Outcome['status'], string> = {
  plausible: 'plausible patch — all tests pass',
  implausible: 'no plausible patch',
  error: 'the run ended with an error',
  stopped: 'stopped',
  unknown: 'not validated (imported trajectory)',
};

/**
 * @summary How a run ended: the verdict and its reason, totals (steps, tokens, validations, cost), whether it matches
 * the developers' fix, the final patch — and, once no run is going on, the ground-truth fix on request.
 *
 * @fires reveal-ground-truth - {null} the user asked to see the developers' fix (the run view asks the engine and sets `groundTruth`)
 *
 * @cssproperty --space-3 - spacing step 3 (12 px)
 */
export class RlRunOutcome extends LitElement {
  static override properties = { outcome: { attribute: false }, steps: { attribute: false }, running: { type: Boolean }, groundTruth: {} };
  declare outcome: Outcome | undefined;
  /** the run's steps: the models of the ones without a price are named when the cost is unknown */
  declare steps: TrajStep[];
  /** a run is going on (a later trajectory of the request): the ground truth is not offered yet */
  declare running: boolean;
  /** the ground-truth fix, once revealed */
  declare groundTruth: string | undefined;

  constructor() {
    super();
    this.steps = [];
    this.running = false;
  }

  static override styles = [panelStyles, runOutcomeStyles];

  override render() {
    const o = this.outcome;
    if (!o) return '';
    return html`<div class="outcome" data-testid="outcome" data-status=${o.status}>
      <h3>Outcome: <span class=${o.status === 'plausible' ? 'ok' : 'bad'} data-testid="outcome-status">${OUTCOME_TEXT[o.status]}</span></h3>
      <div class="muted" data-testid="outcome-reason">${o.reason}</div>
      ${o.recheck && !o.recheck.plausible && o.recheck.failingTests.length
        ? html`<div>Still failing: ${o.recheck.failingTests.map((t) => html`<code>${t}</code> `)}</div>`
        : ''}
      <div class="muted">${o.totals.steps} steps · ${o.totals.inputTokens + o.totals.outputTokens} tokens · ${o.totals.validations} validations
        ${o.totals.costUsd !== null ? html` · $${o.totals.costUsd.toFixed(4)}` : html` · <span data-testid="cost-unknown">cost unknown: no price for ${unpricedModels(this.steps)} (add it under Settings → Prices)</span>`}
        ${o.exactMatch !== null ? html` · <span data-testid="exact-match">${o.exactMatch ? 'matches the developers’ fix' : 'differs from the developers’ fix'} (ignoring whitespace and comments)</span>` : ''}</div>
      <h3>Final patch</h3>
      <rl-diff-view data-testid="final-diff" .diff=${o.finalPatch}></rl-diff-view>
      ${this.running
        ? ''
        : this.groundTruth === undefined
          ? html`<button name="reveal-ground-truth" @click=${() => this.dispatchEvent(new CustomEvent('reveal-ground-truth'))}>Reveal the ground-truth fix</button>`
          : html`<h3>Ground-truth fix (the developers')</h3><rl-diff-view data-testid="ground-truth" .diff=${this.groundTruth}></rl-diff-view>`}
    </div>`;
  }
}

/** the models of the steps that had no price, for the outcome's note */
function unpricedModels(steps: TrajStep[]): string {
  const models = [...new Set(steps.filter((s) => s.costUsd === null).map((s) => s.response?.model ?? 'the model'))];
  return models.join(', ') || 'a model';
}
customElements.define('rl-run-outcome', RlRunOutcome);
