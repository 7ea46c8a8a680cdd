// The app's sharing controls, in its header: "Copy link" (the view on screen and its configuration, in the URL
// fragment), "Open bundle" (a file picker; a file dropped anywhere on the page and `?bundle=<url>` do the same),
// and what a link or bundle brought: a view not in this browser named (with its bundle offered), a model to adopt
// (never a key: adopting it asks for the key of its endpoint's origin when this browser has none),
// an opened bundle's runs with Replay, and "Link to a bundle" (bundle-link/) for an experiment whose configuration
// does not fit in a link. A link that points to a bundle fetches it when what it names is not here. The URL keeps
// following the view while the user moves around.
import { LitElement, html } from 'lit';
import type { ExperimentModel } from '../../../../worker/contracts/experiment.ts';
import type { OpenedBundle } from '../../../../worker/share/share-api.ts';
import type { ReplayResult } from '../../../../worker/share/bundle-replay.ts';
import type { LinkState } from '../../../../worker/share/link-state.ts';
import { MAX_LINK_CHARS } from '../../../../worker/share/link-codec.ts';
import { getEngine } from '../../../engine-client.ts';
import { saveSettings } from '../../../state/settings.ts';
import { endpointOrigin } from '../../../../worker/llm/key-origin.ts';
import { modelBaseURL } from '../../../../worker/llm/provider-presets.ts';
import '../../endpoint-key/endpoint-key.ts';
import { bundleUrlOf, linkOf, settingsWithLinkModel, stateOfHash, type ViewSnapshot } from '../../../state/url-state.ts';
import { panelStyles } from '../../shared-styles.ts';
import { openView, readView, type AppHandle, type OpenResult } from '../app-view.ts';
import '../bundle-download/bundle-download.ts';
import type { BundleLinkMade } from '../bundle-link/bundle-link.ts';
import '../bundle-link/bundle-link.ts';
import { shareBarStyles } from './share-bar.styles.ts';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

type BundleLinkView = Extract<ViewSnapshot, { kind: 'experiment' }> & { experiment: string };

