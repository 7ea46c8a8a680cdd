// Builds an experiment: bugs (the bug browser's filter fields, or ids), variant rows (preset, its named variants,
// overrides JSON), samples, budgets and concurrency — or a pasted spec. Before it starts, the engine's estimate of the
// model calls and cost (worker/experiments/experiment-estimate.ts) and, when the model endpoint is a demo recording,
// the cells it cannot serve (unservable-cells.ts). Start needs the estimate of the spec it starts, and says so when it
// is disabled. The form outlives the element (tab-state.ts): a visit to Settings keeps it. Emits `experiment-started`.
import { LitElement, html } from 'lit';
import type { BugSummary } from '../../../../worker/contracts/bug-view.ts';
import type { ExperimentEstimate } from '../../../../worker/experiments/experiment-estimate.ts';
import { getEngine } from '../../../engine-client.ts';
import type { Settings } from '../../../state/settings.ts';
import { loadApiKeys } from '../../../state/api-keys.ts';
import { experimentRunners } from '../../../state/pool-settings.ts';
import '../../endpoint-key/endpoint-key.ts';
import type { PresetChoice } from '../../run-view/run-choices.ts';
import { panelStyles } from '../../shared-styles.ts';
import { selectedBugs, specFromForm, type ExperimentForm, type VariantRowForm } from '../spec-form.ts';
import { experimentsTab } from '../tab-state.ts';
import { sameEndpoint, unservableCells, type SpecVariantLike } from '../unservable-cells.ts';
import { describeDemo } from '../../../state/settings.ts';
import { experimentBuilderStyles } from './experiment-builder.styles.ts';

const CATEGORIES = ['SL', 'SH', 'SFMH', 'MFMH'];
/** Start's reason when a field changed after the estimate */
const STALE = 'the estimate is for the old settings: press Estimate';

