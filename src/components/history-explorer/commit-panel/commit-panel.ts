import { LitElement, html } from 'lit';
import type { CommitDetails } from '../../../../worker/history/commit-details.ts';
import { panelStyles } from '../../shared-styles.ts';
import '../../diff-view/diff-view.ts';
import { commitPanelStyles } from './commit-panel.styles.ts';

/**
 * @summary A commit opened from the blame gutter: who and when, the full message, and its diff of the file.
 *
 * @fires close - {null} Close or Escape (bubbles, composed)
 *
 * @cssproperty --panel-2 - a quieter surface: table headers, hovered rows, gutters
 * @cssproperty --muted - colour of secondary text
 * @cssproperty --line - border and rule colour
 * @cssproperty --focus - the keyboard focus ring
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --text-md - type size md (14 px)
 */
export class RlCommitPanel extends LitElement {
  static override properties = { details: { attribute: false } };
  declare details: CommitDetails | undefined;

  static override styles = [panelStyles, commitPanelStyles];

  /** Moves keyboard focus to the panel, so a keyboard user lands on what Enter opened. */
  async focusHeading() {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('h4')?.focus();
  }

  private close() {
    this.dispatchEvent(new CustomEvent('close', { bubbles: true, composed: true }));
  }

  override render() {
    const d = this.details;
    if (!d) return html``;
    const summary = d.message.split('\n', 1)[0];
    return html`<section data-testid="commit-details" data-commit=${d.oid} aria-label=${`Commit ${d.oid.slice(0, 8)}`}
      @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && this.close()}>
      <div class="head">
        <h4 tabindex="-1"><code>${d.oid.slice(0, 12)}</code> ${summary}</h4>
        <button @click=${() => this.close()}>Close</button>
      </div>
      <div class="meta">
        ${d.author.name} &lt;${d.author.email}&gt;, ${d.author.date} UTC${d.committer.name !== d.author.name || d.committer.timestamp !== d.author.timestamp
          ? html` · committed by ${d.committer.name}, ${d.committer.date} UTC`
          : ''}
        · ${d.parents.length ? html`parent${d.parents.length > 1 ? 's' : ''} ${d.parents.map((p) => html`<code>${p.slice(0, 8)}</code> `)}` : 'root commit'}
      </div>
      <pre class="message" data-testid="commit-message">${d.message}</pre>
      <div class="meta">Its change to <code>${d.file}</code>${d.parents.length > 1 ? ' (against the first parent)' : ''}:</div>
      <rl-diff-view data-testid="commit-diff" .diff=${d.diff}></rl-diff-view>
      ${d.changedFiles.length > 1
        ? html`<div class="meta">The commit changed ${d.changedFiles.length} files: ${d.changedFiles.map((f, i) => html`${i ? ', ' : ''}<code>${f}</code>`)}</div>`
        : ''}
    </section>`;
  }
}
customElements.define('rl-commit-panel', RlCommitPanel);
