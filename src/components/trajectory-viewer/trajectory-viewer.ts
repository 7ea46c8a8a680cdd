import { LitElement, html } from 'lit';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import { getEngine } from '../../engine-client.ts';
import { panelStyles } from '../shared-styles.ts';
import { firstFailingValidation, matchingSteps, nextMatch, stepAction, verdictKind, VERDICT_LABEL } from './step-summary.ts';
import '../step-card/step-card.ts';
import '../diff-view/diff-view.ts';
import '../fork-panel/fork-panel.ts';
import { trajectoryViewerStyles } from './trajectory-viewer.styles.ts';

/**
 * @summary An opened run: a step navigator (action and verdict per step) beside the open step, stepped through by keyboard.
 *
 * j/k or ↓/↑ next/previous, Enter or space to collapse/expand the step, f the first failing validation, / to search,
 * n/N the next/previous match. Only the open step's texts are on the page, so a run of hundreds of steps stays fast.
 * "Fork from here" opens `rl-fork-panel`, whose `fork-finished` bubbles through.
 *
 * @cssproperty --panel - surface of panels, cards, tables and fields
 * @cssproperty --panel-2 - a quieter surface: table headers, hovered rows, gutters
 * @cssproperty --muted - colour of secondary text
 * @cssproperty --line - border and rule colour
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --accent-soft - background of the selected or current item
 * @cssproperty --ok - colour of passes
 * @cssproperty --warn - colour of warnings and budget ends
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlTrajectoryViewer extends LitElement {
  static override properties = {
    trajectory: { attribute: false },
    current: { state: true },
    expanded: { state: true },
    query: { state: true },
    groundTruth: { state: true },
    note: { state: true },
    forkAt: { state: true },
  };
  /** the step (1-based) "Fork from here" was pressed on: the fork panel is open for it */
  declare forkAt: number | undefined;
  declare trajectory: Trajectory;
  declare current: number;
  declare expanded: boolean;
  declare query: string;
  declare groundTruth: string | undefined;
  /** a one-line answer to the last key (no failing validation, no match) */
  declare note: string;
  private matchIndexes: number[] = [];

  constructor() {
    super();
    this.current = 0;
    this.expanded = true;
    this.query = '';
    this.note = '';
  }

  static override styles = [panelStyles, trajectoryViewerStyles];

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('trajectory')) {
      this.current = 0;
      this.groundTruth = undefined;
      this.note = '';
      this.forkAt = undefined;
    }
    if (changed.has('trajectory') || changed.has('query')) this.matchIndexes = matchingSteps(this.trajectory.steps, this.query);
  }

  /** Puts keyboard focus on the open step's navigator entry (for a run just opened from a list). */
  focusStep() {
    this.go(this.current);
  }

  /** Opens step i and keeps keyboard focus on its navigator entry. */
  private go(i: number) {
    const n = this.trajectory.steps.length;
    if (n === 0) return;
    this.current = Math.max(0, Math.min(n - 1, i));
    this.note = '';
    void this.updateComplete.then(() => {
      const item = this.renderRoot.querySelector<HTMLElement>(`li[data-index="${this.current}"]`);
      item?.focus();
      item?.scrollIntoView({ block: 'nearest' });
    });
  }

  private jumpToMatch(dir: 1 | -1) {
    const i = nextMatch(this.matchIndexes, this.current, dir);
    if (i < 0) this.note = this.query.trim() ? `No step contains “${this.query}”.` : 'Type a search first (/).';
    else this.go(i);
  }

  private onKey = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const inField = e.composedPath().some((t) => t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement);
    if (inField) {
      if (e.key === 'Enter' || e.key === 'Escape') {
        e.preventDefault();
        if (e.key === 'Enter') this.jumpToMatch(1);
        else this.go(this.current);
      }
      return;
    }
    // a button or summary inside the open step keeps its own Enter/space
    const onControl = e.composedPath()[0] instanceof HTMLElement && (e.composedPath()[0] as HTMLElement).matches('button, summary, a');
    const keys: Record<string, () => void> = {
      j: () => this.go(this.current + 1),
      ArrowDown: () => this.go(this.current + 1),
      k: () => this.go(this.current - 1),
      ArrowUp: () => this.go(this.current - 1),
      Home: () => this.go(0),
      End: () => this.go(this.trajectory.steps.length - 1),
      f: () => {
        const i = firstFailingValidation(this.trajectory.steps);
        if (i < 0) this.note = 'No validation failed in this run.';
        else this.go(i);
      },
      n: () => this.jumpToMatch(1),
      N: () => this.jumpToMatch(-1),
      '/': () => this.renderRoot.querySelector<HTMLInputElement>('input[name="search"]')?.focus(),
      ...(onControl ? {} : { Enter: () => (this.expanded = !this.expanded), ' ': () => (this.expanded = !this.expanded) }),
    };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  };

  private async reveal() {
    try {
      this.groundTruth = await getEngine().revealGroundTruth(this.trajectory.bug.id);
    } catch (e) {
      this.note = e instanceof Error ? e.message : String(e);
    }
  }

  private renderNavigator() {
    const matches = new Set(this.matchIndexes);
    return html`<ol role="listbox" aria-label="steps" data-testid="step-nav">
      ${this.trajectory.steps.map((s, i) => {
        const k = verdictKind(s);
        return html`<li role="option" data-index=${i} tabindex=${i === this.current ? 0 : -1} aria-selected=${i === this.current ? 'true' : 'false'}
          aria-current=${i === this.current ? 'step' : 'false'} class=${matches.has(i) ? 'match' : ''} @click=${() => this.go(i)}>
          <span class="n">${i + 1}</span><span>${stepAction(s)}</span>
          ${k === 'none' ? '' : html`<span class="v ${k === 'pass' ? 'ok' : k === 'partial' ? 'muted' : 'bad'}" data-verdict=${k}>${VERDICT_LABEL[k]}</span>`}</li>`;
      })}
    </ol>`;
  }

  override render() {
    const t = this.trajectory;
    const step = t.steps[this.current];
    const canReveal = !t.imported && t.status === 'finished';
    return html`<div @keydown=${this.onKey} data-testid="trajectory-viewer">
      <div class="bar">
        <input type="search" name="search" aria-label="search within this run" placeholder="Search this run (/)" .value=${this.query}
          @input=${(e: Event) => (this.query = (e.target as HTMLInputElement).value)} />
        <span class="muted" data-testid="match-count">${this.query.trim() ? `${this.matchIndexes.length} step${this.matchIndexes.length === 1 ? '' : 's'} match` : ''}</span>
        <button name="first-failing" @click=${() => this.onKey(new KeyboardEvent('keydown', { key: 'f' }))}>First failing validation</button>
        ${canReveal && this.groundTruth === undefined ? html`<button name="reveal-ground-truth" @click=${this.reveal}>Reveal the ground-truth fix</button>` : ''}
        ${!t.imported && step?.response ? html`<button name="fork-from-here" @click=${() => (this.forkAt = this.current + 1)}>Fork from here (step ${this.current + 1})</button>` : ''}
        <span class="muted keys">Keys: j/k or ↓/↑ step · Enter/space collapse · f first failing · / search · n/N next/previous match</span>
      </div>
      ${this.note ? html`<div class="muted" role="status" data-testid="viewer-note">${this.note}</div>` : ''}
      ${this.forkAt ? html`<rl-fork-panel .parent=${t} .step=${this.forkAt}></rl-fork-panel>` : ''}
      ${t.steps.length === 0 ? html`<p class="muted">This run has no steps.</p>` : html`<div class="layout ${this.groundTruth !== undefined ? 'truth' : ''}">
        ${this.renderNavigator()}
        <section data-testid="open-step" data-step=${this.current}>
          ${this.expanded && step
            ? html`<rl-step-card .step=${step} .highlight=${this.query}></rl-step-card>`
            : html`<div class="collapsed muted" data-testid="step-collapsed">Step ${this.current + 1} · ${step ? stepAction(step) : ''} (collapsed: Enter or space opens it)</div>`}
        </section>
        ${this.groundTruth !== undefined ? html`<aside data-testid="ground-truth-side"><h3>Ground-truth fix (the developers')</h3><rl-diff-view data-testid="ground-truth" .diff=${this.groundTruth}></rl-diff-view></aside>` : ''}
      </div>`}
    </div>`;
  }
}
customElements.define('rl-trajectory-viewer', RlTrajectoryViewer);
