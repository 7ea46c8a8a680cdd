// The prompt preview panel: asks the engine worker (worker/strategies/first-prompt.ts) for the messages a run's first cycle
// would send for the bug, the edited strategy and the chosen state, and shows them with the token estimate and the
// differences from the preset's rendering. Requests follow the edits; an answer to an older edit is dropped.
import { LitElement, html } from 'lit';
import type { PromptPreview } from '../../../../worker/contracts/editable-strategy.ts';
import { getEngine } from '../../../engine-client.ts';
import { panelStyles } from '../../shared-styles.ts';
import '../../diff-view/diff-view.ts';

/** Edits come in per keystroke: the preview asks once typing pauses this long. */
const SETTLE_MS = 250;

/**
 * @summary The prompt preview: the messages a run's first cycle would send for the bug, the edited strategy and the
 * chosen state, with the token estimate and the differences from the preset's rendering.
 *
 * Requests follow the edits; an answer to an older edit is dropped.
 */
export class RlPromptPreview extends LitElement {
  static override properties = {
    bugId: {},
    preset: {},
    overrides: { attribute: false },
    state: {},
    preview: { state: true },
    error: { state: true },
    loading: { state: true },
  };
  declare bugId: string | undefined;
  declare preset: string | undefined;
  /** the edit as overrides of the preset; undefined while the edit is invalid (nothing is asked then) */
  declare overrides: Record<string, unknown> | undefined;
  declare state: string | undefined;
  declare preview: PromptPreview | undefined;
  declare error: string | undefined;
  declare loading: boolean;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private asked = 0;

  constructor() {
    super();
    this.loading = false;
  }

  static override styles = [panelStyles];

  override updated(changed: Map<string, unknown>) {
    if (['bugId', 'preset', 'overrides', 'state'].some((k) => changed.has(k))) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.refresh(), SETTLE_MS);
    }
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  private async refresh() {
    if (!this.bugId || !this.preset || !this.overrides) return;
    const ask = ++this.asked;
    this.loading = true;
    try {
      const preview = await getEngine().previewPrompt({ bugId: this.bugId, preset: this.preset, overrides: this.overrides, ...(this.state ? { state: this.state } : {}) });
      if (ask !== this.asked) return;
      this.preview = preview;
      this.error = undefined;
    } catch (e) {
      if (ask !== this.asked) return;
      this.error = e instanceof Error ? e.message : String(e);
    } finally {
      if (ask === this.asked) this.loading = false;
    }
  }

  override render() {
    if (!this.bugId) return html`<div class="muted">Pick a bug above to preview the prompt.</div>`;
    const p = this.preview;
    return html`<div data-testid="prompt-preview" data-loading=${this.loading ? 'yes' : 'no'}>
      ${this.error ? html`<div class="error" data-testid="preview-error">${this.error}</div>` : ''}
      ${p
        ? html`<div class="muted" data-testid="preview-summary">State <b>${p.state}</b> · tools ${p.tools.join(', ') || '(none)'} ·
              <span data-testid="preview-tokens">≈${p.estimatedInputTokens} input tokens</span>
              ${p.preset ? html` (preset: ≈${p.preset.estimatedInputTokens})` : ''}</div>
            ${p.startupNotRun.length
              ? html`<div class="muted" data-testid="preview-startup">A run first executes ${p.startupNotRun.join(', ')}; its result joins the prompt then and is not shown here.</div>`
              : ''}
            ${p.messages.map((m, i) => html`<h3>${i + 1}. ${m.role}</h3><pre data-testid="preview-message" data-role=${m.role}>${m.content}</pre>`)}
            <h3>Differences from the preset's prompt</h3>
            ${!p.preset
              ? html`<div class="muted">The preset has no state ${p.state}.</div>`
              : p.differences.length
                ? p.differences.map((d) => html`<rl-diff-view data-testid="preview-diff" .diff=${d.diff}></rl-diff-view>`)
                : html`<div class="muted" data-testid="preview-same">Same as the preset's.</div>`}`
        : html`<div class="muted">${this.loading ? 'Rendering…' : 'Fix the strategy to see its prompt.'}</div>`}
    </div>`;
  }
}
customElements.define('rl-prompt-preview', RlPromptPreview);
