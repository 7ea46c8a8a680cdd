import { LitElement, html } from 'lit';
import type { StrategyOutline } from '../../../../worker/contracts/strategy.ts';
import type { TrajStep } from '../../../../worker/contracts/trajectory.ts';
import type { HumanTurn } from '../human-turn/human-turn.ts';
import { panelStyles } from '../../shared-styles.ts';
import { currentState } from '../diagram-layout.ts';
import '../human-turn/human-turn.ts';
import '../last-result/last-result.ts';
import '../presenter-layout/presenter-layout.ts';
import '../state-diagram/state-diagram.ts';
import '../../step-card/step-card.ts';

/**
 * @summary The presenter layout of a run: the strategy's state diagram (lit at the current state) beside the last
 * result (the command that ran, whether its validation passed) and the person's turn, or else the latest step, in
 * `rl-presenter-layout`'s full-window dialog.
 *
 * It is given what it shows; leaving it and replying are events, so the run view decides what follows (it closes
 * the layout and puts focus back on its toggle).
 *
 * @fires presenter-close - {null} the user left the layout (Escape or its Leave button)
 * @fires reply - {string} the person's reply to the turn shown
 */
export class RlRunPresenter extends LitElement {
  static override properties = {
    bugId: {},
    runId: {},
    outline: { attribute: false },
    steps: { attribute: false },
    turn: { attribute: false },
  };
  declare bugId: string | undefined;
  /** the run shown, once it started */
  declare runId: string | undefined;
  declare outline: StrategyOutline | undefined;
  declare steps: TrajStep[];
  declare turn: HumanTurn | undefined;

  constructor() {
    super();
    this.steps = [];
  }

  static override styles = [panelStyles];

  private get heading(): string {
    const n = this.steps.length;
    return `${this.runId ? 'Run' : 'No run yet'}${this.bugId ? ` on ${this.bugId}` : ''}${n ? ` — ${n} step${n === 1 ? '' : 's'}` : ''}`;
  }

  override render() {
    const { outline, steps, turn } = this;
    const last = steps[steps.length - 1];
    return html`<rl-presenter-layout .heading=${this.heading} @presenter-close=${() => this.dispatchEvent(new CustomEvent('presenter-close'))}>
      <div slot="diagram">
        ${outline && outline.states.length > 1
          ? html`<rl-state-diagram .outline=${outline} .current=${currentState(outline, steps, turn?.state)}></rl-state-diagram>`
          : html`<p class="muted">${outline ? `This strategy has one state (${outline.states[0]?.name}).` : 'Start a run to see its strategy here.'}</p>`}
      </div>
      <div slot="step">
        ${last ? html`<rl-last-result .step=${last}></rl-last-result>` : ''}
        ${turn
          ? html`<rl-human-turn presenter .turn=${turn} .outline=${outline}
              @reply=${(e: CustomEvent<string>) => this.dispatchEvent(new CustomEvent<string>('reply', { detail: e.detail }))}></rl-human-turn>`
          : last
            ? html`<details><summary>Step ${last.index + 1} in full: prompt, reply, change</summary><rl-step-card .step=${last}></rl-step-card></details>`
            : html`<p class="muted">Waiting for the first step.</p>`}
      </div>
    </rl-presenter-layout>`;
  }
}
customElements.define('rl-run-presenter', RlRunPresenter);
