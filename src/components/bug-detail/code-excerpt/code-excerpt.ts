import { LitElement, html } from 'lit';
import type { CodeExcerpt } from '../../../../worker/contracts/bug-view.ts';
import { codeExcerptStyles } from './code-excerpt.styles.ts';

/**
 * @summary Source lines with their numbers; fault-localized lines highlighted.
 *
 * @cssproperty --muted - colour of secondary text
 * @cssproperty --code-bg - background of code
 * @cssproperty --highlight - background of a search match, a fault line, a difference
 * @cssproperty --focus - the keyboard focus ring
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
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
