import { LitElement, html } from 'lit';
import type { RunRequest } from '../../../worker/contracts/runs.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import type { RunSummary } from '../../../worker/contracts/runs.ts';
import type { DemoRecording } from '../../state/settings.ts';
import { panelStyles } from '../shared-styles.ts';
import { renderClassroomDiagram } from '../classroom/run-classroom.ts';
import '../classroom/human-turn/human-turn.ts';
import '../classroom/run-presenter/run-presenter.ts';
import { activeDemo, chosenPreset, effectiveOverridesText, parseOverrides, variantsOf, type PresetChoice, type RunChoices, type RunFormFields } from './run-choices.ts';
import { ContinueController } from './continue-controller.ts';
import { RunStreamController } from './run-stream-controller.ts';
import './run-form/run-form.ts';
import './run-steps/run-steps.ts';
import './interrupted-runs/interrupted-runs.ts';
import './run-outcome/run-outcome.ts';

/**
 * @summary Runs an agent on the selected bug and streams its steps; ends with the final diff and the test verdict.
 *
 * It composes its parts and holds what they share: the run form (`rl-run-form`: preset, variants, overrides — held
 * here as `preset`, `variants`, `overridesText`, which the share bar reads and sets, share/app-view.ts), the run in
 * flight (RunStreamController: events → steps, streaming text, a person's turn, outcome), the bug's interrupted runs
 * (ContinueController and `rl-interrupted-runs`), the step list (`rl-run-steps`), the classroom (state diagram,
 * `rl-human-turn`, `rl-run-presenter`) and the outcome (`rl-run-outcome`).
 */
export class RlRunView extends LitElement {
  static override properties = {
    bugId: {},
    presets: { attribute: false },
    makeRequest: { attribute: false },
    demo: { attribute: false },
    preset: { state: true },
    variants: { state: true },
    overridesText: { state: true },
    presenter: { state: true },
  };
  declare bugId: string | undefined;
  declare presets: PresetChoice[];
  declare makeRequest: ((bugId: string, preset: string, choices: RunChoices) => RunRequest) | undefined;
  /** the demo recording the model settings point at, if any: it fixes preset and overrides for its bug */
  declare demo: DemoRecording | undefined;
  /** the preset picked in the form ('' = the default: `chosenPreset`) */
  declare preset: string;
  declare variants: string[];
  /** the overrides typed in the form ('' = the default: `effectiveOverridesText`) */
  declare overridesText: string;
  /** the presenter layout is open (rl-run-presenter) */
  declare presenter: boolean;

  private readonly stream = new RunStreamController(this);
  private readonly continuing = new ContinueController(this, this.stream);

  constructor() {
    super();
    this.presets = [];
    this.preset = '';
    this.variants = [];
    this.overridesText = '';
    this.presenter = false;
  }

  static override styles = [panelStyles];

  /** the preset a run would use now */
  get chosenPreset(): string {
    return chosenPreset(this.preset, activeDemo(this.demo, this.bugId), this.presets);
  }

  /** the overrides a run would use now, as text */
  get effectiveOverridesText(): string {
    return effectiveOverridesText(this.overridesText, activeDemo(this.demo, this.bugId));
  }

  private onChoices = (e: CustomEvent<Partial<RunFormFields>>) => {
    const { preset, variants, overridesText } = e.detail;
    if (preset !== undefined) this.preset = preset;
    if (variants !== undefined) this.variants = variants;
    if (overridesText !== undefined) this.overridesText = overridesText;
  };

  private start = () => {
    const { bugId, makeRequest } = this;
    if (!bugId || !makeRequest) return;
    const preset = this.chosenPreset;
    const { overrides, error } = parseOverrides(this.effectiveOverridesText);
    if (error) return this.stream.fail(error);
    const variants = variantsOf(this.presets, preset, this.variants);
    void this.stream.start(() => makeRequest(bugId, preset, { variants, ...(overrides ? { overrides } : {}) }));
  };

