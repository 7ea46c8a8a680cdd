import { LitElement, css, html } from 'lit';
import type { CommitDetails } from '../../../worker/api/commit-details.ts';
import { panelStyles } from '../shared-styles.ts';
import '../diff-view.ts';

/** A commit opened from the blame gutter: who and when, the full message, and its diff of the file. Close or Escape closes it. */
export class RlCommitPanel extends LitElement {
  static override properties = { details: { attribute: false } };
  declare details: CommitDetails | undefined;

  static override styles = [
    panelStyles,
    css`
      section { border: 1px solid var(--line); border-radius: 6px; padding: 0.6rem 0.8rem; margin: 0.6rem 0; background: #fbfbfa; }
      h4 { margin: 0 0 0.3rem; font-size: 0.9rem; overflow-wrap: anywhere; }
      h4:focus { outline: none; }
      h4:focus-visible { outline: 3px solid var(--focus, #1a56db); outline-offset: 2px; }
      .meta { font-size: 0.8rem; color: var(--muted); overflow-wrap: anywhere; }
      .head { display: flex; gap: 0.5rem; align-items: flex-start; justify-content: space-between; }
      .message { max-height: 12rem; }
      code { overflow-wrap: anywhere; }
    `,
  ];

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
