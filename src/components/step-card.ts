import { LitElement, css, html } from 'lit';
import { panelStyles } from './shared-styles.ts';

/** The parts of a trajectory step the viewer shows (see docs/formats/trajectory.md for the full record). */
export interface StepLike {
  index: number;
  state?: string;
  prompt?: { role: string; content: string }[];
  response?: { content?: string } | string;
  command?: unknown;
  rectifications?: unknown[];
  error?: string;
  toolResult?: { shown?: string; output?: string; ok?: boolean };
  overlayDiff?: string;
  verdict?: { plausible?: boolean; compiled?: boolean; failingTests?: string[]; report?: string };
  usage?: { inputTokens?: number; outputTokens?: number };
  latencyMs?: number;
}

/** One cycle of a run: prompt (collapsed), model response, parsed command, tool result, verdict. */
export class RlStepCard extends LitElement {
  static override properties = { step: { attribute: false } };
  declare step: StepLike;

  static override styles = [
    panelStyles,
    css`
      .card { border: 1px solid var(--line); border-radius: 8px; padding: 0.6rem 0.8rem; margin: 0.5rem 0; background: #fff; }
      .head { display: flex; gap: 0.6rem; align-items: baseline; font-size: 0.85rem; }
      details summary { cursor: pointer; font-size: 0.85rem; color: var(--muted); margin-top: 0.3rem; }
      .label { font-size: 0.8rem; font-weight: 600; margin-top: 0.4rem; }
    `,
  ];

  override render() {
    const s = this.step;
    const response = typeof s.response === 'string' ? s.response : s.response?.content;
    const v = s.verdict;
    return html`<div class="card" data-testid="step" data-step=${s.index}>
      <div class="head"><strong>Step ${s.index + 1}</strong>${s.state ? html`<span class="tag">${s.state}</span>` : ''}
        ${s.usage ? html`<span class="muted">${s.usage.inputTokens ?? 0} in / ${s.usage.outputTokens ?? 0} out tokens</span>` : ''}
        ${s.latencyMs !== undefined ? html`<span class="muted">${Math.round(s.latencyMs)} ms</span>` : ''}
      </div>
      ${s.prompt?.length
        ? html`<details><summary>Prompt (${s.prompt.length} messages)</summary>${s.prompt.map((m) => html`<div class="label">${m.role}</div><pre>${m.content}</pre>`)}</details>`
        : ''}
      ${response !== undefined ? html`<div class="label">Model response</div><pre data-testid="response">${response}</pre>` : ''}
      ${s.command !== undefined ? html`<div class="label">Command</div><pre>${typeof s.command === 'string' ? s.command : JSON.stringify(s.command, null, 2)}</pre>` : ''}
      ${s.rectifications?.length ? html`<div class="label">Rectifications</div><pre>${JSON.stringify(s.rectifications, null, 2)}</pre>` : ''}
      ${s.error ? html`<div class="error" data-testid="step-error">${s.error}</div>` : ''}
      ${s.toolResult ? html`<div class="label">Tool result</div><pre data-testid="tool-result">${s.toolResult.shown ?? s.toolResult.output}</pre>` : ''}
      ${s.overlayDiff ? html`<div class="label">Change</div><rl-diff-view .diff=${s.overlayDiff}></rl-diff-view>` : ''}
      ${v
        ? html`<div class="label">Tests</div><div data-testid="verdict" class=${v.plausible ? 'ok' : 'bad'}>
            ${v.compiled === false ? 'does not compile' : v.plausible ? 'all tests pass' : `failing: ${(v.failingTests ?? []).join(', ')}`}</div>`
        : ''}
    </div>`;
  }
}
customElements.define('rl-step-card', RlStepCard);
