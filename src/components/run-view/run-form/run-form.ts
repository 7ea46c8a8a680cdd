import { LitElement, html } from 'lit';
import type { DemoRecording } from '../../../state/settings.ts';
import type { DemoOffer } from '../../../state/demo-recordings.ts';
import { panelStyles } from '../../shared-styles.ts';
import type { PresetChoice, RunFormFields } from '../run-choices.ts';
import { renderSavedVariantPicker } from './saved-variant-picker.ts';
import { runFormStyles } from './run-form.styles.ts';

/**
 * @summary The run form: the agent preset, its named variants, a saved strategy variant, overrides (JSON) and Run agent.
 *
 * A controlled element: it shows the fields it is given (`preset`, `variants`, `overridesText`, as the run would use
 * them) and reports each edit; the run view holds them, so the share bar reads and sets them in one place. With a
 * demo recording as the model and none that fits, Run agent waits: `blocked` says why, and `offers` are this bug's
 * recordings, one click each.
 *
 * @fires choices-change - {Partial<RunFormFields>} the fields an edit changed (a saved variant sets preset and overrides; a recording offered sets preset, variants, overrides and the recording)
 * @fires run-requested - {null} Run agent was clicked
 *
 * @slot controls - further controls in the row after Run agent (the run view's Pause, Step, Resume, Stop, Presenter layout)
 *
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlRunForm extends LitElement {
  static override properties = {
    bugId: {},
    presets: { attribute: false },
    demo: { attribute: false },
    blocked: {},
    offers: { attribute: false },
    running: { type: Boolean },
    preset: {},
    variants: { attribute: false },
    overridesText: {},
  };
  declare bugId: string | undefined;
  declare presets: PresetChoice[];
  /** the demo recording that serves the run in view, if the model is one (it fixes preset and overrides) */
  declare demo: DemoRecording | undefined;
  /** why no demo recording can serve the run in view: Run agent waits, and says this */
  declare blocked: string | undefined;
  /** this bug's demo recordings, offered with one click while `blocked` */
  declare offers: DemoOffer[];
  /** a run is going on: Run agent waits */
  declare running: boolean;
  declare preset: string;
  declare variants: string[];
  declare overridesText: string;

  constructor() {
    super();
    this.presets = [];
    this.offers = [];
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
      ${demo
        ? html`<div class="muted" data-testid="demo-note">The model is a demo recording of <b>${demo.preset}</b> on this bug: it replays only with that preset${Object.keys(demo.overrides).length ? ' and the overrides below' : ''}, no variants.
            Picking another preset switches to this bug's recording of it, if there is one.</div>`
        : ''}
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

  /** Why Run agent waits, and this bug's recordings as one-click choices (each sets the run it replays). */
  private renderBlocked() {
    if (!this.blocked) return '';
    return html`<div class="error" role="status" data-testid="run-blocked">${this.blocked}
      ${this.offers.length
        ? html`<div class="offers">${this.offers.map(
            (o) => html`<button name="use-recording" data-recording=${o.endpoint.demo.file ?? ''}
              @click=${() => this.change({ preset: o.endpoint.demo.preset, variants: [], overridesText: '', recording: o.endpoint.demo.file ?? '' })}>${o.label}</button>`,
          )}</div>`
        : ''}</div>`;
  }

  override render() {
    return html`<div class="controls">
        <select name="preset" aria-label="agent preset" @change=${(e: Event) => this.change({ preset: (e.target as HTMLSelectElement).value })}>
          ${this.presets.map((p) => html`<option value=${p.id} ?selected=${p.id === this.preset}>${p.title}</option>`)}
        </select>
        <button class="primary" name="run" ?disabled=${!this.bugId || this.running || this.blocked !== undefined}
          title=${this.blocked ?? ''} @click=${() => this.dispatchEvent(new CustomEvent('run-requested'))}>Run agent</button>
        <slot name="controls"></slot>
      </div>
      ${this.renderBlocked()}
      ${this.renderChoices()}`;
  }
}
customElements.define('rl-run-form', RlRunForm);
