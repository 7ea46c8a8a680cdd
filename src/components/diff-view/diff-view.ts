import { LitElement, html } from 'lit';
import { diffViewStyles } from './diff-view.styles.ts';

/**
 * @summary A unified diff with added/removed lines coloured.
 *
 * @cssproperty --code-bg - background of code and diffs
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
