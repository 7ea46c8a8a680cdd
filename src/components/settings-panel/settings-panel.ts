import { LitElement, html } from 'lit';
import { live } from 'lit/directives/live.js';
import { PROVIDER_PRESETS, describeDemo, endpointModel, loadRecording, needsNoKey, saveSettings, type ModelEndpointChoice, type Settings } from '../../state/settings.ts';
import { keyForEndpoint, saveKeyForEndpoint } from '../../state/api-keys.ts';
import { endpointOrigin } from '../../../worker/llm/key-origin.ts';
import { getEngine } from '../../engine-client.ts';
import { panelStyles } from '../shared-styles.ts';
import { DEFAULT_PRICES, parsePriceTable } from '../../../worker/contracts/prices.ts';
import { settingsPanelStyles } from './settings-panel.styles.ts';
import { describePool, readPoolDescriptor } from '../../state/pool-settings.ts';

/** Editing the endpoint by hand leaves any demo recording behind. */
const withoutDemo = (m: Settings['model']): Settings['model'] => {
  const { demo: _demo, ...rest } = m;
  return rest;
};

/**
 * @summary Runner and model endpoint settings. API keys are stored in this browser only, one per endpoint origin.
 *
 * @fires settings-changed - {Settings} the settings after an edit, already saved (bubbles, composed)
 *
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --accent-soft - background of the selected or current item
 * @cssproperty --bad - colour of failures and errors
 * @cssproperty --radius-sm - corner radius of small things (pills, fields)
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 */
export class RlSettingsPanel extends LitElement {
  static override properties = { settings: { attribute: false }, endpoints: { attribute: false }, saved: { state: true }, pricesError: { state: true }, recordingError: { state: true }, keyError: { state: true }, poolError: { state: true } };
  declare settings: Settings;
  declare endpoints: ModelEndpointChoice[];
  declare saved: boolean;
  /** what is wrong with the price table typed last (it was not saved) */
  declare pricesError: string | undefined;
  /** what is wrong with the recording file chosen last */
  declare recordingError: string | undefined;
  /** why the key typed last could not be stored */
  declare keyError: string | undefined;
  /** what is wrong with the pool descriptor given last (it was not taken) */
  declare poolError: string | undefined;

  constructor() {
    super();
    this.endpoints = [];
    this.saved = false;
  }

  static override styles = [panelStyles, settingsPanelStyles];

  private update_(patch: (s: Settings) => Settings) {
    this.settings = patch(structuredClone(this.settings));
    saveSettings(this.settings);
    this.saved = true;
    this.dispatchEvent(new CustomEvent('settings-changed', { detail: this.settings, bubbles: true, composed: true }));
  }

  /** The price table field: saved when it is a valid table, else the message says what to fix (nothing is lost). */
  private setPrices(text: string) {
    try {
      const prices = text.trim() ? parsePriceTable(JSON.parse(text) as unknown, 'Prices') : undefined;
      this.pricesError = undefined;
      this.update_((x) => {
        const { prices: _old, ...rest } = x;
        return prices ? { ...rest, prices } : rest;
      });
    } catch (e) {
      this.pricesError = e instanceof SyntaxError ? `Prices: not valid JSON (${e.message}).` : (e as Error).message;
    }
  }

  /** A pool descriptor (pasted or opened): experiments run on its runners; its token is asked for below. */
  private setPool(text: string, source: string) {
    if (!text.trim()) return;
    try {
      const descriptor = readPoolDescriptor(text, source);
      this.poolError = undefined;
      // the same pool again keeps the token given for it
      this.update_((x) => ({ ...x, pool: { descriptor, token: x.pool?.descriptor.name === descriptor.name ? x.pool.token : '' } }));
    } catch (e) {
      this.poolError = (e as Error).message;
    }
  }

  private async openPool(e: Event) {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    this.setPool(await file.text(), file.name);
    input.value = '';
  }

