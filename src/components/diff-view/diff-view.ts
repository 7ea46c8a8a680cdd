import { LitElement, html } from 'lit';
import { diffViewStyles } from './diff-view.styles.ts';

/**
 * @summary A unified diff with added/removed lines coloured.
 *
 * @cssproperty --code-bg - background of code
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --ok - colour of passes
 * @cssproperty --ok-soft - background of a pass
 * @cssproperty --bad - colour of failures and errors
 * @cssproperty --bad-soft - background of a failure or an error
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlDiffView extends LitElement {
  static override properties = { diff: {} };
  declare diff: string;

  constructor() {
    super();
    this.diff = '';
  }

  static override styles = diffViewStyles;

  override render() {
    if (!this.diff.trim()) return html`<div class="muted">(no changes)</div>`;
    return html`<pre>${this.diff.split('\n').map((l) => {
      const cls = l.startsWith('+++') || l.startsWith('---') ? 'plain' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : l.startsWith('@@') ? 'hunk' : 'plain';
      return html`<span class=${cls}>${l || ' '}</span>`;
    })}</pre>`;
  }
}
customElements.define('rl-diff-view', RlDiffView);
