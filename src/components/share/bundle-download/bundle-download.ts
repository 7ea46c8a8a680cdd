// "Download bundle": an experiment as one file (worker/share/share-api.ts) — its spec, cells, every run and the model's
// recorded replies — that anyone can open and replay with no key and no model.
import { LitElement, html } from 'lit';
import { getEngine } from '../../../engine-client.ts';
import { panelStyles } from '../../shared-styles.ts';

/** Saves bytes under `name` through the browser's download. */
export function saveFile(bytes: Uint8Array, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  a.click();
  // the download has its own reference by now; a later revoke keeps slow browsers safe
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export async function downloadBundle(experimentId: string): Promise<string> {
  const b = await getEngine().bundleExperiment(experimentId);
  saveFile(b.bytes, b.name, 'application/gzip');
  return `Bundle ${b.name}: ${b.cells} cells, ${b.runs} runs, ${(b.bytes.length / 1024).toFixed(1)} KiB.`;
}

/**
 * @summary "Download bundle": an experiment as one file — its spec, cells, every run and the model's recorded replies —
 * that anyone can open and replay with no key and no model.
 */
export class RlBundleDownload extends LitElement {
  static override properties = { experimentId: { attribute: false }, note: { state: true }, error: { state: true }, busy: { state: true } };
  declare experimentId: string | undefined;
  declare note: string | undefined;
  declare error: string | undefined;
  declare busy: boolean;

  constructor() {
    super();
    this.busy = false;
  }

  static override styles = [panelStyles];

  private async download() {
    if (!this.experimentId) return;
    this.busy = true;
    this.error = this.note = undefined;
    try {
      this.note = await downloadBundle(this.experimentId);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`<button name="download-bundle" ?disabled=${this.busy || !this.experimentId} @click=${this.download}
        title="one file with the spec, every run and the model's replies: anyone can replay it with no key">Download bundle</button>
      ${this.note ? html`<span class="muted" data-testid="bundle-note">${this.note}</span>` : ''}
      ${this.error ? html`<div class="error" data-testid="bundle-error">${this.error}</div>` : ''}`;
  }
}
customElements.define('rl-bundle-download', RlBundleDownload);
