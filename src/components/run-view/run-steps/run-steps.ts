import { LitElement, html } from 'lit';
import type { TrajStep } from '../../../../worker/contracts/trajectory.ts';
import { panelStyles } from '../../shared-styles.ts';
import '../../step-card/step-card.ts';

/**
 * @summary The steps of the run in flight, one `rl-step-card` each, and the model's reply to the next step as it streams.
 */
export class RlRunSteps extends LitElement {
  static override properties = { steps: { attribute: false }, streaming: {} };
  declare steps: TrajStep[];
  /** the model's reply so far to the step in flight */
  declare streaming: string;

  constructor() {
    super();
    this.steps = [];
    this.streaming = '';
  }

  static override styles = [panelStyles];

  override render() {
    return html`${this.steps.map((s) => html`<rl-step-card .step=${s}></rl-step-card>`)}
      ${this.streaming ? html`<pre class="muted" data-testid="streaming">${this.streaming}</pre>` : ''}`;
  }
}
customElements.define('rl-run-steps', RlRunSteps);
