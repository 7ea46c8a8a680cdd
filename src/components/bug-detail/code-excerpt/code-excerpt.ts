import { LitElement, html } from 'lit';
import type { CodeExcerpt } from '../../../../worker/contracts/bug-view.ts';
import { codeExcerptStyles } from './code-excerpt.styles.ts';

/**
 * @summary Source lines with their numbers; fault-localized lines highlighted.
 *
 * @cssproperty --code-bg - background of code and diffs
 * @cssproperty --focus - keyboard focus ring (default #1a56db)
 * @cssproperty --muted - colour of secondary text
 */
export class RlCodeExcerpt extends LitElement {
  static override properties = { excerpt: { attribute: false } };
  declare excerpt: CodeExcerpt | undefined;

  static override styles = codeExcerptStyles;

  override render() {
    const ex = this.excerpt;
    if (!ex) return html``;
    const hl = new Set(ex.highlight);
    return html`<div class="file">${ex.file}</div>
      <pre>${ex.lines.map((text, i) => {
        const n = ex.startLine + i;
        return html`<span class="line ${hl.has(n) ? 'hl' : ''}" data-line=${n}><span class="no">${n}</span>${text}</span>`;
      })}</pre>`;
  }
}
customElements.define('rl-code-excerpt', RlCodeExcerpt);
