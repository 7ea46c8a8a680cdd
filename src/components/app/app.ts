import { LitElement, html } from 'lit';
import type { BugSummary, BugView } from '../../../worker/contracts/bug-view.ts';
import type { ImportProgress } from '../../../worker/contracts/repository.ts';
import { Comlink, getEngine } from '../../engine-client.ts';
import { fetchRuntimeConfig, loadSettings, modelSettingsFor, type ModelEndpointChoice, type Settings } from '../../state/settings.ts';
import { panelStyles } from '../shared-styles.ts';
import '../bug-browser/bug-browser.ts';
import '../bug-detail/bug-detail.ts';
import '../run-view/run-view.ts';
import type { PresetChoice, RunChoices } from '../run-view/run-choices.ts';
import '../settings-panel/settings-panel.ts';
import '../runs-view/runs-view.ts';
import '../repos-view/repos-view.ts';
import '../runner-status/runner-status.ts';
import '../strategy-editor/strategy-editor.ts';
import '../experiments-view/experiments-view.ts';
import '../review-view/review-view.ts';
import '../share/share-bar/share-bar.ts';
import { appStyles } from './app.styles.ts';
import { NoticeController, type Notice } from './notices.ts';
import { currentRunner } from '../../state/runner-session.ts';

type Tab = 'bugs' | 'runs' | 'settings' | 'repositories' | 'strategy' | 'experiments' | 'review';

/**
 * @summary The app shell: header (runner status, tabs, share bar) and the tab shown — bug browser + bug detail + run
 * view, Runs, Experiments, Strategy editor, Repositories, Settings.
 *
 * It owns the settings, the bug list and the presets, and answers its children's events: `bug-selected`,
 * `settings-changed`, `repos-changed`, `open-run`. It keeps the page's one notice area (under the header): any element
 * may post to it with a `notice` event (bubbles, composed; detail a `Notice`, app/notices.ts) — a notice with the id of
 * one shown replaces it, each can be dismissed, information goes by itself.
 *
 * @cssproperty --panel - surface of panels, cards, tables and fields
 * @cssproperty --ink - text colour
 * @cssproperty --muted - colour of secondary text
 * @cssproperty --line - border and rule colour
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --ok - colour of passes
 * @cssproperty --ok-soft - background of a pass
 * @cssproperty --bad - colour of failures and errors
 * @cssproperty --bad-soft - background of a failure or an error
 * @cssproperty --warn - colour of warnings and budget ends
 * @cssproperty --warn-soft - background of a warning
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --space-4 - spacing step 4 (16 px)
 * @cssproperty --space-5 - spacing step 5 (24 px)
 * @cssproperty --text-sm - type size sm (13 px)
 * @cssproperty --text-lg - type size lg (16 px)
 */
export class RlApp extends LitElement {
  static override properties = {
    tab: { state: true },
    bugs: { state: true },
    selected: { state: true },
    view: { state: true },
    error: { state: true },
    settings: { state: true },
    endpoints: { state: true },
    presets: { state: true },
    bugsLoaded: { state: true },
    strategyOpened: { state: true },
  };
  declare tab: Tab;
  declare bugs: BugSummary[];
  declare selected: string | undefined;
  declare view: BugView | undefined;
  declare error: string | undefined;
  declare settings: Settings | undefined;
  declare endpoints: ModelEndpointChoice[];
  declare presets: PresetChoice[];
  declare bugsLoaded: boolean;
  /** the Strategy editor was opened once: it then stays in the page (hidden on other tabs) so unsaved edits survive */
  declare strategyOpened: boolean;

  /** the notice area's notices and their expiry (app/notices.ts) */
  private readonly notices = new NoticeController(this);

  constructor() {
    super();
    // children post notices here; the event stops at the app (it has been heard)
    this.addEventListener('notice', (e: Event) => {
      e.stopPropagation();
      this.notices.post((e as CustomEvent<Notice>).detail);
    });
    this.tab = 'bugs';
    this.bugs = [];
    this.endpoints = [];
    this.presets = [];
    this.bugsLoaded = false;
  }

  static override styles = [panelStyles, appStyles];

