import { LitElement, html } from 'lit';
import type { BugSummary } from '../../../worker/contracts/bug-view.ts';
import { panelStyles } from '../shared-styles.ts';
import { bugBrowserStyles } from './bug-browser.styles.ts';

/**
 * @summary The bundled and imported bugs, and those made here from a repository (tagged), filterable by library,
 * category and blameability.
 *
 * @fires bug-selected - {string} the id of the bug clicked (bubbles, composed)
 *
 * @cssproperty --panel-2 - a quieter surface: table headers, hovered rows, gutters
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --accent-soft - background of the selected or current item
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlBugBrowser extends LitElement {
  static override properties = {
    bugs: { attribute: false },
    loading: { type: Boolean },
    selected: {},
    library: { state: true },
    category: { state: true },
    blame: { state: true },
  };
  declare bugs: BugSummary[];
  /** the catalogue has not answered yet */
  declare loading: boolean;
  declare selected: string | undefined;
  declare library: string;
  declare category: string;
  declare blame: string;

  constructor() {
    super();
    this.bugs = [];
    this.loading = false;
    this.library = '';
    this.category = '';
    this.blame = '';
  }

  static override styles = [panelStyles, bugBrowserStyles];

  private get visible(): BugSummary[] {
    return this.bugs.filter(
      (b) =>
        (!this.library || b.library === this.library) &&
        (!this.category || b.category === this.category) &&
        (!this.blame || String(b.blameable) === this.blame),
    );
  }

  private select(id: string) {
    this.dispatchEvent(new CustomEvent('bug-selected', { detail: id, bubbles: true, composed: true }));
  }

  override render() {
    const libraries = [...new Set(this.bugs.map((b) => b.library))].sort();
    return html`<div class="panel">
      <h2>Bugs</h2>
      <div class="filters">
        <select name="library" aria-label="library" @change=${(e: Event) => (this.library = (e.target as HTMLSelectElement).value)}>
          <option value="">all libraries</option>
          ${libraries.map((l) => html`<option value=${l}>${l}</option>`)}
        </select>
        <select name="category" aria-label="category" @change=${(e: Event) => (this.category = (e.target as HTMLSelectElement).value)}>
          <option value="">all categories</option>
          ${['SL', 'SH', 'SFMH', 'MFMH'].map((c) => html`<option value=${c}>${c}</option>`)}
        </select>
        <select name="blameable" aria-label="blameable" @change=${(e: Event) => (this.blame = (e.target as HTMLSelectElement).value)}>
          <option value="">blameable or not</option>
          <option value="true">blameable</option>
          <option value="false">blameless</option>
        </select>
      </div>
      <ul aria-label="bugs">
        ${this.visible.map(
          (b) => html`<li data-bug=${b.id}>
            <button type="button" data-testid="bug-item" aria-current=${b.id === this.selected ? 'true' : 'false'} @click=${() => this.select(b.id)}>
              <span class="id">${b.id} <span class="tag">${b.category}</span>${b.blameable ? '' : html`<span class="tag">blameless</span>`}${b.origin === 'made' ? html`<span class="tag" data-testid="made-here">made here</span>` : ''}</span>
              <span class="title" style="display:block">${b.title}</span>
            </button>
          </li>`,
        )}
      </ul>
      ${this.loading
        ? html`<p class="muted" data-testid="bugs-loading">Loading the bundled bugs…</p>`
        : this.visible.length === 0
          ? html`<p class="muted">No bug matches these filters.</p>`
          : html`<p class="muted" data-testid="bug-count">${this.visible.length} of ${this.bugs.length} bugs</p>`}
    </div>`;
  }
}
customElements.define('rl-bug-browser', RlBugBrowser);
