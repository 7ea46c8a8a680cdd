import { LitElement, html, type PropertyValues } from 'lit';
import type { RepoCommit } from '../../../../../worker/contracts/bug-from-repo.ts';
import { getEngine } from '../../../../engine-client.ts';
import { panelStyles } from '../../../shared-styles.ts';
import { commitLogStyles } from './commit-log.styles.ts';

/** A commit the person picked in the log, and for what: to browse its files, as the buggy commit, or as the fix. */
export interface CommitPick {
  oid: string;
  role: 'browse' | 'buggy' | 'fixed';
  /** the commit as the log listed it (its subject names it in the bug maker) */
  commit: RepoCommit;
}

const PAGE = 50;

/**
 * @summary A stored repository's history, newest first across every ref: message, author, date and refs of each
 * commit, a page at a time, with buttons to browse a commit's files or pick it as the buggy or the fixing commit.
 *
 * @fires commit-picked - {CommitPick} Files, Buggy or Fix was clicked on a commit
 *
 * @cssproperty --panel-2 - a quieter surface: table headers, hovered rows, gutters
 * @cssproperty --muted - colour of secondary text
 * @cssproperty --line - border and rule colour
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --accent-soft - background of the selected or current item
 * @cssproperty --ok - colour of passes
 * @cssproperty --bad - colour of failures and errors
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlCommitLog extends LitElement {
  static override properties = {
    repoId: {},
    buggy: {},
    fixed: {},
    browsed: {},
    commits: { state: true },
    more: { state: true },
    loading: { state: true },
    error: { state: true },
  };
  declare repoId: string | undefined;
  /** the oids picked as buggy and fixing commit, and the one whose files are shown (marked in the list) */
  declare buggy: string | undefined;
  declare fixed: string | undefined;
  declare browsed: string | undefined;
  declare commits: RepoCommit[];
  declare more: boolean;
  declare loading: boolean;
  declare error: string | undefined;

  constructor() {
    super();
    this.commits = [];
    this.more = false;
    this.loading = false;
  }

  static override styles = [panelStyles, commitLogStyles];

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('repoId')) {
      this.commits = [];
      this.more = false;
      this.error = undefined;
      if (this.repoId) void this.loadPage();
    }
  }

  /** The next page of history (the first when none is shown). */
  private async loadPage() {
    const repoId = this.repoId;
    if (!repoId) return;
    this.loading = true;
    try {
      const page = await getEngine().repoLog(repoId, this.commits.length, PAGE);
      if (repoId !== this.repoId) return;
      this.commits = [...this.commits, ...page.commits];
      this.more = page.more;
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    } finally {
      this.loading = false;
    }
  }

  private pick(commit: RepoCommit, role: CommitPick['role']) {
    this.dispatchEvent(new CustomEvent<CommitPick>('commit-picked', { detail: { oid: commit.oid, role, commit } }));
  }

  private renderCommit(c: RepoCommit) {
    const short = c.oid.slice(0, 8);
    const date = new Date(c.timestamp * 1000).toISOString().slice(0, 10);
    const body = c.message.slice(c.subject.length).trim();
    const classes = [c.oid === this.browsed ? 'browsed' : '', c.oid === this.buggy ? 'buggy' : '', c.oid === this.fixed ? 'fixed' : ''].join(' ');
    return html`<li class=${classes} data-commit=${c.oid}>
      <code>${short}</code>
      <span class="subject">${c.subject}${c.refs.map((r) => html` <span class="tag">${r}</span>`)}</span>
      <span class="meta">${c.author.name}, ${date}</span>
      <span class="actions">
        <button name="browse" aria-pressed=${c.oid === this.browsed ? 'true' : 'false'} aria-label=${`Files at ${short}`} @click=${() => this.pick(c, 'browse')}>Files</button>
        <button name="pick-buggy" aria-pressed=${c.oid === this.buggy ? 'true' : 'false'} aria-label=${`Buggy: ${short}`} @click=${() => this.pick(c, 'buggy')}>Buggy</button>
        <button name="pick-fixed" aria-pressed=${c.oid === this.fixed ? 'true' : 'false'} aria-label=${`Fix: ${short}`} @click=${() => this.pick(c, 'fixed')}>Fix</button>
      </span>
      ${body ? html`<details><summary>Message</summary><pre>${c.message}</pre></details>` : ''}
    </li>`;
  }

  override render() {
    return html`<div data-testid="commit-log">
      ${this.error ? html`<div class="error" role="alert">${this.error}</div>` : ''}
      <ol aria-label="History, newest first">
        ${this.commits.map((c) => this.renderCommit(c))}
      </ol>
      ${this.loading ? html`<p class="muted">Reading the history…</p>` : ''}
      ${this.more && !this.loading ? html`<button name="more-commits" @click=${() => this.loadPage()}>Older commits</button>` : ''}
      ${!this.loading && !this.more && this.commits.length ? html`<p class="muted">${this.commits.length} commits: the whole history.</p>` : ''}
    </div>`;
  }
}
customElements.define('rl-commit-log', RlCommitLog);
