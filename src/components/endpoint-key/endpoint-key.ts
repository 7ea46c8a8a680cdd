// Asks for the API key of an endpoint this browser has no key for — the endpoint a link's model or an experiment spec
// names. Keys are kept per endpoint origin (state/api-keys.ts), so a key saved for another endpoint is never sent to
// this one; without this field the user would only learn it from the endpoint's 401. Shows nothing when the origin has
// a key, or the endpoint needs none (the ones /runtime-config.json lists, local service presets).
import { LitElement, html } from 'lit';
import { endpointOrigin } from '../../../worker/llm/key-origin.ts';
import { keyForEndpoint, saveKeyForEndpoint } from '../../state/api-keys.ts';
import { fetchRuntimeConfig, needsNoKey, type ModelEndpointChoice } from '../../state/settings.ts';
import { panelStyles } from '../shared-styles.ts';
import { endpointKeyStyles } from './endpoint-key.styles.ts';

let served: Promise<ModelEndpointChoice[]> | undefined;
const servedEndpoints = () => (served ??= fetchRuntimeConfig().then((c) => c.modelEndpoints ?? []));

/**
 * @summary Asks for the API key of an endpoint this browser has no key for — the endpoint a link's model or an
 * experiment spec names.
 *
 * Keys are kept per endpoint origin (state/api-keys.ts), so a key saved for another endpoint is never sent to this one.
 * Shows nothing when the origin has a key, or the endpoint needs none (the ones /runtime-config.json lists, local
 * service presets).
 *
 * @fires key-saved - {string} the origin a key was just saved for (bubbles, composed)
 *
 * @cssproperty --panel - surface of panels, cards, tables and fields
 * @cssproperty --bad - colour of failures and errors
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 */
export class RlEndpointKey extends LitElement {
  static override properties = { baseURL: { attribute: false }, served: { state: true }, savedFor: { state: true } };
  /** the endpoint requests will go to */
  declare baseURL: string | undefined;
  declare served: ModelEndpointChoice[] | undefined;
  /** the origin a key was just saved for here */
  declare savedFor: string | undefined;

  static override styles = [panelStyles, endpointKeyStyles];

  override connectedCallback() {
    super.connectedCallback();
    void servedEndpoints().then((e) => (this.served = e));
  }

  private save() {
    const field = this.renderRoot.querySelector<HTMLInputElement>('input[name="endpoint-key"]');
    if (!this.baseURL || !field?.value) return;
    saveKeyForEndpoint(this.baseURL, field.value);
    this.savedFor = endpointOrigin(this.baseURL);
    this.dispatchEvent(new CustomEvent('key-saved', { detail: this.savedFor, bubbles: true, composed: true }));
  }

  override render() {
    const origin = this.baseURL ? endpointOrigin(this.baseURL) : undefined;
    if (!origin || !this.served) return '';
    if (this.savedFor === origin) return html`<p class="muted" data-testid="key-saved">Key saved for <code>${origin}</code>; it is sent only there.</p>`;
    if (keyForEndpoint(this.baseURL!) || needsNoKey(this.baseURL!, this.served)) return '';
    return html`<div class="key-needed" data-testid="key-needed" data-origin=${origin}>
      <b>No API key for <code>${origin}</code> in this browser.</b> Keys are kept per endpoint: one saved for another endpoint is never sent here.
      <div class="row">
        <label>API key for ${origin} <input type="password" name="endpoint-key" autocomplete="off" /></label>
        <button name="save-endpoint-key" @click=${this.save}>Save key</button>
      </div>
      <span class="muted">Leave it empty if this endpoint needs no key.</span>
    </div>`;
  }
}
customElements.define('rl-endpoint-key', RlEndpointKey);
