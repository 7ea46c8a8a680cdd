import { LitElement, html } from 'lit';
import { panelStyles } from '../../shared-styles.ts';
import { presenterLayoutStyles } from './presenter-layout.styles.ts';

/**
 * @summary The presenter layout: a full-window modal dialog with the state diagram beside the current step, in large type.
 *
 * Nothing else of the app shows (the rest of the page is inert while it is open); Escape or the Leave button leaves it.
 * rl-run-presenter slots the diagram and the step in, so they are the same elements the run view shows otherwise.
 *
 * @fires presenter-close - {null} the user left the layout (Escape or Leave); the owner removes it
 *
 * @slot diagram - the state machine (left column)
 * @slot step - the current step or the person's turn (right column)
 *
 * @cssproperty --bg - the page behind the panels
 * @cssproperty --ink - text colour
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-4 - spacing step 4 (16 px)
 */
export class RlPresenterLayout extends LitElement {
  static override properties = {
    heading: {},
  };
  declare heading: string;

  constructor() {
    super();
    this.heading = '';
  }

  static override styles = [panelStyles, presenterLayoutStyles];

  override firstUpdated() {
    this.dialog?.showModal();
    this.renderRoot.querySelector<HTMLButtonElement>('button[name="close-presenter"]')?.focus();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    if (this.dialog?.open) this.dialog.close();
  }

  private get dialog() {
    return this.renderRoot.querySelector('dialog');
  }

  private leave = (e?: Event) => {
    e?.preventDefault();
    this.dispatchEvent(new CustomEvent('presenter-close'));
  };

  override render() {
    return html`<dialog aria-label="Presenter layout" data-testid="presenter" @cancel=${this.leave}>
      <div class="zoom">
        <div class="bar"><h2>${this.heading}</h2><button name="close-presenter" @click=${() => this.leave()}>Leave presenter layout (Esc)</button></div>
        <div class="columns">
          <section aria-label="State machine"><slot name="diagram"></slot></section>
          <section aria-label="Current step"><slot name="step"></slot></section>
        </div>
      </div>
    </dialog>`;
  }
}
customElements.define('rl-presenter-layout', RlPresenterLayout);
