import { LitElement, html, nothing } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { StrategyOutline } from '../../../../worker/contracts/strategy.ts';
import { panelStyles } from '../../shared-styles.ts';
import '../reply-form/reply-form.ts';
import { humanTurnStyles } from './human-turn.styles.ts';

/** A person's turn: the prompt they answer as the model, and the strategy state it is in. */
export interface HumanTurn {
  step: number;
  messages: { role: string; content: string }[];
  state?: string;
}

/**
 * @summary A person's turn as the model: the prompt, the reply form (the strategy's commands as fields) and a box to
 * type the reply instead. Either way the same text is sent, so it makes the same step.
 *
 * In the presenter layout (`presenter`) the form comes first and the prompt is folded away below it.
 *
 * @fires reply - {string} the reply to send for this turn, composed by the form or typed
 *
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlHumanTurn extends LitElement {
  static override properties = { turn: { attribute: false }, outline: { attribute: false }, presenter: { type: Boolean } };
  declare turn: HumanTurn | undefined;
  /** the running strategy's states, tools and reply format: without it there is no form, only the text box */
  declare outline: StrategyOutline | undefined;
  declare presenter: boolean;

  constructor() {
    super();
    this.presenter = false;
  }

  static override styles = [panelStyles, humanTurnStyles];

  private send(text: string) {
    this.dispatchEvent(new CustomEvent<string>('reply', { detail: text }));
  }

  private sendTyped() {
    const box = this.renderRoot.querySelector<HTMLTextAreaElement>('textarea[name=human-reply]');
    if (box) this.send(box.value);
  }

  /** the reply form of this turn; a new turn gets a fresh form */
  private renderForm(turn: HumanTurn) {
    if (!this.outline) return nothing;
    return keyed(turn.step, html`<rl-reply-form .outline=${this.outline} .state=${turn.state} .messages=${turn.messages}
      @reply=${(e: CustomEvent<string>) => this.send(e.detail)}></rl-reply-form>`);
  }

  override render() {
    const p = this.turn;
    if (!p) return '';
    return html`<div class="panel" data-testid="human-turn">
      <h3>You are the model — step ${p.step + 1}${p.state ? html` · state <i>${p.state}</i>` : ''}</h3>
      ${this.presenter
        ? html`${this.renderForm(p)}<details><summary>The prompt (${p.messages.length} messages)</summary>${p.messages.map((m) => html`<div class="muted">${m.role}</div><pre>${m.content}</pre>`)}</details>`
        : html`${p.messages.map((m) => html`<div class="muted">${m.role}</div><pre>${m.content}</pre>`)}${this.renderForm(p)}`}
      <h3>…or type the reply</h3>
      <textarea name="human-reply" placeholder="Type the model's reply"></textarea>
      <button class="primary" name="send-reply" @click=${this.sendTyped}>Send reply</button>
    </div>`;
  }
}
customElements.define('rl-human-turn', RlHumanTurn);