  override async connectedCallback() {
    super.connectedCallback();
    const runtime = await fetchRuntimeConfig();
    this.endpoints = runtime.modelEndpoints ?? [];
    this.settings = loadSettings(runtime);
    try {
      const engine = getEngine();
      [this.bugs, this.presets] = await Promise.all([engine.listBugs(), engine.listPresets()]);
    } catch (e) {
      this.showError(`The engine could not list the bundled bugs: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.bugsLoaded = true;
    }
  }

  private async selectBug(id: string) {
    this.selected = id;
    this.view = undefined;
    this.showError(undefined);
    try {
      this.view = await getEngine().bugView(id, Comlink.proxy((p: ImportProgress) => this.showProgress(p)));
      this.bugs = this.bugs.map((b) => (b.id === id ? { ...b, imported: true } : b));
    } catch (e) {
      this.showError(e instanceof Error ? e.message : String(e));
    } finally {
      this.showProgress(undefined);
    }
  }

  /** The app's own error (the bug list or a bug's view failed to load) in the notice area; undefined takes it away. */
  private showError(message: string | undefined) {
    this.error = message;
    if (message === undefined) this.notices.dismiss('app-error');
    else this.notices.post({ id: 'app-error', kind: 'error', text: message, testId: 'app-error' });
  }

  /** A repository import's progress, one notice updated in place until the import ends. */
  private showProgress(p: ImportProgress | undefined) {
    if (!p) this.notices.dismiss('import-progress');
    else this.notices.post({ id: 'import-progress', kind: 'info', expiresMs: 0, testId: 'import-progress', text: `Importing repository: ${p.phase} ${p.loaded}${p.total ? ` / ${p.total}` : ''}` });
  }

  private renderNotices() {
    const list = this.notices.list;
    // always in the page (empty): a live region announces what is added to it, not one that appears with its text
    return html`<section class="notices" aria-label="Notices" aria-live="polite" data-testid="notices">
      ${list.map(
        (n) => html`<div class="notice" data-kind=${n.kind} data-notice=${n.id} data-testid=${n.testId ?? 'notice'} role=${n.kind === 'error' ? 'alert' : 'status'}>
          <span class="text">${n.text}</span>
          <button class="dismiss" name="dismiss-notice" aria-label="Dismiss: ${n.text}" title="Dismiss" @click=${() => this.notices.dismiss(n.id)}>×</button>
        </div>`,
      )}
    </section>`;
  }

  private refreshBugs = async () => {
    this.bugs = await getEngine().listBugs();
  };

  private makeRequest = (bugId: string, preset: string, choices: RunChoices) => {
    const s = this.settings!;
    return { bugId, preset, ...choices, model: modelSettingsFor(s), runner: currentRunner(s.runner), ...(s.prices ? { prices: s.prices } : {}) };
  };

  /** An experiment's cell opens its run in the Runs view (the way a click on the run's row there opens it). */
  private async openRun(runId: string) {
    this.tab = 'runs';
    await this.updateComplete;
    await this.renderRoot.querySelector<HTMLElement & { show(runId: string): Promise<void> }>('rl-runs-view')?.show(runId);
  }

  private renderMain() {
    if (this.tab === 'settings' && this.settings)
      return html`<main class="single"><rl-settings-panel .settings=${this.settings} .endpoints=${this.endpoints}
        @settings-changed=${(e: CustomEvent<Settings>) => (this.settings = e.detail)}></rl-settings-panel></main>`;
    if (this.tab === 'runs') return html`<main class="single wide"><rl-runs-view></rl-runs-view></main>`;
    if (this.tab === 'experiments')
      return html`<main class="single wide"><rl-experiments-view .bugs=${this.bugs} .presets=${this.presets} .settings=${this.settings} @open-run=${(e: CustomEvent<string>) => this.openRun(e.detail)}></rl-experiments-view></main>`;
    if (this.tab === 'review') return html`<main class="single wide"><rl-review-view></rl-review-view></main>`;
    if (this.tab === 'strategy') return '';
    if (this.tab === 'repositories')
      return html`<main class="single"><rl-repos-view .runnerUrl=${this.settings?.runner.url} .runner=${this.settings ? currentRunner(this.settings.runner) : undefined} @repos-changed=${this.refreshBugs}></rl-repos-view></main>`;
    return html`<main>
      <rl-bug-browser .bugs=${this.bugs} .loading=${!this.bugsLoaded} .selected=${this.selected} @bug-selected=${(e: CustomEvent<string>) => this.selectBug(e.detail)}></rl-bug-browser>
      <div class="stack">
        ${this.view ? html`<rl-bug-detail .view=${this.view}></rl-bug-detail>
          <rl-run-view .bugId=${this.selected} .presets=${this.presets} .makeRequest=${this.makeRequest}
            .demo=${this.settings?.modelKind === 'endpoint' ? this.settings.model.demo : undefined} .demoEndpoints=${this.endpoints}></rl-run-view>` : ''}
        ${!this.selected && !this.error ? html`<div class="panel muted">Pick a bug to see its report, failing test and buggy code, then run an agent on it.</div>` : ''}
      </div>
    </main>`;
  }

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('tab') && this.tab === 'strategy') this.strategyOpened = true;
  }

  override render() {
    return html`<header>
        <h1>RepairLab</h1>
        <rl-runner-status .runner=${this.settings?.runner}></rl-runner-status>
        <nav>
          <button aria-current=${this.tab === 'bugs' ? 'page' : 'false'} @click=${() => (this.tab = 'bugs')}>Bugs</button>
          <button aria-current=${this.tab === 'runs' ? 'page' : 'false'} @click=${() => (this.tab = 'runs')}>Runs</button>
          <button aria-current=${this.tab === 'experiments' ? 'page' : 'false'} @click=${() => (this.tab = 'experiments')}>Experiments</button>
          <button aria-current=${this.tab === 'review' ? 'page' : 'false'} @click=${() => (this.tab = 'review')}>Review</button>
          <button aria-current=${this.tab === 'strategy' ? 'page' : 'false'} @click=${() => (this.tab = 'strategy')}>Strategy editor</button>
          <button aria-current=${this.tab === 'repositories' ? 'page' : 'false'} @click=${() => (this.tab = 'repositories')}>Repositories</button>
          <button aria-current=${this.tab === 'settings' ? 'page' : 'false'} @click=${() => (this.tab = 'settings')}>Settings</button>
        </nav>
        <rl-share-bar .app=${this}></rl-share-bar>
      </header>
      ${this.renderNotices()}
      ${this.renderMain()}
      ${this.tab === 'strategy' || this.strategyOpened
        ? html`<main class="single wide" ?hidden=${this.tab !== 'strategy'}><rl-strategy-editor .bugs=${this.bugs} .presets=${this.presets} .bugId=${this.selected}></rl-strategy-editor></main>`
        : ''}`;
  }
}
customElements.define('rl-app', RlApp);
