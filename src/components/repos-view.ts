import { LitElement, css, html } from 'lit';
import type { ImportProgress, RepoInfo } from '../../worker/engine-api.ts';
import { Comlink, getEngine } from '../engine-client.ts';
import { panelStyles } from './shared-styles.ts';

/** Repositories stored in this browser (IndexedDB): sizes, deletion, and import of dropped bundles and BugSpecs. */
export class RlReposView extends LitElement {
  static override properties = { repos: { state: true }, results: { state: true }, progress: { state: true }, usage: { state: true }, dragging: { state: true } };
  declare repos: RepoInfo[];
  declare results: { name: string; ok: boolean; message: string }[];
  declare progress: ImportProgress | undefined;
  declare usage: { usage: number; quota: number } | undefined;
  declare dragging: boolean;

  constructor() {
    super();
    this.repos = [];
    this.results = [];
    this.dragging = false;
  }

  static override styles = [
    panelStyles,
    css`
      .drop { border: 2px dashed var(--line); border-radius: 8px; padding: 1rem; text-align: center; margin: 0.6rem 0; }
      .drop.over { border-color: var(--accent); background: #eef3fd; }
      li { margin: 0.3rem 0; }
    `,
  ];

  override async connectedCallback() {
    super.connectedCallback();
    await this.refresh();
  }

  private async refresh() {
    const engine = getEngine();
    [this.repos, this.usage] = await Promise.all([engine.listRepos(), engine.storageEstimate()]);
    this.dispatchEvent(new CustomEvent('repos-changed', { bubbles: true, composed: true }));
  }

  private async importFiles(list: FileList | null) {
    if (!list?.length) return;
    const files = await Promise.all([...list].map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
    this.results = await getEngine().importFiles(
      Comlink.transfer(files, files.map((f) => f.bytes.buffer as ArrayBuffer)),
      Comlink.proxy((p: ImportProgress) => (this.progress = p)),
    );
    this.progress = undefined;
    await this.refresh();
  }

  private async deleteRepository(repoId: string) {
    await getEngine().deleteRepo(repoId);
    await this.refresh();
  }

  override render() {
    const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
    return html`<div class="panel">
      <h2>Repositories in this browser</h2>
      ${this.usage ? html`<p class="muted" data-testid="storage">Storage used: ${mib(this.usage.usage)} MiB of ${mib(this.usage.quota)} MiB available to this site.</p>` : ''}
      ${this.repos.length === 0 ? html`<p class="muted">None yet: opening a bug imports its repository.</p>` : ''}
      <ul>
        ${this.repos.map((r) => html`<li data-repo=${r.repoId}><code>${r.repoId}</code> — ${(r.bytes / 1024).toFixed(0)} KiB
          <button name="delete" @click=${() => this.deleteRepository(r.repoId)}>Delete</button></li>`)}
      </ul>
      <h3>Import</h3>
      <div class="drop ${this.dragging ? 'over' : ''}"
        @dragover=${(e: DragEvent) => { e.preventDefault(); this.dragging = true; }}
        @dragleave=${() => (this.dragging = false)}
        @drop=${(e: DragEvent) => { e.preventDefault(); this.dragging = false; this.importFiles(e.dataTransfer?.files ?? null); }}>
        Drop git bundles (<code>git bundle create name.bundle --all</code>) and BugSpec <code>.json</code> files here, or
        <input type="file" name="import" multiple accept=".bundle,.json" @change=${(e: Event) => this.importFiles((e.target as HTMLInputElement).files)} />
      </div>
      ${this.progress ? html`<p class="muted">${this.progress.phase} ${this.progress.loaded}${this.progress.total ? ` / ${this.progress.total}` : ''}</p>` : ''}
      <ul data-testid="import-results">
        ${this.results.map((r) => html`<li class=${r.ok ? 'ok' : 'bad'}>${r.name}: ${r.message}</li>`)}
      </ul>
    </div>`;
  }
}
customElements.define('rl-repos-view', RlReposView);
