import { LitElement, html } from 'lit';
import type { BugFileBlame } from '../../../../worker/bugs/bug-history.ts';
import { panelStyles } from '../../shared-styles.ts';
import { blamePage, pageOfLine, startsRun } from '../blame-pages.ts';
import { blameViewStyles } from './blame-view.styles.ts';

export interface OpenCommitDetail {
  oid: string;
  /** the file's path in that commit (blame follows renames) */
  path: string;
}

/**
 * @summary A blamed file, one page at a time: per line the commit (short id), date and author, the line number and the code.
 *
 * The first line of each run of lines from one commit carries a button (one Tab stop per run, not per line).
 *
 * @fires open-commit - {OpenCommitDetail} a gutter entry was clicked (or its button pressed): the commit's oid and the file's path in it (bubbles, composed)
 *
 * @cssproperty --panel-2 - a quieter surface: table headers, hovered rows, gutters
 * @cssproperty --ink - text colour
 * @cssproperty --muted - colour of secondary text
 * @cssproperty --line - border and rule colour
 * @cssproperty --code-bg - background of code
 * @cssproperty --accent-soft - background of the selected or current item
 * @cssproperty --highlight - background of a search match, a fault line, a difference
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
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

  static override styles = [panelStyles, blameViewStyles];

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
