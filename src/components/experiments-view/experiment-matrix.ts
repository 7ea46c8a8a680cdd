// The live matrix: one row per bug, one column per variant and sample. A cell shows its status; a cell with a run
// opens that run's trajectory in the Runs view (event `open-run`, handled by the app shell).
import { LitElement, css, html } from 'lit';
import type { CellRecord, ExperimentRecord } from '../../../worker/contracts/experiment.ts';

export type MatrixStatus = CellRecord['status'] | 'queued';

const LABEL: Record<MatrixStatus, string> = {
  plausible: 'plausible',
  'not-plausible': 'not plausible',
  budget: 'budget',
  'infrastructure-error': 'infrastructure error',
  'not-run': 'not run',
  running: 'running',
  queued: 'queued',
};
const SYMBOL: Record<MatrixStatus, string> = { plausible: '✓', 'not-plausible': '✗', budget: '$', 'infrastructure-error': '!', 'not-run': '–', running: '…', queued: '·' };

export class RlExperimentMatrix extends LitElement {
  static override properties = { record: { attribute: false }, cells: { attribute: false } };
  declare record: ExperimentRecord;
  declare cells: CellRecord[];

  static override styles = css`
    :host { display: block; overflow-x: auto; }
    table { border-collapse: collapse; font-size: 0.8rem; }
    th, td { border: 1px solid var(--line); padding: 0.15rem 0.35rem; text-align: center; }
    th.bug { text-align: left; font-weight: 500; font-family: ui-monospace, monospace; }
    .cell { min-width: 1.6rem; border: none; background: none; font: inherit; padding: 0.1rem 0.3rem; border-radius: 4px; }
    button.cell { cursor: pointer; text-decoration: underline dotted; }
    [data-status='plausible'] { background: #dcf5e3; color: #146c2e; }
    [data-status='not-plausible'] { background: #fbe4e2; color: #9b1c1c; }
    [data-status='budget'] { background: #fdf0d5; color: #8a5300; }
    [data-status='infrastructure-error'] { background: #ece4fb; color: #5b21b6; }
    [data-status='running'] { background: #e2ecfd; color: #1e429f; }
    [data-status='not-run'], [data-status='queued'] { color: var(--muted); }
    .legend { font-size: 0.75rem; margin: 0.4rem 0; display: flex; flex-wrap: wrap; gap: 0.3rem 0.8rem; }
  `;

  private openRun(runId: string) {
    this.dispatchEvent(new CustomEvent('open-run', { detail: runId, bubbles: true, composed: true }));
  }

  override render() {
    const spec = this.record.spec as { variants: { name: string }[]; samples: number };
    const samples = Array.from({ length: spec.samples }, (_, i) => i);
    const byKey = new Map(this.cells.map((c) => [`${c.bugId} ${c.variant} ${c.sample}`, c]));
    return html`<div class="legend">${Object.entries(LABEL).map(([s, l]) => html`<span><span class="cell" data-status=${s}>${SYMBOL[s as MatrixStatus]}</span> ${l}</span>`)}</div>
      <table data-testid="experiment-matrix">
        <thead>
          <tr><th rowspan="2">bug</th>${spec.variants.map((v) => html`<th colspan=${spec.samples}>${v.name}</th>`)}</tr>
          <tr>${spec.variants.map(() => samples.map((s) => html`<th>#${s + 1}</th>`))}</tr>
        </thead>
        <tbody>
          ${this.record.bugs.map(
            (b) => html`<tr><th class="bug" scope="row">${b.id} <span class="muted">${b.category}</span></th>
              ${spec.variants.map((v) =>
                samples.map((s) => {
                  const cell = byKey.get(`${b.id} ${v.name} ${s}`);
                  const status: MatrixStatus = cell?.status ?? 'queued';
                  const title = `${b.id} · ${v.name} · sample ${s + 1}: ${LABEL[status]}${cell?.reason ? ` — ${cell.reason}` : ''}`;
                  return html`<td>${cell?.runId
                    ? html`<button class="cell" data-status=${status} data-cell=${`${b.id}|${v.name}|${s}`} title=${title} aria-label=${`${title}; open the run`}
                        @click=${() => this.openRun(cell.runId!)}>${SYMBOL[status]}</button>`
                    : html`<span class="cell" data-status=${status} data-cell=${`${b.id}|${v.name}|${s}`} title=${title} aria-label=${title}>${SYMBOL[status]}</span>`}</td>`;
                }),
              )}</tr>`,
          )}
        </tbody>
      </table>`;
  }
}
customElements.define('rl-experiment-matrix', RlExperimentMatrix);
