import { LitElement, html } from 'lit';
import type { DemoRecording } from '../../../state/settings.ts';
import { panelStyles } from '../../shared-styles.ts';
import type { PresetChoice, RunFormFields } from '../run-choices.ts';
import { renderSavedVariantPicker } from './saved-variant-picker.ts';
import { runFormStyles } from './run-form.styles.ts';

/**
 * @summary The run form: the agent preset, its named variants, a saved strategy variant, overrides (JSON) and Run agent.
 *
 * A controlled element: it shows the fields it is given (`preset`, `variants`, `overridesText`, as the run would use
 * them) and reports each edit; the run view holds them, so the share bar reads and sets them in one place.
 *
 * @fires choices-change - {Partial<RunFormFields>} the fields an edit changed (a saved variant sets preset and overrides)
 * @fires run-requested - {null} Run agent was clicked
 *
 * @slot controls - further controls in the row after Run agent (the run view's Pause, Step, Resume, Stop, Presenter layout)
 */
export class RlRunForm extends LitElement {
  static override properties = {
    bugId: {},
    presets: { attribute: false },
    demo: { attribute: false },
    running: { type: Boolean },
    preset: {},
    variants: { attribute: false },
    overridesText: {},
  };
  declare bugId: string | undefined;
  declare presets: PresetChoice[];
  /** the demo recording of this bug the model settings point at, if any (it fixes preset and overrides) */
  declare demo: DemoRecording | undefined;
  /** a run is going on: Run agent waits */
  declare running: boolean;
  declare preset: string;
  declare variants: string[];
  declare overridesText: string;

  constructor() {
    super();
    this.presets = [];
    this.running = false;
    this.preset = '';
    this.variants = [];
    this.overridesText = '';
  }

  static override styles = [panelStyles, runFormStyles];

  private change(fields: Partial<RunFormFields>) {
    this.dispatchEvent(new CustomEvent<Partial<RunFormFields>>('choices-change', { detail: fields }));
  }

  private toggleVariant(id: string, on: boolean) {
    this.change({ variants: on ? [...this.variants, id] : this.variants.filter((v) => v !== id) });
  }

  private renderChoices() {
    const preset = this.presets.find((p) => p.id === this.preset);
    const demo = this.demo;
    return html`<div class="choices">
      ${demo ? html`<div class="muted" data-testid="demo-note">The model is a demo recording of <b>${demo.preset}</b> on this bug: it replays only with that preset${Object.keys(demo.overrides).length ? ' and the overrides below' : ''}.</div>` : ''}
      ${renderSavedVariantPicker((v) => this.change(v ? { preset: v.preset, overridesText: JSON.stringify(v.overrides) } : { overridesText: '' }))}
      ${preset?.variants?.length
        ? html`<div data-testid="variants"><span class="muted">Variants:</span>
            ${preset.variants.map((v) => html`<label title=${v.description ?? ''}><input type="checkbox" name="variant" value=${v.id}
              .checked=${this.variants.includes(v.id)} @change=${(e: Event) => this.toggleVariant(v.id, (e.target as HTMLInputElement).checked)} />${v.id}</label>`)}</div>`
        : ''}
      <label>Overrides (JSON, merged over the preset)
        <textarea name="overrides" placeholder='{"budgets": {"maxSteps": 10}}' .value=${this.overridesText}
          @change=${(e: Event) => this.change({ overridesText: (e.target as HTMLTextAreaElement).value })}></textarea></label>
    </div>`;
  }

  override render() {
    return html`<div class="controls">
        <select name="preset" aria-label="agent preset" @change=${(e: Event) => this.change({ preset: (e.target as HTMLSelectElement).value })}>
          ${this.presets.map((p) => html`<option value=${p.id} ?selected=${p.id === this.preset}>${p.title}</option>`)}
        </select>
        <button class="primary" name="run" ?disabled=${!this.bugId || this.running}
          @click=${() => this.dispatchEvent(new CustomEvent('run-requested'))}>Run agent</button>
        <slot name="controls"></slot>
      </div>
      ${this.renderChoices()}`;
  }
}
customElements.define('rl-run-form', RlRunForm);
