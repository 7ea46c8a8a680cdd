import { LitElement, html } from 'lit';
import type { Outcome, Trajectory, TrajStep } from '../../../worker/contracts/trajectory.ts';
import type { StrategyOutline } from '../../../worker/contracts/strategy.ts';
import type { ModelSettings } from '../../../worker/contracts/run-settings.ts';
import { isRunNotGoingOn, type RunEvent } from '../../../worker/contracts/runs.ts';
import { Comlink, getEngine } from '../../engine-client.ts';
import { fetchRuntimeConfig, loadSettings, modelSettingsFor, type ModelEndpointChoice, type Settings } from '../../state/settings.ts';
import { modelForSavedRun } from '../../state/demo-recordings.ts';
import { loadVariants, type SavedVariant } from '../../state/variants.ts';
import { panelStyles } from '../shared-styles.ts';
import { describeForkModel, forkEdit, type ForkEditChoice } from './fork-choices.ts';
import type { HumanTurn } from '../classroom/human-turn/human-turn.ts';
import '../classroom/human-turn/human-turn.ts';
import '../classroom/last-result/last-result.ts';
import '../run-compare/run-compare.ts';
import { forkPanelStyles } from './fork-panel.styles.ts';
import { currentRunner } from '../../state/runner-session.ts';

