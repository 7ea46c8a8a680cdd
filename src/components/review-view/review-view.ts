import { LitElement, html, nothing } from 'lit';
import type { ExperimentListing } from '../../../worker/experiments/experiments-api.ts';
import type { ReviewQueue } from '../../../worker/experiments/review-queue.ts';
import type { Agreement } from '../../../worker/experiments/label-agreement.ts';
import type { LabelValue } from '../../../worker/contracts/patch-labels.ts';
import { getEngine } from '../../engine-client.ts';
import { panelStyles, tableStyles } from '../shared-styles.ts';
import '../diff-view/diff-view.ts';
import { reviewViewStyles } from './review-view.styles.ts';
import { evidenceRows } from './evidence-rows.ts';

const KEYS: Record<string, LabelValue> = { c: 'correct', o: 'overfitting', u: 'unsure' };
const RATER_KEY = 'repairlab.rater.v1';

/**
 * @summary The review queue: an experiment's plausible patches no exact or AST match decides, labelled by named raters.
 *
 * One item per (bug, normalised patch), every run ending with it listed; the candidate beside the developers' fix, the
 * fault lines, the tests the patch passed, and the stored evidence of `repairlab review evidence` (later revisions of the
 * bug's test classes run on the candidate and the fix), read-only and titled "Evidence (not a label)". Keyboard, with focus on the item: c correct, o overfitting, u unsure (the
 * note field's text goes with the label), j/k next and previous. Below: the agreement between raters and the
 * disagreements, each with a resolution (docs/formats/labels.md).
 *
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --focus - the keyboard focus ring
 * @cssproperty --ok - colour of passes
 * @cssproperty --bad - colour of failures and errors
 * @cssproperty --warn - colour of warnings
 */
export class RlReviewView extends LitElement {
  static override properties = {
    experiments: { state: true },
    experimentId: { state: true },
    rater: { state: true },
    queue: { state: true },
    agreement: { state: true },
    index: { state: true },
    note: { state: true },
    error: { state: true },
  };
  declare experiments: ExperimentListing[];
  declare experimentId: string;
  declare rater: string;
  declare queue: ReviewQueue | undefined;
  declare agreement: Agreement | undefined;
  declare index: number;
  declare note: string;
  declare error: string | undefined;

  static override styles = [panelStyles, tableStyles, reviewViewStyles];

  constructor() {
    super();
    this.experiments = [];
    this.experimentId = '';
    this.rater = localStorage.getItem(RATER_KEY) ?? '';
    this.index = 0;
    this.note = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void getEngine()
      .listExperiments()
      .then((list) => {
        this.experiments = list;
        if (!this.experimentId && list[0]) this.experimentId = list[0].record.id;
      })
      .catch((e: unknown) => (this.error = (e as Error).message));
  }

  /** `fresh`: a newly picked queue starts at its first item; a refresh after a label keeps the place */
  private async load(fresh = false): Promise<void> {
    this.error = undefined;
    if (fresh) this.index = 0;
    try {
      const target = { experimentId: this.experimentId };
      const [queue, agreement] = await Promise.all([getEngine().reviewQueue(target), getEngine().labelAgreement(target)]);
      this.queue = queue;
      this.agreement = agreement;
      this.index = Math.min(this.index, Math.max(0, queue.items.length - 1));
    } catch (e) {
      this.error = (e as Error).message;
    }
  }

  private async label(value: LabelValue): Promise<void> {
    const item = this.queue?.items[this.index];
    if (!item) return;
    if (!this.rater.trim()) {
      this.error = 'Name the rater first (letters, digits and _ @ + -).';
      return;
    }
    try {
      await getEngine().labelPatch({ bugId: item.bugId, patchKey: item.patchKey, rater: this.rater.trim(), label: value, ...(this.note.trim() ? { note: this.note.trim() } : {}) });
      localStorage.setItem(RATER_KEY, this.rater.trim());
      this.note = '';
      this.index = Math.min(this.index + 1, this.queue!.items.length - 1);
      await this.load();
      this.renderRoot.querySelector<HTMLElement>('.item')?.focus();
    } catch (e) {
      this.error = (e as Error).message;
    }
  }

