import { LitElement, html } from 'lit';
import type { RunRequest } from '../../../worker/contracts/runs.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import type { RunSummary } from '../../../worker/contracts/runs.ts';
import { describeDemo, type DemoRecording, type ModelEndpointChoice } from '../../state/settings.ts';
import { demoModelSettings, modelForSavedRun } from '../../state/demo-recordings.ts';
import { panelStyles } from '../shared-styles.ts';
import { renderClassroomDiagram } from '../classroom/run-classroom.ts';
import '../classroom/human-turn/human-turn.ts';
import '../classroom/run-presenter/run-presenter.ts';
import { parseOverrides, planRun, variantsOf, type PresetChoice, type RunChoices, type RunFormFields, type RunPlan } from './run-choices.ts';
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
 *
 * While the model settings point at a demo recording, the run uses the served recording that fits the bug, preset,
 * variants and overrides in view (`planRun`), and says which; when none fits, Run agent waits with the reason and
 * this bug's recordings as one-click choices. A real endpoint the user chose is never switched.
 */
export class RlRunView extends LitElement {
  static override properties = {
    bugId: {},
    presets: { attribute: false },
    makeRequest: { attribute: false },
    demo: { attribute: false },
    demoEndpoints: { attribute: false },
    preset: { state: true },
    recording: { state: true },
    variants: { state: true },
    overridesText: { state: true },
    presenter: { state: true },
  };
  declare bugId: string | undefined;
  declare presets: PresetChoice[];
  declare makeRequest: ((bugId: string, preset: string, choices: RunChoices) => RunRequest) | undefined;
  /** the demo recording the model settings point at, if any (the model kind being an endpoint): the run panel then picks the fitting one */
  declare demo: DemoRecording | undefined;
  /** the model endpoints the serving machine offers (runtime-config.json): the demo recordings among them */
  declare demoEndpoints: ModelEndpointChoice[];
  /** a demo recording picked with one click (its name): tried first while it fits */
  declare recording: string | undefined;
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
    this.demoEndpoints = [];
    this.preset = '';
    this.variants = [];
    this.overridesText = '';
    this.presenter = false;
  }

  static override styles = [panelStyles];

  /** what a run would be now: preset, overrides, and the demo recording that serves it (or why none can) */
  get plan(): RunPlan {
    return planRun({
      bugId: this.bugId,
      presets: this.presets,
      fields: { preset: this.preset, variants: this.variants, overridesText: this.overridesText, ...(this.recording ? { recording: this.recording } : {}) },
      settingsDemo: this.demo,
      served: this.demoEndpoints,
    });
  }

  /** the preset a run would use now */
  get chosenPreset(): string {
    return this.plan.preset;
  }

  /** the overrides a run would use now, as text */
  get effectiveOverridesText(): string {
    return this.plan.overridesText;
  }

  private onChoices = (e: CustomEvent<Partial<RunFormFields>>) => {
    const { preset, variants, overridesText, recording } = e.detail;
    if (preset !== undefined) this.preset = preset;
    if (variants !== undefined) this.variants = variants;
    if (overridesText !== undefined) this.overridesText = overridesText;
    if (recording !== undefined) this.recording = recording;
  };

  private start = () => {
    const { bugId, makeRequest } = this;
    if (!bugId || !makeRequest) return;
    const { preset, overridesText, demo } = this.plan;
    // Run agent waits while no recording fits; the reason is shown beside it
    if (demo?.blocked) return this.stream.fail(demo.blocked);
    const { overrides, error } = parseOverrides(overridesText);
    if (error) return this.stream.fail(error);
    const variants = variantsOf(this.presets, preset, this.variants);
    const endpoint = demo?.endpoint;
    void this.stream.start(() => {
      const request = makeRequest(bugId, preset, { variants, ...(overrides ? { overrides } : {}) });
      return endpoint ? { ...request, model: demoModelSettings(endpoint, request.model) } : request;
    });
  };

  /**
   * Continues an interrupted run with the current model and runner settings; its saved steps are shown first. With a
   * demo recording as the model, the run goes on with the recording it was started with (or another that fits it).
   */
  private continueRun = (e: CustomEvent<RunSummary>) => {
    const { bugId, makeRequest, demo } = this;
    if (!bugId || !makeRequest) return;
    const settingsFor = (c: Trajectory['config']) => {
      const request = makeRequest(bugId, c.preset, { variants: c.variants, overrides: c.overrides });
      return { ...request, model: modelForSavedRun(this.demoEndpoints, bugId, c, demo, request.model) };
    };
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
    const plan = this.plan;
    const active = plan.demo?.endpoint?.demo;
    return html`<div class="panel">
      <h2>Run an agent ${this.bugId ? html`on <code>${this.bugId}</code>` : ''}</h2>
      ${active ? html`<p class="muted" data-testid="run-active-demo">Model: demo recording <b>${describeDemo(active)}</b></p>` : ''}
      <rl-run-form .bugId=${this.bugId} .presets=${this.presets} .demo=${active} .running=${s.running}
        .blocked=${plan.demo?.blocked} .offers=${plan.demo?.blocked ? plan.demo.offers : []}
        .preset=${plan.preset} .variants=${this.variants} .overridesText=${plan.overridesText}
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
