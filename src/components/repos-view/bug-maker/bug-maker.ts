import { LitElement, html, type PropertyValues } from 'lit';
import { live } from 'lit/directives/live.js';
import { repeat } from 'lit/directives/repeat.js';
import type { JUnitVersion, ProjectLayout } from '../../../../worker/contracts/bug.ts';
import type { BugDraft, CommitTests, FixPreview, MadeBug, RepoCommit, SuiteRun } from '../../../../worker/contracts/bug-from-repo.ts';
import type { RunnerSettings } from '../../../../worker/contracts/run-settings.ts';
import { getEngine } from '../../../engine-client.ts';
import { panelStyles } from '../../shared-styles.ts';
import './commit-log/commit-log.ts';
import type { CommitPick } from './commit-log/commit-log.ts';
import './file-tree/file-tree.ts';
import '../../diff-view/diff-view.ts';
import { bugMakerStyles } from './bug-maker.styles.ts';

/** The tests list offers a filter from this many tests on. */
const FILTER_FROM = 15;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const dirs = (text: string) => text.split(',').map((d) => d.trim().replace(/\/+$/, '')).filter(Boolean);

/**
 * @summary Makes a bug of a stored repository: its history and files to browse, the buggy commit, the failing tests
 * (found in the tree, or by running the suite on the runner) and optionally the fixing commit, saved as a BugSpec
 * that the bug browser lists and agents run on.
 *
 * The engine checks everything before it saves (worker/bugs/make-bug.ts): the tests exist at the buggy commit and
 * fail there on the runner, the fix makes them pass. Its refusals name the field and what to do; they are shown as
 * they come.
 *
 * @fires bug-saved - {string} the id of the bug just saved
 *
 * @cssproperty --muted - colour of secondary text
 * @cssproperty --line - border and rule colour
 * @cssproperty --ok - colour of passes
 * @cssproperty --ok-soft - background of a pass
 * @cssproperty --bad - colour of failures and errors
 * @cssproperty --font-sans - the text typeface
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --space-4 - spacing step 4 (16 px)
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlBugMaker extends LitElement {
  static override properties = {
    repoId: {},
    runner: { attribute: false },
    browsed: { state: true },
    buggy: { state: true },
    fixed: { state: true },
    tests: { state: true },
    testsError: { state: true },
    chosen: { state: true },
    suite: { state: true },
    suiteBusy: { state: true },
    preview: { state: true },
    previewError: { state: true },
    bugId: { state: true },
    title: { state: true },
    body: { state: true },
    sourceDirs: { state: true },
    testDirs: { state: true },
    junit: { state: true },
    javaRelease: { state: true },
    filter: { state: true },
    byName: { state: true },
    saving: { state: true },
    error: { state: true },
    saved: { state: true },
  };
  declare repoId: string | undefined;
  /** the runner that checks the failing tests (the app's Settings) */
  declare runner: RunnerSettings | undefined;
  declare browsed: string | undefined;
  declare buggy: RepoCommit | undefined;
  declare fixed: RepoCommit | undefined;
  declare tests: CommitTests | undefined;
  declare testsError: string | undefined;
  declare chosen: string[];
  declare suite: SuiteRun | undefined;
  declare suiteBusy: boolean;
  declare preview: FixPreview | undefined;
  declare previewError: string | undefined;
  declare bugId: string;
  declare title: string;
  declare body: string;
  declare sourceDirs: string;
  declare testDirs: string;
  declare junit: JUnitVersion;
  declare javaRelease: number;
  declare filter: string;
  declare byName: string;
  declare saving: boolean;
  declare error: string | undefined;
  declare saved: MadeBug | undefined;

  constructor() {
    super();
    this.chosen = [];
    this.suiteBusy = false;
    this.bugId = '';
    this.title = '';
    this.body = '';
    this.sourceDirs = '';
    this.testDirs = '';
    this.junit = 'junit4';
    this.javaRelease = 11;
    this.filter = '';
    this.byName = '';
    this.saving = false;
  }

  static override styles = [panelStyles, bugMakerStyles];

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('repoId')) {
      this.browsed = undefined;
      this.buggy = undefined;
      this.fixed = undefined;
      this.tests = undefined;
      this.chosen = [];
      this.suite = undefined;
      this.preview = undefined;
      this.saved = undefined;
      this.error = undefined;
      this.bugId = '';
      this.title = '';
      this.body = '';
    }
  }

  /** The layout as the form shows it: the one read from the tree, with the person's edits. */
  private get layout(): ProjectLayout | undefined {
    const read = this.tests?.layout;
    if (!read) return undefined;
    const junit = this.junit;
    return {
      ...read,
      sourceDirs: dirs(this.sourceDirs),
      testDirs: dirs(this.testDirs),
      junit,
      javaRelease: this.javaRelease,
      classpath: junit === read.junit ? read.classpath : junit === 'junit5' ? ['junit5', 'hamcrest'] : ['junit4', 'hamcrest'],
    };
  }

  private onPicked(pick: CommitPick) {
    this.saved = undefined;
    this.error = undefined;
    if (pick.role === 'browse') this.browsed = pick.oid;
    else if (pick.role === 'buggy') void this.pickBuggy(pick.commit);
    else void this.pickFixed(pick.commit);
  }

  private async pickBuggy(commit: RepoCommit) {
    const repoId = this.repoId;
    if (!repoId) return;
    this.buggy = commit;
    this.browsed ??= commit.oid;
    this.tests = undefined;
    this.testsError = undefined;
    this.chosen = [];
    this.suite = undefined;
    if (!this.bugId) this.bugId = `${repoId}-${commit.oid.slice(0, 7)}`;
    try {
      const tests = await getEngine().commitTests(repoId, commit.oid);
      if (this.buggy?.oid !== commit.oid) return;
      this.tests = tests;
      this.sourceDirs = tests.layout.sourceDirs.join(', ');
      this.testDirs = tests.layout.testDirs.join(', ');
      this.junit = tests.layout.junit;
      this.javaRelease = tests.layout.javaRelease;
    } catch (e) {
      this.testsError = message(e);
    }
    await this.loadPreview();
  }

  private async pickFixed(commit: RepoCommit | undefined) {
    this.fixed = commit;
    if (commit && !this.title.trim()) this.title = commit.subject;
    await this.loadPreview();
  }

  /** What the fixing commit gives the bug (its patch, category and fault lines), once both commits are picked. */
  private async loadPreview() {
    this.preview = undefined;
    this.previewError = undefined;
    const [repoId, buggy, fixed] = [this.repoId, this.buggy?.oid, this.fixed?.oid];
    if (!repoId || !buggy || !fixed) return;
    try {
      const preview = await getEngine().fixPreview(repoId, buggy, fixed, this.layout);
      if (this.buggy?.oid === buggy && this.fixed?.oid === fixed) this.preview = preview;
    } catch (e) {
      this.previewError = message(e);
    }
  }

  /** Runs the whole suite at the buggy commit and picks the tests that fail there. */
  private async findFailing() {
    const [repoId, buggy, runner] = [this.repoId, this.buggy?.oid, this.runner];
    if (!repoId || !buggy || !runner) return;
    this.suiteBusy = true;
    this.error = undefined;
    try {
      const suite = await getEngine().runSuite(repoId, buggy, runner, this.layout);
      if (this.buggy?.oid !== buggy) return;
      this.suite = suite;
      if (suite.compiled) this.chosen = [...suite.failing];
    } catch (e) {
      this.error = message(e);
    } finally {
      this.suiteBusy = false;
    }
  }

  private toggle(id: string, on: boolean) {
    this.chosen = on ? [...new Set([...this.chosen, id])] : this.chosen.filter((t) => t !== id);
  }

  private addByName() {
    const id = this.byName.trim();
    if (!id) return;
    this.toggle(id, true);
    this.byName = '';
  }

  private async save() {
    const [repoId, buggy, runner] = [this.repoId, this.buggy, this.runner];
    if (!repoId || !buggy || !runner) return;
    const layout = this.layout;
    const draft: BugDraft = {
      repoId,
      id: this.bugId.trim(),
      buggyCommit: buggy.oid,
      ...(this.fixed ? { fixedCommit: this.fixed.oid } : {}),
      failingTests: this.chosen,
      title: this.title,
      body: this.body,
      ...(layout ? { layout } : {}),
    };
    this.saving = true;
    this.error = undefined;
    this.saved = undefined;
    try {
      this.saved = await getEngine().makeBug(draft, runner);
      this.dispatchEvent(new CustomEvent<string>('bug-saved', { detail: this.saved.id }));
    } catch (e) {
      this.error = message(e);
    } finally {
      this.saving = false;
    }
  }

  private renderTests() {
    if (!this.buggy) return html`<p class="muted">Pick the buggy commit first (Buggy in the history).</p>`;
    if (this.testsError) return html`<div class="error" role="alert">${this.testsError}</div>`;
    if (!this.tests) return html`<p class="muted">Looking for tests at ${this.buggy.oid.slice(0, 8)}…</p>`;
    const failing = new Set(this.suite?.failing ?? []);
    const found = this.tests.tests.map((t) => t.id);
    // tests named by hand or failing in the suite run but not found in the tree are listed after the ones found; the
    // order never depends on what is checked, so a click does not move the list under the pointer
    const ids = [...new Set([...found, ...failing, ...this.chosen])];
    const needle = this.filter.trim().toLowerCase();
    const shown = needle ? ids.filter((id) => id.toLowerCase().includes(needle)) : ids;
    return html`
      <div class="row">
        <button name="find-failing" ?disabled=${this.suiteBusy || !this.runner} @click=${this.findFailing}>Find failing tests</button>
        <span class="muted">${this.suiteBusy ? 'Running the whole suite on the runner…' : `${found.length} test methods found at ${this.buggy.oid.slice(0, 8)}.`}</span>
      </div>
      ${this.suite
        ? html`<p data-testid="suite-result" class=${this.suite.compiled ? '' : 'bad'}>${this.suite.compiled
            ? `The suite ran ${this.suite.ran} tests: ${this.suite.failing.length ? `${this.suite.failing.length} fail (picked below).` : 'all pass — no test fails at this commit, so it makes no bug.'}`
            : `The project does not compile at this commit: ${this.suite.diagnostics.join('; ')}`}</p>`
        : ''}
      ${ids.length >= FILTER_FROM
        ? html`<label>Filter tests <input type="text" name="test-filter" .value=${this.filter} @input=${(e: Event) => (this.filter = (e.target as HTMLInputElement).value)} /></label>`
        : ''}
      <ul class="tests" aria-label="Failing tests">
        ${repeat(
          shown,
          (id) => id,
          // live(): the box's own state changes on a click, which lit's last value does not see
          (id) => html`<li><label><input type="checkbox" name="failing-test" .value=${id} .checked=${live(this.chosen.includes(id))}
            @change=${(e: Event) => this.toggle(id, (e.target as HTMLInputElement).checked)} /> ${id}</label>${failing.has(id) ? html` <span class="fails">fails here</span>` : ''}</li>`,
        )}
      </ul>
      <div class="row">
        <input type="text" name="test-by-name" aria-label="A test by name" placeholder="pkg.Class::method" .value=${this.byName}
          @input=${(e: Event) => (this.byName = (e.target as HTMLInputElement).value)} @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && this.addByName()} />
        <button name="add-test" ?disabled=${!this.byName.trim()} @click=${this.addByName}>Add test</button>
      </div>
      ${this.tests.notes.length ? html`<ul class="notes">${this.tests.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}`;
  }

  private renderFix() {
    if (!this.fixed) return html`<p class="muted">Optional: pick the fixing commit (Fix in the history). Its program files become the ground truth and its diff gives the fault lines; without it the runner's coverage ranks them (Ochiai).</p>`;
    return html`<p class="picked" data-testid="fixed-commit"><code>${this.fixed.oid.slice(0, 8)}</code> ${this.fixed.subject}
        <button name="clear-fixed" @click=${() => this.pickFixed(undefined)}>Clear</button></p>
      ${this.previewError ? html`<div class="error" role="alert">${this.previewError}</div>` : ''}
      ${this.preview
        ? html`<p class="muted" data-testid="fix-preview">Category ${this.preview.category}, ${this.preview.blameable ? 'blameable' : 'blameless'}; fault lines:
            ${this.preview.faultLocalization.map((l) => html`<code>${l.file.split('/').pop()}:${l.lines.join(',')}</code> `)}</p>
            <details><summary>The ground-truth patch</summary><rl-diff-view .diff=${this.preview.patch}></rl-diff-view></details>`
        : ''}`;
  }

  private renderLayout() {
    return html`<details>
      <summary>Layout${this.tests ? ` (read from the tree: ${this.junit}, Java ${this.javaRelease})` : ''}</summary>
      <label>Source folders (comma-separated) <input type="text" name="source-dirs" .value=${this.sourceDirs} @input=${(e: Event) => (this.sourceDirs = (e.target as HTMLInputElement).value)} /></label>
      <label>Test folders (comma-separated) <input type="text" name="test-dirs" .value=${this.testDirs} @input=${(e: Event) => (this.testDirs = (e.target as HTMLInputElement).value)} /></label>
      <label>JUnit <select name="junit" .value=${this.junit} @change=${(e: Event) => (this.junit = (e.target as HTMLSelectElement).value as JUnitVersion)}>
        ${(['junit3', 'junit4', 'junit5'] as const).map((j) => html`<option value=${j} ?selected=${j === this.junit}>${j}</option>`)}
      </select></label>
      <label>Java release <input type="number" name="java-release" min="8" max="25" .value=${String(this.javaRelease)}
        @change=${(e: Event) => (this.javaRelease = Number((e.target as HTMLInputElement).value) || 11)} /></label>
    </details>`;
  }

  private renderForm() {
    const ready = !!this.buggy && this.chosen.length > 0 && !!this.runner && !this.saving;
    return html`<section aria-label="The bug">
      <h3>The bug</h3>
      <p class="picked" data-testid="buggy-commit">Buggy commit: ${this.buggy ? html`<code>${this.buggy.oid.slice(0, 8)}</code> ${this.buggy.subject}` : html`<span class="muted">none yet</span>`}</p>
      <h3>Failing tests</h3>
      ${this.renderTests()}
      <h3>Fixing commit</h3>
      ${this.renderFix()}
      <label>Bug id <input type="text" name="bug-id" .value=${this.bugId} @input=${(e: Event) => (this.bugId = (e.target as HTMLInputElement).value)} /></label>
      <label>Title <input type="text" name="bug-title" .value=${this.title} @input=${(e: Event) => (this.title = (e.target as HTMLInputElement).value)} /></label>
      <label>Report (Markdown, optional) <textarea name="bug-body" rows="4" .value=${this.body} @input=${(e: Event) => (this.body = (e.target as HTMLTextAreaElement).value)}></textarea></label>
      ${this.renderLayout()}
      <div class="row">
        <button class="primary" name="save-bug" ?disabled=${!ready} @click=${this.save}>Save bug</button>
        ${this.saving ? html`<span class="muted" data-testid="bug-maker-busy">Checking the failing tests on the runner…</span>` : ''}
        ${!this.runner ? html`<span class="muted">Set the runner in Settings: saving checks the tests on it.</span>` : ''}
      </div>
      ${this.error ? html`<div class="error" role="alert" data-testid="bug-maker-error">${this.error}</div>` : ''}
      ${this.saved
        ? html`<div class="saved" role="status" data-testid="bug-saved">Saved <b>${this.saved.id}</b> (${this.saved.category}, ${this.saved.failingTests.length} failing test${this.saved.failingTests.length === 1 ? '' : 's'}): it is in the bug browser (Bugs).
            <ul class="notes">${this.saved.notes.map((n) => html`<li>${n}</li>`)}</ul></div>`
        : ''}
    </section>`;
  }

  override render() {
    if (!this.repoId) return html``;
    return html`<div class="panel" data-testid="bug-maker" data-repo=${this.repoId}>
      <h2>Make a bug of <code>${this.repoId}</code></h2>
      <div class="columns">
        <section aria-label="History">
          <h3>History</h3>
          <rl-commit-log .repoId=${this.repoId} .buggy=${this.buggy?.oid} .fixed=${this.fixed?.oid} .browsed=${this.browsed}
            @commit-picked=${(e: CustomEvent<CommitPick>) => this.onPicked(e.detail)}></rl-commit-log>
          <h3>Files</h3>
          <rl-file-tree .repoId=${this.repoId} .commit=${this.browsed}></rl-file-tree>
        </section>
        ${this.renderForm()}
      </div>
    </div>`;
  }
}
customElements.define('rl-bug-maker', RlBugMaker);
