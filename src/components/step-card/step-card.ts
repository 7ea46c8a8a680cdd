import { LitElement, html } from 'lit';
import type { TrajStep } from '../../../worker/contracts/trajectory.ts';
import { panelStyles } from '../shared-styles.ts';
import '../diff-view/diff-view.ts';
import '../trajectory-viewer/long-text/long-text.ts';
import { verdictKind } from '../trajectory-viewer/step-summary.ts';
import { stepCardStyles } from './step-card.styles.ts';

/**
 * @summary One cycle of a run: prompt (collapsed), model response, parsed command, tool result, change, verdict.
 *
 * The prompt's messages are put on the page only while it is open: a full-history step's prompt holds every earlier
 * reply and observation, so a run's closed prompts would otherwise add text quadratic in its length.
 *
 * @cssproperty --panel - surface of panels, cards, tables and fields
 * @cssproperty --muted - colour of secondary text
 * @cssproperty --line - border and rule colour
 * @cssproperty --radius-lg - corner radius of panels and cards
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlStepCard extends LitElement {
  static override properties = { step: { attribute: false }, highlight: {}, promptOpen: { state: true } };
  declare step: TrajStep;
  /** search text to mark in the step's texts */
  declare highlight: string;
  declare promptOpen: boolean;

  constructor() {
    super();
    this.highlight = '';
    this.promptOpen = false;
  }

  static override styles = [panelStyles, stepCardStyles];

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
        ${this.promptOpen ? s.prompt.messages.map((m) => html`<div class="label">${m.role}</div><rl-long-text .text=${m.content} .highlight=${this.highlight}></rl-long-text>`) : ''}</details>
      ${s.response ? html`<div class="label">Model response</div><rl-long-text data-testid="response" .text=${s.response.content} .highlight=${this.highlight}></rl-long-text>` : ''}
      ${s.parsed?.thought ? html`<div class="label">Thought</div><rl-long-text .text=${s.parsed.thought} .highlight=${this.highlight}></rl-long-text>` : ''}
      ${command ? html`<div class="label">Command</div><pre>${command.name} ${JSON.stringify(command.args, null, 2)}</pre>` : ''}
      ${s.rectifications.length
        ? html`<div class="label">Rectifications</div><ul>${s.rectifications.map((r) => html`<li><span class="tag">${r.kind}</span>${r.message}</li>`)}</ul>`
        : ''}
      ${s.error
        ? // a stopped step ends as the person asked ("Stopped by you at step 3"): said plainly, not as a failure
          html`<div class=${s.status === 'stopped' ? 'muted' : 'error'} data-testid="step-error">${s.error.message}</div>`
        : ''}
      ${s.tool ? html`<div class="label">Tool result (${s.tool.name})</div><rl-long-text data-testid="tool-result" .text=${s.tool.shown} .highlight=${this.highlight}></rl-long-text>${renderCandidates(s)}` : ''}
      ${!s.tool && s.feedback ? html`<div class="label">Told the model</div><rl-long-text data-testid="feedback" .text=${s.feedback} .highlight=${this.highlight}></rl-long-text>` : ''}
      ${s.overlayChange ? html`<div class="label">Change</div><rl-diff-view .diff=${s.overlayChange.diff}></rl-diff-view>` : ''}
      ${v ? html`<div class="label">Tests</div><div data-testid="verdict" class=${verdictClass(s)}>${verdictText(v)}</div>` : ''}
    </div>`;
  }
}

function verdictClass(s: TrajStep): string {
  const k = verdictKind(s);
  return k === 'pass' ? 'ok' : k === 'partial' ? 'neutral' : 'bad';
}

function verdictText(v: NonNullable<TrajStep['verdict']>): string {
  if (!v.compiled) return `does not compile: ${v.diagnostics.filter((d) => d.kind === 'error').map((d) => `${d.file}:${d.line}: ${d.message}`).join('; ')}`;
  if (v.plausible) return 'all tests pass';
  // only some tests ran (HAFixAgent's `test` runs the failing ones) and none failed: not a failure, not yet plausible
  if (!v.failingTests.length) return `the ${v.tests.length} test${v.tests.length === 1 ? '' : 's'} run pass (not the whole suite)`;
  return `failing: ${v.failingTests.join(', ')}`;
}

interface VariantRecord {
  index: number;
  status: string;
  plausible: boolean;
  changes?: unknown;
  failingTests?: string[];
  error?: string;
}

/**
 * write_fix's candidates as its tool result records them (worker/tools/repairagent/write-fix.ts): the agent's own patch
 * when it was reverted, and each sampled variant with its status — otherwise visible only in the record's JSON.
 */
function renderCandidates(s: TrajStep) {
  if (s.tool?.name !== 'write_fix' || !s.tool.data) return '';
  const d = s.tool.data as { kept?: boolean; diff?: string; failingTests?: string[]; variants?: VariantRecord[] };
  const rejected = d.kept === false && d.diff;
  const variants = d.variants ?? [];
  if (!rejected && !variants.length) return '';
  return html`<details data-testid="candidates"><summary>Candidate patches (${rejected ? 'the agent\'s, rejected' : ''}${rejected && variants.length ? '; ' : ''}${variants.length ? `${variants.length} variants, ${variants.filter((v) => v.plausible).length} plausible` : ''})</summary>
    ${rejected ? html`<div class="candidate" data-testid="rejected-patch"><div class="label bad">Rejected: ${d.failingTests?.length ? `failing ${d.failingTests.join(', ')}` : 'not plausible'} — reverted</div><rl-diff-view .diff=${d.diff}></rl-diff-view></div>` : ''}
    ${variants.map((v) => html`<div class="candidate" data-testid="variant"><div class="label ${v.plausible ? 'ok' : 'bad'}">Variant ${v.index + 1}: ${v.status}${v.plausible ? ', plausible' : ''}${v.failingTests?.length ? ` — failing ${v.failingTests.join(', ')}` : ''}${v.error ? ` — ${v.error}` : ''}</div>
      ${v.changes ? html`<rl-long-text .text=${JSON.stringify(v.changes, null, 2)}></rl-long-text>` : ''}</div>`)}
  </details>`;
}
customElements.define('rl-step-card', RlStepCard);