  private async resolve(bugId: string, patchKey: string, label: LabelValue): Promise<void> {
    if (!this.rater.trim()) {
      this.error = 'Name who resolves it first (the rater field).';
      return;
    }
    try {
      await getEngine().resolvePatchLabel({ bugId, patchKey, label, by: this.rater.trim() });
      await this.load();
    } catch (e) {
      this.error = (e as Error).message;
    }
  }

  private onKey(e: KeyboardEvent): void {
    if ((e.target as HTMLElement).closest('input, textarea, select')) return;
    const value = KEYS[e.key];
    if (value) {
      e.preventDefault();
      void this.label(value);
    } else if (e.key === 'j' || e.key === 'k') {
      e.preventDefault();
      const n = this.queue?.items.length ?? 0;
      this.index = Math.max(0, Math.min(n - 1, this.index + (e.key === 'j' ? 1 : -1)));
    }
  }

  override render() {
    return html`<section class="panel">
      <h2>Review</h2>
      <div class="pick">
        <label>Experiment
          <select data-testid="review-experiment" @change=${(e: Event) => (this.experimentId = (e.target as HTMLSelectElement).value)}>
            ${this.experiments.map((x) => html`<option value=${x.record.id} ?selected=${x.record.id === this.experimentId}>${x.record.spec && (x.record.spec as { name?: string }).name ? `${(x.record.spec as { name?: string }).name} (${x.record.id})` : x.record.id}</option>`)}
          </select>
        </label>
        <label>Rater <input data-testid="review-rater" .value=${this.rater} @input=${(e: Event) => (this.rater = (e.target as HTMLInputElement).value)} placeholder="your name" /></label>
        <button class="primary" data-testid="review-load" ?disabled=${!this.experimentId} @click=${() => this.load(true)}>Load queue</button>
      </div>
      ${this.error ? html`<p class="error" role="alert" data-testid="review-error">${this.error}</p>` : nothing}
      ${this.queue ? this.renderQueue(this.queue) : html`<p class="muted">Pick an experiment and load its queue.</p>`}
      ${this.agreement ? this.renderAgreement(this.agreement) : nothing}
    </section>`;
  }