/**
 * @summary "Fork from here": a new run that replays the first `step` steps of `parent` from its record, then goes on
 * with the model chosen here (the one in Settings, or a person).
 *
 * A person plays the fork as any run a person plays: the last result above their turn, the reply form (the state's
 * commands as fields) and the box to type the reply instead (`rl-last-result`, `rl-human-turn`). When the fork ends,
 * how it ended is said (a stop: "Stopped by you at step 5") and it opens beside its parent in the compare view.
 *
 * @fires fork-finished - {string} the fork's run id, once it ended (bubbles, composed)
 *
 * @cssproperty --line - border and rule colour
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlForkPanel extends LitElement {
  static override properties = {
    parent: { attribute: false },
    step: { type: Number },
    edit: { state: true },
    person: { state: true },
    running: { state: true },
    forkId: { state: true },
    stepsDone: { state: true },
    humanPrompt: { state: true },
    lastStep: { state: true },
    outline: { state: true },
    outcome: { state: true },
    error: { state: true },
    compared: { state: true },
  };
  declare parent: Trajectory;
  /** 1-based: the parent's steps replayed */
  declare step: number;
  declare edit: 'none' | 'variant' | 'overrides';
  /** a person plays the model from step k + 1 (else: the model in Settings) */
  declare person: boolean;
  declare running: boolean;
  declare forkId: string | undefined;
  declare stepsDone: number;
  /** the person's turn, while the fork waits for their reply */
  declare humanPrompt: HumanTurn | undefined;
  /** the fork's latest step: its result is shown above the person's turn */
  declare lastStep: TrajStep | undefined;
  /** the fork's strategy as the reply form reads it (states, commands, reply format), from its run-started event */
  declare outline: StrategyOutline | undefined;
  /** how the fork ended */
  declare outcome: Outcome | undefined;
  declare error: string | undefined;
  /** parent and fork, once the fork ended: shown side by side */
  declare compared: string[] | undefined;
  private settings: Settings | undefined;
  /** the model endpoints the serving machine offers (the demo recordings among them) */
  private servedEndpoints: readonly ModelEndpointChoice[] = [];
  private variants: SavedVariant[] = [];

  constructor() {
    super();
    this.step = 1;
    this.edit = 'none';
    this.person = false;
    this.running = false;
    this.stepsDone = 0;
  }

  static override styles = [panelStyles, forkPanelStyles];

  override async connectedCallback() {
    super.connectedCallback();
    this.variants = loadVariants();
    const runtime = await fetchRuntimeConfig();
    this.settings = loadSettings(runtime);
    this.servedEndpoints = runtime.modelEndpoints ?? [];
    this.requestUpdate();
  }

  private choice(): ForkEditChoice {
    if (this.edit === 'variant') {
      const name = this.renderRoot.querySelector<HTMLSelectElement>('select[name="fork-variant"]')?.value;
      const variant = this.variants.find((v) => v.name === name);
      if (!variant) throw new Error('Fork: pick a saved variant (the Strategy editor saves them), or choose another edit.');
      return { kind: 'variant', variant };
    }
    if (this.edit === 'overrides') return { kind: 'overrides', text: this.renderRoot.querySelector<HTMLTextAreaElement>('textarea[name="fork-overrides"]')?.value ?? '' };
    return { kind: 'none' };
  }

  private model(): ModelSettings {
    if (this.person) return { kind: 'human' };
    if (!this.settings) throw new Error('The settings are still loading: try again in a moment.');
    // a demo recording answers only the run it was recorded from: the parent's, not whichever Settings names
    const s = this.settings;
    return modelForSavedRun(this.servedEndpoints, this.parent.bug.id, this.parent.config, s.modelKind === 'endpoint' ? s.model.demo : undefined, modelSettingsFor(s));
  }

  private onEvent = (e: RunEvent) => {
    if (e.type === 'run-started') {
      this.forkId = e.runId;
      this.outline = e.outline;
    } else if (e.type === 'step') {
      this.stepsDone++;
      this.lastStep = e.step as TrajStep;
    } else if (e.type === 'human-turn') this.humanPrompt = { step: e.step, messages: e.messages, ...(e.state ? { state: e.state } : {}) };
    else if (e.type === 'run-finished') {
      // a stop cancels the person's turn: its form must not outlive the fork
      this.humanPrompt = undefined;
      this.outcome = e.outcome as Outcome;
    } else if (e.type === 'run-failed') this.error = e.error;
  };

  private async start() {
    this.error = undefined;
    this.compared = undefined;
    this.stepsDone = 0;
    this.lastStep = undefined;
    this.outline = undefined;
    this.outcome = undefined;
    try {
      const request = { runId: this.parent.runId, atStep: this.step, ...forkEdit(this.choice()), model: this.model(), runner: currentRunner(this.settings!.runner) };
      this.running = true;
      const fork = await getEngine().forkRun(request, Comlink.proxy(this.onEvent));
      this.compared = [this.parent.runId, fork.runId];
      this.dispatchEvent(new CustomEvent('fork-finished', { detail: fork.runId, bubbles: true, composed: true }));
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    } finally {
      this.running = false;
      this.humanPrompt = undefined;
    }
  }

  private async stop() {
    if (!this.forkId) return;
    this.humanPrompt = undefined;
    try {
      await getEngine().stopRun(this.forkId);
    } catch (e) {
      // Stop pressed as the fork ended: its own end says how it ended
      if (!isRunNotGoingOn(e)) this.error = e instanceof Error ? e.message : String(e);
    }
  }

  /** the person's reply, composed by the reply form or typed: the same text makes the same step */
  private async reply(text: string) {
    if (!this.forkId) return;
    this.humanPrompt = undefined;
    try {
      await getEngine().submitHumanReply(this.forkId, text);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  private renderForm() {
    const settingsModel = this.settings ? (() => {
      try {
        return describeForkModel(modelSettingsFor(this.settings));
      } catch (e) {
        return (e as Error).message;
      }
    })() : 'loading…';
    return html`
      <fieldset><legend>Strategy edit</legend>
        <label><input type="radio" name="fork-edit" value="none" .checked=${this.edit === 'none'} @change=${() => (this.edit = 'none')} />none: the parent's strategy as recorded</label>
        <label><input type="radio" name="fork-edit" value="variant" .checked=${this.edit === 'variant'} ?disabled=${!this.variants.length} @change=${() => (this.edit = 'variant')} />a saved variant${this.variants.length ? '' : ' (none saved yet: the Strategy editor saves them)'}</label>
        ${this.edit === 'variant' ? html`<select name="fork-variant" aria-label="saved variant">${this.variants.map((v) => html`<option value=${v.name}>${v.name} (${v.preset})</option>`)}</select>` : ''}
        <label><input type="radio" name="fork-edit" value="overrides" .checked=${this.edit === 'overrides'} @change=${() => (this.edit = 'overrides')} />JSON overrides, merged over the parent's</label>
        ${this.edit === 'overrides' ? html`<textarea name="fork-overrides" aria-label="fork overrides" placeholder='{"budgets": {"maxSteps": 10}}'></textarea>` : ''}
      </fieldset>
      <fieldset><legend>Model from step ${this.step + 1}</legend>
        <label><input type="radio" name="fork-model" value="settings" .checked=${!this.person} @change=${() => (this.person = false)} />the model in Settings (${settingsModel})</label>
        <label><input type="radio" name="fork-model" value="human" .checked=${this.person} @change=${() => (this.person = true)} />a person plays the model (you)</label>
      </fieldset>
      <div class="actions"><button class="primary" name="start-fork" @click=${this.start}>Start the fork</button>
        <span class="muted">Steps 1–${this.step} are replayed from run ${this.parent.runId}'s record (its replies, the same tool calls).</span></div>`;
  }

  private renderRunning() {
    const p = this.humanPrompt;
    return html`<div class="actions" role="status" data-testid="fork-progress" data-steps=${this.stepsDone}>
        Fork ${this.forkId ?? ''}: ${this.stepsDone} step${this.stepsDone === 1 ? '' : 's'} so far
        <button name="stop-fork" ?disabled=${!this.forkId} @click=${this.stop}>Stop</button></div>
      ${p
        ? html`<div data-testid="fork-human-turn">
            ${this.lastStep ? html`<rl-last-result .step=${this.lastStep}></rl-last-result>` : ''}
            <rl-human-turn .turn=${p} .outline=${this.outline} @reply=${(e: CustomEvent<string>) => this.reply(e.detail)}></rl-human-turn></div>`
        : ''}`;
  }

  override render() {
    // keys typed here are the form's, not the viewer's step navigation (j/k, Enter, /)
    return html`<div class="panel" data-testid="fork-panel" @keydown=${(e: KeyboardEvent) => e.stopPropagation()}>
      <h3>Fork run ${this.parent.runId} from step ${this.step}</h3>
      ${this.error ? html`<div class="error" role="alert" data-testid="fork-error">${this.error}</div>` : ''}
      ${this.running ? this.renderRunning() : this.renderForm()}
      ${this.outcome && !this.running
        ? html`<div data-testid="fork-outcome" data-status=${this.outcome.status} role="status">Fork ${this.forkId ?? ''} ended: <b>${this.outcome.status}</b> — <span data-testid="fork-outcome-reason">${this.outcome.reason}</span></div>`
        : ''}
      ${this.compared
        ? html`<h3>The fork beside its parent</h3><rl-run-compare data-testid="fork-compare" .runIds=${this.compared}></rl-run-compare>`
        : ''}
    </div>`;
  }
}
customElements.define('rl-fork-panel', RlForkPanel);