  private renderPool() {
    const pool = this.settings.pool;
    const val = (e: Event) => (e.target as HTMLInputElement).value;
    return html`<h3>Runner pool (experiments)</h3>
      <p class="muted">Experiments can spread their bugs over several runners: paste or open a pool descriptor (the <code>pool.json</code>
        that <code>repairlab pool up</code> writes, or one written by hand: docs/formats/runner-pool.md). It never holds the token; give the
        runners' token below (kept in this browser only, like the runner token, never in a link or export).</p>
      <label>Pool descriptor (JSON) <textarea name="pool-descriptor" rows="4" @change=${(e: Event) => this.setPool(val(e), 'the pasted pool descriptor')}></textarea></label>
      <label>Pool descriptor file <input type="file" name="pool-file" accept=".json,application/json" @change=${this.openPool} /></label>
      ${this.poolError ? html`<div class="error" data-testid="pool-error">${this.poolError}</div>` : ''}
      ${pool
        ? html`<p data-testid="pool-summary">Experiments run on pool <b>${describePool(pool.descriptor)}</b>: ${pool.descriptor.runners.map((r) => html`<code>${r.url}</code> `)}</p>
            <label>Pool token <input type="password" name="pool-token" autocomplete="off" .value=${live(pool.token)} @change=${(e: Event) => this.update_((x) => ({ ...x, pool: { ...x.pool!, token: val(e) } }))} /></label>
            ${pool.token ? '' : html`<p class="key-needed" data-testid="pool-token-needed">Give the pool's token (the runners' shared secret: <code>$REPAIRLAB_HOME/pools/${pool.descriptor.name}/token</code> for a pool the CLI started).</p>`}
            <button name="pool-remove" @click=${() => this.update_((x) => {
              const { pool: _pool, ...rest } = x;
              return rest;
            })}>Use the single runner again</button>`
        : html`<p class="muted">No pool: experiments run on the runner above.</p>`}`;
  }

  /** A cassette or trajectory file becomes the model: its replies answer the run's calls in order. */
  private async chooseRecording(e: Event) {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    try {
      const { cassette, summary } = await getEngine().readRecording(await file.text(), file.name);
      loadRecording(cassette);
      this.recordingError = undefined;
      this.update_((x) => ({ ...x, modelKind: 'recording', recording: summary }));
    } catch (err) {
      this.recordingError = err instanceof Error ? err.message : String(err);
    } finally {
      input.value = '';
    }
  }

  private choose(e: Event) {
    const all = [...this.endpoints, ...PROVIDER_PRESETS];
    const p = all.find((x) => x.name === (e.target as HTMLSelectElement).value);
    if (p) this.update_((s) => ({ ...s, model: { ...withoutDemo(s.model), ...endpointModel(p) } }));
  }

  /** The key field stores the key for the base URL's origin only. */
  private setKey(key: string) {
    try {
      saveKeyForEndpoint(this.settings.model.baseURL, key);
      this.keyError = undefined;
      this.saved = true;
    } catch (e) {
      this.keyError = (e as Error).message;
    }
    this.requestUpdate();
  }

  /** The key field, named by the origin it is for; a note when that origin has no key and the endpoint needs one. */
  private renderKey(baseURL: string) {
    const origin = endpointOrigin(baseURL);
    const key = keyForEndpoint(baseURL);
    return html`<label>API key for <code>${origin ?? 'this endpoint'}</code> (kept in this browser only; sent only to that origin — each endpoint has its own key)
        <input type="password" name="api-key" autocomplete="off" .value=${live(key)} @change=${(e: Event) => this.setKey((e.target as HTMLInputElement).value)} /></label>
      ${this.keyError ? html`<div class="error" data-testid="key-error">${this.keyError}</div>` : ''}
      ${origin && !key && this.settings.modelKind === 'endpoint' && !needsNoKey(baseURL, this.endpoints)
        ? html`<p class="key-needed" data-testid="key-needed" data-origin=${origin}>No API key is stored for <code>${origin}</code>: enter its key above (keys saved for
            other endpoints are never sent to it), or leave it empty if this endpoint needs none.</p>`
        : ''}`;
  }