  /** Continues an interrupted run with the current model and runner settings; its saved steps are shown first. */
  private continueRun = (e: CustomEvent<RunSummary>) => {
    const { bugId, makeRequest } = this;
    if (!bugId || !makeRequest) return;
    const settingsFor = (c: Trajectory['config']) => makeRequest(bugId, c.preset, { variants: c.variants, overrides: c.overrides });
    void this.continuing.continue(e.detail, settingsFor);
  };

  private reply = (e: CustomEvent<string>) => void this.stream.reply(e.detail);

  private revealGroundTruth = () => {
    if (this.bugId) void this.stream.revealGroundTruth(this.bugId);
  };

  /** Leaving the presenter layout puts focus back on its toggle. */
  private closePresenter = async () => {
    this.presenter = false;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>('button[name="presenter"]')?.focus();
  };

  private renderControls() {
    const s = this.stream;
    return html`<button slot="controls" name="pause" ?disabled=${!s.running || s.paused} @click=${() => s.control('pause')}>Pause</button>
      <button slot="controls" name="step" ?disabled=${!s.running || !s.paused} @click=${() => s.control('step')}>Step</button>
      <button slot="controls" name="resume" ?disabled=${!s.running || !s.paused} @click=${() => s.control('resume')}>Resume</button>
      <button slot="controls" name="stop" ?disabled=${!s.running} @click=${() => s.stop()}>Stop</button>
      <button slot="controls" name="presenter" aria-pressed=${this.presenter ? 'true' : 'false'} @click=${() => (this.presenter = true)}>Presenter layout</button>
      ${s.running ? html`<span slot="controls" class="muted" data-testid="running">running…</span>` : ''}`;
  }

  override render() {
    const s = this.stream;
    const wait = s.runnerWait;
    return html`<div class="panel">
      <h2>Run an agent ${this.bugId ? html`on <code>${this.bugId}</code>` : ''}</h2>
      <rl-run-form .bugId=${this.bugId} .presets=${this.presets} .demo=${activeDemo(this.demo, this.bugId)} .running=${s.running}
        .preset=${this.chosenPreset} .variants=${this.variants} .overridesText=${this.effectiveOverridesText}
        @choices-change=${this.onChoices} @run-requested=${this.start}>${this.renderControls()}</rl-run-form>
      <rl-interrupted-runs .runs=${this.continuing.runs} .checkedFor=${this.continuing.checkedFor} .running=${s.running}
        @continue-run=${this.continueRun}></rl-interrupted-runs>
      ${s.trajectory && s.trajectory.count > 1
        ? html`<div class="muted" data-testid="trajectory-progress">Trajectory ${s.trajectory.index + 1} of ${s.trajectory.count} ·
            ${s.finished.filter((f) => f.outcome.status === 'plausible').length} of ${s.finished.length} finished ones plausible</div>`
        : ''}
      ${this.presenter ? '' : renderClassroomDiagram(s.outline, s.steps, s.turn?.state)}
      <rl-run-steps .steps=${s.steps} .streaming=${s.streaming}></rl-run-steps>
      ${s.turn && !this.presenter ? html`<rl-human-turn .turn=${s.turn} .outline=${s.outline} @reply=${this.reply}></rl-human-turn>` : ''}
      ${this.presenter
        ? html`<rl-run-presenter .bugId=${this.bugId} .runId=${s.runId} .outline=${s.outline} .steps=${s.steps} .turn=${s.turn}
            @reply=${this.reply} @presenter-close=${this.closePresenter}></rl-run-presenter>`
        : ''}
      ${wait
        ? html`<div class="error" role="status" data-testid="runner-waiting">Waiting for the runner (attempt ${wait.attempt} of ${wait.maxRetries + 1}, next try in ${Math.round(wait.retryInMs / 1000)} s):
            ${wait.error} — the model is not told; the run goes on when the runner answers, or Stop ends it.</div>`
        : ''}
      ${s.error ? html`<div class="error" data-testid="run-error">${s.error}</div>` : ''}
      ${s.outcome
        ? html`<rl-run-outcome .outcome=${s.outcome} .steps=${s.steps} .running=${s.running} .groundTruth=${s.groundTruth}
            @reveal-ground-truth=${this.revealGroundTruth}></rl-run-outcome>`
        : ''}
    </div>`;
  }
}
customElements.define('rl-run-view', RlRunView);
