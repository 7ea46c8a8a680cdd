// The classroom's parts as the run view places them: the state diagram (lit at the current state), the reply form of
// a person's turn, and the presenter layout around both. Kept here so run-view.ts only says where they go.
import { html, nothing } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { StrategyOutline } from '../../../worker/engine-api.ts';
import type { TrajStep } from '../../../worker/contracts/trajectory.ts';
import type { RlRunView } from '../run-view.ts';
import { currentState } from './diagram-layout.ts';
import './state-diagram.ts';
import './reply-form.ts';
import './presenter-layout.ts';

type Turn = { step: number; messages: { role: string; content: string }[]; state?: string };

/** The diagram, for strategies with a state machine (more than one state). */
export function renderClassroomDiagram(outline: StrategyOutline | undefined, steps: readonly TrajStep[], turn: Turn | undefined) {
  if (!outline || outline.states.length < 2) return nothing;
  return html`<div class="classroom-diagram" data-testid="classroom-diagram" style="max-width: 26rem; margin: 0.4rem 0">
    <rl-state-diagram .outline=${outline} .current=${currentState(outline, steps, turn?.state)}></rl-state-diagram>
  </div>`;
}

/** The reply form of a person's turn; a new turn gets a fresh form. */
export function renderTurnForm(outline: StrategyOutline | undefined, turn: Turn, submit: (text: string) => void) {
  if (!outline) return nothing;
  return keyed(turn.step, html`<rl-reply-form .outline=${outline} .state=${turn.state} .messages=${turn.messages}
    @reply=${(e: CustomEvent<string>) => submit(e.detail)}></rl-reply-form>`);
}

/** The presenter layout: the diagram beside the person's turn (or else the latest step). Leaving it refocuses its toggle. */
export function renderPresenter(view: RlRunView, outline: StrategyOutline | undefined, steps: readonly TrajStep[], turn: Turn | undefined, renderTurn: (t: Turn) => unknown) {
  const close = async () => {
    view.presenter = false;
    await view.updateComplete;
    view.renderRoot.querySelector<HTMLButtonElement>('button[name="presenter"]')?.focus();
  };
  const last = steps[steps.length - 1];
  const heading = `${view.runId ? 'Run' : 'No run yet'}${view.bugId ? ` on ${view.bugId}` : ''}${steps.length ? ` — ${steps.length} step${steps.length === 1 ? '' : 's'}` : ''}`;
  return html`<rl-presenter-layout .heading=${heading} @presenter-close=${close}>
    <div slot="diagram">
      ${outline && outline.states.length > 1
        ? html`<rl-state-diagram .outline=${outline} .current=${currentState(outline, steps, turn?.state)}></rl-state-diagram>`
        : html`<p class="muted">${outline ? `This strategy has one state (${outline.states[0]?.name}).` : 'Start a run to see its strategy here.'}</p>`}
    </div>
    <div slot="step">
      ${turn ? renderTurn(turn) : last ? html`<rl-step-card .step=${last}></rl-step-card>` : html`<p class="muted">Waiting for the first step.</p>`}
    </div>
  </rl-presenter-layout>`;
}
