import { LitElement, css, html } from 'lit';
import type { RunEvent, RunRequest } from '../../worker/engine-api.ts';
import { Comlink, getEngine } from '../engine-client.ts';
import { panelStyles } from './shared-styles.ts';
import type { Outcome, TrajStep } from '../../worker/contracts/trajectory.ts';
import './step-card.ts';
import './diff-view.ts';

const OUTCOME_TEXT: Record<Outcome['status'], string> = {
  plausible: 'plausible patch — all tests pass',
  implausible: 'no plausible patch',
  error: 'the run ended with an error',
  stopped: 'stopped',
  unknown: 'not validated (imported trajectory)',
};

/** Runs an agent on the selected bug and streams its steps; ends with the final diff and the test verdict. */
export class RlRunView extends LitElement {
  static override properties = {
    bugId: {},
    presets: { attribute: false },
    makeRequest: { attribute: false },
    preset: { state: true },
    steps: { state: true },
    running: { state: true },
    runId: { state: true },
    outcome: { state: true },
    error: { state: true },
    humanPrompt: { state: true },
    streaming: { state: true },
    paused: { state: true },
  };
  declare bugId: string | undefined;
  declare presets: { id: string; title: string }[];
  declare makeRequest: ((bugId: string, preset: string) => RunRequest) | undefined;
  declare preset: string;
  declare steps: TrajStep[];
  declare running: boolean;
  declare runId: string | undefined;
  declare outcome: Outcome | undefined;
  declare error: string | undefined;
  declare humanPrompt: { step: number; messages: { role: string; content: string }[] } | undefined;
  declare streaming: string;
  declare paused: boolean;

  constructor() {
    super();
    this.presets = [];
    this.preset = '';
    this.steps = [];
    this.running = false;
    this.streaming = '';
    this.paused = false;
  }

  static override styles = [
    panelStyles,
    css`
      .controls { display: flex; gap: 0.5rem; align-items: center; margin-bottom: 0.6rem; }
      .controls select { width: auto; }
      .outcome { margin-top: 0.8rem; }
      textarea { min-height: 8rem; font-family: ui-monospace, monospace; font-size: 0.8rem; }
    `,
  ];

  private onEvent = (e: RunEvent) => {
    switch (e.type) {
      case 'run-started':
        this.runId = e.runId;
        break;
      case 'model-delta':
        this.streaming += e.text;
        break;
      case 'step':
        this.streaming = '';
        this.steps = [...this.steps, e.step as TrajStep];
        break;
      case 'human-turn':
        this.humanPrompt = { step: e.step, messages: e.messages };
        break;
      case 'run-finished':
        this.outcome = e.outcome as Outcome;
        this.running = false;
        this.paused = false;
        break;
      case 'run-failed':
        this.error = e.error;
        this.running = false;
        break;
    }
  };

  private async start() {
    if (!this.bugId || !this.makeRequest) return;
    const preset = this.preset || this.presets[0]?.id || 'oneshot';
    this.steps = [];
    this.outcome = undefined;
    this.error = undefined;
    this.humanPrompt = undefined;
    this.running = true;
    try {
      await getEngine().startRun(this.makeRequest(this.bugId, preset), Comlink.proxy(this.onEvent));
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
      this.running = false;
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
    if (this.runId) await getEngine().stopRun(this.runId);
  }

  private async sendHumanReply() {
    const box = this.renderRoot.querySelector<HTMLTextAreaElement>('textarea[name=human-reply]');
    if (!box || !this.runId) return;
    const text = box.value;
    this.humanPrompt = undefined;
    await getEngine().submitHumanReply(this.runId, text);
  }

  override render() {
    const o = this.outcome;
    return html`<div class="panel">
      <h2>Run an agent ${this.bugId ? html`on <code>${this.bugId}</code>` : ''}</h2>
      <div class="controls">
        <select name="preset" aria-label="agent preset" @change=${(e: Event) => (this.preset = (e.target as HTMLSelectElement).value)}>
          ${this.presets.map((p) => html`<option value=${p.id} ?selected=${p.id === this.preset}>${p.title}</option>`)}
        </select>
        <button class="primary" name="run" ?disabled=${!this.bugId || this.running} @click=${this.start}>Run agent</button>
        <button name="pause" ?disabled=${!this.running || this.paused} @click=${() => this.control('pause')}>Pause</button>
        <button name="step" ?disabled=${!this.running || !this.paused} @click=${() => this.control('step')}>Step</button>
        <button name="resume" ?disabled=${!this.running || !this.paused} @click=${() => this.control('resume')}>Resume</button>
        <button name="stop" ?disabled=${!this.running} @click=${this.stop}>Stop</button>
        ${this.running ? html`<span class="muted" data-testid="running">running…</span>` : ''}
      </div>
      ${this.steps.map((s) => html`<rl-step-card .step=${s}></rl-step-card>`)}
      ${this.streaming ? html`<pre class="muted" data-testid="streaming">${this.streaming}</pre>` : ''}
      ${this.humanPrompt
        ? html`<div class="panel" data-testid="human-turn">
            <h3>You are the model — step ${this.humanPrompt.step + 1}</h3>
            ${this.humanPrompt.messages.map((m) => html`<div class="muted">${m.role}</div><pre>${m.content}</pre>`)}
            <textarea name="human-reply" placeholder="Type the model's reply"></textarea>
            <button class="primary" name="send-reply" @click=${this.sendHumanReply}>Send reply</button>
          </div>`
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
              ${o.totals.costUsd !== null ? html` · $${o.totals.costUsd.toFixed(4)}` : ''}</div>
            <h3>Final patch</h3>
            <rl-diff-view data-testid="final-diff" .diff=${o.finalPatch}></rl-diff-view>
          </div>`
        : ''}
    </div>`;
  }
}
customElements.define('rl-run-view', RlRunView);
