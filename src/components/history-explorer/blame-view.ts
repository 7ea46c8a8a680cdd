import { LitElement, css, html } from 'lit';
import type { BugFileBlame } from '../../../worker/api/history-explorer.ts';
import { panelStyles } from '../shared-styles.ts';
import { blamePage, pageOfLine, startsRun } from './blame-pages.ts';

export interface OpenCommitDetail {
  oid: string;
  /** the file's path in that commit (blame follows renames) */
  path: string;
}

/**
 * A blamed file, one page at a time: per line the commit (short id), date and author, the line number and the code.
 * The first line of each run of lines from one commit carries a button (one Tab stop per run, not per line); a
 * click on any gutter entry, or Enter on the button, fires `open-commit`.
 */
export class RlBlameView extends LitElement {
  static override properties = {
    blame: { attribute: false },
    selected: {},
    page: { state: true },
  };
  declare blame: BugFileBlame | undefined;
  /** the commit whose details are open (its lines are marked) */
  declare selected: string | undefined;
  declare page: number;

  static override styles = [
    panelStyles,
    css`
      .pager { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0.3rem 0; font-size: 0.85rem; }
      /* the code scrolls inside this box (both ways): the page itself never scrolls sideways */
      .blame { overflow: auto; max-height: 34rem; border: 1px solid var(--line); border-radius: 6px; background: var(--code-bg); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.78rem; }
      .row { display: flex; width: max-content; min-width: 100%; line-height: 1.45; }
      .row.fault { background: #fff1c2; }
      .row.selected .gutter { background: #dbe6ff; }
      .gutter { position: sticky; left: 0; flex: 0 0 16rem; box-sizing: border-box; overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
        padding: 0 0.4rem; background: #ecebe7; border: 0; border-right: 1px solid var(--line); border-radius: 0; font: inherit; text-align: left; color: var(--muted); cursor: pointer; }
      button.gutter { color: #24365f; }
      .gutter.first-of-run { border-top: 1px solid #d6d5d0; }
      .no { flex: 0 0 3.2rem; text-align: right; padding-right: 0.6rem; color: var(--muted); user-select: none; }
      .code { white-space: pre; padding-right: 0.6rem; }
    `,
  ];

  constructor() {
    super();
    this.page = 0;
  }

  override willUpdate(changed: Map<string, unknown>) {
    // a new file opens at its first fault-localized line
    if (changed.has('blame')) this.page = pageOfLine(this.blame?.faultLines[0]);
  }

  private open(oid: string, path: string) {
    this.dispatchEvent(new CustomEvent<OpenCommitDetail>('open-commit', { detail: { oid, path }, bubbles: true, composed: true }));
  }

  private turn(index: number) {
    this.page = index;
    void this.updateComplete.then(() => this.renderRoot.querySelector('.blame')?.scrollTo({ top: 0 }));
  }

  override render() {
    const b = this.blame;
    if (!b) return html``;
    const p = blamePage(b.lines.length, this.page);
    const commits = b.lines.map((l) => l.commit);
    const faults = new Set(b.faultLines);
    const rows = b.lines.slice(p.first - 1, p.last);
    return html`${p.count > 1
        ? html`<div class="pager" data-testid="blame-pager">
            <button ?disabled=${p.index === 0} @click=${() => this.turn(p.index - 1)}>Previous lines</button>
            <span aria-live="polite">Lines ${p.first}–${p.last} of ${b.lines.length}</span>
            <button ?disabled=${p.index === p.count - 1} @click=${() => this.turn(p.index + 1)}>Next lines</button>
          </div>`
        : ''}
      <div class="blame" data-testid="blame" aria-label=${`Blame of ${b.file}`} tabindex="0">
        ${rows.map((l, k) => {
          const c = b.commits[l.commit];
          // date before author, as a narrow gutter cuts the end of the label
          const label = `${l.commit.slice(0, 8)} ${c?.date.slice(0, 10) ?? ''} ${c?.author ?? ''}`;
          const first = startsRun(commits, p.first - 1 + k, p.first - 1);
          const gutter = first
            ? html`<button class="gutter first-of-run" data-testid="blame-commit" title=${`${c?.summary ?? ''} — open this commit`}
                aria-label=${`Commit ${l.commit.slice(0, 8)} by ${c?.author ?? 'unknown'}, ${c?.date ?? ''}: ${c?.summary ?? ''}. Open its message and diff`}
                @click=${() => this.open(l.commit, l.path)}>${label}</button>`
            : html`<span class="gutter" aria-hidden="true" @click=${() => this.open(l.commit, l.path)}>${label}</span>`;
          return html`<div class="row ${faults.has(l.line) ? 'fault' : ''} ${l.commit === this.selected ? 'selected' : ''}" data-line=${l.line} data-commit=${l.commit}>
            ${gutter}<span class="no">${l.line}</span><span class="code">${l.text}</span>
          </div>`;
        })}
      </div>`;
  }
}
customElements.define('rl-blame-view', RlBlameView);
