import { LitElement, css, html } from 'lit';
import { panelStyles } from '../shared-styles.ts';

/**
 * The presenter layout: a full-window modal dialog (nothing else of the app shows, Escape or Close leaves it, the rest
 * of the page is inert while it is open) with the state diagram beside the current step, in large type. The run view
 * slots both in (`diagram`, `step`), so they are the same elements it shows otherwise.
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

  static override styles = [
    panelStyles,
    css`
      dialog { box-sizing: border-box; width: 100vw; height: 100vh; max-width: 100vw; max-height: 100vh; margin: 0; padding: 0; border: none;
        background: var(--bg, #f6f7f9); overflow-x: hidden; overflow-y: auto; }
      /* large type: every size in the slotted panels (rem and px alike) grows, and the layout reflows in the narrower width */
      .zoom { zoom: 1.3; padding: 0.6rem 1rem; box-sizing: border-box; }
      .bar { display: flex; align-items: center; gap: 1rem; justify-content: space-between; margin-bottom: 0.6rem; }
      .bar h2 { margin: 0; overflow-wrap: anywhere; }
      .columns { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1rem; align-items: start; }
      .columns > * { min-width: 0; }
    `,
  ];

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
