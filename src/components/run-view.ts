import { LitElement, css, html } from 'lit';
import type { RunEvent, RunRequest } from '../../worker/engine-api.ts';
import type { RunSummary } from '../../worker/run-manager.ts';
import type { DemoRecording } from '../state/settings.ts';
import { Comlink, getEngine } from '../engine-client.ts';
import { panelStyles } from './shared-styles.ts';
import type { Outcome, TrajStep } from '../../worker/contracts/trajectory.ts';
import './step-card.ts';
import './diff-view.ts';
import { renderSavedVariantPicker } from './strategy-editor/saved-variant-picker.ts';
import type { StrategyOutline } from '../../worker/engine-api.ts';
import { renderClassroomDiagram, renderPresenter, renderTurnForm } from './classroom/run-classroom.ts';

const OUTCOME_TEXT: Record<Outcome['status'], string> = {
  plausible: 'plausible patch — all tests pass',
  implausible: 'no plausible patch',
  error: 'the run ended with an error',
  stopped: 'stopped',
  unknown: 'not validated (imported trajectory)',
};

export interface PresetChoice {
  id: string;
  title: string;
  variants?: { id: string; description?: string }[];
}

/** What the user chose besides the preset: named variants (ablations, paper-vs-code options) and raw overrides. */
export interface RunChoices {
  variants: string[];
  overrides?: Record<string, unknown>;
}

/** One finished trajectory of the request (Passerine runs several). */
interface TrajectoryResult {
  runId: string;
  outcome: Outcome;
}

/** Runs an agent on the selected bug and streams its steps; ends with the final diff and the test verdict. */
export class RlRunView extends LitElement {
  static override properties = {
    bugId: {},
    presets: { attribute: false },
    makeRequest: { attribute: false },
    demo: { attribute: false },
    variants: { state: true },
    overridesText: { state: true },
    finished: { state: true },
    trajectory: { state: true },
    groundTruth: { state: true },
    preset: { state: true },
    steps: { state: true },
    running: { state: true },
    runId: { state: true },
    outcome: { state: true },
    error: { state: true },
    runnerWait: { state: true },
    humanPrompt: { state: true },
    streaming: { state: true },
    paused: { state: true },
    interrupted: { state: true },
    checkedFor: { state: true },
    outline: { state: true },
    presenter: { state: true },
  };
  declare bugId: string | undefined;
  declare presets: PresetChoice[];
  declare makeRequest: ((bugId: string, preset: string, choices: RunChoices) => RunRequest) | undefined;
  /** the demo recording the model settings point at, if any: it fixes preset and overrides for its bug */
  declare demo: DemoRecording | undefined;
  declare variants: string[];
  declare overridesText: string;
  /** finished trajectories of the current request */
  declare finished: TrajectoryResult[];
  /** which trajectory is running: index and count */
  declare trajectory: { index: number; count: number } | undefined;
  /** the ground-truth fix, once the user asked to see it after a run */
  declare groundTruth: string | undefined;
  declare preset: string;
  declare steps: TrajStep[];
  declare running: boolean;
  declare runId: string | undefined;
  declare outcome: Outcome | undefined;
  declare error: string | undefined;
  /** the runner is away and the run waits for it (worker/agent/runner-outage.ts) */
  declare runnerWait: Extract<RunEvent, { type: 'runner-waiting' }> | undefined;
  declare humanPrompt: { step: number; messages: { role: string; content: string }[]; state?: string } | undefined;
  /** the running strategy's states, tools and reply format (classroom: diagram and reply form) */
  declare outline: StrategyOutline | undefined;
  /** the presenter layout is open (classroom/presenter-layout.ts) */
  declare presenter: boolean;
  declare streaming: string;
  declare paused: boolean;
  /** this bug's saved runs that a reload or crash stopped: they can be continued */
  declare interrupted: RunSummary[];
  /** the bug whose interrupted runs were looked up last (the list is current for it) */
  declare checkedFor: string | undefined;

  constructor() {
    super();
    this.presets = [];
    this.preset = '';
    this.variants = [];
    this.overridesText = '';
    this.finished = [];
    this.steps = [];
    this.running = false;
    this.streaming = '';
    this.paused = false;
    this.interrupted = [];
    this.presenter = false;
  }

  override updated(changed: Map<string, unknown>) {
    if (changed.has('bugId')) void this.findInterrupted();
  }

