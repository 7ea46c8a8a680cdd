import { LitElement, html } from 'lit';
import type { ImportProgress, RepoInfo } from '../../../worker/contracts/repository.ts';
import type { BugSummary } from '../../../worker/contracts/bug-view.ts';
import type { RunnerSettings } from '../../../worker/contracts/run-settings.ts';
import { Comlink, getEngine } from '../../engine-client.ts';
import { panelStyles } from '../shared-styles.ts';
import { reposViewStyles } from './repos-view.styles.ts';
import './bug-maker/bug-maker.ts';

type ImportOutcome = { name: string; ok: boolean; message: string };

/**
 * @summary Repositories stored in this browser (IndexedDB): sizes and deletion; import of git bundles, pack files,
 * zipped repositories, a repository folder, BugSpecs, and clones by URL through the runner's git CORS proxy; and,
 * per repository, the bugs made of it (deletable) and Make a bug, which opens rl-bug-maker on it.
 *
 * @fires repos-changed - {null} the list was loaded again (on opening, after an import or a deletion): the bug list may have changed (bubbles, composed)
 *
 * @cssproperty --line-strong - border of form controls and diagram edges
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --accent-soft - background of the selected or current item
 * @cssproperty --radius-lg - corner radius of panels and cards
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --space-4 - spacing step 4 (16 px)
 */
export class RlReposView extends LitElement {
  static override properties = {
    repos: { state: true },
    results: { state: true },
    progress: { state: true },
    usage: { state: true },
    dragging: { state: true },
    busy: { state: true },
    cloneUrl: { state: true },
    runnerUrl: {},
    runner: { attribute: false },
    madeBugs: { state: true },
    opened: { state: true },
  };
  declare repos: RepoInfo[];
  declare results: { name: string; ok: boolean; message: string }[];
  declare progress: ImportProgress | undefined;
  declare usage: { usage: number; quota: number } | undefined;
  declare dragging: boolean;
  /** an import is under way (in the engine worker: the page stays responsive) */
  declare busy: boolean;
  declare cloneUrl: string;
  /** the runner whose git CORS proxy clones go through */
  declare runnerUrl: string | undefined;
  /** the runner the bug maker checks failing tests on (the app's Settings) */
  declare runner: RunnerSettings | undefined;
  /** bugs made here from the stored repositories */
  declare madeBugs: BugSummary[];
  /** the repository the bug maker is open on */
  declare opened: string | undefined;

  constructor() {
    super();
    this.repos = [];
    this.results = [];
    this.dragging = false;
    this.busy = false;
    this.cloneUrl = '';
    this.madeBugs = [];
  }

  static override styles = [panelStyles, reposViewStyles];

  override async connectedCallback() {
    super.connectedCallback();
    await this.refresh();
  }

  private async refresh() {
    const engine = getEngine();
    const [repos, usage, bugs] = await Promise.all([engine.listRepos(), engine.storageEstimate(), engine.listBugs()]);
    [this.repos, this.usage, this.madeBugs] = [repos, usage, bugs.filter((b) => b.origin === 'made')];
    if (this.opened && !repos.some((r) => r.repoId === this.opened)) this.opened = undefined;
    this.dispatchEvent(new CustomEvent('repos-changed', { bubbles: true, composed: true }));
  }

  private onProgress = Comlink.proxy((p: ImportProgress) => (this.progress = p));

  /** Runs one import, shows its outcome and refreshes the list; the worker does the work. */
  private async runImport(work: () => Promise<ImportOutcome[]>) {
    this.busy = true;
    this.results = [];
    try {
      this.results = await work();
    } catch (e) {
      this.results = [{ name: 'import', ok: false, message: e instanceof Error ? e.message : String(e) }];
    } finally {
      this.busy = false;
      this.progress = undefined;
      await this.refresh();
    }
  }

