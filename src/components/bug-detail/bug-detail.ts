import { LitElement, html } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { renderMarkdown } from './markdown.ts';
import type { BugView } from '../../../worker/contracts/bug-view.ts';
import { panelStyles } from '../shared-styles.ts';
import './code-excerpt/code-excerpt.ts';
import '../history-explorer/history-explorer.ts';
import { bugDetailStyles } from './bug-detail.styles.ts';
import { excludedTestRows } from './excluded-tests.ts';

/**
 * @summary One bug: its report, failing tests (with their source), the tests its suite runs leave out and why, and the
 * fault-localized code. Never the ground truth.
 *
 * The History button opens `rl-history-explorer` below the tags.
 *
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --space-5 - spacing step 5 (24 px)
 * @cssproperty --text-md - type size md (14 px)
 */
export class RlBugDetail extends LitElement {
  static override properties = { view: { attribute: false }, historyOpen: { state: true } };
  declare view: BugView | undefined;
  /** the History explorer is shown (closed again when another bug is opened) */
  declare historyOpen: boolean;

  constructor() {
    super();
    this.historyOpen = false;
  }

  override willUpdate(changed: Map<string, unknown>) {
    const before = changed.get('view') as BugView | undefined;
    if (changed.has('view') && before && before.bug.id !== this.view?.bug.id) this.historyOpen = false;
  }

  static override styles = [panelStyles, bugDetailStyles];

  override render() {
    const v = this.view;
    if (!v) return html``;
    const { bug } = v;
    return html`<div class="panel" data-testid="bug-detail">
      <h2>${bug.id}: ${bug.report.title}</h2>
      <div>
        <span class="tag">${bug.library}</span><span class="tag">${bug.category}</span>
        <span class="tag">${bug.blameable ? 'blameable' : 'blameless'}</span>
        ${bug.defectKinds.map((k) => html`<span class="tag">${k}</span>`)}
      </div>
      <button class="history-toggle" aria-expanded=${this.historyOpen} @click=${() => (this.historyOpen = !this.historyOpen)}>History</button>
      ${this.historyOpen ? html`<rl-history-explorer .bugId=${bug.id}></rl-history-explorer>` : ''}
      <h3>Bug report</h3>
      <!-- sanitised by renderMarkdown (DOMPurify): no script or event handler survives -->
      <div class="report" data-testid="bug-report">${unsafeHTML(renderMarkdown(bug.report.body))}</div>
      <h3>Failing tests</h3>
      <ul data-testid="failing-tests">${bug.failingTests.map((t) => html`<li><code>${t}</code></li>`)}</ul>
      ${v.failingTestSources.map((t) =>
        t.excerpt ? html`<rl-code-excerpt .excerpt=${t.excerpt}></rl-code-excerpt>` : html`<div class="muted">${t.test}: ${t.error}</div>`,
      )}
      ${this.renderExcluded(bug.layout)}
      <h3>Fault locations</h3>
      <ul data-testid="fault-locations">
        ${bug.faultLocalization.map((f) => html`<li><code>${f.file}</code> ${f.kind === 'insert' ? 'code missing after line' : f.lines.length > 1 ? 'lines' : 'line'} ${f.lines.join(', ')}</li>`)}
      </ul>
      <h3>Buggy code (fault localization)</h3>
      ${v.buggyCode.map((ex) => html`<rl-code-excerpt data-testid="buggy-code" .excerpt=${ex}></rl-code-excerpt>`)}
    </div>`;
  }

  /** Every test a verdict leaves out: the environment's first (each with why and where measured), then the benchmark's. */
  private renderExcluded(layout: BugView['bug']['layout']) {
    const rows = excludedTestRows(layout);
    if (!rows.length) return '';
    const environment = rows.filter((r) => r.kind === 'environment');
    const benchmark = rows.filter((r) => r.kind === 'benchmark');
    return html`<h3>Tests left out of validation</h3>
      <div data-testid="excluded-tests">
        ${environment.length
          ? html`<p>${environment.length} test(s) fail on the developer fix in the runner's environment, not in the benchmark's, and are not run:</p>
              <ul data-testid="environment-exclusions">
                ${environment.map((r) => html`<li><code>${r.test}</code> — ${r.reason}${r.measured ? html`<div class="muted">measured: ${r.measured}</div>` : ''}</li>`)}
              </ul>`
          : ''}
        ${benchmark.length
          ? html`<details data-testid="benchmark-exclusions"><summary>${benchmark.length} test(s) the benchmark lists as broken</summary>
              <ul>${benchmark.map((r) => html`<li><code>${r.test}</code></li>`)}</ul></details>`
          : ''}
      </div>`;
  }
}
customElements.define('rl-bug-detail', RlBugDetail);
