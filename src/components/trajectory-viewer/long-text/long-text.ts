import { LitElement, html, type TemplateResult } from 'lit';
import { longTextStyles } from './long-text.styles.ts';

/** Texts longer than this are shown as head and tail until expanded. */
export const LONG_TEXT_LIMIT = 4000;
const KEEP = 1500;

/** "… 12,345 characters hidden …" */
export function hiddenNote(hidden: number): string {
  return `… ${hidden.toLocaleString('en-US')} characters hidden …`;
}

/** `text` with every case-insensitive occurrence of `query` wrapped in <mark>. */
export function highlighted(text: string, query: string): (string | TemplateResult)[] | string {
  const q = query.trim().toLowerCase();
  if (!q) return text;
  const lower = text.toLowerCase();
  const out: (string | TemplateResult)[] = [];
  let at = 0;
  for (let i = lower.indexOf(q); i >= 0; i = lower.indexOf(q, at)) {
    out.push(text.slice(at, i), html`<mark>${text.slice(i, i + q.length)}</mark>`);
    at = i + q.length;
  }
  out.push(text.slice(at));
  return out;
}

/**
 * @summary A preformatted text; a long one (a test log, a file listing) collapsed to its head and tail with the number
 * of characters hidden between them, expandable. Search matches inside are marked.
 *
 * @cssproperty --code-bg - background of code
 * @cssproperty --highlight - background of a search match, a fault line, a difference
 * @cssproperty --focus - the keyboard focus ring
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlLongText extends LitElement {
  static override properties = { text: {}, highlight: {}, expanded: { state: true } };
  declare text: string;
  declare highlight: string;
  declare expanded: boolean;

  constructor() {
    super();
    this.text = '';
    this.highlight = '';
    this.expanded = false;
  }

  static override styles = longTextStyles;

  override render() {
    const t = this.text;
    if (t.length <= LONG_TEXT_LIMIT || this.expanded)
      return html`<pre>${highlighted(t, this.highlight)}</pre>${t.length > LONG_TEXT_LIMIT
        ? html`<button name="collapse" @click=${() => (this.expanded = false)}>Collapse</button>` : ''}`;
    const hidden = t.length - 2 * KEEP;
    return html`<pre>${highlighted(t.slice(0, KEEP), this.highlight)}</pre>
      <button name="expand" data-testid="hidden-chars" @click=${() => (this.expanded = true)}>${hiddenNote(hidden)} (show all)</button>
      <pre>${highlighted(t.slice(-KEEP), this.highlight)}</pre>`;
  }
}
customElements.define('rl-long-text', RlLongText);
