// "Link to a bundle": for an experiment whose configuration does not fit in a link (or whenever the user asks), the
// bundle is downloaded, the user says where they will put it, and the link carries the view plus the bundle's hash
// and that address — opening the link fetches the bundle there and refuses any other file (docs/formats/bundle.md).
import { LitElement, html } from 'lit';
import { parseBundleUrl } from '../../../../worker/share/bundle-url.ts';
import { getEngine } from '../../../engine-client.ts';
import { bundleLinkOf, type ViewSnapshot } from '../../../state/url-state.ts';
import { panelStyles } from '../../shared-styles.ts';
import { saveFile } from '../bundle-download/bundle-download.ts';

/** What a made link is: its fragment (without `#`) and the bundle it points to. */
export interface BundleLinkMade {
  fragment: string;
  sha256: string;
  url: string;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * @summary "Link to a bundle": downloads an experiment's bundle, asks where it will be put online, and makes a link
 * carrying the view plus the bundle's hash and that address.
 *
 * @fires bundle-link - {BundleLinkMade} the link was made: its fragment, the bundle's hash and address (bubbles, composed)
 */
export class RlBundleLink extends LitElement {
  static override properties = { view: { attribute: false }, downloaded: { state: true }, error: { state: true }, busy: { state: true } };
  /** the experiment view the link opens */
  declare view: Extract<ViewSnapshot, { kind: 'experiment' }> & { experiment: string };
  /** the bundle downloaded here: its file name and hash */
  declare downloaded: { name: string; sha256: string } | undefined;
  declare error: string | undefined;
  declare busy: boolean;

  constructor() {
    super();
    this.busy = false;
  }

  static override styles = [panelStyles];

  private async download() {
    this.busy = true;
    this.error = undefined;
    try {
      const b = await getEngine().bundleExperiment(this.view.experiment);
      saveFile(b.bytes, b.name, 'application/gzip');
      this.downloaded = { name: b.name, sha256: b.sha256 };
    } catch (e) {
      this.error = message(e);
    } finally {
      this.busy = false;
    }
  }

  private async make() {
    this.error = undefined;
    const field = this.renderRoot.querySelector<HTMLInputElement>('input[name="bundle-url"]')!;
    this.busy = true;
    try {
      const url = parseBundleUrl(field.value);
      // the same records give the same content, so the same hash as the file downloaded (or to be downloaded)
      const sha256 = this.downloaded?.sha256 ?? (await getEngine().bundleExperiment(this.view.experiment)).sha256;
      const fragment = await bundleLinkOf(this.view, { sha256, url });
      this.dispatchEvent(new CustomEvent<BundleLinkMade>('bundle-link', { detail: { fragment, sha256, url }, bubbles: true, composed: true }));
    } catch (e) {
      this.error = `No link: ${message(e)}`;
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`<div data-testid="bundle-link">
      <b>Link to a bundle</b> of experiment <code>${this.view.experiment}</code>:
      1. <button name="download-link-bundle" ?disabled=${this.busy} @click=${this.download}>Download bundle</button>
      ${this.downloaded ? html`<span class="muted" data-testid="link-bundle-file">${this.downloaded.name}</span>` : ''}
      2. put the file online where this app may fetch it (the server must allow its origin, CORS), and give its address:
      <input type="url" name="bundle-url" aria-label="address of the bundle" placeholder="https://example.org/experiment.rlbundle.json.gz" size="40"
        @keyup=${(e: KeyboardEvent) => e.key === 'Enter' && void this.make()} />
      <button name="make-bundle-link" ?disabled=${this.busy} @click=${this.make}>Make link</button>
      ${this.error ? html`<div class="error" data-testid="bundle-link-error">${this.error}</div>` : ''}
    </div>`;
  }
}
customElements.define('rl-bundle-link', RlBundleLink);