  override render() {
    const s = this.settings;
    const val = (e: Event) => (e.target as HTMLInputElement).value;
    const num = (e: Event) => (val(e) === '' ? undefined : Number(val(e)));
    return html`<div class="panel">
      <h2>Settings</h2>
      <h3>Runner (compiles and tests patches in a sandbox)</h3>
      <label>Runner URL <input type="url" name="runner-url" .value=${s.runner.url} @change=${(e: Event) => this.update_((x) => ({ ...x, runner: { ...x.runner, url: val(e) } }))} /></label>
      <label>Runner token <input type="password" name="runner-token" .value=${s.runner.token} @change=${(e: Event) => this.update_((x) => ({ ...x, runner: { ...x.runner, token: val(e) } }))} /></label>
      ${this.renderPool()}
      <h3>Model</h3>
      <label><input type="radio" name="kind" .checked=${s.modelKind === 'endpoint'} @change=${() => this.update_((x) => ({ ...x, modelKind: 'endpoint' }))} /> An OpenAI-compatible endpoint</label>
      <label><input type="radio" name="kind" .checked=${s.modelKind === 'human'} @change=${() => this.update_((x) => ({ ...x, modelKind: 'human' }))} /> A person plays the model (no key needed)</label>
      <label><input type="radio" name="kind" .checked=${s.modelKind === 'recording'} ?disabled=${!s.recording} @change=${() => this.update_((x) => ({ ...x, modelKind: 'recording' }))} />
        A recording replays its replies (a cassette, or a run's exported trajectory; every prompt must match the recorded one)</label>
      <label>Recording file <input type="file" name="recording" accept=".json,application/json" @change=${this.chooseRecording} /></label>
      ${s.recording
        ? html`<p class="muted" data-testid="recording-summary">${s.recording.file}: ${s.recording.calls} recorded call${s.recording.calls === 1 ? '' : 's'} of ${s.recording.model}${s.recording.bugId ? ` on ${s.recording.bugId}` : ''}${s.recording.preset ? ` with ${s.recording.preset}` : ''}</p>`
        : ''}
      ${this.recordingError ? html`<div class="error" data-testid="recording-error">${this.recordingError}</div>` : ''}
      <label>Preset
        <select name="endpoint-preset" @change=${this.choose}>
          <option value="">choose…</option>
          ${[...this.endpoints, ...PROVIDER_PRESETS].map(
            (p) => html`<option value=${p.name} ?selected=${p.baseURL === s.model.baseURL && p.model === s.model.model}>${p.name}</option>`,
          )}
        </select>
      </label>
      ${s.model.demo
        ? html`<p class="active-demo" data-testid="active-demo">Active demo recording: <b>${describeDemo(s.model.demo)}</b>.
            ${s.modelKind === 'endpoint'
              ? 'A recording replays only the run it was recorded from, so the run panel uses the demo recording that fits the bug and preset you pick, and names it; where none fits, it says so before the run starts.'
              : 'It is not in use while the model above is not the endpoint.'}</p>`
        : ''}
      ${corsNoteFor(s.model.baseURL, [...this.endpoints, ...PROVIDER_PRESETS])}
      <label>Base URL <input type="url" name="base-url" .value=${s.model.baseURL} @change=${(e: Event) => this.update_((x) => ({ ...x, model: { ...withoutDemo(x.model), baseURL: val(e) } }))} /></label>
      <label>Model <input type="text" name="model" .value=${s.model.model} @change=${(e: Event) => this.update_((x) => ({ ...x, model: { ...withoutDemo(x.model), model: val(e) } }))} /></label>
      ${this.renderKey(s.model.baseURL)}
      <p class="muted">Sampling: a preset's own values win (HAFixAgent and one-shot: temperature 0; Passerine: 0.2 and top_p 0.95, as
        their papers ran them) — change those with the run's overrides, e.g. <code>{"sampling": {"temperature": 0.7}}</code>. The fields
        below apply where the preset sets nothing (RepairAgent: all four).</p>
      <label>Temperature <input type="number" step="0.1" name="temperature" .value=${String(s.model.temperature ?? '')} @change=${(e: Event) => this.update_((x) => ({ ...x, model: { ...x.model, temperature: num(e) } }))} /></label>
      <label>Top p <input type="number" step="0.05" name="top-p" .value=${String(s.model.topP ?? '')} @change=${(e: Event) => this.update_((x) => ({ ...x, model: { ...x.model, topP: num(e) } }))} /></label>
      <label>Seed <input type="number" name="seed" .value=${String(s.model.seed ?? '')} @change=${(e: Event) => this.update_((x) => ({ ...x, model: { ...x.model, seed: num(e) } }))} /></label>
      <label>Max tokens per reply <input type="number" name="max-tokens" .value=${String(s.model.maxTokens ?? '')} @change=${(e: Event) => this.update_((x) => ({ ...x, model: { ...x.model, maxTokens: num(e) } }))} /></label>
      <h3>Prices (USD per million tokens)</h3>
      <label>Step costs and cost budgets use this table; a model missing from it has no price (its run's total cost is unknown,
        and the preset's <code>budgets.unknownPrice</code> says whether the run stops). Empty: the built-in table.
        <textarea name="prices" rows="8" .value=${JSON.stringify(s.prices ?? DEFAULT_PRICES, null, 1)} @change=${(e: Event) => this.setPrices(val(e))}></textarea></label>
      ${this.pricesError ? html`<div class="error" data-testid="prices-error">${this.pricesError}</div>` : ''}
      ${this.saved ? html`<p class="muted">Saved.</p>` : ''}
    </div>`;
  }
}
/** The service's note on browser access, when the base URL is one of the presets'. */
function corsNoteFor(baseURL: string, choices: ModelEndpointChoice[]) {
  const p = choices.find((c) => c.baseURL === baseURL && c.corsNote);
  return p ? html`<p class="muted" data-testid="cors-note">${p.name}: ${p.corsNote}</p>` : '';
}

customElements.define('rl-settings-panel', RlSettingsPanel);
