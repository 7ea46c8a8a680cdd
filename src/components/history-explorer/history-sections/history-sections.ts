import { LitElement, html } from 'lit';
import type { HistorySectionView } from '../../../../worker/bugs/bug-history.ts';
import type { HistoryHeuristic } from '../../../../worker/history/heuristics.ts';
import { getEngine } from '../../../engine-client.ts';
import { panelStyles } from '../../shared-styles.ts';
import { historySectionsStyles } from './history-sections.styles.ts';

const SECTIONS: { heuristic: HistoryHeuristic; title: string }[] = [
  { heuristic: 'fn_all', title: 'fn_all — every function declared in the files the blame commit changed' },
  { heuristic: 'fn_pair', title: 'fn_pair — the enclosing function before and after the blame commit' },
  { heuristic: 'fl_diff', title: "fl_diff — the blame commit's diff of the blamed file" },
];

type Loaded = { view?: HistorySectionView; error?: string };

/**
 * @summary HAFixAgent's three history sections, each in its own collapsible panel, computed in the worker when first
 * opened by the code a run's prompt uses; shown verbatim, as the model reads them.
 *
 * @cssproperty --muted - colour of secondary text
 * @cssproperty --line - border and rule colour
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --text-md - type size md (14 px)
 */
export class RlHistorySections extends LitElement {
  static override properties = {
    bugId: {},
    variants: { attribute: false },
    loaded: { state: true },
  };
  declare bugId: string;
  /** HAFixAgent variants the sections follow ([] = the paper's mode, ['code'] = the released code's one blamed line) */
  declare variants: string[];
  declare loaded: Partial<Record<HistoryHeuristic, Loaded>>;
  private readonly open = new Set<HistoryHeuristic>();
  private generation = 0;

  static override styles = [panelStyles, historySectionsStyles];

  constructor() {
    super();
    this.bugId = '';
    this.variants = [];
    this.loaded = {};
  }

  override willUpdate(changed: Map<string, unknown>) {
    // another bug or mode: forget the sections and reload the panels still open
    if (changed.has('bugId') || changed.has('variants')) {
      this.generation++;
      this.loaded = {};
      for (const h of this.open) void this.load(h);
    }
  }

  private async load(heuristic: HistoryHeuristic) {
    if (this.loaded[heuristic] || !this.bugId) return;
    const generation = this.generation;
    this.loaded = { ...this.loaded, [heuristic]: {} };
    let result: Loaded;
    try {
      result = { view: await getEngine().historySection(this.bugId, heuristic, this.variants) };
    } catch (e) {
      result = { error: e instanceof Error ? e.message : String(e) };
    }
    if (generation === this.generation) this.loaded = { ...this.loaded, [heuristic]: result };
  }

  private toggled(heuristic: HistoryHeuristic, e: Event) {
    if ((e.currentTarget as HTMLDetailsElement).open) {
      this.open.add(heuristic);
      void this.load(heuristic);
    } else this.open.delete(heuristic);
  }

  private body(l: Loaded | undefined) {
    if (!l || (!l.view && !l.error)) return html`<div class="muted" role="status">Computing…</div>`;
    if (l.error) return html`<div class="error" role="alert">${l.error}</div>`;
    const v = l.view!;
    if (!v.text) return html`<div class="muted" data-testid="history-section-empty">No section: ${v.emptyReason ?? 'nothing to blame'}. The prompt gets none.</div>`;
    return html`<pre data-testid="history-section-text">${v.text}</pre>`;
  }

  override render() {
    return SECTIONS.map(
      ({ heuristic, title }) => html`<details data-heuristic=${heuristic} data-testid=${`history-section-${heuristic}`} @toggle=${(e: Event) => this.toggled(heuristic, e)}>
        <summary>${title}</summary>
        ${this.body(this.loaded[heuristic])}
      </details>`,
    );
  }
}
customElements.define('rl-history-sections', RlHistorySections);
