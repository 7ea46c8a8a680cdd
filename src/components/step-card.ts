import { LitElement, css, html } from 'lit';
import type { TrajStep } from '../../worker/contracts/trajectory.ts';
import { panelStyles } from './shared-styles.ts';
import './diff-view.ts';

/**
 * One cycle of a run: prompt (collapsed), model response, parsed command, tool result, change, verdict.
 * The prompt's messages are put on the page only while it is open: a full-history step's prompt holds every earlier
 * reply and observation, so a run's closed prompts would otherwise add text quadratic in its length.
 */
export class RlStepCard extends LitElement {
  static override properties = { step: { attribute: false }, promptOpen: { state: true } };
  declare step: TrajStep;
  declare promptOpen: boolean;

  constructor() {
    super();
    this.promptOpen = false;
  }

  static override styles = [
    panelStyles,
    css`
      .card { border: 1px solid var(--line); border-radius: 8px; padding: 0.6rem 0.8rem; margin: 0.5rem 0; background: #fff; }
      .head { display: flex; gap: 0.6rem; align-items: baseline; font-size: 0.85rem; flex-wrap: wrap; }
      details summary { cursor: pointer; font-size: 0.85rem; color: var(--muted); margin-top: 0.3rem; }
      .label { font-size: 0.8rem; font-weight: 600; margin-top: 0.4rem; }
    `,
  ];

  override render() {
    const s = this.step;
    const v = s.verdict;
    const command = s.parsed?.command;
    return html`<div class="card" data-testid="step" data-step=${s.index} data-status=${s.status}>
      <div class="head"><strong>Step ${s.index + 1}</strong><span class="tag">${s.state}</span><span class="tag">${s.status}</span>
        <span class="muted">${s.tokens.input} in / ${s.tokens.output} out tokens${s.tokens.estimated ? ' (estimated)' : ''}</span>
        <span class="muted">model ${Math.round(s.latencyMs.model)} ms · tools ${Math.round(s.latencyMs.tool)} ms</span>
        <span class="muted">${s.costUsd !== null ? `$${s.costUsd.toFixed(4)}` : 'no price'}</span>
      </div>
      <details data-testid="prompt" @toggle=${(e: Event) => (this.promptOpen = (e.target as HTMLDetailsElement).open)}><summary>Prompt (${s.prompt.messages.length} messages)</summary>
        ${this.promptOpen ? s.prompt.messages.map((m) => html`<div class="label">${m.role}</div><pre>${m.content}</pre>`) : ''}</details>
      ${s.response ? html`<div class="label">Model response</div><pre data-testid="response">${s.response.content}</pre>` : ''}
      ${s.parsed?.thought ? html`<div class="label">Thought</div><pre>${s.parsed.thought}</pre>` : ''}
      ${command ? html`<div class="label">Command</div><pre>${command.name} ${JSON.stringify(command.args, null, 2)}</pre>` : ''}
      ${s.rectifications.length
        ? html`<div class="label">Rectifications</div><ul>${s.rectifications.map((r) => html`<li><span class="tag">${r.kind}</span>${r.message}</li>`)}</ul>`
        : ''}
      ${s.error ? html`<div class="error" data-testid="step-error">${s.error.message}</div>` : ''}
      ${s.tool ? html`<div class="label">Tool result (${s.tool.name})</div><pre data-testid="tool-result">${s.tool.shown}</pre>` : ''}
      ${!s.tool && s.feedback ? html`<div class="label">Told the model</div><pre data-testid="feedback">${s.feedback}</pre>` : ''}
      ${s.overlayChange ? html`<div class="label">Change</div><rl-diff-view .diff=${s.overlayChange.diff}></rl-diff-view>` : ''}
      ${v ? html`<div class="label">Tests</div><div data-testid="verdict" class=${v.plausible ? 'ok' : 'bad'}>${verdictText(v)}</div>` : ''}
    </div>`;
  }
}

function verdictText(v: NonNullable<TrajStep['verdict']>): string {
  if (!v.compiled) return `does not compile: ${v.diagnostics.filter((d) => d.kind === 'error').map((d) => `${d.file}:${d.line}: ${d.message}`).join('; ')}`;
  if (v.plausible) return 'all tests pass';
  return `failing: ${v.failingTests.join(', ')}`;
}
customElements.define('rl-step-card', RlStepCard);