/**
 * @summary The app's sharing controls, in its header: Copy link, Open bundle, and what a link or bundle brought (a view
 * not in this browser, a model to adopt, an opened bundle's runs with Replay, Link to a bundle).
 *
 * It reads and opens views through share/app-view.ts (the views' own state and methods); the URL keeps following the
 * view while the user moves around.
 *
 * @cssproperty --panel - surface of panels, cards, tables and fields
 * @cssproperty --line - border and rule colour
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlShareBar extends LitElement {
  static override properties = {
    app: { attribute: false },
    link: { state: true },
    note: { state: true },
    error: { state: true },
    missing: { state: true },
    linkModel: { state: true },
    adoptedEndpoint: { state: true },
    opened: { state: true },
    replays: { state: true },
    busy: { state: true },
    tooLongFor: { state: true },
    bundleLinkView: { state: true },
  };
  declare app: AppHandle;
  /** the last copied link, shown so it can be selected by hand too */
  declare link: string | undefined;
  declare note: string | undefined;
  declare error: string | undefined;
  /** what the opened link names but this browser lacks */
  declare missing: OpenResult | undefined;
  /** the model a link carries, when Settings' differs */
  declare linkModel: ExperimentModel | undefined;
  /** the endpoint of the link's model, once adopted: its key is asked for when this browser has none */
  declare adoptedEndpoint: string | undefined;
  declare opened: OpenedBundle | undefined;
  declare replays: Record<string, ReplayResult | 'running'>;
  declare busy: boolean;
  /** the experiment whose configuration did not fit in its link */
  declare tooLongFor: string | undefined;
  /** the experiment view "Link to a bundle" is making a link for */
  declare bundleLinkView: BundleLinkView | undefined;
  /** the view whose bundle link the URL holds: following the view must not replace it with a plain link */
  private bundleLinked: string | undefined;
  /** the view the shown link is of: once another view is on screen, that link (and its note) is stale and goes */
  private linkedView: string | undefined;
  /** the bundles a link has fetched by itself already (by hash): never twice, whatever they held */
  private fetchedForLink = new Set<string>();
  /** the link being opened: opening a bundle for it opens its view again */
  private pending: LinkState | undefined;
  private restoring = false;
  private syncTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.replays = {};
    this.busy = false;
  }

  static override styles = [panelStyles, shareBarStyles];

  override connectedCallback() {
    super.connectedCallback();
    window.addEventListener('hashchange', this.onHashChange);
    document.addEventListener('dragover', this.onDragOver);
    document.addEventListener('drop', this.onDrop);
    // the URL follows the view: after a click or key anywhere in the app, once the views have updated
    this.app.addEventListener('click', this.scheduleSync);
    this.app.addEventListener('keyup', this.scheduleSync);
    void this.start();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.onHashChange);
    document.removeEventListener('dragover', this.onDragOver);
    document.removeEventListener('drop', this.onDrop);
    this.app.removeEventListener('click', this.scheduleSync);
    this.app.removeEventListener('keyup', this.scheduleSync);
  }

  /** On load: `?bundle=<url>` first (the link's view may be in it), then the link in the fragment. */
  private async start() {
    await this.waitForSettings();
    const bundleUrl = bundleUrlOf(location.href);
    if (bundleUrl) await this.openBundleFrom(bundleUrl);
    await this.restore();
  }

  private async waitForSettings() {
    while (!this.app.settings) await new Promise((r) => setTimeout(r, 20));
  }

  private onHashChange = () => void this.restore();

  /** Opens the view the URL's fragment names. */
  private async restore() {
    let state: LinkState | undefined;
    try {
      state = await stateOfHash(location.hash);
    } catch (e) {
      this.error = `This page's link cannot be opened: ${message(e)}`;
      return;
    }
    if (!state) return;
    this.missing = this.linkModel = undefined;
    this.pending = state;
    this.restoring = true;
    let fetchBundle: { sha256: string; url: string } | undefined;
    try {
      const result = await openView(this.app, state);
      this.missing = result.missing ? result : undefined;
      // a link that points to a bundle brings what it names by itself, once
      const ref = state.bundle;
      if (result.missing && result.bundleWanted && ref?.url && !this.fetchedForLink.has(ref.sha256)) fetchBundle = { sha256: ref.sha256, url: ref.url };
      if (!result.missing) this.pending = undefined;
      const model = state.config?.model ?? state.experiment?.model;
      const mine = this.app.settings;
      if (model && mine && (modelBaseURL(model) !== mine.model.baseURL || (model.model && model.model !== mine.model.model))) this.linkModel = model;
    } catch (e) {
      this.error = `The link's view could not be opened: ${message(e)}`;
    } finally {
      this.restoring = false;
    }
    if (fetchBundle) {
      this.fetchedForLink.add(fetchBundle.sha256);
      await this.openBundleFrom(fetchBundle.url, fetchBundle.sha256);
    }
  }

  private scheduleSync = () => {
    clearTimeout(this.syncTimer);
    this.syncTimer = setTimeout(() => void this.sync(), 300);
  };

  /** Writes the view on screen into the URL (no history entry), unless a link is being opened or names something missing. */
  private async sync() {
    if (this.restoring || this.missing) return;
    const view = readView(this.app);
    if (this.link && this.linkedView !== JSON.stringify(view)) this.forgetLink();
    // the "Link to a bundle" form belongs to its experiment: it stays while that experiment is on screen
    if (this.bundleLinkView && (view?.kind !== 'experiment' || view.experiment !== this.bundleLinkView.experiment)) this.bundleLinkView = undefined;
    if (this.bundleLinked && this.bundleLinked === JSON.stringify(view)) return;
    this.bundleLinked = undefined;
    try {
      const fragment = view ? (await linkOf(view)).fragment : '';
      const url = new URL(location.href);
      url.hash = fragment;
      if (url.href !== location.href) history.replaceState(history.state, '', fragment ? url.href : url.href.replace(/#$/, ''));
    } catch {
      // a view whose configuration is not valid yet (overrides being typed): the URL keeps the last valid one
    }
  }

  /** A link shown for a view no longer on screen would be copied by mistake. */
  private forgetLink() {
    this.link = this.note = this.linkedView = this.tooLongFor = undefined;
  }

  private async copyLink() {
    this.error = this.note = this.link = undefined;
    this.tooLongFor = this.bundleLinkView = this.bundleLinked = undefined;
    const view = readView(this.app);
    if (!view) {
      this.error = 'Nothing to link here: open a bug, a run (Runs), an experiment or a comparison, then copy its link.';
      return;
    }
    try {
      const { fragment, carriesConfig, fullLength } = await linkOf(view);
      const url = new URL(location.href);
      url.hash = fragment;
      url.searchParams.delete('bundle');
      history.replaceState(history.state, '', url.href);
      this.link = url.href;
      this.linkedView = JSON.stringify(view);
      this.missing = undefined;
      if (!carriesConfig) {
        this.note =
          `The configuration makes the link ${fullLength} characters, over the ${MAX_LINK_CHARS} a link may have: this link opens the view only. Share a bundle for the configuration` +
          (view.kind === 'experiment' ? ': Link to a bundle below, or download it.' : ' (run it as an experiment, then Download bundle there).');
        if (view.kind === 'experiment') this.tooLongFor = view.experiment;
        if (view.kind === 'experiment' && view.experiment) this.bundleLinkView = { ...view, experiment: view.experiment };
      }
      // no clipboard outside secure contexts (plain http on another host): the link is shown to copy by hand
      const copied = navigator.clipboard ? navigator.clipboard.writeText(this.link) : Promise.reject(new Error('no clipboard'));
      await copied.then(
        () => (this.note = this.note ?? 'Link copied.'),
        () => (this.note = this.note ?? 'Copy the link below (the browser did not allow copying it).'),
      );
    } catch (e) {
      this.error = `No link: ${message(e)}`;
    }
  }

  /** "Link to a bundle…": for the experiment on screen (one stored here: a bundle is made of its runs). */
  private async askBundleLink() {
    this.error = this.note = undefined;
    const view = readView(this.app);
    if (this.link && this.linkedView !== JSON.stringify(view)) this.forgetLink();
    if (view?.kind !== 'experiment' || !view.experiment || !(await getEngine().hasExperiment(view.experiment))) {
      this.error = 'Link to a bundle: open one of your experiments first (Experiments, then its row) — a bundle holds an experiment and its runs.';
      return;
    }
    this.bundleLinkView = { ...view, experiment: view.experiment };
  }

  /** A link to a bundle was made: it becomes the page's address and is copied, like Copy link's. */
  private async onBundleLink(e: CustomEvent<BundleLinkMade>) {
    const { fragment, sha256, url: bundleUrl } = e.detail;
    const url = new URL(location.href);
    url.hash = fragment;
    url.searchParams.delete('bundle');
    history.replaceState(history.state, '', url.href);
    this.bundleLinked = JSON.stringify(this.bundleLinkView);
    this.link = url.href;
    this.linkedView = JSON.stringify(readView(this.app));
    this.missing = undefined;
    const said = `This link opens the view and fetches bundle ${sha256.slice(0, 16)}… from ${bundleUrl} (put the downloaded file there; any other file is refused).`;
    const copied = navigator.clipboard ? navigator.clipboard.writeText(this.link) : Promise.reject(new Error('no clipboard'));
    await copied.then(
      () => (this.note = `Link copied. ${said}`),
      () => (this.note = `Copy the link below. ${said}`),
    );
  }

  private onDragOver = (e: DragEvent) => {
    if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
  };

  private onDrop = (e: DragEvent) => {
    const file = e.dataTransfer?.files[0];
    if (!file || !/\.rlbundle|\.gz$/i.test(file.name)) return;
    e.preventDefault();
    void this.openBundleFile(file);
  };

  /** the header's file input, whichever button asked */
  private choose() {
    this.renderRoot.querySelector<HTMLInputElement>('input[name="open-bundle"]')?.click();
  }

  private async pickFile(e: Event) {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) await this.openBundleFile(file);
  }

  private openBundleFile(file: File) {
    return this.openBundle(async () => new Uint8Array(await file.arrayBuffer()), file.name);
  }

  /** Fetches and opens the bundle at `url`; `expectedSha256` (a link's bundle): any other bundle is refused. */
  private openBundleFrom(url: string, expectedSha256?: string) {
    return this.openBundle(async () => {
      const res = await fetch(url).catch((e: unknown) => {
        throw new Error(`${url} could not be fetched (${message(e)}): check the address, or download the file and open it here.`);
      });
      if (!res.ok) throw new Error(`${url} answered ${res.status} ${res.statusText}: check the address, or download the file and open it here.`);
      return new Uint8Array(await res.arrayBuffer());
    }, url, expectedSha256);
  }

  private async openBundle(read: () => Promise<Uint8Array>, source: string, expectedSha256?: string) {
    this.busy = true;
    this.error = this.note = undefined;
    try {
      this.opened = await getEngine().openBundle(await read(), source, expectedSha256);
      this.replays = {};
      const o = this.opened;
      this.note = o.alreadyPresent
        ? `Experiment ${o.experimentId} is here already with this content (bundle ${o.sha256.slice(0, 16)}…).`
        : `Opened bundle ${o.sha256.slice(0, 16)}…: experiment ${o.experimentId}, ${o.cells} cells, ${o.runs} runs${o.runsPresent ? ` (${o.runsPresent} were here already)` : ''}.`;
      // the link that asked for this bundle can open its view now
      if (this.pending) {
        this.missing = undefined;
        await this.restore();
      }
    } catch (e) {
      this.error = `Nothing was opened: ${message(e)}`;
    } finally {
      this.busy = false;
    }
  }

  private async replay(runIds?: string[]) {
    const o = this.opened;
    const runner = this.app.settings?.runner;
    if (!o || !runner) return;
    const ids = runIds ?? o.cellRuns.map((r) => r.runId);
    this.replays = { ...this.replays, ...Object.fromEntries(ids.map((id) => [id, 'running' as const])) };
    try {
      const results = await getEngine().replayExperiment(o.experimentId, runner, runIds);
      this.replays = { ...this.replays, ...Object.fromEntries(results.map((r) => [r.runId, r])) };
    } catch (e) {
      this.error = `The replay could not run: ${message(e)}`;
      this.replays = Object.fromEntries(Object.entries(this.replays).filter(([, r]) => r !== 'running'));
    }
  }

  private closeNotes() {
    this.link = this.note = this.error = this.linkModel = this.adoptedEndpoint = this.opened = this.tooLongFor = this.bundleLinkView = undefined;
    this.missing = this.pending = undefined;
    this.replays = {};
  }

  private useLinkModel() {
    const model = this.linkModel;
    const settings = this.app.settings;
    if (!model || !settings) return;
    const next = settingsWithLinkModel(settings, model);
    saveSettings(next);
    this.app.settings = next;
    this.linkModel = undefined;
    this.adoptedEndpoint = next.model.baseURL;
  }

  private renderOpened(o: OpenedBundle) {
    return html`<div data-testid="opened-bundle" data-experiment=${o.experimentId}>
      <b>Bundle ${o.sha256.slice(0, 16)}…</b> · experiment <code>${o.experimentId}</code> (listed under Experiments; its runs under Runs) ·
      <button name="replay-all" @click=${() => this.replay()}>Replay every run</button>
      <span class="muted">from the recorded replies: no key, no model; on the runner in Settings</span>
      <table data-testid="bundle-runs"><thead><tr><th>run</th><th>bug</th><th>variant</th><th>sample</th><th>recorded</th><th>replay</th><th></th></tr></thead>
        <tbody>${o.cellRuns.map((r) => {
          const result = this.replays[r.runId];
          return html`<tr data-run=${r.runId} data-replay=${result === undefined ? '' : result === 'running' ? 'running' : result.result}>
            <td><code>${r.runId}</code></td><td>${r.bugId}</td><td>${r.variant}</td><td>${r.sample + 1}</td><td>${r.recorded}</td>
            <td>${result === undefined ? '' : result === 'running' ? 'replaying…' : html`<span class=${result.result === 'equal' ? 'ok' : 'bad'}>${result.result}</span> — ${result.detail}`}</td>
            <td><button name="replay-run" ?disabled=${result === 'running'} @click=${() => this.replay([r.runId])}>Replay</button></td></tr>`;
        })}</tbody></table>
    </div>`;
  }

  private get hasNotes(): boolean {
    return !!(this.link || this.note || this.error || this.missing || this.linkModel || this.adoptedEndpoint || this.opened || this.busy || this.bundleLinkView);
  }

  override updated() {
    this.toggleAttribute('expanded', this.hasNotes);
  }

  override render() {
    const m = this.missing;
    return html`<div class="bar">
        <button name="copy-link" @click=${this.copyLink} title="a link to this view and its configuration (never a key)">Copy link</button>
        <button name="link-to-bundle" @click=${this.askBundleLink} title="an experiment: a link that fetches its bundle from an address you choose">Link to a bundle…</button>
        <button name="open-bundle-button" ?disabled=${this.busy} @click=${this.choose} title="a RepairLab bundle (.rlbundle.json.gz); or drop it anywhere on the page">Open bundle…</button>
        <input type="file" name="open-bundle" aria-label="bundle file" accept=".gz,application/gzip" @change=${this.pickFile} />
      </div>
      ${this.hasNotes
        ? html`<div class="notes">
            <div class="close"><button name="close-share-notes" @click=${this.closeNotes}>Close</button></div>
            ${this.error ? html`<div class="error" data-testid="share-error">${this.error}</div>` : ''}
            ${this.busy ? html`<div class="muted">Opening the bundle…</div>` : ''}
            ${this.note ? html`<div data-testid="share-note">${this.note}${this.tooLongFor ? html` <rl-bundle-download .experimentId=${this.tooLongFor}></rl-bundle-download>` : ''}</div>` : ''}
            ${this.bundleLinkView ? html`<div><rl-bundle-link .view=${this.bundleLinkView} @bundle-link=${this.onBundleLink}></rl-bundle-link></div>` : ''}
            ${this.link ? html`<div><input type="text" readonly name="share-link" aria-label="link to this view" .value=${this.link} /></div>` : ''}
            ${m
              ? html`<div data-testid="link-missing">${m.missing}
                  ${m.bundleWanted ? html` Open the bundle it comes from:
                    <button name="open-bundle-for-link" @click=${this.choose}>Open bundle…</button>
                    ${this.pending?.bundle?.url ? html`<button name="fetch-link-bundle" @click=${() => this.openBundleFrom(this.pending!.bundle!.url!, this.pending!.bundle!.sha256)}>Fetch it from ${this.pending.bundle.url}</button>` : ''}` : ''}</div>`
              : ''}
            ${this.linkModel
              ? html`<div data-testid="link-model">This link was made with the model <code>${this.linkModel.model ?? '(the provider default)'}</code> at <code>${modelBaseURL(this.linkModel)}</code>.
                  <button name="use-link-model" @click=${this.useLinkModel}>Use the link's model</button>
                  <span class="muted">(a link brings no key; keys are kept per endpoint, and <code>${endpointOrigin(modelBaseURL(this.linkModel)) ?? 'its endpoint'}</code> is sent only its own)</span></div>`
              : ''}
            ${this.adoptedEndpoint ? html`<div data-testid="link-model-adopted">Settings now use the link's model at <code>${this.adoptedEndpoint}</code>.
                <rl-endpoint-key .baseURL=${this.adoptedEndpoint}></rl-endpoint-key></div>` : ''}
            ${this.opened ? this.renderOpened(this.opened) : ''}
          </div>`
        : ''}`;
  }
}
customElements.define('rl-share-bar', RlShareBar);

