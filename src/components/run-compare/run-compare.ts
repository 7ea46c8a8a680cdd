import { LitElement, html } from 'lit';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import { panelStyles } from '../shared-styles.ts';
import { getEngine } from '../../engine-client.ts';
import { bugsOf, compareRows, firstPromptDifference, outcomeRows, promptDiff, type CompareCell, type CompareRow, type OutcomeRow } from './compare-rows.ts';
import '../diff-view/diff-view.ts';
import '../trajectory-viewer/long-text/long-text.ts';
import { runCompareStyles } from './run-compare.styles.ts';

/** The runs the prompt diff sets side by side (indexes into `runs`) and the step (0-based). */
interface PromptDiffChoice {
  a: number;
  b: number;
  step: number;
}

/**
 * @summary Two or more runs side by side: their outcomes and metrics, their final patches (with the developers' fix
 * once revealed), the prompt of a step in one run against the same step in another as a diff, and every step aligned
 * by index, what differs from the first run highlighted.
 *
 * The developers' fix follows the run outcome's rule: it is shown only when asked for ("Reveal the developers' fix"),
 * and the engine gives it only once a run of the bug has finished.
 *
 * @cssproperty --muted - colour of secondary text
 * @cssproperty --line - border and rule colour
 * @cssproperty --warn - colour of warnings and budget ends
 * @cssproperty --warn-soft - background of a warning
 * @cssproperty --highlight - background of a search match, a fault line, a difference
 * @cssproperty --radius-sm - corner radius of small things (pills, fields)
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlRunCompare extends LitElement {
  static override properties = {
    runs: { attribute: false },
    runIds: { attribute: false },
    loadError: { state: true },
    onlyDifferences: { state: true },
    openDiffs: { state: true },
    groundTruth: { state: true },
    revealError: { state: true },
    promptChoice: { state: true },
  };
  declare runs: Trajectory[];
  /** saved runs to compare by id (e.g. a fork and its parent): loaded from the engine into `runs` */
  declare runIds: string[] | undefined;
  declare loadError: string | undefined;
  declare onlyDifferences: boolean;
  /** "<step>:<run>" of the prompt diffs opened (diffs are computed only when opened) */
  declare openDiffs: Set<string>;
  /** the developers' fix of each bug compared, once the user asked for it */
  declare groundTruth: Map<string, string> | undefined;
  declare revealError: string | undefined;
  declare promptChoice: PromptDiffChoice;
  private rows: CompareRow[] = [];
  private outcomes: OutcomeRow[] = [];
  /** the prompt diff shown, kept while the choice is the same: a late step's prompt holds the whole conversation */
  private promptDiffCache: { key: string; diff: string } | undefined;

  constructor() {
    super();
    this.runs = [];
    this.onlyDifferences = false;
    this.openDiffs = new Set();
    this.promptChoice = { a: 0, b: 1, step: 0 };
  }

  static override styles = [panelStyles, runCompareStyles];

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('runIds') && this.runIds) void this.load(this.runIds);
    if (changed.has('runs')) {
      this.rows = compareRows(this.runs);
      this.outcomes = outcomeRows(this.runs);
      this.openDiffs = new Set();
      this.groundTruth = undefined;
      this.revealError = undefined;
      this.promptDiffCache = undefined;
      // the prompt diff opens on the first step where run 1's and run 2's prompts part
      const [a, b] = this.runs;
      this.promptChoice = { a: 0, b: 1, step: a && b ? Math.max(0, firstPromptDifference(a, b)) : 0 };
    }
  }

  private async load(ids: string[]) {
    this.loadError = undefined;
    const runs = await Promise.all(ids.map((id) => getEngine().getRun(id)));
    if (ids !== this.runIds) return;
    const missing = ids.filter((_, i) => !runs[i]);
    if (missing.length) this.loadError = `These runs are gone: ${missing.join(', ')}.`;
    else this.runs = runs as Trajectory[];
  }

  /** The developers' fix of every bug compared; the engine refuses it for a bug none of whose runs has finished. */
  private async revealGroundTruth() {
    this.revealError = undefined;
    try {
      const bugs = bugsOf(this.runs);
      const patches = await Promise.all(bugs.map((bug) => getEngine().revealGroundTruth(bug)));
      this.groundTruth = new Map(bugs.map((bug, i) => [bug, patches[i]!]));
    } catch (e) {
      this.revealError = e instanceof Error ? e.message : String(e);
    }
  }

  private toggleDiff(key: string, open: boolean) {
    const next = new Set(this.openDiffs);
    if (open) next.add(key);
    else next.delete(key);
    this.openDiffs = next;
  }

  private choose(patch: Partial<PromptDiffChoice>) {
    this.promptChoice = { ...this.promptChoice, ...patch };
  }

  private runLabel(k: number): string {
    const r = this.runs[k]!;
    return `Run ${k + 1}: ${r.config.preset}${r.config.variants.length ? ` (${r.config.variants.join(', ')})` : ''} · ${String(r.config.model.model ?? r.config.providerId)}`;
  }

  /** one label column and a column per run, the same in every table, so a run's values stand under its heading */
  private get columns(): string {
    return `6rem repeat(${this.runs.length}, minmax(0, 1fr))`;
  }

  private renderOutcomes() {
    return html`<section data-testid="compare-outcomes" aria-label="Outcomes and metrics"><h3>Outcomes and metrics</h3>
      <div class="grid">
        ${this.outcomes.map((row) => html`<div class="row" data-testid="outcome-row" data-metric=${row.id} data-differs=${row.differs ? 'true' : 'false'}
          style="grid-template-columns: ${this.columns}"><span class="idx">${row.label}</span>
          ${row.values.map((v, k) => html`<div class="cell" data-run=${k}><span class="field ${row.differs ? 'differs' : ''}">${v}</span></div>`)}</div>`)}
      </div></section>`;
  }

  private renderPatches() {
    const revealed = this.groundTruth;
    const bugs = revealed ? [...revealed.keys()] : [];
    const columns = `repeat(${this.runs.length + bugs.length}, minmax(0, 1fr))`;
    return html`<section data-testid="compare-patches" aria-label="Final patches"><h3>Final patches</h3>
      <div class="row" style="grid-template-columns: ${columns}">
        ${this.runs.map((r, k) => html`<div class="cell" data-testid="compare-patch" data-run=${k}><div class="head">${this.runLabel(k)}</div>
          ${r.outcome ? html`<rl-diff-view .diff=${r.outcome.finalPatch}></rl-diff-view>` : html`<span class="muted">(the run has not ended: no final patch)</span>`}</div>`)}
        ${bugs.map((bug) => html`<div class="cell" data-testid="compare-ground-truth" data-bug=${bug}><div class="head">The developers' fix${this.runs.some((r) => r.bug.id !== bug) ? ` (${bug})` : ''}</div>
          <rl-diff-view .diff=${revealed!.get(bug)!}></rl-diff-view></div>`)}
      </div>
      ${revealed ? '' : html`<button name="reveal-ground-truth" @click=${this.revealGroundTruth}>Reveal the developers' fix</button>
        <span class="muted">(the ground truth, beside the patches: shown only when asked for)</span>`}
      ${this.revealError ? html`<div class="error" role="alert" data-testid="reveal-error">${this.revealError}</div>` : ''}
    </section>`;
  }

  private promptDiffText(a: number, b: number, step: number): string {
    const key = `${this.runs[a]!.runId}:${this.runs[b]!.runId}:${step}`;
    if (this.promptDiffCache?.key !== key) {
      const diff = promptDiff(this.runs[a]!.steps[step], this.runs[b]!.steps[step], [`run ${a + 1} step ${step + 1}`, `run ${b + 1} step ${step + 1}`]);
      this.promptDiffCache = { key, diff };
    }
    return this.promptDiffCache.diff;
  }

  private renderPromptDiff() {
    const { a, b, step } = this.promptChoice;
    const runA = this.runs[a];
    const runB = this.runs[b];
    if (!runA || !runB) return '';
    const steps = Math.max(runA.steps.length, runB.steps.length);
    const runOptions = (chosen: number) => this.runs.map((_, k) => html`<option value=${k} ?selected=${k === chosen}>${this.runLabel(k)}</option>`);
    const missing = [runA, runB].flatMap((r, i) => (r.steps[step] ? [] : [`run ${[a, b][i]! + 1}`]));
    const diff = steps ? this.promptDiffText(a, b, step) : '';
    // createTwoFilesPatch writes only its two header lines when the texts are equal
    const same = steps > 0 && !/^@@/m.test(diff);
    return html`<section data-testid="compare-prompts" aria-label="Prompts step by step"><h3>Prompts, step by step</h3>
      <div style="display: flex; flex-wrap: wrap; gap: 0 1rem">
        <label style="flex: 1 1 14rem">Run A <select name="prompt-diff-a" @change=${(e: Event) => this.choose({ a: Number((e.target as HTMLSelectElement).value) })}>${runOptions(a)}</select></label>
        <label style="flex: 1 1 14rem">Run B <select name="prompt-diff-b" @change=${(e: Event) => this.choose({ b: Number((e.target as HTMLSelectElement).value) })}>${runOptions(b)}</select></label>
        <label style="flex: 0 0 6rem">Step <select name="prompt-diff-step" @change=${(e: Event) => this.choose({ step: Number((e.target as HTMLSelectElement).value) })}>
          ${Array.from({ length: steps }, (_, i) => html`<option value=${i} ?selected=${i === step}>${i + 1}</option>`)}</select></label>
      </div>
      <div class="muted" data-testid="prompt-diff-note">The messages sent to the model at step ${step + 1}: run ${a + 1} (−) against run ${b + 1} (+).
        ${a === b ? ' Pick two different runs.' : ''}${missing.length ? ` ${missing.join(' and ')} has no step ${step + 1}.` : same ? ' They are the same.' : ''}</div>
      ${same ? '' : html`<rl-diff-view data-testid="prompt-step-diff" .diff=${diff}></rl-diff-view>`}
    </section>`;
  }

  private renderCell(row: CompareRow, cell: CompareCell, k: number) {
    const d = new Set(cell.differs);
    const key = `${row.index}:${k}`;
    return html`<div class="cell ${cell.differs.length ? 'differs' : ''}" data-testid="compare-cell" data-run=${k} data-differs=${cell.differs.join(' ')}>
      <div><span class="field ${d.has('action') ? 'differs' : ''}" data-field="action">${cell.action}</span></div>
      ${cell.verdict ? html`<div class="field ${d.has('verdict') ? 'differs' : ''}" data-field="verdict">${cell.verdict}</div>` : ''}
      ${cell.tool ? html`<details><summary class="field ${d.has('tool') ? 'differs' : ''}" data-field="tool">Tool result</summary><rl-long-text .text=${cell.tool}></rl-long-text></details>` : ''}
      ${k > 0 && d.has('prompt')
        ? html`<details data-testid="prompt-diff" @toggle=${(e: Event) => this.toggleDiff(key, (e.target as HTMLDetailsElement).open)}>
            <summary class="field differs" data-field="prompt">Prompt differs from run 1</summary>
            ${this.openDiffs.has(key) ? html`<rl-diff-view .diff=${promptDiff(row.cells[0]!.step, cell.step, [`run 1 step ${row.index + 1}`, `run ${k + 1} step ${row.index + 1}`])}></rl-diff-view>` : ''}
          </details>`
        : ''}
    </div>`;
  }

  override render() {
    const columns = this.columns;
    const rows = this.onlyDifferences ? this.rows.filter((r) => r.cells.some((c) => c.differs.length)) : this.rows;
    return html`<div data-testid="run-compare">
      ${this.loadError ? html`<div class="error">${this.loadError}</div>` : ''}
      <div class="grid">
        <div class="row" style="grid-template-columns: ${columns}"><span></span>
          ${this.runs.map((r, k) => html`<div class="head">Run ${k + 1}: ${r.bug.id} · ${r.config.preset}${r.config.variants.length ? ` (${r.config.variants.join(', ')})` : ''} ·
            ${String(r.config.model.model ?? r.config.providerId)} · ${r.outcome?.status ?? r.status}<br /><span class="muted">${r.runId}</span>
            ${r.forkOf ? html`<br /><span class="muted" data-testid="compare-fork-of">fork of ${r.forkOf.runId} at step ${r.forkOf.step}</span>` : ''}</div>`)}
        </div>
      </div>
      ${this.runs.length ? html`${this.renderOutcomes()}${this.renderPatches()}${this.renderPromptDiff()}` : ''}
      <h3>Steps</h3>
      <label><input type="checkbox" name="only-differences" .checked=${this.onlyDifferences}
        @change=${(e: Event) => (this.onlyDifferences = (e.target as HTMLInputElement).checked)} /> Only steps that differ</label>
      <div class="grid">
        ${rows.map((row) => html`<div class="row" data-testid="compare-row" data-step=${row.index} style="grid-template-columns: ${columns}">
          <span class="idx">${row.index + 1}</span>${row.cells.map((c, k) => this.renderCell(row, c, k))}</div>`)}
      </div>
    </div>`;
  }
}
customElements.define('rl-run-compare', RlRunCompare);