  private async findInterrupted() {
    const bugId = this.bugId;
    try {
      const runs = bugId ? (await getEngine().listRuns()).filter((r) => r.bugId === bugId && r.interrupted) : [];
      if (bugId === this.bugId) {
        this.interrupted = runs;
        this.checkedFor = bugId;
      }
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  static override styles = [
    panelStyles,
    css`
      .controls { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-bottom: 0.6rem; }
      .controls select { width: auto; }
      .outcome { margin-top: 0.8rem; }
      .choices { display: grid; gap: 0.4rem; margin-bottom: 0.6rem; }
      .choices label { display: inline-flex; gap: 0.3rem; align-items: center; margin-right: 0.8rem; }
      .choices textarea { min-height: 3rem; }
      .trajectory { border-top: 1px dashed var(--line); margin-top: 0.6rem; padding-top: 0.4rem; }
      textarea { min-height: 8rem; font-family: ui-monospace, monospace; font-size: 0.8rem; }
    `,
  ];

  private onEvent = (e: RunEvent) => {
    switch (e.type) {
      case 'run-started':
        this.runId = e.runId;
        this.outline = e.outline;
        this.trajectory = { index: e.trajectory, count: e.trajectories };
        if (e.trajectory > 0 && e.stepsBefore === 0) this.steps = [];
        break;
      case 'model-delta':
        this.streaming += e.text;
        break;
      case 'step':
        this.streaming = '';
        this.steps = [...this.steps, e.step as TrajStep];
        break;
      case 'human-turn':
        this.humanPrompt = { step: e.step, messages: e.messages, ...(e.state ? { state: e.state } : {}) };
        break;
      case 'run-finished':
        // a stop cancels the person's turn: its reply panel must not outlive the run
        this.humanPrompt = undefined;
        this.runnerWait = undefined;
        this.streaming = '';
        this.outcome = e.outcome as Outcome;
        this.finished = [...this.finished, { runId: e.runId, outcome: e.outcome as Outcome }];
        if (e.last) {
          this.running = false;
          this.paused = false;
        }
        break;
      case 'runner-waiting':
        this.runnerWait = e;
        break;
      case 'runner-back':
        this.runnerWait = undefined;
        break;
      case 'run-failed':
        this.runnerWait = undefined;
        this.humanPrompt = undefined;
        this.streaming = '';
        this.error = e.error;
        this.running = false;
        break;
    }
  };

  /** the demo recording applies only to the bug it was recorded on */
  private get activeDemo(): DemoRecording | undefined {
    return this.demo && this.demo.bugId === this.bugId ? this.demo : undefined;
  }

  private get chosenPreset(): string {
    return this.preset || this.activeDemo?.preset || this.presets[0]?.id || 'oneshot';
  }

  private get effectiveOverridesText(): string {
    if (this.overridesText) return this.overridesText;
    const demo = this.activeDemo;
    return demo && Object.keys(demo.overrides).length ? JSON.stringify(demo.overrides) : '';
  }

  /** The overrides field as an object, or a message naming what is wrong with it. */
  private parseOverrides(): { overrides?: Record<string, unknown>; error?: string } {
    const text = this.effectiveOverridesText.trim();
    if (!text) return {};
    try {
      const v = JSON.parse(text) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) return { overrides: v as Record<string, unknown> };
    } catch (e) {
      return { error: `Overrides: not valid JSON (${(e as Error).message}). Write a JSON object of StrategySpec fields, e.g. {"budgets": {"maxSteps": 10}}.` };
    }
    return { error: 'Overrides: write a JSON object of StrategySpec fields, e.g. {"budgets": {"maxSteps": 10}}.' };
  }

  private toggleVariant(id: string, on: boolean) {
    this.variants = on ? [...this.variants, id] : this.variants.filter((v) => v !== id);
  }

  private async start() {
    if (!this.bugId || !this.makeRequest) return;
    const preset = this.chosenPreset;
    const { overrides, error } = this.parseOverrides();
    this.error = error;
    if (error) return;
    const variants = this.variants.filter((v) => this.presets.find((p) => p.id === preset)?.variants?.some((x) => x.id === v));
    this.clearRun([]);
    this.running = true;
    try {
      await getEngine().startRun(this.makeRequest(this.bugId, preset, { variants, ...(overrides ? { overrides } : {}) }), Comlink.proxy(this.onEvent));
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
      this.running = false;
    }
  }

  /** What the panel shows of a run, cleared for the next one (which starts from `steps`). */
  private clearRun(steps: TrajStep[]) {
    this.steps = steps;
    this.finished = [];
    this.trajectory = undefined;
    this.groundTruth = undefined;
    this.outcome = undefined;
    this.humanPrompt = undefined;
    this.runnerWait = undefined;
    this.runId = undefined;
    this.outline = undefined;
  }

  /** Continues an interrupted run with the current model and runner settings; its saved steps are shown first. */
  private async continueSaved(run: RunSummary) {
    if (!this.bugId || !this.makeRequest || this.running) return;
    // running at once: a second click must not continue the run twice
    this.running = true;
    this.error = undefined;
    this.runId = undefined;
    this.interrupted = this.interrupted.filter((r) => r.runId !== run.runId);
    try {
      const saved = await getEngine().getRun(run.runId);
      if (!saved) throw new Error(`The saved run ${run.runId} is gone.`);
      const { model, runner } = this.makeRequest(this.bugId, saved.config.preset, { variants: saved.config.variants, overrides: saved.config.overrides });
      this.clearRun(saved.steps);
      await getEngine().continueRun(run.runId, { model, runner }, Comlink.proxy(this.onEvent));
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
      void this.findInterrupted();
    } finally {
      this.running = false;
      this.paused = false;
    }
  }

  private async revealGroundTruth() {
    if (!this.bugId) return;
    try {
      this.groundTruth = await getEngine().revealGroundTruth(this.bugId);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  private async control(action: 'pause' | 'resume' | 'step') {
    if (!this.runId) return;
    const engine = getEngine();
    if (action === 'pause') await engine.pauseRun(this.runId);
    else if (action === 'resume') await engine.resumeRun(this.runId);
    else await engine.stepRun(this.runId);
    this.paused = action !== 'resume';
  }

  private async stop() {
    if (!this.runId) return;
    this.humanPrompt = undefined;
    try {
      await getEngine().stopRun(this.runId);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  private async sendHumanReply() {
    const box = this.renderRoot.querySelector<HTMLTextAreaElement>('textarea[name=human-reply]');
    if (box) await this.submitReply(box.value);
  }

  /** the person's reply, typed or composed by the reply form: the same text makes the same step */
  private submitReply = async (text: string) => {
    if (!this.runId) return;
    this.humanPrompt = undefined;
    await getEngine().submitHumanReply(this.runId, text);
  };

  private renderHumanTurn(p: NonNullable<RlRunView['humanPrompt']>) {
    return html`<div class="panel" data-testid="human-turn">
      <h3>You are the model — step ${p.step + 1}${p.state ? html` · state <i>${p.state}</i>` : ''}</h3>
      ${this.presenter
        ? html`${renderTurnForm(this.outline, p, this.submitReply)}<details><summary>The prompt (${p.messages.length} messages)</summary>${p.messages.map((m) => html`<div class="muted">${m.role}</div><pre>${m.content}</pre>`)}</details>`
        : html`${p.messages.map((m) => html`<div class="muted">${m.role}</div><pre>${m.content}</pre>`)}${renderTurnForm(this.outline, p, this.submitReply)}`}
      <h3>…or type the reply</h3>
      <textarea name="human-reply" placeholder="Type the model's reply"></textarea>
      <button class="primary" name="send-reply" @click=${this.sendHumanReply}>Send reply</button>
    </div>`;
  }

  private renderChoices() {
    const preset = this.presets.find((p) => p.id === this.chosenPreset);
    const demo = this.activeDemo;
    return html`<div class="choices">
      ${demo ? html`<div class="muted" data-testid="demo-note">The model is a demo recording of <b>${demo.preset}</b> on this bug: it replays only with that preset${Object.keys(demo.overrides).length ? ' and the overrides below' : ''}.</div>` : ''}
      ${renderSavedVariantPicker((v) => ([this.preset, this.overridesText] = v ? [v.preset, JSON.stringify(v.overrides)] : [this.preset, '']))}
      ${preset?.variants?.length
        ? html`<div data-testid="variants"><span class="muted">Variants:</span>
            ${preset.variants.map((v) => html`<label title=${v.description ?? ''}><input type="checkbox" name="variant" value=${v.id}
              .checked=${this.variants.includes(v.id)} @change=${(e: Event) => this.toggleVariant(v.id, (e.target as HTMLInputElement).checked)} />${v.id}</label>`)}</div>`
        : ''}
      <label>Overrides (JSON, merged over the preset)
        <textarea name="overrides" placeholder='{"budgets": {"maxSteps": 10}}' .value=${this.effectiveOverridesText}
          @change=${(e: Event) => (this.overridesText = (e.target as HTMLTextAreaElement).value)}></textarea></label>
    </div>`;
  }

  override render() {
    const o = this.outcome;
    return html`<div class="panel">
      <h2>Run an agent ${this.bugId ? html`on <code>${this.bugId}</code>` : ''}</h2>
      <div class="controls">
        <select name="preset" aria-label="agent preset" @change=${(e: Event) => (this.preset = (e.target as HTMLSelectElement).value)}>
          ${this.presets.map((p) => html`<option value=${p.id} ?selected=${p.id === this.chosenPreset}>${p.title}</option>`)}
        </select>
        <button class="primary" name="run" ?disabled=${!this.bugId || this.running} @click=${this.start}>Run agent</button>
        <button name="pause" ?disabled=${!this.running || this.paused} @click=${() => this.control('pause')}>Pause</button>
        <button name="step" ?disabled=${!this.running || !this.paused} @click=${() => this.control('step')}>Step</button>
        <button name="resume" ?disabled=${!this.running || !this.paused} @click=${() => this.control('resume')}>Resume</button>
        <button name="stop" ?disabled=${!this.running} @click=${this.stop}>Stop</button>
        <button name="presenter" aria-pressed=${this.presenter ? 'true' : 'false'} @click=${() => (this.presenter = true)}>Presenter layout</button>
        ${this.running ? html`<span class="muted" data-testid="running">running…</span>` : ''}
      </div>
      ${this.renderChoices()}
      ${this.checkedFor ? html`<span hidden data-testid="interrupted-checked" data-bug=${this.checkedFor}></span>` : ''}
      ${this.interrupted.length && !this.running
        ? html`<div data-testid="interrupted-runs"><span class="muted">Stopped by a reload or a crash — continue it with the model chosen in Settings:</span>
            ${this.interrupted.map(
              (r) => html`<div data-testid="interrupted-run" data-run=${r.runId}>${r.preset} · ${r.steps} step${r.steps === 1 ? '' : 's'} · ${new Date(r.createdAt).toLocaleString()}
                <button name="continue-run" @click=${() => this.continueSaved(r)}>Continue</button></div>`,
            )}</div>`
        : ''}
      ${this.trajectory && this.trajectory.count > 1
        ? html`<div class="muted" data-testid="trajectory-progress">Trajectory ${this.trajectory.index + 1} of ${this.trajectory.count} ·
            ${this.finished.filter((f) => f.outcome.status === 'plausible').length} of ${this.finished.length} finished ones plausible</div>`
        : ''}
      ${this.presenter ? '' : renderClassroomDiagram(this.outline, this.steps, this.humanPrompt)}
      ${this.steps.map((s) => html`<rl-step-card .step=${s}></rl-step-card>`)}
      ${this.streaming ? html`<pre class="muted" data-testid="streaming">${this.streaming}</pre>` : ''}
      ${this.humanPrompt && !this.presenter ? this.renderHumanTurn(this.humanPrompt) : ''}
      ${this.presenter ? renderPresenter(this, this.outline, this.steps, this.humanPrompt, (p) => this.renderHumanTurn(p)) : ''}
      ${this.runnerWait
        ? html`<div class="error" role="status" data-testid="runner-waiting">Waiting for the runner (attempt ${this.runnerWait.attempt} of ${this.runnerWait.maxRetries + 1}, next try in ${Math.round(this.runnerWait.retryInMs / 1000)} s):
            ${this.runnerWait.error} — the model is not told; the run goes on when the runner answers, or Stop ends it.</div>`
        : ''}
      ${this.error ? html`<div class="error" data-testid="run-error">${this.error}</div>` : ''}
      ${o
        ? html`<div class="outcome" data-testid="outcome" data-status=${o.status}>
            <h3>Outcome: <span class=${o.status === 'plausible' ? 'ok' : 'bad'} data-testid="outcome-status">${OUTCOME_TEXT[o.status]}</span></h3>
            <div class="muted" data-testid="outcome-reason">${o.reason}</div>
            ${o.recheck && !o.recheck.plausible && o.recheck.failingTests.length
              ? html`<div>Still failing: ${o.recheck.failingTests.map((t) => html`<code>${t}</code> `)}</div>`
              : ''}
            <div class="muted">${o.totals.steps} steps · ${o.totals.inputTokens + o.totals.outputTokens} tokens · ${o.totals.validations} validations
              ${o.totals.costUsd !== null ? html` · $${o.totals.costUsd.toFixed(4)}` : html` · <span data-testid="cost-unknown">cost unknown: no price for ${unpricedModels(this.steps)} (add it under Settings → Prices)</span>`}
              ${o.exactMatch !== null ? html` · <span data-testid="exact-match">${o.exactMatch ? 'matches the developers’ fix' : 'differs from the developers’ fix'} (ignoring whitespace and comments)</span>` : ''}</div>
            <h3>Final patch</h3>
            <rl-diff-view data-testid="final-diff" .diff=${o.finalPatch}></rl-diff-view>
            ${this.running
              ? ''
              : this.groundTruth === undefined
                ? html`<button name="reveal-ground-truth" @click=${this.revealGroundTruth}>Reveal the ground-truth fix</button>`
                : html`<h3>Ground-truth fix (the developers')</h3><rl-diff-view data-testid="ground-truth" .diff=${this.groundTruth}></rl-diff-view>`}
          </div>`
        : ''}
    </div>`;
  }
}
/** the models of the steps that had no price, for the outcome's note */
function unpricedModels(steps: TrajStep[]): string {
  const models = [...new Set(steps.filter((s) => s.costUsd === null).map((s) => s.response?.model ?? 'the model'))];
  return models.join(', ') || 'a model';
}

customElements.define('rl-run-view', RlRunView);