/**
 * @summary Builds an experiment: bugs, variant rows (preset, named variants, overrides), samples, budgets and
 * concurrency — or a pasted spec — with the engine's estimate of model calls and cost before it starts.
 *
 * @fires experiment-started - {string} the id of the experiment just started (bubbles, composed)
 *
 * @cssproperty --line - border and rule colour
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --space-5 - spacing step 5 (24 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlExperimentBuilder extends LitElement {
  static override properties = {
    bugs: { attribute: false },
    presets: { attribute: false },
    settings: { attribute: false },
    form: { state: true },
    mode: { state: true },
    specText: { state: true },
    estimate: { state: true },
    estimatedFor: { state: true },
    error: { state: true },
    busy: { state: true },
  };
  declare bugs: BugSummary[];
  declare presets: PresetChoice[];
  declare settings: Settings | undefined;
  declare form: ExperimentForm;
  /** build with the form, or paste a spec */
  declare mode: 'form' | 'json';
  declare specText: string;
  declare estimate: ExperimentEstimate | undefined;
  /** the spec (as JSON) the estimate is for: Start needs an estimate of the spec it starts */
  declare estimatedFor: string | undefined;
  declare error: string | undefined;
  declare busy: boolean;

  constructor() {
    super();
    this.bugs = [];
    this.presets = [];
    // the draft of this page: what the builder held when its tab was left (tab-state.ts)
    const draft = experimentsTab.draft;
    this.form = draft.form;
    this.mode = draft.mode;
    this.specText = draft.specText;
    this.estimate = draft.estimate;
    this.estimatedFor = draft.estimatedFor;
    this.busy = false;
  }

  static override styles = [panelStyles, experimentBuilderStyles];

  override updated() {
    experimentsTab.draft = { form: this.form, mode: this.mode, specText: this.specText, ...(this.estimate ? { estimate: this.estimate } : {}), ...(this.estimatedFor !== undefined ? { estimatedFor: this.estimatedFor } : {}) };
  }

  /** An edit keeps the estimate on screen; Start compares it with the spec and says when it is for the old settings. */
  private set(patch: Partial<ExperimentForm>) {
    this.form = { ...this.form, ...patch };
  }

  private setBugs(patch: Partial<ExperimentForm['bugs']>) {
    this.set({ bugs: { ...this.form.bugs, ...patch } });
  }

  private setVariant(i: number, patch: Partial<VariantRowForm>) {
    this.set({ variants: this.form.variants.map((v, j) => (j === i ? { ...v, ...patch } : v)) });
  }

  /** The spec as JSON text: the pasted one, or the form's (the model from Settings). */
  private specJson(): string {
    if (this.mode === 'json') return this.specText;
    if (!this.settings) throw new Error('Settings are still loading.');
    return JSON.stringify(specFromForm(this.form, this.settings), null, 2);
  }

  private parsed(text: string): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch (e) {
      throw new Error(`The spec is not valid JSON (${(e as Error).message}); see docs/formats/experiment.md for an example.`);
    }
  }

  private async doEstimate() {
    this.error = undefined;
    try {
      const text = this.specJson();
      this.estimate = await getEngine().estimateExperiment(this.parsed(text));
      this.estimatedFor = text;
    } catch (e) {
      this.estimate = undefined;
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  private async start() {
    this.error = undefined;
    this.busy = true;
    try {
      const text = this.specJson();
      if (text !== this.estimatedFor) throw new Error('The spec changed since the estimate: estimate again before starting.');
      const engine = getEngine();
      const record = await engine.createExperiment(this.parsed(text));
      // every key by origin: the engine gives the runs only the one for the spec's endpoint (plan.modelSettings)
      await engine.runExperiment(record.id, { ...experimentRunners(this.settings!.runner, this.settings!.pool), apiKeys: loadApiKeys() });
      this.estimate = undefined;
      this.estimatedFor = undefined;
      this.dispatchEvent(new CustomEvent('experiment-started', { detail: record.id, bubbles: true, composed: true }));
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    } finally {
      this.busy = false;
    }
  }

  private showAsJson() {
    try {
      this.specText = this.specJson();
      this.mode = 'json';
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  private renderBugs() {
    const f = this.form.bugs;
    const libraries = [...new Set(this.bugs.map((b) => b.library))].sort();
    const count = selectedBugs(f, this.bugs).length;
    return html`<fieldset><legend>Bugs</legend>
      <div class="row">
        <label><input type="radio" name="bug-mode" value="filter" .checked=${f.mode === 'filter'} @change=${() => this.setBugs({ mode: 'filter' })} /> by filter</label>
        <label><input type="radio" name="bug-mode" value="ids" .checked=${f.mode === 'ids'} @change=${() => this.setBugs({ mode: 'ids' })} /> by id</label>
      </div>
      ${f.mode === 'filter'
        ? html`<div class="row">
            <label>Library <select name="exp-library" @change=${(e: Event) => this.setBugs({ library: (e.target as HTMLSelectElement).value })}>
              <option value="">all</option>${libraries.map((l) => html`<option value=${l} ?selected=${l === f.library}>${l}</option>`)}</select></label>
            <label>Category <select name="exp-category" @change=${(e: Event) => this.setBugs({ category: (e.target as HTMLSelectElement).value })}>
              <option value="">all</option>${CATEGORIES.map((c) => html`<option value=${c} ?selected=${c === f.category}>${c}</option>`)}</select></label>
            <label>Blameable <select name="exp-blameable" @change=${(e: Event) => this.setBugs({ blameable: (e.target as HTMLSelectElement).value })}>
              <option value="">any</option><option value="true" ?selected=${f.blameable === 'true'}>yes</option><option value="false" ?selected=${f.blameable === 'false'}>no</option></select></label>
            <label>First N <input type="number" min="1" name="exp-limit" .value=${f.limit} @change=${(e: Event) => this.setBugs({ limit: (e.target as HTMLInputElement).value })} /></label>
          </div>`
        : html`<label>Bug ids (spaces or commas) <input type="text" name="exp-ids" .value=${f.ids} @change=${(e: Event) => this.setBugs({ ids: (e.target as HTMLInputElement).value })} /></label>`}
      <div class="muted" data-testid="exp-bug-count">${count} bug${count === 1 ? '' : 's'}</div>
    </fieldset>`;
  }

  private renderVariants() {
    return html`<fieldset><legend>Variants</legend>
      ${this.form.variants.map((v, i) => {
        const preset = this.presets.find((p) => p.id === v.preset);
        return html`<div class="variant" data-testid="variant-row">
          <div class="row">
            <label>Name <input type="text" name="variant-name" .value=${v.name} @change=${(e: Event) => this.setVariant(i, { name: (e.target as HTMLInputElement).value })} /></label>
            <label>Preset <select name="variant-preset" @change=${(e: Event) => this.setVariant(i, { preset: (e.target as HTMLSelectElement).value, variants: [] })}>
              ${this.presets.map((p) => html`<option value=${p.id} ?selected=${p.id === v.preset}>${p.title}</option>`)}</select></label>
            ${preset?.variants?.length
              ? html`<label>Named variants <select multiple name="variant-variants" size="3" @change=${(e: Event) => this.setVariant(i, { variants: [...(e.target as HTMLSelectElement).selectedOptions].map((o) => o.value) })}>
                  ${preset.variants.map((pv) => html`<option value=${pv.id} title=${pv.description ?? ''} ?selected=${v.variants.includes(pv.id)}>${pv.id}</option>`)}</select></label>`
              : ''}
            <button name="remove-variant" ?disabled=${this.form.variants.length < 2} @click=${() => this.set({ variants: this.form.variants.filter((_, j) => j !== i) })}>Remove</button>
          </div>
          <label>Overrides (JSON) <textarea name="variant-overrides" rows="2" placeholder='{"budgets":{"maxSteps":5}}' .value=${v.overrides}
            @change=${(e: Event) => this.setVariant(i, { overrides: (e.target as HTMLTextAreaElement).value })}></textarea></label>
        </div>`;
      })}
      <button name="add-variant" @click=${() => {
        const last = this.form.variants.at(-1)!;
        this.set({ variants: [...this.form.variants, { ...last, name: `${last.preset}-${this.form.variants.length + 1}` }] });
      }}>Add variant</button>
    </fieldset>`;
  }

  private renderNumbers() {
    const num = (label: string, key: keyof ExperimentForm, name: string, step = '1') =>
      html`<label>${label} <input type="number" min="0" step=${step} name=${name} .value=${this.form[key] as string} @change=${(e: Event) => this.set({ [key]: (e.target as HTMLInputElement).value })} /></label>`;
    return html`<fieldset><legend>Samples, budgets, concurrency</legend>
      <div class="row">${num('Samples', 'samples', 'exp-samples')}${num('Per run: model calls', 'perRunCalls', 'exp-run-calls')}${num('Per run: cost (USD)', 'perRunCostUsd', 'exp-run-cost', 'any')}</div>
      <div class="row">${num('Experiment: model calls', 'experimentCalls', 'exp-calls')}${num('Experiment: cost (USD)', 'experimentCostUsd', 'exp-cost', 'any')}</div>
      <div class="row">${num('Runs in flight', 'modelCalls', 'exp-concurrency')}${num('Validations per runner', 'validations', 'exp-validations')}</div>
    </fieldset>`;
  }

  /**
   * Why Start is disabled, in words; undefined when it may start. Start runs exactly the spec it estimated: an edit
   * after the estimate (here or in Settings) needs a new one.
   */
  private startBlocked(): string | undefined {
    if (this.busy) return 'starting…';
    let text: string;
    try {
      text = this.specJson();
    } catch (e) {
      return `the spec cannot be made: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (!this.estimate || this.estimatedFor === undefined) return 'press Estimate first: Start runs the spec it estimated';
    if (text !== this.estimatedFor) return STALE;
    return undefined;
  }

  /** When the estimate's endpoint is the demo recording chosen in Settings: the cells it cannot serve. */
  private renderUnservable(e: ExperimentEstimate) {
    const demo = this.settings?.model.demo;
    if (!demo || !this.settings || !sameEndpoint(e.baseURL, this.settings.model.baseURL) || !this.estimatedFor) return '';
    let spec: { variants?: SpecVariantLike[]; samples?: number };
    try {
      spec = JSON.parse(this.estimatedFor) as typeof spec;
    } catch {
      return '';
    }
    const variants = spec.variants ?? [];
    const cells = unservableCells(demo, variants, e.bugIds);
    const pairs = variants.length * e.bugIds.length;
    const samples = spec.samples ?? 1;
    if (!cells.length) return html`<p class="muted" data-testid="exp-unservable" data-count="0">The demo recording (${describeDemo(demo)}) can serve every cell.</p>`;
    const lost = cells.length * samples;
    // one line per part: .error keeps white space (pre-wrap), so the template's own line breaks would show
    const said = `It replays one conversation, so it cannot serve ${cells.length} of ${pairs} variant × bug pair${pairs === 1 ? '' : 's'}: their ${lost} cell${lost === 1 ? '' : 's'} will end in an infrastructure error, counted as not plausible. Choose a model endpoint in Settings, or keep to what the recording replays.`;
    return html`<div class="error" data-testid="exp-unservable" data-count=${cells.length}><b>The model endpoint is a demo recording</b> (${describeDemo(demo)}). ${said}<ul>${cells.map((c) => html`<li data-variant=${c.variant} data-bug=${c.bugId}>${c.variant} × ${c.bugId}: ${c.reason}</li>`)}</ul></div>`;
  }

  private renderEstimate(e: ExperimentEstimate, stale: boolean) {
    const usd = (v: number | null) => (v === null ? 'no bound' : `$${v.toFixed(4)}`);
    return html`<div class="estimate" data-testid="exp-estimate" data-stale=${stale ? 'yes' : 'no'}>
      ${stale ? html`<div class="muted" data-testid="exp-estimate-stale">This estimate is for the settings before your last change.</div>` : ''}
      <div><b>${e.cells}</b> runs · model calls <b data-testid="exp-estimate-calls">${e.calls.min}–${e.calls.max}</b> · cost at most <b data-testid="exp-estimate-cost">${e.price ? usd(e.costUsd.max) : 'unknown (no price)'}</b> (model ${e.model} at <code data-testid="exp-estimate-endpoint">${e.baseURL}</code>)</div>
      ${this.renderUnservable(e)}
      <ul>${e.method.map((m) => html`<li>${m}</li>`)}</ul>
      <rl-endpoint-key .baseURL=${e.baseURL}></rl-endpoint-key>
    </div>`;
  }

  override render() {
    const s = this.settings;
    const blocked = this.startBlocked();
    return html`<div class="panel">
      <h2>New experiment</h2>
      <p class="muted" data-testid="exp-model">Model: ${s?.modelKind === 'endpoint' ? html`<code>${s.model.model}</code> at <code>${s.model.baseURL}</code>` : 'not an endpoint'} (Settings; the key stays out of the spec) · runner <code>${s?.runner.url ?? '…'}</code></p>
      <div class="row">
        <label><input type="radio" name="spec-mode" value="form" .checked=${this.mode === 'form'} @change=${() => (this.mode = 'form')} /> build</label>
        <label><input type="radio" name="spec-mode" value="json" .checked=${this.mode === 'json'} @change=${() => (this.mode = 'json')} /> paste a spec (JSON)</label>
        ${this.mode === 'form' ? html`<button name="show-json" @click=${this.showAsJson}>Edit as JSON</button>` : ''}
      </div>
      ${this.mode === 'form'
        ? html`<label>Name <input type="text" name="exp-name" .value=${this.form.name} @change=${(e: Event) => this.set({ name: (e.target as HTMLInputElement).value })} /></label>
            ${this.renderBugs()}${this.renderVariants()}${this.renderNumbers()}`
        : html`<label>ExperimentSpec (docs/formats/experiment.md) <textarea name="spec-json" rows="14" .value=${this.specText}
            @input=${(e: Event) => (this.specText = (e.target as HTMLTextAreaElement).value)}></textarea></label>`}
      ${this.error ? html`<div class="error" data-testid="exp-error">${this.error}</div>` : ''}
      ${this.estimate ? this.renderEstimate(this.estimate, blocked === STALE) : ''}
      <div class="row">
        <button name="estimate" @click=${this.doEstimate}>Estimate calls and cost</button>
        <button class="primary" name="start-experiment" ?disabled=${!!blocked} aria-describedby="start-blocked" @click=${this.start}>Start</button>
        ${blocked ? html`<span class="muted" id="start-blocked" data-testid="start-blocked">Start is disabled: ${blocked}</span>` : ''}
      </div>
    </div>`;
  }
}
customElements.define('rl-experiment-builder', RlExperimentBuilder);