  private async importFiles(list: FileList | null) {
    if (!list?.length) return;
    await this.runImport(async () => {
      const files = await Promise.all([...list].map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
      return getEngine().importFiles(Comlink.transfer(files, files.map((f) => f.bytes.buffer as ArrayBuffer)), this.onProgress);
    });
  }

  /** A folder chosen with the directory picker: every file with its path relative to the folder. */
  private async importFolder(list: FileList | null) {
    if (!list?.length) return;
    const top = list[0]!.webkitRelativePath.split('/')[0] || 'repository';
    await this.runImport(async () => {
      const files = await Promise.all(
        [...list].map(async (f) => ({ path: f.webkitRelativePath.split('/').slice(1).join('/'), bytes: new Uint8Array(await f.arrayBuffer()) })),
      );
      return [await getEngine().importFolder(top, Comlink.transfer(files, files.map((f) => f.bytes.buffer as ArrayBuffer)), this.onProgress)];
    });
  }

  private async clone() {
    const url = this.cloneUrl.trim();
    if (!url) return;
    const proxy = this.runnerUrl ? `${this.runnerUrl.replace(/\/+$/, '')}/cors-proxy` : undefined;
    await this.runImport(async () => [await getEngine().cloneRepository(url, proxy, this.onProgress)]);
  }

  private async deleteRepository(repoId: string) {
    await getEngine().deleteRepo(repoId);
    await this.refresh();
  }

  private async deleteBug(bugId: string) {
    await getEngine().deleteBug(bugId);
    await this.refresh();
  }

  private async openMaker(repoId: string) {
    this.opened = repoId;
    await this.updateComplete;
    this.renderRoot.querySelector('rl-bug-maker')?.scrollIntoView({ block: 'start' });
  }

  /** The bugs made of a repository, each deletable (deleting the repository keeps them: they name it). */
  private renderMadeBugs(repoId: string) {
    const made = this.madeBugs.filter((b) => b.library === repoId);
    if (!made.length) return '';
    return html`<ul aria-label=${`Bugs made of ${repoId}`}>
      ${made.map((b) => html`<li data-made-bug=${b.id}><code>${b.id}</code> ${b.title}
        <button name="delete-bug" aria-label=${`Delete bug ${b.id}`} @click=${() => this.deleteBug(b.id)}>Delete bug</button></li>`)}
    </ul>`;
  }

  override render() {
    const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
    return html`<div class="panel">
      <h2>Repositories in this browser</h2>
      ${this.usage ? html`<p class="muted" data-testid="storage">Storage used: ${mib(this.usage.usage)} MiB of ${mib(this.usage.quota)} MiB available to this site.</p>` : ''}
      ${this.repos.length === 0 ? html`<p class="muted">None yet: opening a bug imports its repository.</p>` : ''}
      <ul>
        ${this.repos.map((r) => html`<li data-repo=${r.repoId}><code>${r.repoId}</code> — ${(r.bytes / 1024).toFixed(0)} KiB
          <button name="make-bug" aria-pressed=${this.opened === r.repoId ? 'true' : 'false'} @click=${() => this.openMaker(r.repoId)}>Make a bug</button>
          <button name="delete" @click=${() => this.deleteRepository(r.repoId)}>Delete</button>
          ${this.renderMadeBugs(r.repoId)}</li>`)}
      </ul>
      <h3>Import</h3>
      <div class="drop ${this.dragging ? 'over' : ''}"
        @dragover=${(e: DragEvent) => { e.preventDefault(); this.dragging = true; }}
        @dragleave=${() => (this.dragging = false)}
        @drop=${(e: DragEvent) => { e.preventDefault(); this.dragging = false; this.importFiles(e.dataTransfer?.files ?? null); }}>
        Drop git bundles (<code>git bundle create name.bundle --all</code>), pack files, zipped repositories and BugSpec
        <code>.json</code> files here — or a benchmark pack (<code>.rlpack</code>, written by <code>repairlab defects4j pack</code>) — or choose files
        <input type="file" name="import" multiple accept=".bundle,.pack,.zip,.json,.rlpack" ?disabled=${this.busy} @change=${(e: Event) => this.importFiles((e.target as HTMLInputElement).files)} />
      </div>
      <label>…or a repository folder (the one that contains <code>.git</code>)
        <input type="file" name="import-folder" webkitdirectory ?disabled=${this.busy} @change=${(e: Event) => this.importFolder((e.target as HTMLInputElement).files)} /></label>
      <label>…or clone by URL (full history, through the runner's git proxy)
        <input type="url" name="clone-url" placeholder="https://github.com/owner/repo.git" .value=${this.cloneUrl}
          @input=${(e: Event) => (this.cloneUrl = (e.target as HTMLInputElement).value)} /></label>
      <button name="clone" ?disabled=${this.busy || !this.cloneUrl.trim()} @click=${this.clone}>Clone</button>
      ${this.busy && this.cloneUrl.trim() ? html`<span class="muted" data-testid="clone-waits">Clone is available once the current import ends.</span>` : ''}
      ${this.busy
        ? html`<p class="muted" data-testid="import-progress">Importing… ${this.progress ? html`${this.progress.phase} ${this.progress.loaded}${this.progress.total ? ` / ${this.progress.total}` : ''}` : ''}</p>`
        : ''}
      <ul data-testid="import-results">
        ${this.results.map((r) => html`<li class=${r.ok ? 'ok' : 'bad'}>${r.name}: ${r.message}</li>`)}
      </ul>
    </div>
    ${this.opened ? html`<rl-bug-maker .repoId=${this.opened} .runner=${this.runner} @bug-saved=${() => this.refresh()}></rl-bug-maker>` : ''}`;
  }
}
customElements.define('rl-repos-view', RlReposView);