  private renderQueue(q: ReviewQueue) {
    const item = q.items[this.index];
    const head = html`<p data-testid="review-summary">${q.items.length} patch${q.items.length === 1 ? '' : 'es'} to review, ${q.unlabelled} without a label the metrics count; ${q.decidedRuns} plausible run${q.decidedRuns === 1 ? '' : 's'} decided by exact or AST match.</p>`;
    if (!item) return head;
    const mine = item.raterLabels.find((l) => l.rater === this.rater.trim());
    return html`${head}
      <div class="item" tabindex="0" data-testid="review-item" data-patch=${item.patchKey} @keydown=${(e: KeyboardEvent) => this.onKey(e)}>
        <h3>${this.index + 1} / ${q.items.length} · ${item.bugId} · patch <code>${item.patchKey}</code></h3>
        <p class="muted">${item.runs.length} run${item.runs.length === 1 ? '' : 's'}: ${item.runs.map((r) => (r.variant ? `${r.variant} #${(r.sample ?? 0) + 1}` : r.runId)).join(', ')} · ${item.why}</p>
        <p>Fault lines: ${item.faultLines.map((f) => `${f.file}:${f.lines.join(',')} (${f.kind}${f.method ? `, ${f.method}` : ''})`).join('; ') || '—'}</p>
        <p>Passing tests: ${item.passingTests.join(', ') || '—'}</p>
        <div class="sides">
          <div><h4>Candidate patch</h4><rl-diff-view .diff=${item.patch}></rl-diff-view></div>
          <div><h4>Developers' fix</h4><rl-diff-view .diff=${item.developerPatch}></rl-diff-view></div>
        </div>
        ${this.renderEvidence(item)}
        <p data-testid="review-labels">Labels: ${item.raterLabels.map((l) => html`<span class=${`label-${l.label}`}>${l.rater}: ${l.label}${l.note ? ` (${l.note})` : ''}</span> `)}${item.raterLabels.length ? nothing : 'none'}${item.label ? html` · counted: <b>${item.label}</b>` : nothing}${mine ? html` · yours: ${mine.label}` : nothing}</p>
        <label>Note <input data-testid="review-note" .value=${this.note} @input=${(e: Event) => (this.note = (e.target as HTMLInputElement).value)} placeholder="why (optional)" /></label>
        <div class="keys">
          <button data-testid="label-correct" @click=${() => this.label('correct')}>Correct <kbd>c</kbd></button>
          <button data-testid="label-overfitting" @click=${() => this.label('overfitting')}>Overfitting <kbd>o</kbd></button>
          <button data-testid="label-unsure" @click=${() => this.label('unsure')}>Unsure <kbd>u</kbd></button>
          <button @click=${() => (this.index = Math.max(0, this.index - 1))}>Previous <kbd>k</kbd></button>
          <button @click=${() => (this.index = Math.min(q.items.length - 1, this.index + 1))}>Next <kbd>j</kbd></button>
        </div>
      </div>`;
  }

  private renderEvidence(item: ReviewQueue['items'][number]) {
    const rows = evidenceRows(item.evidence);
    return html`<section class="evidence" data-testid="review-evidence" aria-label="Evidence (not a label)">
      <h4>Evidence (not a label)</h4>
      ${rows.length
        ? html`<p class="muted">Later revisions of the bug's test classes from its history, run on the candidate and on the developers' fix. They help you judge; they label nothing.</p>
            <table><thead><tr><th>later tests</th><th>commit</th><th>result</th><th>tests the fix passes and the candidate does not</th></tr></thead><tbody>
              ${rows.map((r) => html`<tr data-kind=${r.kind} data-commit=${r.commit}><td><code>${r.where}</code></td><td>${r.subject}${r.afterFix ? nothing : html` <span class="muted">(a branch beside the fix)</span>`}</td>
                <td class=${`evidence-${r.kind}`}>${r.summary}</td><td>${r.details.length ? r.details.map((d) => html`<div><code>${d}</code></div>`) : '—'}</td></tr>`)}
            </tbody></table>`
        : html`<p class="muted">None stored: <code>repairlab review evidence &lt;experiment&gt;</code> runs later revisions of the bug's test classes on this patch and the fix.</p>`}
    </section>`;
  }

  private renderAgreement(a: Agreement) {
    const k = a.kappa;
    return html`<h3>Agreement</h3>
      <p data-testid="review-kappa" data-kappa=${k?.kappa ?? ''}>${a.method && k?.kappa !== null && k?.kappa !== undefined
        ? `${a.method === 'cohen' ? "Cohen's" : "Fleiss'"} κ = ${k.kappa.toFixed(4)} over ${k.items} patches (${a.raters.join(', ')})`
        : `κ: ${k?.note ?? a.note ?? '—'}`}</p>
      ${a.disagreements.length
        ? html`<table data-testid="review-disagreements"><thead><tr><th>bug</th><th>patch</th>${a.raters.map((r) => html`<th>${r}</th>`)}<th>resolved</th><th>resolve as</th></tr></thead><tbody>
            ${a.disagreements.map((d) => html`<tr data-patch=${d.patchKey}><td>${d.bugId}</td><td><code>${d.patchKey}</code></td>${a.raters.map((r) => html`<td>${d.labels[r] ?? '—'}</td>`)}<td>${d.resolved ?? '—'}</td>
              <td>${(['correct', 'overfitting', 'unsure'] as const).map((v) => html`<button data-testid=${`resolve-${v}`} @click=${() => this.resolve(d.bugId, d.patchKey, v)}>${v}</button> `)}</td></tr>`)}
          </tbody></table>`
        : html`<p class="muted">No disagreements.</p>`}`;
  }
}
customElements.define('rl-review-view', RlReviewView);
