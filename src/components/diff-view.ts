import { LitElement, css, html } from 'lit';

/** A unified diff with added/removed lines coloured. */
export class RlDiffView extends LitElement {
  static override properties = { diff: {} };
  declare diff: string;

  constructor() {
    super();
    this.diff = '';
  }

  static override styles = css`
    pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.8rem; background: var(--code-bg); border-radius: 6px; padding: 0.5rem; overflow: auto; margin: 0.3rem 0; }
    .add { color: #116329; background: #e6f6ea; display: block; }
    .del { color: #82071e; background: #fdecec; display: block; }
    .hunk { color: #6b4fbb; display: block; }
    .plain { display: block; }
  `;

  override render() {
    if (!this.diff.trim()) return html`<div class="muted">(no changes)</div>`;
    return html`<pre>${this.diff.split('\n').map((l) => {
      const cls = l.startsWith('+++') || l.startsWith('---') ? 'plain' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : l.startsWith('@@') ? 'hunk' : 'plain';
      return html`<span class=${cls}>${l || ' '}</span>`;
    })}</pre>`;
  }
}
customElements.define('rl-diff-view', RlDiffView);
