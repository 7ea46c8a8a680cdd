import { LitElement, html, type PropertyValues } from 'lit';
import type { RepoFileView, RepoTreeListing } from '../../../../../worker/contracts/bug-from-repo.ts';
import { getEngine } from '../../../../engine-client.ts';
import { panelStyles } from '../../../shared-styles.ts';
import { fileTreeStyles } from './file-tree.styles.ts';

/**
 * @summary The files of a stored repository at one commit: a folder at a time, with the path back up, and the file
 * opened as text.
 *
 * @cssproperty --panel-2 - a quieter surface: table headers, hovered rows, gutters
 * @cssproperty --line - border and rule colour
 * @cssproperty --accent-soft - background of the selected or current item
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlFileTree extends LitElement {
  static override properties = {
    repoId: {},
    commit: {},
    listing: { state: true },
    file: { state: true },
    error: { state: true },
  };
  declare repoId: string | undefined;
  /** the commit whose tree is shown (an oid) */
  declare commit: string | undefined;
  declare listing: RepoTreeListing | undefined;
  declare file: RepoFileView | undefined;
  declare error: string | undefined;

  static override styles = [panelStyles, fileTreeStyles];

  override willUpdate(changed: PropertyValues<this>) {
    if ((changed.has('repoId') || changed.has('commit')) && this.repoId && this.commit) {
      // the same folder at the new commit when it is there, else the top
      void this.openDir(this.listing?.dir ?? '').catch(() => this.openDir(''));
      this.file = undefined;
    }
  }

  private async openDir(dir: string) {
    const [repoId, commit] = [this.repoId, this.commit];
    if (!repoId || !commit) return;
    this.error = undefined;
    try {
      const listing = await getEngine().repoTree(repoId, commit, dir);
      if (repoId === this.repoId && commit === this.commit) this.listing = listing;
    } catch (e) {
      if (dir) throw e;
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  private async openFile(path: string) {
    const [repoId, commit] = [this.repoId, this.commit];
    if (!repoId || !commit) return;
    this.error = undefined;
    try {
      this.file = await getEngine().repoFile(repoId, commit, path);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  private renderPath(dir: string) {
    const parts = dir ? dir.split('/') : [];
    return html`<div class="path" aria-label="Folder">
      <button name="open-dir" data-path="" @click=${() => this.openDir('')}>${this.repoId}</button>
      ${parts.map((p, i) => {
        const path = parts.slice(0, i + 1).join('/');
        return html`/ <button name="open-dir" data-path=${path} @click=${() => this.openDir(path)}>${p}</button>`;
      })}
      <span class="muted">at <code>${this.commit?.slice(0, 8)}</code></span>
    </div>`;
  }

  private renderFile(f: RepoFileView) {
    return html`<div class="file" data-testid="file-view" data-path=${f.path}>
      <b><code>${f.path}</code></b> <span class="muted">${f.bytes} bytes</span>
      ${f.binary
        ? html`<p class="muted">A binary file: not shown.</p>`
        : html`<pre>${f.text}</pre>${f.truncated ? html`<p class="muted">Only the beginning of this long file is shown.</p>` : ''}`}
    </div>`;
  }

  override render() {
    const l = this.listing;
    return html`<div data-testid="file-tree">
      ${this.error ? html`<div class="error" role="alert">${this.error}</div>` : ''}
      ${l
        ? html`${this.renderPath(l.dir)}
            <ul aria-label=${`Files in ${l.dir || 'the top folder'}`}>
              ${l.entries.map((e) =>
                e.kind === 'dir'
                  ? html`<li><button name="open-dir" data-path=${e.path} @click=${() => this.openDir(e.path)}>${e.name}/</button></li>`
                  : e.kind === 'file'
                    ? html`<li><button name="open-file" data-path=${e.path} aria-current=${this.file?.path === e.path ? 'true' : 'false'} @click=${() => this.openFile(e.path)}>${e.name}</button></li>`
                    : html`<li class="muted">${e.name} (${e.kind})</li>`,
              )}
            </ul>`
        : html`<p class="muted">Pick a commit (Files) to see its tree.</p>`}
      ${this.file ? this.renderFile(this.file) : ''}
    </div>`;
  }
}
customElements.define('rl-file-tree', RlFileTree);
