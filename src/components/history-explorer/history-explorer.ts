import { LitElement, html } from 'lit';
import type { BugFileBlame } from '../../../worker/bugs/bug-history.ts';
import type { CommitDetails } from '../../../worker/history/commit-details.ts';
import { getEngine } from '../../engine-client.ts';
import { panelStyles } from '../shared-styles.ts';
import type { OpenCommitDetail, RlBlameView } from './blame-view/blame-view.ts';
import type { RlCommitPanel } from './commit-panel/commit-panel.ts';
import './blame-view/blame-view.ts';
import './commit-panel/commit-panel.ts';
import './history-sections/history-sections.ts';
import { historyExplorerStyles } from './history-explorer.styles.ts';

// stable arrays, so a re-render does not look like a change of mode to the sections
const PAPER: string[] = [];
const RELEASED_CODE = ['code'];

/**
 * @summary A bug's history as HAFixAgent reads it: a fault-localized file blamed at the bug's history base, a commit's
 * message and diff opened from the gutter, and the three history sections exactly as a run's prompt gets them.
 *
 * All of it is computed in the engine worker from the stored repository.
 *
 * @cssproperty --muted - colour of secondary text
 * @cssproperty --line - border and rule colour
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --space-4 - spacing step 4 (16 px)
 * @cssproperty --text-xs - type size xs (12 px)
 */
export class RlHistoryExplorer extends LitElement {
  static override properties = {
    bugId: {},
    blame: { state: true },
    loading: { state: true },
    error: { state: true },
    commit: { state: true },
    commitError: { state: true },
    released: { state: true },
  };
  declare bugId: string;
  declare blame: BugFileBlame | undefined;
  declare loading: boolean;
  declare error: string | undefined;
  declare commit: CommitDetails | undefined;
  declare commitError: string | undefined;
  /** sections as the released code computes them (one blamed line) instead of the paper's union */
  declare released: boolean;
  private request = 0;

  static override styles = [panelStyles, historyExplorerStyles];

  constructor() {
    super();
    this.bugId = '';
    this.loading = false;
    this.released = false;
  }

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('bugId') && this.bugId) void this.load();
  }

  private async load(file?: string) {
    const request = ++this.request;
    this.loading = true;
    this.error = undefined;
    this.commit = undefined;
    this.commitError = undefined;
    try {
      const blame = await getEngine().blameBugFile(this.bugId, file);
      if (request === this.request) this.blame = blame;
    } catch (e) {
      if (request === this.request) this.error = e instanceof Error ? e.message : String(e);
    } finally {
      if (request === this.request) this.loading = false;
    }
  }

  private async openCommit(e: CustomEvent<OpenCommitDetail>) {
    if (!this.blame) return;
    this.commitError = undefined;
    try {
      this.commit = await getEngine().commitDetails(this.blame.repoId, e.detail.oid, e.detail.path);
      await this.renderRoot.querySelector<RlCommitPanel>('rl-commit-panel')?.focusHeading();
    } catch (err) {
      this.commitError = err instanceof Error ? err.message : String(err);
    }
  }

  private closeCommit() {
    const oid = this.commit?.oid;
    this.commit = undefined;
    // back to where the keyboard user came from: the commit's first gutter button on this page
    const view = this.renderRoot.querySelector<RlBlameView>('rl-blame-view');
    void view?.updateComplete.then(() => view.renderRoot.querySelector<HTMLElement>(`.row[data-commit="${oid}"] button.gutter`)?.focus());
  }

  override render() {
    const b = this.blame;
    return html`<div class="explorer" data-testid="history-explorer">
      <h3>History</h3>
      ${this.error ? html`<div class="error" role="alert">${this.error}</div>` : ''}
      ${b
        ? html`<div class="controls">
              <label>File (fault-localized)
                <select name="history-file" ?disabled=${this.loading} @change=${(e: Event) => void this.load((e.target as HTMLSelectElement).value)}>
                  ${b.files.map((f) => html`<option value=${f} ?selected=${f === b.file}>${f}</option>`)}
                </select>
              </label>
            </div>
            <div class="rev" data-testid="history-revision" data-revision=${b.revision}>
              Blamed at <code>${b.revision.slice(0, 12)}</code>${b.revision === b.buggyCommit
                ? ' (the buggy commit)'
                : html` (the original revision the reconstructed buggy commit <code>${b.buggyCommit.slice(0, 12)}</code> stands on)`}
              — the revision HAFixAgent's history reads. Highlighted: fault-localized lines. Click a commit (or press Enter on it) to see its message and diff.
            </div>
            <rl-blame-view .blame=${b} .selected=${this.commit?.oid} @open-commit=${(e: CustomEvent<OpenCommitDetail>) => void this.openCommit(e)}></rl-blame-view>`
        : this.loading
          ? html`<div class="muted" role="status">Blaming…</div>`
          : ''}
      ${this.commitError ? html`<div class="error" role="alert">${this.commitError}</div>` : ''}
      <rl-commit-panel .details=${this.commit} @close=${() => this.closeCommit()}></rl-commit-panel>
      <h3>HAFixAgent's history sections</h3>
      <label class="check"><input type="checkbox" name="history-released" .checked=${this.released} @change=${(e: Event) => (this.released = (e.target as HTMLInputElement).checked)} />
        released code (variant <code>code</code>: one blamed line) instead of the paper's union of blamed commits</label>
      <rl-history-sections .bugId=${this.bugId} .variants=${this.released ? RELEASED_CODE : PAPER}></rl-history-sections>
    </div>`;
  }
}
customElements.define('rl-history-explorer', RlHistoryExplorer);
